"""The one exception handler: every error leaves the API as ``{code, rule, detail, ...}``.

A domain refusal's ``detail`` is said in the console's language when its app registered the
sentence (:mod:`casino.api.error_texts`); otherwise, and always in English, it is the English
detail the rule raised. The shape and the context numbers never change with the language.
"""

import logging
from typing import Any

from django.core.exceptions import RequestDataTooBig
from django.http import Http404
from django.utils.translation import gettext
from rest_framework import exceptions, serializers, status
from rest_framework.renderers import JSONRenderer
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from casino import metrics
from casino.api.error_texts import localized_detail
from casino.api.parsers import RequestTooLarge
from casino.api.serializers import promoted_code
from casino.errors import DomainError
from casino.eventstore.commands import IdempotencyKeyExpired, IdempotencyKeyReused
from casino.eventstore.store import ConcurrencyConflict, stream_version

logger = logging.getLogger("casino.api")


class ErrorSerializer(serializers.Serializer):
    """Shape of every error response (documented in the OpenAPI schema)."""

    code = serializers.CharField(help_text="Stable machine-readable error code.")
    rule = serializers.CharField(
        allow_null=True, help_text="Rule ID in the house-rule catalogue, if a rule refused it."
    )
    detail = serializers.CharField(help_text="Human-readable explanation.")


WRITE_ERRORS = {
    400: ErrorSerializer,
    404: ErrorSerializer,
    409: ErrorSerializer,
    422: ErrorSerializer,
}
"""The error answers every write documents (one shape, see :class:`ErrorSerializer`)."""

_DRF_CODES = {
    exceptions.NotAuthenticated: "not_authenticated",
    exceptions.AuthenticationFailed: "authentication_failed",
    exceptions.PermissionDenied: "permission_denied",
    exceptions.NotFound: "not_found",
    exceptions.MethodNotAllowed: "method_not_allowed",
    exceptions.NotAcceptable: "not_acceptable",
    exceptions.ParseError: "malformed_request",
    exceptions.UnsupportedMediaType: "unsupported_media_type",
    exceptions.Throttled: "throttled",
    RequestTooLarge: "request_too_large",
}


_JSON = JSONRenderer()


def _body(code: str, detail: Any, rule: str | None = None, **context: Any) -> dict[str, Any]:
    return {"code": code, "rule": rule, "detail": detail, **context}


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    """Map domain, concurrency, idempotency and DRF errors to the one error shape; count
    each refusal (4xx) by its code (``casino_refusals_total``). A domain refusal's
    ``detail`` is translated when its app registered the sentence for the code and the
    active language is not English (:func:`casino.api.error_texts.localized_detail`).
    Every error is rendered as JSON, whatever format the request asked for."""
    response = _handle(exc, context)
    request = context.get("request")
    if response is not None and request is not None:
        # an error is JSON in the one shape, even asked as ?format=csv (it was a CSV row
        # of Python reprs, found by QA)
        request.accepted_renderer, request.accepted_media_type = _JSON, _JSON.media_type
    if response is not None and 400 <= response.status_code < 500:
        data = response.data if isinstance(response.data, dict) else {}
        metrics.count_refusal(str(data.get("code", "error")))
    return response


def refusal_body(body: dict[str, Any]) -> dict[str, Any]:
    """A domain refusal's body ``{code, rule, detail, ...context}`` (from
    :meth:`casino.errors.DomainError.as_dict`) with its ``detail`` said in the active
    language when its app registered the sentence; the same dict, changed in place. For the
    handler below and for an answer that carries a refusal without failing (the seat check)."""
    context = {k: v for k, v in body.items() if k not in ("code", "rule", "detail")}
    body["detail"] = localized_detail(body["code"], body["detail"], context)
    return body


def _handle(exc: Exception, context: dict[str, Any]) -> Response | None:
    if isinstance(exc, DomainError):
        return Response(refusal_body(exc.as_dict()), status=exc.status)
    if isinstance(exc, ConcurrencyConflict):
        return Response(
            _body(
                "version_conflict",
                "Another device changed this first; reload and try again.",
                stream=exc.stream,
                expected_version=exc.expected_version,
                current_version=stream_version(exc.stream),
            ),
            status=status.HTTP_409_CONFLICT,
        )
    if isinstance(exc, IdempotencyKeyExpired):
        return Response(_body("idempotency_key_expired", str(exc)), status=status.HTTP_409_CONFLICT)
    if isinstance(exc, IdempotencyKeyReused):
        return Response(
            _body("idempotency_key_reused", str(exc)), status=status.HTTP_422_UNPROCESSABLE_ENTITY
        )
    if isinstance(exc, Http404):
        exc = exceptions.NotFound()
    if isinstance(exc, RequestDataTooBig):  # Django's DATA_UPLOAD_MAX_MEMORY_SIZE check
        exc = RequestTooLarge()
    if isinstance(exc, exceptions.ValidationError):
        # unknown_field, not_an_integer, forbidden_characters (casino.api.serializers) name
        # the refusal; other field errors are invalid_request. ``errors`` says which field.
        code = promoted_code(exc.get_codes()) or "invalid_request"
        return Response(
            _body(code, gettext("The request is not valid."), errors=exc.detail),
            status=status.HTTP_400_BAD_REQUEST,
        )
    response = drf_exception_handler(exc, context)
    if response is None:
        # A bug, not a refusal: the command's transaction has rolled back; say so in the
        # one error shape (the traceback goes to the log, not to the device).
        logger.exception("unhandled error in %s", context.get("view"), exc_info=exc)
        return Response(
            _body("internal_error", "The server failed; nothing was recorded."),
            status=status.HTTP_500_INTERNAL_SERVER_ERROR,
        )
    code = next((c for cls, c in _DRF_CODES.items() if isinstance(exc, cls)), "error")
    detail = response.data.get("detail", response.data) if isinstance(response.data, dict) else ""
    response.data = _body(code, str(detail))
    return response
