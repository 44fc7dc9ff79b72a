"""Structured logs (structlog, django-structlog): one JSON object per line in production.

Every line carries what is known of the request or command that wrote it, bound in
``structlog.contextvars`` as it becomes known:

- ``request_id`` (``X-Request-ID`` when the client sent one, else a fresh UUID; the same id
  is stored in the events' metadata) and ``ip``: django-structlog's ``RequestMiddleware``;
- ``actor`` (``device:<id>``, ``user:<id>``, ``system:<name>``) and ``device`` (its name):
  the device-token authentication, the session user at the end of the request, or the
  command context of a task (:func:`bind_command`);
- ``command_id`` (the ``Idempotency-Key``) and ``stream`` (the stream appended to):
  :func:`bind_command` and :func:`casino.eventstore.store.append`.

The middleware clears the context at the end of each request, the Celery hook before each
task. Each request is logged once, by django-structlog (``request_finished`` with its
``code``: INFO for 2xx/3xx, WARNING for 4xx, ERROR for 5xx); Django's own ``django.request``
warnings are silenced so a 4xx is not logged twice.

``LOG_FORMAT=json`` (default) or ``console`` (human-readable; ``manage.py up`` uses it).
"""

from __future__ import annotations

import logging
from typing import Any

import structlog

_SHARED: list[Any] = [
    structlog.contextvars.merge_contextvars,
    structlog.stdlib.add_logger_name,
    structlog.stdlib.add_log_level,
    structlog.processors.TimeStamper(fmt="iso", utc=True),
]


def _formatter(fmt: str) -> dict[str, Any]:
    renderer: Any = (
        structlog.dev.ConsoleRenderer(colors=False)
        if fmt == "console"
        else structlog.processors.JSONRenderer()
    )
    tail: list[Any] = [] if fmt == "console" else [structlog.processors.format_exc_info]
    return {
        "()": structlog.stdlib.ProcessorFormatter,
        "foreign_pre_chain": _SHARED,
        "processors": [
            structlog.stdlib.ProcessorFormatter.remove_processors_meta,
            *tail,
            renderer,
        ],
    }


def logging_config(fmt: str = "json", level: str = "WARNING") -> dict[str, Any]:
    """The ``LOGGING`` dict: one stream handler on the root logger, rendered as ``fmt``
    (``json`` or ``console``) at ``level``; request lines at INFO in JSON, WARNING (4xx and
    5xx only) on the console."""
    fmt = "console" if fmt == "console" else "json"
    request_level = "INFO" if fmt == "json" else "WARNING"
    if logging.getLevelName(level.upper()) >= logging.ERROR:
        request_level = level.upper()  # LOG_LEVEL=ERROR silences the request lines too
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {"json": _formatter("json"), "console": _formatter("console")},
        "handlers": {"console": {"class": "logging.StreamHandler", "formatter": fmt}},
        "root": {"handlers": ["console"], "level": level},
        "loggers": {
            # django-structlog's request_finished is the one line per request
            "django.request": {"level": "CRITICAL"},
            "django_structlog": {"level": request_level},
        },
    }


def configure_structlog() -> None:
    """Route structlog through the standard library's handlers (see :func:`logging_config`)."""
    structlog.configure(
        processors=[
            structlog.contextvars.merge_contextvars,
            structlog.stdlib.filter_by_level,
            structlog.stdlib.add_logger_name,
            structlog.stdlib.add_log_level,
            structlog.processors.TimeStamper(fmt="iso", utc=True),
            structlog.processors.StackInfoRenderer(),
            structlog.stdlib.ProcessorFormatter.wrap_for_formatter,
        ],
        logger_factory=structlog.stdlib.LoggerFactory(),
        wrapper_class=structlog.stdlib.BoundLogger,
        cache_logger_on_first_use=True,
    )


def use_console() -> None:
    """Switch this process's logs to the human-readable format (``manage.py up``)."""
    import logging.config

    from django.conf import settings

    logging.config.dictConfig(logging_config("console", settings.LOG_LEVEL))


def bind(**values: Any) -> None:
    """Bind ``values`` (``None`` ones skipped) to every later log line of this request/task."""
    structlog.contextvars.bind_contextvars(**{k: v for k, v in values.items() if v is not None})


def clear() -> None:
    """Forget the bound values (the start of a task)."""
    structlog.contextvars.clear_contextvars()


def bind_request_ip(request: Any, **_: Any) -> None:
    """django-structlog signal: the client's address on every line of a request.

    ``REMOTE_ADDR`` as the ASGI server gives it: behind a proxy, uvicorn's
    ``--proxy-headers`` has already put the forwarded client there. (django-structlog's own
    lookup, python-ipware scanning a dozen headers, cost more than the rest of the request
    line; it is off: ``DJANGO_STRUCTLOG_IP_LOGGING_ENABLED``.)"""
    ip = request.META.get("REMOTE_ADDR")
    if ip:
        structlog.contextvars.bind_contextvars(ip=ip)


def bind_request_actor(
    request: Any, logger: Any = None, log_kwargs: dict[str, Any] | None = None, **_: Any
) -> None:
    """django-structlog signal: the principal of a finished request on its last line."""
    from casino.models import Device

    user = getattr(request, "user", None)
    if isinstance(user, Device):
        values = {"actor": f"device:{user.pk}", "device": user.name}
    elif user is not None and getattr(user, "is_authenticated", False):
        values = {"actor": f"user:{user.pk}"}
    else:
        return
    bound = structlog.contextvars.get_contextvars()
    for key, value in values.items():
        if key not in bound and log_kwargs is not None:
            log_kwargs[key] = value
