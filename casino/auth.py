"""Device-token authentication: ``Authorization: Token <token>`` (or ``Bearer``).

A token seen in the last ``DEVICE_TOKEN_CACHE_SECONDS`` (default 2 s) is not looked up
again by this process: a revoked device is refused everywhere within that time, and at
once by the process that revoked it (:func:`forget_device`).

Staff consoles authenticate with a Django session instead (DRF ``SessionAuthentication``,
after ``POST /api/v1/auth/login/``), which enforces the CSRF token on every unsafe
request of a logged-in session. A request with a device token never uses the session
(the token is not sent by the browser on its own, so it needs no CSRF check). What each
principal may do is decided by :mod:`casino.permissions`.
"""

import threading
import time
from typing import Any

from django.conf import settings
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from rest_framework import authentication, exceptions
from rest_framework.request import Request

from casino import logs
from casino.models import Device

_recent: dict[str, tuple[float, Device]] = {}
_recent_lock = threading.Lock()


def _device_for(token: str) -> Device | None:
    ttl = float(getattr(settings, "DEVICE_TOKEN_CACHE_SECONDS", 2.0))
    now = time.monotonic()
    with _recent_lock:
        hit = _recent.get(token)
    if hit is not None and now - hit[0] < ttl:
        return hit[1]
    device = Device.objects.filter(token=token, revoked=False).first()
    with _recent_lock:
        if device is None:
            _recent.pop(token, None)
        else:
            if len(_recent) > 10_000:
                _recent.clear()
            _recent[token] = (now, device)
    return device


def forget_device(token: str) -> None:
    """Drop a token from this process's cache (after revoking its device)."""
    with _recent_lock:
        _recent.pop(token, None)


class DeviceTokenAuthentication(authentication.BaseAuthentication):
    """Authenticates a registered, non-revoked :class:`~casino.models.Device`.

    ``request.user`` becomes the device; ``request.auth`` the device too.
    Raises ``AuthenticationFailed`` (401) for an unknown or revoked token.
    """

    keywords = ("token", "bearer")

    def authenticate(self, request: Request) -> tuple[Device, Device] | None:
        header = authentication.get_authorization_header(request).split()
        if not header or header[0].lower().decode() not in self.keywords:
            return None
        if len(header) != 2:
            raise exceptions.AuthenticationFailed("Malformed Authorization header.")
        device = _device_for(header[1].decode())
        if device is None:
            raise exceptions.AuthenticationFailed("Unknown or revoked device token.")
        logs.bind(actor=f"device:{device.pk}", device=device.name)
        return device, device

    def authenticate_header(self, request: Request) -> str:
        return "Token"


class DeviceTokenScheme(OpenApiAuthenticationExtension):
    target_class = "casino.auth.DeviceTokenAuthentication"
    name = "deviceToken"

    def get_security_definition(self, auto_schema: Any) -> dict[str, str]:
        return {"type": "apiKey", "in": "header", "name": "Authorization"}
