"""Core configuration records: players and registered devices.

These are reference data edited by staff, not facts of play (facts of play are events).
"""

import secrets

from django.db import models


class Player(models.Model):
    """A card-room customer. ``nickname`` is what public boards show."""

    name = models.CharField(max_length=200)
    nickname = models.CharField(max_length=100, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return self.name


def _new_token() -> str:
    return secrets.token_urlsafe(32)


class Device(models.Model):
    """A registered device (dealer tablet, console) that authenticates with a token.

    ``role`` is the staff role the device acts with; a dealer tablet is bound to ``table_id``
    (issue 4 narrows writes to that table). Revoked devices cannot authenticate.
    """

    class Role(models.TextChoices):
        DEALER = "dealer"
        CASHIER = "cashier"
        FLOOR = "floor"
        DIRECTOR = "director"
        MANAGER = "manager"
        ADMIN = "admin"

    name = models.CharField(max_length=100, unique=True)
    role = models.CharField(max_length=20, choices=Role.choices, default=Role.DEALER)
    token = models.CharField(max_length=64, unique=True, default=_new_token)
    table_id = models.PositiveIntegerField(null=True, blank=True)
    revoked = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"{self.name} ({self.role})"

    @property
    def is_authenticated(self) -> bool:
        return True
