"""What ``OPTIONS`` on an API path answers (DRF's ``DEFAULT_METADATA_CLASS``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rest_framework.metadata import BaseMetadata

if TYPE_CHECKING:  # rest_framework.views imports this module (its metadata class)
    from rest_framework.request import Request
    from rest_framework.views import APIView


class AllowMetadata(BaseMetadata):
    """The answer to ``OPTIONS`` on an API path: 200 with DRF's ``Allow`` header and
    ``{"name": str, "schema": "/api/schema/"}``, to anyone (the methods a path takes are in
    the public schema). The operations, their fields and their refusals are documented
    once, in the OpenAPI document. ``OPTIONS`` was answered 405 while ``Allow`` listed it
    (found by fuzzing)."""

    def determine_metadata(self, request: Request, view: APIView) -> dict[str, Any]:
        return {"name": view.get_view_name(), "schema": "/api/schema/"}
