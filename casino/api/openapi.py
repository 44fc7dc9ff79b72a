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
