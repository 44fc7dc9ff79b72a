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

**The codec** is cattrs' JSON converter (:func:`encode` / :func:`decode`): dataclasses by
field, int-keyed maps (keys stored as strings, read back as ints), frozensets as lists,
datetimes as ISO-8601, so any aggregate state of frozen dataclasses can be snapshotted (a
tournament's included). Each snapshot also stores the **shape** of its state type
(:func:`shape_of`: a fingerprint of every field name and type, recursively): once the code
changes the state, old snapshots no longer match and are folded from the log instead of
being read with a field missing.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import logging
import typing
from typing import Any

from cattrs.preconf.json import make_converter
from django.conf import settings
from django.utils.crypto import constant_time_compare, salted_hmac

from casino.eventstore.models import StreamSnapshot

logger = logging.getLogger(__name__)

_SALT = "casino.eventstore.snapshot"
_converter = make_converter(forbid_extra_keys=True)


def encode(state: Any) -> Any:
    """``state`` (a dataclass) as a JSON-able dict."""
    return _converter.unstructure(state)


def decode[S](state_type: type[S], data: Any) -> S:
    """The ``state_type`` instance :func:`encode` gave ``data`` for.

    Raises:
        cattrs.errors.BaseValidationError, ValueError, TypeError: ``data`` does not fit.
    """
    return _converter.structure(data, state_type)


def shape_of(state_type: Any) -> str:
    """A fingerprint (32 hex digits) of ``state_type``: its dataclasses' field names and
    types, recursively. Equal for equal code, different once a field is added, removed,
    renamed or retyped."""
    return hashlib.sha256(_describe(state_type, frozenset()).encode()).hexdigest()[:32]


def _describe(tp: Any, seen: frozenset[str]) -> str:
    if dataclasses.is_dataclass(tp) and isinstance(tp, type):
        name = f"{tp.__module__}.{tp.__qualname__}"
        if name in seen:
            return name
        hints = typing.get_type_hints(tp)
        inner = seen | {name}
        fields = ",".join(f"{f.name}:{_describe(hints[f.name], inner)}"
                          for f in dataclasses.fields(tp))  # fmt: skip
        return f"{name}{{{fields}}}"
    args = typing.get_args(tp)
    if not args:
        return repr(tp)
    return f"{typing.get_origin(tp)!r}[{','.join(_describe(a, seen) for a in args)}]"


def canonical(state: Any) -> str:
    """``state`` (JSON-able: the dict stored in ``StreamSnapshot.state``) as canonical JSON:
    sorted keys, no spaces, after a JSON round trip (tuples become lists, keys strings), so the
    value signed at save equals the value read back from the database."""
    normalised = json.loads(json.dumps(state))
    return json.dumps(normalised, sort_keys=True, separators=(",", ":"), ensure_ascii=True)


def signature(stream: str, version: int, state: Any, shape: str) -> str:
    """Hex HMAC-SHA256 of ``stream``, ``version``, ``shape`` and ``state`` under
    ``SNAPSHOT_KEY``."""
    message = f"{stream}\n{version}\n{shape}\n{canonical(state)}"
    return salted_hmac(_SALT, message, secret=settings.SNAPSHOT_KEY, algorithm="sha256").hexdigest()


def read(stream: str, state_type: Any) -> StreamSnapshot | None:
    """The stored snapshot of ``stream`` if it was written for this ``state_type``'s shape
    and its signature is valid, else ``None`` (the caller folds from the log; a bad
    signature is logged as a warning)."""
    snap = StreamSnapshot.objects.filter(stream=stream).first()
    if snap is None:
        return None
    if snap.shape != shape_of(state_type):
        logger.info("snapshot of %s is of an older state shape; folding from the log", stream)
        return None
    expected = signature(snap.stream, snap.version, snap.state, snap.shape)
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
    data = encode(state)
    shape = shape_of(type(state))
    StreamSnapshot.objects.update_or_create(
        stream=stream,
        defaults={
            "version": version,
            "state": data,
            "shape": shape,
            "signature": signature(stream, version, data, shape),
        },
    )
