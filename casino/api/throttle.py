"""Login throttling (issue #12 C) with django-axes: after ``AXES_FAILURE_LIMIT`` failed
logins for one username or from one address, logins of that username / from that
address answer 429 ``too_many_login_failures`` for ``AXES_COOLOFF_MINUTES``.

:func:`refuse_if_locked_out` is called by the login view before the password is checked;
:func:`locked_out` is axes' ``AXES_LOCKOUT_CALLABLE`` (its middleware answers with it
when axes flags a request), so both paths answer in the one JSON error shape.
"""

from typing import Any

from axes.handlers.proxy import AxesProxyHandler
from django.conf import settings
from django.http import HttpRequest, JsonResponse

from casino.errors import DomainError

CODE = "too_many_login_failures"
DETAIL = "Too many failed logins for this account or from this address; try again later."


def _retry_after() -> int:
    return int(float(settings.AXES_COOLOFF_TIME) * 3600)


def locked_out(request: HttpRequest, response: Any = None, credentials: Any = None) -> JsonResponse:
    """``AXES_LOCKOUT_CALLABLE``: the JSON 429 answer."""
    answer = JsonResponse(
        {"code": CODE, "rule": None, "detail": DETAIL, "retry_after_seconds": _retry_after()},
        status=429,
    )
    answer["Retry-After"] = str(_retry_after())
    return answer


def refuse_if_locked_out(request: HttpRequest, username: str) -> None:
    """Refuse a login of a locked-out username or from a locked-out address.

    Raises:
        DomainError ``too_many_login_failures`` (429).
    """
    if not settings.AXES_ENABLED:
        return
    if getattr(request, "axes_locked_out", False) or not AxesProxyHandler.is_allowed(
        request, {"username": username}
    ):
        error = DomainError(CODE, DETAIL, retry_after_seconds=_retry_after())
        error.status = 429
        raise error
