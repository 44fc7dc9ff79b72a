"""JSON answers for what no API view handles (issue #12 A): an unknown path under
``/api/`` and Django's own 404 and 500 handlers. Same shape as every other error
(``{code, rule, detail}``); never Django's HTML or debug pages."""

from typing import Any

from django.http import HttpRequest, JsonResponse
from django.views.decorators.csrf import csrf_exempt


def _error(code: str, detail: str, status: int) -> JsonResponse:
    return JsonResponse({"code": code, "rule": None, "detail": detail}, status=status)


@csrf_exempt  # writes nothing; a tablet's POST to a bad path gets this 404, not a CSRF page
def api_not_found(request: HttpRequest, *args: Any, **kwargs: Any) -> JsonResponse:
    """Any path under ``/api/`` that matches no operation (a non-UUID hand id included),
    whatever the method."""
    detail = "There is no such path in the API."
    if not request.path.endswith("/"):
        detail += " API paths end with '/'."
    return _error("not_found", detail, 404)


def not_found(request: HttpRequest, exception: Exception | None = None) -> JsonResponse:
    """``handler404``."""
    return _error("not_found", "Not found.", 404)


def server_error(request: HttpRequest) -> JsonResponse:
    """``handler500``: the traceback goes to the log, never to the client."""
    return _error("internal_error", "The server failed; nothing was recorded.", 500)


def bad_request(request: HttpRequest, exception: Exception | None = None) -> JsonResponse:
    """``handler400`` (e.g. a body over ``DATA_UPLOAD_MAX_MEMORY_SIZE`` read by Django)."""
    return _error("bad_request", "The request is not valid.", 400)


def permission_denied(request: HttpRequest, exception: Exception | None = None) -> JsonResponse:
    """``handler403``."""
    return _error("permission_denied", "Permission denied.", 403)
