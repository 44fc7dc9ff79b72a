"""Device-token authentication: ``Authorization: Token <token>`` (or ``Bearer``)."""

from typing import Any

from drf_spectacular.extensions import OpenApiAuthenticationExtension
from rest_framework import authentication, exceptions
from rest_framework.request import Request

from casino.models import Device


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
        token = header[1].decode()
        try:
            device = Device.objects.get(token=token, revoked=False)
        except Device.DoesNotExist:
            raise exceptions.AuthenticationFailed("Unknown or revoked device token.") from None
        return device, device

    def authenticate_header(self, request: Request) -> str:
        return "Token"


class DeviceTokenScheme(OpenApiAuthenticationExtension):
    target_class = "casino.auth.DeviceTokenAuthentication"
    name = "deviceToken"

    def get_security_definition(self, auto_schema: Any) -> dict[str, str]:
        return {"type": "apiKey", "in": "header", "name": "Authorization"}
