"""Read side of the waiting lists: the floor console's view, the public board, the sweep's
due calls, and estimated waits.

* :func:`floor_payload` -- every list in order, its calls in progress with deadlines, the
  open seats of each table of its game and, for each open seat not held by a call, the
  player the floor is offered (the next eligible, WL-2, with his returning-player minimum,
  SES-7), or the must-move player for a main-table seat.
* :func:`board_payload` -- what a TV board in the room shows: games, stakes, names as
  nicknames or initials (never full names, phone numbers or player ids), estimated waits.

Estimated wait (seconds): from the seats freed in the game over the last
``WAITLIST_TURNOVER_WINDOW_SECONDS`` (cash-outs, not transfers inside the game): with ``n``
freed seats in a window of ``W`` seconds a seat frees every ``W / n`` seconds, so the
player at place ``k`` waits ``max(0, k - open seats) * W // n``; unknown (``None``) when
no seat freed in the window. Interest lists have no estimate.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from django.conf import settings

from cashgame import selectors as cash_selectors
from cashgame.models import CashSession
from casino import clock, contacts
from casino.models import Player, board_names, display_name
from tables.models import SeatView
from waitlist import services
from waitlist.domain.lists import INTEREST, TABLE_CHANGE, ListState
from waitlist.models import WaitingList, WaitlistCall, WaitlistEntry


def iso(moment: datetime | None) -> str | None:
    """ISO 8601 in UTC with ``Z``."""
    if moment is None:
        return None
    return moment.astimezone(UTC).isoformat().replace("+00:00", "Z")


def overdue_calls(now: datetime | None = None) -> list[tuple[str, str]]:
    """``(list_id, call_id)`` of every open call whose deadline has passed, oldest first."""
    moment = now or clock.now()
    rows = WaitlistCall.objects.filter(status="open", deadline__lte=moment).order_by("deadline")
    return [(str(a), str(b)) for a, b in rows.values_list("waiting_list_id", "call_id")]


def seats_freed(state: ListState | WaitingList, since: datetime) -> int:
    """Cash sessions of the game and stakes that ended since ``since`` (not by transfer)."""
    return CashSession.objects.filter(
        game=state.game,
        small_blind=state.small_blind,
        big_blind=state.big_blind,
        left_at__gte=since,
        left_by_transfer=False,
    ).count()


def estimated_wait(position: int, open_seats: int, freed: int, window: int) -> int | None:
    """Seconds the player at ``position`` (1-based) may wait; ``None``: unknown."""
    ahead = position - open_seats
    if ahead <= 0:
        return 0
    if freed <= 0:
        return None
    return ahead * window // freed


class _ListView:
    """Everything one list's payloads need, read with a handful of queries."""

    def __init__(self, waiting_list: WaitingList, now: datetime) -> None:
        self.row = waiting_list
        self.now = now
        self.state = services.load_list(waiting_list.list_id).state
        self.entries = list(
            WaitlistEntry.objects.filter(waiting_list=waiting_list).order_by("position")
        )
        self.calls = list(
            WaitlistCall.objects.filter(waiting_list=waiting_list, status="open").order_by(
                "called_at", "call_id"
            )
        )
        ids = {e.player_id for e in self.entries} | {c.player_id for c in self.calls}
        self.tables = [] if self.state.list_kind == INTEREST else services.game_tables(self.state)
        self.seats = list(SeatView.objects.filter(table_id__in=[t.pk for t in self.tables]))
        ids |= {s.player_id for s in self.seats}
        self.players = {p.pk: p for p in Player.objects.filter(pk__in=ids)}
        listed = {e.player_id for e in self.entries} | {c.player_id for c in self.calls}
        self.names = board_names(p for pk, p in self.players.items() if pk in listed)
        # callback numbers from the contact store (an erased one reads ""), v1 entries' own
        self.phones = contacts.phones(e.phone_ref for e in self.entries)
        self.held = {(c.table_id, c.seat): c for c in self.calls}
        # a seat another list's call holds is not this list's to offer (WL-2: the console
        # offered it, and the server refused the call: found by QA)
        self.held_elsewhere = set(
            WaitlistCall.objects.filter(status="open", table_id__in=[t.pk for t in self.tables])
            .exclude(waiting_list=waiting_list)
            .values_list("table_id", "seat")
        )
        # where each player sits now: a table-change entry shows his table after a move
        self.seated_at = {s.player_id: s.table_id for s in self.seats}
        occupied = {(s.table_id, s.seat) for s in self.seats}
        self.open_seats = {
            t.pk: [n for n in range(1, t.max_seats + 1) if (t.pk, n) not in occupied]
            for t in self.tables
        }
        free = sum(
            1
            for t, seats in self.open_seats.items()
            for n in seats
            if (t, n) not in self.held and (t, n) not in self.held_elsewhere
        )
        window = settings.WAITLIST_TURNOVER_WINDOW_SECONDS
        freed = seats_freed(self.state, now - timedelta(seconds=window))
        called = {c.player_id for c in self.calls}

        def wait(position: int, player_id: int | None = None) -> int | None:
            if self.state.list_kind == INTEREST:
                return None
            if player_id in called:
                return 0
            return estimated_wait(position, free, freed, window)

        self.wait = wait

    def name(self, player_id: int) -> str:
        if player_id in self.names:
            return self.names[player_id]
        return display_name(self.players.get(player_id))

    def from_table(self, player_id: int, joined_from: int | None) -> int | None:
        """On a table-change list (``joined_from`` set), the table the player sits at now:
        a must-move or another list may have moved him since he joined. ``None`` on other
        lists."""
        if joined_from is None:
            return None
        return self.seated_at.get(player_id, joined_from)

    def offer(self, table_id: int) -> dict[str, Any] | None:
        """Whom the floor is offered for an open seat at ``table_id``."""
        state = self.state
        if services.must_move_waiting(state, table_id):
            assert state.must_move_table_id is not None
            longest = services.longest_seated(state.must_move_table_id)
            if longest is not None:
                return {
                    "offer_kind": "must_move",
                    "player_id": longest.player_id,
                    "display": self.name(longest.player_id),
                    "position": None,
                    "from_table_id": longest.table_id,
                    "returning_minimum": 0,
                    "return_until": None,
                    "seated_at_table_id": longest.table_id,
                    "seated_in_tournament_id": None,
                }
        entry = state.first_eligible(services.ineligible_players(state, table_id))
        if entry is None:
            return None
        restriction = next(
            (
                r
                for r in cash_selectors.return_restrictions(entry.player_id)
                if (r.game, r.small_blind, r.big_blind)
                == (state.game, state.small_blind, state.big_blind)
            ),
            None,
        )
        seated = SeatView.objects.filter(player_id=entry.player_id).first()
        return {
            "offer_kind": "table_change" if state.list_kind == TABLE_CHANGE else "waiting_list",
            "player_id": entry.player_id,
            "display": self.name(entry.player_id),
            "position": state.position_of(entry.player_id),
            "from_table_id": self.from_table(entry.player_id, entry.from_table_id),
            "returning_minimum": restriction.amount_required if restriction else 0,
            "return_until": iso(restriction.until) if restriction else None,
            "seated_at_table_id": seated.table_id if seated else None,
            "seated_in_tournament_id": seated.tournament_id if seated else None,
        }

    def floor(self) -> dict[str, Any]:
        row, state = self.row, self.state
        call_of = {c.player_id: c.call_id for c in self.calls}
        tables = []
        for table in self.tables:
            open_seats = []
            offer = None
            for number in self.open_seats[table.pk]:
                call = self.held.get((table.pk, number))
                elsewhere = (table.pk, number) in self.held_elsewhere
                if call is None and offer is None and not elsewhere:
                    offer = self.offer(table.pk)
                open_seats.append(
                    {
                        "seat": number,
                        "call_id": call.call_id if call else None,
                        "offer": None if call or elsewhere else offer,
                    }
                )
            tables.append(
                {
                    "table_id": table.pk,
                    "name": table.name,
                    "max_seats": table.max_seats,
                    "seated": table.max_seats - len(self.open_seats[table.pk]),
                    "role": "main"
                    if table.pk == state.main_table_id
                    else "must_move"
                    if table.pk == state.must_move_table_id
                    else None,
                    "open_seats": open_seats,
                }
            )
        return {
            **self._head(),
            "version": row.version,
            "table_id": row.table_id,
            "main_table_id": row.main_table_id,
            "must_move_table_id": row.must_move_table_id,
            "entries": [
                {
                    "position": e.position,
                    "entry_id": e.entry_id,
                    "player_id": e.player_id,
                    "display": self.name(e.player_id),
                    "channel": e.channel,
                    "phone": self.phones.get(e.phone_ref, "") if e.phone_ref else e.phone,
                    "listed_at": iso(e.listed_at),
                    "misses": e.misses,
                    "away": e.away,
                    "call_id": call_of.get(e.player_id),
                    "from_table_id": self.from_table(e.player_id, e.from_table_id),
                    "estimated_wait_seconds": self.wait(e.position, e.player_id),
                }
                for e in self.entries
            ],
            "calls": [
                {
                    "call_id": c.call_id,
                    "player_id": c.player_id,
                    "display": self.name(c.player_id),
                    "table_id": c.table_id,
                    "seat": c.seat,
                    "called_at": iso(c.called_at),
                    "deadline": iso(c.deadline),
                    "seconds_left": max(0, int((c.deadline - self.now).total_seconds())),
                }
                for c in self.calls
            ],
            "tables": tables,
        }

    def _head(self) -> dict[str, Any]:
        row = self.row
        return {
            "list_id": row.list_id,
            "list_kind": row.list_kind,
            "game": row.game,
            "small_blind": row.small_blind,
            "big_blind": row.big_blind,
            "waiting": len(self.entries),
            "interest_threshold": settings.WAITLIST_INTEREST_THRESHOLD
            if row.list_kind == INTEREST
            else None,
            "estimated_wait_seconds": self.wait(len(self.entries) + 1),
        }

    def board(self) -> dict[str, Any]:
        called = {c.player_id: c for c in self.calls}

        def call_of(player_id: int) -> dict[str, Any]:
            call = called.get(player_id)
            if call is None:
                return {"call_deadline": None, "call_seconds_left": None}
            seconds = max(0, int((call.deadline - self.now).total_seconds()))
            return {"call_deadline": iso(call.deadline), "call_seconds_left": seconds}

        return {
            **self._head(),
            "names": [
                {
                    "position": e.position,
                    "display": self.name(e.player_id),
                    "called": e.player_id in called,
                    "away": e.away,
                    **call_of(e.player_id),
                }
                for e in self.entries
            ],
        }


