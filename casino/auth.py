"""Device-token authentication: ``Authorization: Token <token>`` (or ``Bearer``).

Only the SHA-256 of a token is stored (:func:`casino.models.hash_token`): a token is
looked up by its hash (an indexed equality on a hash, which tells an attacker nothing about
the stored tokens), and the hashes are compared again in constant time
(``hmac.compare_digest``). A token seen in the last ``DEVICE_TOKEN_CACHE_SECONDS``
(default 2 s) is not looked up again by this process (the cache is keyed by the hash, so
no plain token stays in memory): a revoked device is refused everywhere within that time,
and at once by the process that revoked it (:func:`forget_device`).

Staff consoles authenticate with a Django session instead (DRF ``SessionAuthentication``,
after ``POST /api/v1/auth/login/``), which enforces the CSRF token on every unsafe
request of a logged-in session. A request with a device token never uses the session
(the token is not sent by the browser on its own, so it needs no CSRF check). What each
principal may do is decided by :mod:`casino.permissions`.
"""

import hmac
import threading
import time
from typing import Any

from django.conf import settings
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from rest_framework import authentication, exceptions
from rest_framework.request import Request

from casino import logs
from casino.models import Device, hash_token

_recent: dict[str, tuple[float, Device]] = {}
_recent_lock = threading.Lock()
MAX_TOKEN_LENGTH = 200


def _device_for(token: str) -> Device | None:
    """The non-revoked device ``token`` belongs to, or ``None``."""
    if not token or len(token) > MAX_TOKEN_LENGTH:
        return None
    digest = hash_token(token)
    ttl = float(getattr(settings, "DEVICE_TOKEN_CACHE_SECONDS", 2.0))
    now = time.monotonic()
    with _recent_lock:
        hit = _recent.get(digest)
    if hit is not None and now - hit[0] < ttl:
        return hit[1]
    device = Device.objects.filter(token_hash=digest, revoked=False).first()
    if device is not None and not hmac.compare_digest(device.token_hash, digest):
        device = None
    with _recent_lock:
        if device is None:
            _recent.pop(digest, None)
        else:
            if len(_recent) > 10_000:
                _recent.clear()
            _recent[digest] = (now, device)
    return device


def forget_device(token_hash: str) -> None:
    """Drop a device from this process's cache, by its ``token_hash`` (after revoking it)."""
    with _recent_lock:
        _recent.pop(token_hash, None)


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
        try:
            token = header[1].decode("ascii")
        except UnicodeDecodeError:
            raise exceptions.AuthenticationFailed("Unknown or revoked device token.") from None
        device = _device_for(token)
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
