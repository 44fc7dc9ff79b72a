"""Closing the live sockets of a revoked device or a deactivated staff login.

Every log feed joins, besides its own groups, ``device-<id>`` (a device token) or
``user-<id>`` and ``session-<key>`` (a console session). When a device is revoked, or a
staff user is deactivated, given a new password or a new role, a ``device.revoked`` message
goes to that group once the change commits; every server process holding such a socket
closes it (close code 4401) as soon as the channel layer delivers it, well within a
second, and a console that reconnects is authorised afresh. Logging out closes that
session's sockets. A token or session refused from then on keeps them closed.
"""

from __future__ import annotations

import logging
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction

logger = logging.getLogger("casino.realtime")


def principal_groups(principal: Any, session_key: str | None = None) -> list[str]:
    """The revocation groups of a socket's principal (a ``Device`` or a staff user, with
    the key of the console session it came with)."""
    from casino.models import Device

    if isinstance(principal, Device):
        return [f"device-{principal.pk}"]
    if getattr(principal, "pk", None) is not None:
        return [f"user-{principal.pk}", *([session_group(session_key)] if session_key else [])]
    return []


def session_group(session_key: str) -> str:
    """The revocation group of one console session's sockets."""
    return f"session-{session_key}"


def close_sockets(group: str) -> None:
    """After the current transaction commits, close every socket in ``group``."""

    def send() -> None:
        layer = get_channel_layer()
        if layer is None:
            return
        try:
            async_to_sync(layer.group_send)(group, {"type": "device.revoked"})
        except Exception:  # the revocation itself stands; the token is refused anyway
            logger.exception("could not close the sockets of %s", group)

    transaction.on_commit(send)


def on_device_saved(sender: Any, instance: Any, **kwargs: Any) -> None:
    """``post_save`` of ``Device``: a revoked device loses its sockets."""
    if instance.revoked:
        close_sockets(f"device-{instance.pk}")


def on_user_saved(sender: Any, instance: Any, **kwargs: Any) -> None:
    """``post_save`` of the user model: a deactivated login loses its sockets."""
    if not instance.is_active:
        close_sockets(f"user-{instance.pk}")
