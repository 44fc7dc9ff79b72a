"""The OpenAPI schema class of every view (``REST_FRAMEWORK["DEFAULT_SCHEMA_CLASS"]``)."""

from __future__ import annotations

from typing import Any

from drf_spectacular.openapi import AutoSchema
from drf_spectacular.plumbing import is_list_serializer


class BoundedListsAutoSchema(AutoSchema):
    """drf-spectacular's schema, with the bounds of nested lists: a ``many=True`` serializer's
    ``max_length`` / ``min_length`` (levels, payout bands, adjustments ...) become the
    array's ``maxItems`` / ``minItems``, as they do for a ``ListField``. The server refuses
    a longer list (400); the document did not say so."""

    def _map_serializer_field(
        self, field: Any, direction: str, bypass_extensions: bool = False
    ) -> Any:
        schema = super()._map_serializer_field(field, direction, bypass_extensions)
        if isinstance(schema, dict) and is_list_serializer(field):
            if getattr(field, "max_length", None) is not None:
                schema["maxItems"] = field.max_length
            if getattr(field, "min_length", None) is not None:
                schema["minItems"] = field.min_length
        return schema