def waitlist_payload(list_id: str) -> dict[str, Any]:
    """One list as the floor console shows it (``WaitlistSerializer``).

    Raises:
        NotFound ``list_not_found``.
    """
    row = WaitingList.objects.filter(list_id=list_id).first()
    if row is None:
        services.load_list(list_id)  # raises list_not_found
        raise AssertionError("a list with events has a read model")
    return _ListView(row, clock.now()).floor()


def floor_payload() -> dict[str, Any]:
    """Every list for the floor console (``FloorSerializer``): ``{"now", "lists"}``."""
    now = clock.now()
    return {
        "now": iso(now),
        "lists": [_ListView(row, now).floor() for row in WaitingList.objects.all()],
    }


def board_payload() -> dict[str, Any]:
    """The public board (``BoardSerializer``): waiting and interest lists with nicknames
    or initials only (no full names, phone numbers or player ids)."""
    now = clock.now()
    rows = WaitingList.objects.exclude(list_kind=TABLE_CHANGE)
    return {"now": iso(now), "lists": [_ListView(row, now).board() for row in rows]}


def stream_versions() -> dict[str, int]:
    """``{"waitlist-<id>": version}`` of every list (feeds' snapshots)."""
    return {
        services.list_stream(list_id): version
        for list_id, version in WaitingList.objects.values_list("list_id", "version")
    }
