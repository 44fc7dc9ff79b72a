"""The OpenAPI document at ``/api/schema/``: drf-spectacular's view, built once per process.

The view generated the whole document (about 430 kB) on every request, some 0.5 s of CPU,
and it needs no login: a handful of anonymous clients could keep a worker busy (found by
fuzzing). The routes and serializers do not change while the process runs, so the document
is kept per API version and language (the room's languages only, so the cache stays
bounded). Its refusals (an unknown ``?format=``, a method it lacks) answer JSON in the one
error shape, not YAML.
"""

from __future__ import annotations

from typing import Any, ClassVar

from django.conf import settings
from django.utils import translation
from drf_spectacular.views import SpectacularAPIView
from rest_framework.renderers import JSONRenderer
from rest_framework.response import Response


class CachedSchemaView(SpectacularAPIView):
    """``GET /api/schema/`` (YAML, or JSON by ``Accept`` or ``?format=json``)."""

    documents: ClassVar[dict[tuple[str | None, str], Any]] = {}

    def _get_schema_response(self, request: Any) -> Response:
        version = self.api_version or request.version or self._get_version_parameter(request)
        language = translation.get_language() or settings.LANGUAGE_CODE
        key = (version, language)
        document = self.documents.get(key)
        if document is None:
            generator = self.generator_class(
                urlconf=self.urlconf, api_version=version, patterns=self.patterns
            )
            document = generator.get_schema(request=request, public=self.serve_public)
            if language in {code for code, _ in settings.LANGUAGES}:
                self.documents[key] = document
        filename = self._get_filename(request, version)
        return Response(
            data=document, headers={"Content-Disposition": f'inline; filename="{filename}"'}
        )

    def handle_exception(self, exc: Exception) -> Response:
        self.request.accepted_renderer = JSONRenderer()
        self.request.accepted_media_type = "application/json"
        return super().handle_exception(exc)


_ERROR = {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}
_EVERY_OPERATION = {
    "400": "A query parameter or the body is not valid (invalid_request, unknown_filter, "
    "invalid_paging, ...).",
    "404": "No such resource, or a page past the last.",
    "406": "The Accept header asks for a format the API does not answer (not_acceptable).",
}
_WITH_LOGIN = {
    "401": "No valid device token or staff session (not_authenticated, authentication_failed).",
    "403": "The role or device may not do this (permission_denied).",
}
_WRITES = {
    "409": "Another device changed this first, or an Idempotency-Key expired.",
    "411": "A chunked body: send it with a Content-Length (length_required).",
    "413": "The body is larger than DATA_UPLOAD_MAX_MEMORY_SIZE (request_too_large).",
    "415": "The body is not UTF-8 JSON (unsupported_media_type).",
    "422": "A rule refused the command; nothing was written.",
}


def document_refusals(
    result: dict[str, Any], generator: Any, request: Any, public: bool
) -> dict[str, Any]:
    """drf-spectacular postprocessing hook: every operation documents the refusals it can
    answer in the one error shape (``Error``), which the views' own declarations left out
    (found by fuzzing: a 401 or a 415 was "undocumented" on every operation), and every
    request body schema says ``additionalProperties: false``, as the strict serializers
    refuse unknown fields (``unknown_field``, ``casino.api.serializers.RequestSerializer``)."""
    from casino.permissions import PUBLIC_OPERATIONS

    for item in result.get("paths", {}).values():
        for method, operation in item.items():
            if not isinstance(operation, dict) or "responses" not in operation:
                continue
            answers = dict(_EVERY_OPERATION)
            if operation.get("operationId") not in PUBLIC_OPERATIONS:
                answers |= _WITH_LOGIN
            if method in {"post", "put", "patch", "delete"}:
                answers |= _WRITES
            for status, description in answers.items():
                operation["responses"].setdefault(
                    status, {"content": _ERROR, "description": description}
                )
    schemas = result.get("components", {}).get("schemas", {})
    for name in _request_components(result, schemas):
        schema = schemas[name]
        if schema.get("type") == "object" and "properties" in schema:
            schema.setdefault("additionalProperties", False)
    return result


def _request_components(result: dict[str, Any], schemas: dict[str, Any]) -> set[str]:
    """Names of the components a request body refers to, directly or nested."""
    found: set[str] = set()
    todo = [
        media.get("schema", {})
        for item in result.get("paths", {}).values()
        for operation in item.values()
        if isinstance(operation, dict)
        for media in operation.get("requestBody", {}).get("content", {}).values()
    ]
    while todo:
        node = todo.pop()
        if isinstance(node, dict):
            ref = node.get("$ref", "")
            if ref.startswith("#/components/schemas/"):
                name = ref.rsplit("/", 1)[-1]
                if name not in found and name in schemas:
                    found.add(name)
                    todo.append(schemas[name])
            todo.extend(v for v in node.values() if isinstance(v, dict | list))
        elif isinstance(node, list):
            todo.extend(node)
    return found
