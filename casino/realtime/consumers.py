"""The base of every live feed that forwards the log: authenticate, join groups, snapshot or
resume, then forward each committed event once, in stream order.

Message formats v1 and v2 are in :mod:`casino.realtime.messages` and ``docs/realtime.md``.

* **Authentication.** ``?token=<device token>`` (tablets, any client) or the console's
  session cookie. A cookie-authenticated socket must come from the service's own origin
  (``Origin`` equal to the ``Host`` it connected to, or listed in ``CSRF_TRUSTED_ORIGINS``),
  so a page on another site cannot ride a logged-in console's session.
* **Revocation.** A device's sockets join ``device-<id>``, a staff user's ``user-<id>``;
  revoking the device or deactivating the user closes them (close code 4401) on every
  server process (:mod:`casino.realtime.revocation`).
* **Session end.** A console socket lives no longer than its login session: it is closed
  (4401, ``session_expired``) once the session expires or is deleted (checked at its expiry
  time and every ``SESSION_SOCKET_CHECK_SECONDS``); it went on receiving pushes after the
  REST API already refused the session (found by QA).
* **Delivery.** The relay sends ``log.events`` batches; each event is forwarded when it is
  the next version of its stream, repeats are dropped and a gap is filled from the log, so
  a client sees every stream's events once each, in order.
* **Lost pushes.** Redis pub/sub delivers at most once (a dropped Redis connection loses
  what was published meanwhile). The relay numbers each group's messages (``relay``,
  ``seq``); a feed that sees a number skipped, or a new relay take over, reads what it
  missed from the log from the cursor of the last batch it had (:meth:`recover`), so even a
  hand that began and ended unseen is sent.
* **Resume.** ``?resume=<stream>:<version>,...`` (v1 and v2) with, in v2, ``&cursor=<token>``:
  the feed scans the log from the cursor (v1: from the earliest event the client names) and
  forwards every event of the feed committed since, hand streams the client never heard of
  included, skipping what the client holds. A resume that cannot be honoured gets a fresh
  snapshot with a ``reason`` instead, never a silent feed.
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any
from urllib.parse import parse_qs, urlsplit

from channels.consumer import get_handler_name
from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from django.conf import settings
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from casino.eventstore import store
from casino.numbers import whole_number
from casino.realtime import groups
from casino.realtime.messages import (
    FORMAT_V2,
    FORMAT_VERSION,
    entry_message,
    error_message,
    for_client,
    snapshot_message,
)

RESUME_MAX_SCAN = 20_000
"""Log entries a resume may scan; past that the client gets a fresh snapshot."""

SENT_STREAMS_MAX = 10_000
"""New streams a socket remembers the last version of (for its repeat and gap checks) beyond
those its last snapshot or resume named. A table's feed meets a new hand stream every hand,
so a board left open for weeks would remember every hand it showed; past this many (about
ten days of one busy table, about 1 MB) the socket gets a fresh snapshot (``reason:
"streams_limit"``) and forgets the rest."""


FEED_PARAMETERS = frozenset({"token", "resume", "cursor", "v"})
FEED_FORMATS = frozenset({"1", "2"})


def query_params(scope: dict[str, Any]) -> dict[str, str]:
    """The socket URL's query string, one value per key (:func:`query_problem` refuses
    a repeated one)."""
    raw = parse_qs(scope.get("query_string", b"").decode())
    return {key: values[-1] for key, values in raw.items()}


def query_problem(scope: dict[str, Any]) -> str | None:
    """Why a feed's query string is refused, as the API refuses one (``None``: it is not):
    a parameter the feeds do not take, one given twice (``?token=a&token=b`` read the last
    and opened), or a ``v`` that is no message format (``?v=3`` was served as v1; found by
    fuzzing)."""
    raw = parse_qs(scope.get("query_string", b"").decode(), keep_blank_values=True)
    unknown = sorted(set(raw) - FEED_PARAMETERS)
    if unknown:
        return f"Unknown query parameter: {', '.join(unknown)[:200]}."
    repeated = sorted(key for key, values in raw.items() if len(values) > 1)
    if repeated:
        return f"Query parameter given more than once: {', '.join(repeated)}."
    if "v" in raw and raw["v"][0] not in FEED_FORMATS:
        return "v is the message format: 1 or 2."
    return None


def parse_resume(raw: str) -> dict[str, int]:
    """``"table-7:12,hand-<uuid>:5"`` as ``{stream: version}`` (malformed parts ignored)."""
    versions: dict[str, int] = {}
    for part in filter(None, raw.split(",")[:1000]):
        stream, _, version = part.rpartition(":")
        number = whole_number(version)
        if stream and number is not None:
            versions[stream] = number
    return versions


def _header(scope: dict[str, Any], name: bytes) -> str | None:
    for key, value in scope.get("headers", []):
        if key.lower() == name:
            return bytes(value).decode("latin-1")
    return None


def same_origin(scope: dict[str, Any]) -> bool:
    """Whether a browser socket's ``Origin`` is this service (its ``Host``) or a trusted
    origin (``CSRF_TRUSTED_ORIGINS``)."""
    origin = _header(scope, b"origin")
    if not origin:
        return False
    if origin in getattr(settings, "CSRF_TRUSTED_ORIGINS", []):
        return True
    host = _header(scope, b"host")
    return bool(host) and urlsplit(origin).netloc.lower() == (host or "").lower()


class IgnoresClientFrames:
    """For read-only sockets: whatever a client sends (text, binary, not JSON) is ignored,
    never decoded (a frame that was not JSON killed a feed's socket before)."""

    async def receive(
        self, text_data: str | None = None, bytes_data: bytes | None = None, **kwargs: Any
    ) -> None:
        """Ignore the frame."""


class LogEventsMixin(IgnoresClientFrames):
    """Handles the relay's ``log.events`` batches one event at a time (``log_event``).

    ``dispatch`` skips what Channels does before every message, a thread hop to close
    stale database connections: the feeds touch the database only through
    ``database_sync_to_async``, which closes them itself, and that hop per pushed batch
    was a third of a server's CPU per push under load (issue #11).
    """

    async def dispatch(self, message: dict[str, Any]) -> None:
        """Run the handler for ``message["type"]`` (``ValueError`` when there is none)."""
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)

    async def log_events(self, message: dict[str, Any]) -> None:
        """A batch of committed events from the relay, in log order; first what was missed
        when an earlier batch of the group never arrived."""
        events = message["events"]
        lost, since = self._lost_batch(message)
        if lost:
            await self.recover(since)
        for event in events:
            await self.log_event({"message": event})  # type: ignore[attr-defined]

    def _lost_batch(self, message: dict[str, Any]) -> tuple[bool, str | None]:
        """Whether a message of the relay to this group was lost before ``message`` (a
        sequence number skipped, or another relay, a standby that took over, numbering),
        and the cursor of the group's last batch that did arrive (``None``: none since
        this socket's snapshot)."""
        group, relay, seq = message.get("group"), message.get("relay"), message.get("seq")
        if group is None or seq is None:
            return False, None
        seen: dict[str, tuple[Any, Any, Any]] = self.__dict__.setdefault("relay_seqs", {})
        last = seen.get(group)
        events = message["events"]
        seen[group] = (relay, seq, events[-1].get("cursor") if events else None)
        if last is None or (last[0], last[1]) == (relay, seq - 1):
            return False, None
        return True, last[2]

    async def recover(self, since: str | None) -> None:
        """Bring the client up to date after a lost batch, reading the log after the cursor
        ``since`` (``None``: since the socket's snapshot or resume)."""
        raise NotImplementedError


