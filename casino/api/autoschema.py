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
            for attribute, keyword in (("max_length", "maxItems"), ("min_length", "minItems")):
                bound = getattr(field, attribute, None)
                if bound is not None:
                    schema[keyword] = bound
        return schema
