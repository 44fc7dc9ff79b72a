"""Shared plumbing of write endpoints: ``Idempotency-Key``, ``If-Match``, command metadata."""

import re
from collections.abc import Callable
from typing import Any

import structlog
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from casino import logs
from casino.api.errors import WRITE_ERRORS
from casino.errors import BadRequest
from casino.eventstore import commands
from casino.eventstore.context import CommandContext
from casino.models import Device
from casino.numbers import whole_number

IDEMPOTENCY_KEY = OpenApiParameter(
    "Idempotency-Key",
    str,
    OpenApiParameter.HEADER,
    required=True,
    description="Unique per command (a UUID). A retry with the same key returns the first "
    "result and appends nothing.",
)
IF_MATCH = OpenApiParameter(
    "If-Match",
    int,
    OpenApiParameter.HEADER,
    required=False,
    description="Stream version the device last saw; a newer stream answers 409.",
)
WRITE_PARAMETERS = [IDEMPOTENCY_KEY, IF_MATCH]


def command_context(request: Request) -> CommandContext:
    """Audit metadata for a request: who (device or staff user), from which request."""
    user = request.user
    if isinstance(user, Device):
        actor, device = f"device:{user.pk}", user.name
    elif user is not None and getattr(user, "is_authenticated", False):
        actor, device = f"user:{user.pk}", None
    else:
        actor, device = "anonymous", None
    return CommandContext(
        actor=actor,
        device=device,
        # the request id of the log lines (django-structlog), so logs and events agree
        request_id=structlog.contextvars.get_contextvars().get("request_id")
        or request.headers.get("X-Request-ID")
        or CommandContext().request_id,
        correlation_id=request.headers.get("X-Correlation-ID"),
    )


IF_MATCH_VALUE = re.compile(r'(?:W/)?(?P<q>"?)(?P<version>[0-9]{1,19})(?P=q)')
"""An ``If-Match`` value: a stream version, bare or as an entity tag."""


def expected_version(request: Request) -> int | None:
    """The ``If-Match`` stream version, or ``None``.

    Takes the version alone (``7``) or as an entity tag, strong or weak (``"7"``,
    ``W/"7"``; RFC 9110 §8.8.3).

    Raises:
        DomainError ``invalid_if_match`` (400): anything else, such as ``W/W/7``, ``7"``, a
            list of tags, or a number not in ASCII digits (``int()`` alone took ``"1_0"``
            as 10 and ``"-1"``).
    """
    raw = request.headers.get("If-Match")
    if raw is None:
        return None
    tag = IF_MATCH_VALUE.fullmatch(raw.strip(" \t"))
    version = whole_number(tag["version"]) if tag else None
    if version is None:
        raise BadRequest("invalid_if_match", "If-Match must be a stream version number.")
    return version


def refuse_if_match(request: Request) -> None:
    """For a write that checks no stream version (reference data, the room's one cage
    stream): an ``If-Match`` is refused rather than ignored, so a caller never believes
    a stale write was checked (found by fuzzing: a sale with ``If-Match: 1`` was recorded).

    Raises:
        DomainError ``if_match_not_taken`` (400).
    """
    if request.headers.get("If-Match") is not None:
        raise BadRequest(
            "if_match_not_taken",
            "This operation checks no stream version: send it without If-Match.",
        )


MAX_IDEMPOTENCY_KEY = 200
"""Longest ``Idempotency-Key`` accepted, characters (a UUID is 36)."""


def idempotency_key(request: Request) -> str:
    """The request's ``Idempotency-Key``: 1 to 200 printable ASCII characters.

    Raises:
        DomainError ``idempotency_key_required`` (400) when the header is missing;
        ``invalid_idempotency_key`` (400) when it is too long or not printable ASCII.
    """
    key = request.headers.get("Idempotency-Key")
    if not key:
        raise BadRequest(
            "idempotency_key_required", "Every write must carry an Idempotency-Key header."
        )
    if len(key) > MAX_IDEMPOTENCY_KEY or not (key.isascii() and key.isprintable()):
        raise BadRequest(
            "invalid_idempotency_key",
            f"An Idempotency-Key is 1 to {MAX_IDEMPOTENCY_KEY} printable ASCII characters "
            "(a UUID).",
            max_length=MAX_IDEMPOTENCY_KEY,
        )
    return key


def run_write(
    request: Request,
    body: Callable[[], Any],
    *,
    status_code: int = status.HTTP_200_OK,
) -> Response:
    """Run a service for a write request, idempotently by its ``Idempotency-Key``: a retry
    by the same caller of the same method, path and body gets the first answer; anything
    else with that key is refused (``idempotency_key_reused``).

    Raises:
        DomainError ``idempotency_key_required`` / ``invalid_idempotency_key`` (400):
        see :func:`idempotency_key`.
    """
    key = idempotency_key(request)
    logs.bind(command_id=key)
    ctx = command_context(request)
    outcome = commands.run_command(
        body,
        ctx=ctx,
        command_id=key,
        # the caller is part of the request: another caller's key is a reused key, never a
        # way to read the first caller's stored answer
        fingerprint=commands.fingerprint(request.method, request.path, request.data, ctx.actor),
        status_code=status_code,
    )
    response = Response(outcome.result, status=outcome.status_code)
    if outcome.replayed:
        response["Idempotent-Replayed"] = "true"
    return response


Perform = Callable[..., Any]


def write_view(
    *,
    operation_id: str,
    request: type[serializers.Serializer],
    response: type[serializers.Serializer] | serializers.Serializer | None,
    perform: Perform,
    doc: str,
    status_code: int = status.HTTP_200_OK,
    takes_if_match: bool = True,
) -> type[APIView]:
    """A thin view for one write operation: parse ``request``, read ``If-Match``, and run
    ``perform(data, if_match=..., **url_kwargs) -> JSON`` once per ``Idempotency-Key``.
    With ``takes_if_match=False`` (``perform`` checks no version) an ``If-Match`` is
    refused (:func:`refuse_if_match`) and not documented.

    ``perform`` calls one service and builds the answer; rules stay in the domain.
    """

    @extend_schema(
        operation_id=operation_id,
        request=request,
        responses={status_code: response, **WRITE_ERRORS},
        parameters=WRITE_PARAMETERS if takes_if_match else [IDEMPOTENCY_KEY],
        description=doc,
    )
    def post(self: APIView, http: Request, **url_kwargs: Any) -> Response:
        if not takes_if_match:
            refuse_if_match(http)
        parsed = request(data=http.data)
        parsed.is_valid(raise_exception=True)
        data, if_match = dict(parsed.validated_data), expected_version(http)
        return run_write(
            http,
            lambda: perform(data, if_match=if_match, **url_kwargs),
            status_code=status_code,
        )

    name = "".join(part.title() for part in operation_id.split("_")) + "View"
    return type(name, (APIView,), {"post": post, "__doc__": doc})
