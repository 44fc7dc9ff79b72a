"""Signed snapshots: a snapshot must prove it was written by this service before it is used.

A snapshot is a cache of a stream's folded state. Whoever can write ``eventstore_snapshot``
(a stolen application login, a careless ``UPDATE``) could otherwise change a player's stack
without touching the append-only log. So each snapshot carries
``HMAC-SHA256(key, stream | version | canonical JSON of state)``, keyed by
``settings.SNAPSHOT_KEY`` (default: derived from ``SECRET_KEY``, see ``casino/settings.py``).

:func:`read` returns a snapshot only when its signature matches; any other snapshot (tampered,
signed with another key, or written before signing existed: its ``signature`` is empty) is
ignored with a warning and the caller folds the stream from the log, which is always right.
The next append that crosses a snapshot boundary writes a fresh, signed snapshot.
"""

from __future__ import annotations

import dataclasses
import json
import logging
from typing import Any

from django.conf import settings
from django.utils.crypto import constant_time_compare, salted_hmac

from casino.eventstore.models import StreamSnapshot

logger = logging.getLogger(__name__)

_SALT = "casino.eventstore.snapshot"


def canonical(state: Any) -> str:
    """``state`` (JSON-able: the dict stored in ``StreamSnapshot.state``) as canonical JSON:
    sorted keys, no spaces, after a JSON round trip (tuples become lists, keys strings), so the
    value signed at save equals the value read back from the database."""
    normalised = json.loads(json.dumps(state))
    return json.dumps(normalised, sort_keys=True, separators=(",", ":"), ensure_ascii=True)


def signature(stream: str, version: int, state: Any) -> str:
    """Hex HMAC-SHA256 of ``stream``, ``version`` and ``state`` under ``SNAPSHOT_KEY``."""
    message = f"{stream}\n{version}\n{canonical(state)}"
    return salted_hmac(_SALT, message, secret=settings.SNAPSHOT_KEY, algorithm="sha256").hexdigest()


def read(stream: str) -> StreamSnapshot | None:
    """The stored snapshot of ``stream`` if its signature is valid, else ``None`` (logged as a
    warning: the caller folds from the log)."""
    snap = StreamSnapshot.objects.filter(stream=stream).first()
    if snap is None:
        return None
    expected = signature(snap.stream, snap.version, snap.state)
    if not snap.signature or not constant_time_compare(snap.signature, expected):
        logger.warning(
            "snapshot of %s at version %s fails its signature check; folding from the log",
            stream,
            snap.version,
        )
        return None
    return snap


def write(stream: str, version: int, state: Any) -> None:
    """Store and sign the snapshot of ``stream`` at ``version`` (``state`` a dataclass)."""
    data = dataclasses.asdict(state)
    StreamSnapshot.objects.update_or_create(
        stream=stream,
        defaults={
            "version": version,
            "state": data,
            "signature": signature(stream, version, data),
        },
    )
