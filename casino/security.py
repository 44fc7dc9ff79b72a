"""Start-up guards (issue #12 C): without ``DEBUG`` the service refuses to run on the
built-in development ``SECRET_KEY``, or on a key Django's deploy check calls weak.

:func:`require_secret_key` is called where the service starts serving: the ASGI
application (uvicorn, daphne, ``manage.py up``), the relay command and a Celery worker.
A system check (tag ``security``, deploy only) makes ``manage.py check --deploy`` fail on
it too. Commands that only build or inspect (``migrate``, ``makemigrations``, mypy's
Django plugin) do not need a key.
"""

from typing import Any

from django.conf import settings
from django.core import checks
from django.core.checks.security.base import (
    SECRET_KEY_INSECURE_PREFIX,
    SECRET_KEY_MIN_LENGTH,
    SECRET_KEY_MIN_UNIQUE_CHARACTERS,
)
from django.core.exceptions import ImproperlyConfigured

MESSAGE = (
    "SECRET_KEY is the built-in development key: set SECRET_KEY in the environment "
    "(or DEBUG=true on a development machine)."
)


def uses_builtin_secret_key() -> bool:
    """Whether ``DEBUG`` is off and ``SECRET_KEY`` is the built-in development key."""
    builtin = getattr(settings, "BUILTIN_SECRET_KEY", None)
    return not settings.DEBUG and bool(builtin) and builtin == settings.SECRET_KEY


WEAK = (
    "SECRET_KEY is too weak to sign sessions and tokens: give at least "
    f"{SECRET_KEY_MIN_LENGTH} characters, {SECRET_KEY_MIN_UNIQUE_CHARACTERS} of them different "
    "(e.g. python -c 'import secrets; print(secrets.token_urlsafe(50))')."
)


def weak_secret_key() -> bool:
    """Whether ``DEBUG`` is off and ``SECRET_KEY`` fails Django's own deploy check
    (``security.W009``: shorter than 50 characters, fewer than 5 different ones, or a
    ``django-insecure-`` key)."""
    key = str(settings.SECRET_KEY)
    return not settings.DEBUG and (
        len(key) < SECRET_KEY_MIN_LENGTH
        or len(set(key)) < SECRET_KEY_MIN_UNIQUE_CHARACTERS
        or key.startswith(SECRET_KEY_INSECURE_PREFIX)
    )


def require_secret_key() -> None:
    """Refuse to start without ``DEBUG`` on the built-in ``SECRET_KEY`` or on a weak one
    (``up`` took ``SECRET_KEY=short``: found by QA).

    Raises:
        ImproperlyConfigured: with a one-line message saying what to set.
    """
    if uses_builtin_secret_key():
        raise ImproperlyConfigured(MESSAGE)
    if weak_secret_key():
        raise ImproperlyConfigured(WEAK)


@checks.register(checks.Tags.security, deploy=True)
def check_secret_key(app_configs: Any = None, **kwargs: Any) -> list[checks.CheckMessage]:
    """``manage.py check --deploy``: the built-in key is an error (``casino.E001``)."""
    if getattr(settings, "BUILTIN_SECRET_KEY", None) == settings.SECRET_KEY:
        return [checks.Error(MESSAGE, id="casino.E001")]
    return []