class UnknownFeedConsumer(IgnoresClientFrames, AsyncJsonWebsocketConsumer):
    """Any WebSocket path no app routes (the last route, ``casino.routing``): refused as a
    feed refuses an unknown table, an ``error`` message ``not_found`` and close code 4404,
    instead of a server error at the handshake."""

    async def connect(self) -> None:
        await self.accept()
        await self.send_json(error_message("not_found", _("There is no such feed."), self.scope))
        await self.close(code=4404)


class LogFeedConsumer(LogEventsMixin, AsyncJsonWebsocketConsumer):
    """Base of the log feeds: subclasses name the groups, the snapshot and the streams."""

    groups_to_join: list[str]
    read_operation = "list_tables"
    feed_table_id: int | None = None

    async def connect(self) -> None:
        self.sent: dict[str, int] = {}
        self.snapshot_point: store.ReadPoint | None = None
        self.sent_baseline = 0  # streams the last snapshot or resume named
        self.groups_to_join = []
        problem = query_problem(self.scope)
        if problem is not None:
            await self._refuse("bad_query", problem, 4400)
            return
        params = query_params(self.scope)
        self.format = FORMAT_V2 if params.get("v") == "2" else FORMAT_VERSION
        principal, via_cookie = await self._authenticate(params)
        if principal is not None and via_cookie and not same_origin(self.scope):
            await self._refuse("bad_origin", _("A console socket must come from this site."), 4403)
            return
        if principal is None or not await self._may_read(principal):
            await self._refuse("not_allowed", _("Not authenticated or allowed."), 4403)
            return
        feed_groups = await self._groups()
        if not feed_groups:
            await self._refuse("not_found", _("No such feed."), 4404)
            return
        session = self.scope.get("session") if via_cookie else None
        key = getattr(session, "session_key", None)
        self.groups_to_join = [*feed_groups, *_principal_groups(principal, key)]
        for group in self.groups_to_join:
            await self.channel_layer.group_add(group, self.channel_name)
        await self.accept()
        if key:
            self.session_watch = asyncio.create_task(self._watch_session(key))
        elif params.get("token"):
            self.session_watch = asyncio.create_task(self._watch_token(params["token"]))
        await self._start(params)

    async def _watch_session(self, key: str) -> None:
        """Close the socket once its console session has expired or was deleted (logout
        elsewhere, an administrator, the cleanup job)."""
        every = settings.SESSION_SOCKET_CHECK_SECONDS
        while True:
            left = await _session_seconds_left(key)
            if left <= 0:
                await self.send_json(
                    error_message("session_expired", _("The login session ended."), self.scope)
                )
                await self.close(code=4401)
                return
            await asyncio.sleep(min(every, left + 0.5))

    async def _watch_token(self, token: str) -> None:
        """Close a device's socket once its token no longer authenticates, checked every
        ``SESSION_SOCKET_CHECK_SECONDS``: the backstop for a revocation message that never
        reached this process (a second embedded ``up`` has a channel layer of its own, and
        its sockets kept a demo token that the other one replaced: found by QA)."""
        from casino.auth import _device_for

        while True:
            await asyncio.sleep(settings.SESSION_SOCKET_CHECK_SECONDS)
            if await database_sync_to_async(_device_for)(token) is None:
                await self.device_revoked({})
                return

    async def _refuse(self, code: str, detail: str | Promise, close_code: int) -> None:
        await self.accept()
        await self.send_json(error_message(code, detail, self.scope))
        await self.close(code=close_code)

    async def disconnect(self, code: int) -> None:
        watch = getattr(self, "session_watch", None)
        if watch is not None:
            watch.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await watch
        for group in getattr(self, "groups_to_join", []):
            await self.channel_layer.group_discard(group, self.channel_name)

    async def device_revoked(self, message: dict[str, Any]) -> None:
        """The device (or staff user) behind this socket was revoked: close at once."""
        await self.send_json(
            error_message("revoked", _("This device or login was revoked."), self.scope)
        )
        await self.close(code=4401)

    # -- start: snapshot or resume ----------------------------------------------------------

    async def _start(self, params: dict[str, str]) -> None:
        named = parse_resume(params.get("resume", ""))
        # A client resumes only streams of this feed: a stream named in ?resume= that the
        # feed does not carry is ignored, so resuming never reads another feed's events.
        resume = {stream: v for stream, v in named.items() if await self._may_resume(stream)}
        if not resume:  # a cursor alone holds no state of this feed: it needs the snapshot
            asked = "resume" in params or "cursor" in params
            await self._send_snapshot("nothing_to_resume" if asked else None)
            return
        token = params.get("cursor")
        reason = await self._resume(resume, token)
        if reason is not None:
            await self._send_snapshot(reason)

    async def _send_snapshot(self, reason: str | None = None) -> None:
        cursor, point, versions, state = await database_sync_to_async(self._read_snapshot)()
        self.sent = dict(versions)
        self.sent_baseline = len(self.sent)
        self.start_cursor = store.format_cursor(cursor)
        # From here on an event the snapshot holds is never sent, though the streams it
        # names are not all there are: a hand that began after this socket joined its
        # groups and ended before the snapshot was read (its pushes wait in the socket's
        # queue), a stream forgotten at ``streams_limit``.
        self.snapshot_point = point
        await self.send_json(
            snapshot_message(
                versions,
                state,
                format_version=self.format,
                cursor=store.format_cursor(cursor),
                reason=reason,
            )
        )

    def _read_snapshot(
        self,
    ) -> tuple[tuple[int, int], store.ReadPoint, dict[str, int], dict[str, Any]]:
        """``(resume cursor, the moment read, stream versions, state)``: the tail cursor,
        then the feed's snapshot in one consistent read (runs on a database thread). Every
        event up to the cursor had committed before the read, so a resume from it skips
        nothing the snapshot lacks."""
        cursor = store.tail_cursor()
        with store.consistent_read() as point:
            versions, state = self._snapshot()
        return cursor, point, versions, state

    async def _resume(self, versions: dict[str, int], token: str | None) -> str | None:
        """Send what the client missed; returns why a snapshot is needed instead, or
        ``None`` when the resume was honoured."""
        outcome = await database_sync_to_async(self._missed)(versions, token)
        if isinstance(outcome, str):
            return outcome
        missed, end = outcome
        self.sent = dict(versions)
        self.sent_baseline = len(self.sent)
        self.start_cursor = store.format_cursor(end)
        for event in missed:
            await self.log_event({"message": event})
        return None

    async def recover(self, since: str | None) -> None:
        """A relay batch was lost: forward what this feed missed after ``since`` (the
        group's last batch that arrived, else the snapshot's cursor), read from the log; a
        fresh snapshot (``reason: "push_lost"``) when that cannot be read (more than the
        resume window behind)."""
        cursor = store.parse_cursor(since or self.start_cursor)
        outcome = (
            None
            if cursor is None
            else await database_sync_to_async(self._scan)(dict(self.sent), cursor)
        )
        if not isinstance(outcome, tuple):
            await self._send_snapshot("push_lost")
            return
        for event in outcome[0]:
            await self.log_event({"message": event})

    def _missed(
        self, versions: dict[str, int], token: str | None
    ) -> tuple[list[dict[str, Any]], tuple[int, int]] | str:
        """The feed's events after the client's position, in log order, with the cursor the
        scan ended at; or the reason the resume cannot be honoured (runs on a database
        thread)."""
        for stream, version in versions.items():
            if version > store.stream_version(stream):
                return "version_ahead_of_log"
        if token is not None:
            cursor = store.parse_cursor(token)
            if cursor is None:
                return "bad_cursor"
            if cursor > store.tail_cursor():
                return "cursor_ahead_of_log"
        else:
            cursor = _earliest_cursor(versions)
            if cursor is None:
                return "version_not_in_log"
        return self._scan(versions, cursor)

    def _scan(
        self, versions: dict[str, int], cursor: tuple[int, int]
    ) -> tuple[list[dict[str, Any]], tuple[int, int]] | str:
        """The feed's events after ``cursor`` beyond ``versions``, in log order, with the
        cursor the scan ended at; ``"resume_window_exceeded"`` past ``RESUME_MAX_SCAN``
        entries (runs on a database thread)."""
        mine = set(self.groups_to_join)
        missed: list[dict[str, Any]] = []
        scanned = 0
        while True:
            batch = store.read_entries(cursor, limit=1000)
            for entry in batch:
                if not self._wants(entry.stream):
                    continue
                if entry.version <= versions.get(entry.stream, 0):
                    continue
                if mine.intersection(groups.groups_for(entry.stream, entry.type, entry.data)):
                    missed.append(entry_message(entry))
            scanned += len(batch)
            if batch:
                cursor = batch[-1].cursor
            if len(batch) < 1000:
                return missed, cursor
            if scanned >= RESUME_MAX_SCAN:
                return "resume_window_exceeded"

    # -- delivery ---------------------------------------------------------------------------

    async def log_event(self, message: dict[str, Any]) -> None:
        """A committed event from the relay: send it once, in order, filling any gap."""
        await self._deliver(message["message"])

    async def _deliver(self, event: dict[str, Any]) -> None:
        stream, version = event["stream"], event["version"]
        if not self._wants(stream):
            return
        if stream not in self.sent and self._in_snapshot(event):
            return
        last = self.sent.get(stream, 0)
        if version <= last:
            return
        if version > last + 1:
            for missed in await self._read(stream, last):
                if missed["version"] >= version:
                    break
                if self._in_snapshot(missed):  # held by the snapshot: counted, not sent
                    self.sent[stream] = missed["version"]
                else:
                    await self._send_event(missed)
        await self._send_event(event)
        if len(self.sent) > self.sent_baseline + SENT_STREAMS_MAX:
            await self._send_snapshot("streams_limit")  # memory bounded: start afresh

    def _in_snapshot(self, event: dict[str, Any]) -> bool:
        """Whether the socket's last snapshot holds ``event`` already: it had committed
        when the snapshot was read (``False`` after a resume, which sends by version)."""
        token = event.get("cursor")
        if self.snapshot_point is None or token is None:
            return False
        cursor = store.parse_cursor(token)
        return cursor is not None and self.snapshot_point.covers(cursor)

    async def _send_event(self, event: dict[str, Any]) -> None:
        if event["version"] == self.sent.get(event["stream"], 0) + 1:
            self.sent[event["stream"]] = event["version"]
            await self.send_json(for_client(event, self.format))

    async def _catch_up(self) -> None:
        for stream, version in list(self.sent.items()):
            for missed in await self._read(stream, version):
                await self._send_event(missed)

    @database_sync_to_async
    def _read(self, stream: str, after: int) -> list[dict[str, Any]]:
        return [entry_message(e) for e in store.read_stream_entries(stream, after_version=after)]

    # -- who, what --------------------------------------------------------------------------

    @database_sync_to_async
    def _authenticate(self, params: dict[str, str]) -> tuple[Any, bool]:
        """``(principal or None, whether it came from the session cookie)``."""
        from casino.auth import _device_for

        token = params.get("token")
        if token:
            return _device_for(token), False
        user = self.scope.get("user")
        if user is not None and user.is_authenticated:
            return user, True
        return None, False

    @database_sync_to_async
    def _may_read(self, principal: Any) -> bool:
        """The permission matrix of the REST API decides (casino.permissions)."""
        from casino.permissions import allowed

        return allowed(principal, self.read_operation, table_id=self.feed_table_id)

    async def _groups(self) -> list[str]:
        raise NotImplementedError

    def _snapshot(self) -> tuple[dict[str, int], dict[str, Any]]:
        """``(stream versions, state)``: what the client starts from. Runs on a database
        thread inside :func:`casino.eventstore.store.consistent_read` (read only); the
        versions must be those of the state read."""
        raise NotImplementedError

    def _wants(self, stream: str) -> bool:
        return True

    async def _may_resume(self, stream: str) -> bool:
        """Whether ``?resume=`` may name ``stream`` (default: the streams the feed
        forwards, :meth:`_wants`)."""
        return self._wants(stream)


@database_sync_to_async
def _session_seconds_left(key: str) -> float:
    """Seconds until the console session ``key`` expires; 0 when it is gone or expired."""
    from importlib import import_module

    from django.utils import timezone

    store_class = import_module(settings.SESSION_ENGINE).SessionStore
    session = store_class(session_key=key)
    if not session.exists(key):
        return 0.0
    session.load()
    if session.session_key is None:  # load() found it expired and gave a new empty one
        return 0.0
    return max(0.0, (session.get_expiry_date() - timezone.now()).total_seconds())


def _principal_groups(principal: Any, session_key: str | None = None) -> list[str]:
    from casino.realtime.revocation import principal_groups

    return principal_groups(principal, session_key)


def _earliest_cursor(versions: dict[str, int]) -> tuple[int, int] | None:
    """Just before the earliest named event in log order (a v1 resume; version 0 names a
    stream's first event): the scan reads from there, so nothing after any of them is
    skipped (what the client holds is dropped by version)."""
    cursors = [store.event_cursor(stream, max(v, 1)) for stream, v in versions.items()]
    found = [cursor for cursor in cursors if cursor is not None]
    if not found:
        return None
    txid, position = min(found)
    return (txid, position - 1)
