"""JSON answers for what no API view handles (issue #12 A): an unknown path under
``/api/`` and Django's own 404 and 500 handlers. Same shape as every other error
(``{code, rule, detail}``); never Django's HTML or debug pages. :func:`request_guard`
refuses an unknown host name and a chunked body the same way, ``DEBUG`` or not."""

from typing import Any

from asgiref.sync import iscoroutinefunction, markcoroutinefunction
from django.conf import settings
from django.core.exceptions import DisallowedHost
from django.http import HttpRequest, JsonResponse
from django.utils.decorators import sync_and_async_middleware
from django.utils.translation import gettext
from django.views.decorators.csrf import csrf_exempt

from casino.api.parsers import RequestTooLarge


def _error(code: str, detail: str, status: int) -> JsonResponse:
    return JsonResponse({"code": code, "rule": None, "detail": detail}, status=status)


def too_large() -> JsonResponse:
    """413 ``request_too_large``: the body is over ``DATA_UPLOAD_MAX_MEMORY_SIZE`` bytes
    (answered by the ASGI handler before the body is read to its end, and by the parser)."""
    response = _error("request_too_large", str(RequestTooLarge.default_detail), 413)
    response["Content-Length"] = str(len(response.content))  # sent before any middleware
    return response


@csrf_exempt  # writes nothing; a tablet's POST to a bad path gets this 404, not a CSRF page
def api_not_found(request: HttpRequest, *args: Any, **kwargs: Any) -> JsonResponse:
    """Any path under ``/api/`` that matches no operation (a non-UUID hand id included),
    whatever the method."""
    detail = gettext("There is no such path in the API.")
    if not request.path.endswith("/"):
        detail += " " + gettext("API paths end with '/'.")
    return _error("not_found", detail, 404)


def not_found(request: HttpRequest, exception: Exception | None = None) -> JsonResponse:
    """``handler404``."""
    return _error("not_found", "Not found.", 404)


def server_error(request: HttpRequest) -> JsonResponse:
    """``handler500``: the traceback goes to the log, never to the client."""
    return _error("internal_error", "The server failed; nothing was recorded.", 500)


def bad_request(request: HttpRequest, exception: Exception | None = None) -> JsonResponse:
    """``handler400`` (e.g. a body over ``DATA_UPLOAD_MAX_MEMORY_SIZE`` read by Django)."""
    return _error("bad_request", gettext("The request is not valid."), 400)


def permission_denied(request: HttpRequest, exception: Exception | None = None) -> JsonResponse:
    """``handler403``."""
    return _error("permission_denied", "Permission denied.", 403)


@sync_and_async_middleware
def request_guard(get_response: Any) -> Any:
    """Middleware, before ``SecurityMiddleware``: refusals before anything reads the request,
    in the one error shape, ``DEBUG`` or not. Runs in the caller's mode, sync or async, so
    an ASGI request hops no thread for it.

    * A host name not in ``ALLOWED_HOSTS``: 400 ``disallowed_host``. Django answers it
      through ``handler400`` without ``DEBUG``, but with it (``manage.py up``) with its
      HTML debug page, settings included (found by QA).
    * A body sent chunked (``Transfer-Encoding``, no ``Content-Length``): 411
      ``length_required``. DRF reads a body only by its ``Content-Length``, so a chunked
      ``{"amount": 100}`` to a cash-out ran as an empty body and cashed out the whole
      stack (found by fuzzing).
    * More than ``DATA_UPLOAD_MAX_NUMBER_FIELDS`` query parameters: 400
      ``too_many_query_parameters``, counted on the raw query string before anything parses
      it. Django raises ``TooManyFieldsSent`` wherever ``request.GET`` is first read, and
      under ``DEBUG`` its error page read it again and again: a 500 after 28 s of CPU,
      without a token (found by QA). A form body (the language switch's) with more
      fields than that: 400 ``too_many_fields``, not Django's debug page under ``DEBUG``.
    """

    def refusal(request: HttpRequest) -> JsonResponse | None:
        try:
            request.get_host()
        except DisallowedHost:
            return _error("disallowed_host", "This server does not answer to that host name.", 400)
        if "HTTP_TRANSFER_ENCODING" in request.META and "CONTENT_LENGTH" not in request.META:
            return _error("length_required", "Send the body with a Content-Length.", 411)
        limit = settings.DATA_UPLOAD_MAX_NUMBER_FIELDS
        query = request.META.get("QUERY_STRING", "")
        if limit is not None and query.count("&") >= limit:  # as parse_qsl counts them
            return _error(
                "too_many_query_parameters",
                gettext("At most %(limit)d query parameters are allowed.") % {"limit": limit},
                400,
            )
        if (
            limit is not None
            and request.content_type == "application/x-www-form-urlencoded"
            and request.body.count(b"&") >= limit  # in memory already, at most 1 MB
        ):
            return _error(
                "too_many_fields",
                gettext("At most %(limit)d form fields are allowed.") % {"limit": limit},
                400,
            )
        return None

    if iscoroutinefunction(get_response):

        async def async_middleware(request: HttpRequest) -> Any:
            return refusal(request) or await get_response(request)

        return markcoroutinefunction(async_middleware)

    def middleware(request: HttpRequest) -> Any:
        return refusal(request) or get_response(request)

    return middleware
