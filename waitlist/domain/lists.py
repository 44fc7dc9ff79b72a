"""The list aggregate: waiting lists, interest lists and table-change lists.

Pure Python (no Django): ``decide(state, command) -> events`` and ``evolve(state, event)``.
One aggregate per list and stream (``waitlist-<list_id>``); the order of ``entries`` is the
order of the list (position 1 first).

Rules (shared/rules/CATALOGUE.md section 4):

* WL-1: anybody can be listed, in the room or not (``channel`` records how); a player is
  on a list at most once (``already_listed``), on as many lists as he likes.
* WL-2: when a seat opens the *next* player is called: the first entry that is not away,
  not already called and not ineligible (the service names the ineligible players: seated
  in that game, or already at the target table for a table change). Calling or seating
  anyone else is refused (``not_next_on_list``); one seat is held by one call at a time
  (``seat_already_called``, ``seat_called_for_other_player``). A called player who is not
  there by the deadline keeps his name but loses his place as :class:`NoShowPolicy` says;
  after ``max_misses`` missed calls he comes off the list. Expiring a call is idempotent:
  a call that was answered, cancelled or already missed, or whose deadline has not passed,
  decides no events (a timer that fires twice, or races the sweep, moves him once). A
  timer that runs long after the deadline (the house's timers were down) renews the call
  instead of charging a miss (:class:`CallRenewed`, CXL-10).
* WL-3: a waiting player who leaves the room tells staff: he is marked away (kept, not
  called) or removed.

Interest lists are not called from; :class:`PromoteInterest` turns one into the waiting
list of a newly opened table once ``threshold`` players wait. A list may link a main table
and the must-move table feeding it: a main-table seat then goes to the must-move player
first (``must_move_first``).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta

from casino.domain_events import DomainEvent
from casino.errors import DomainError, NotFound
from tables.domain.table_state import TABLE_GAMES
from waitlist.events import (
    LEFT_AFTER_MISSES,
    LEFT_BY_FLOOR,
    LEFT_BY_PLAYER,
    LEFT_SEATED_IN_GAME,
    CallCancelled,
    CallMissed,
    CallRenewed,
    InterestListPromoted,
    MustMoveLinked,
    MustMovePlayerMoved,
    MustMoveUnlinked,
    PlayerCalled,
    PlayerLeftList,
    PlayerListed,
    PlayerMarkedAway,
    PlayerMarkedBack,
    PlayerMovedDown,
    PlayerSeatedFromList,
    WaitingListClosed,
    WaitingListOpened,
)

WAITING, INTEREST, TABLE_CHANGE = "waiting", "interest", "table_change"
LIST_KINDS = (WAITING, INTEREST, TABLE_CHANGE)
CHANNELS = ("in_person", "phone", "console")
LEAVE_REASONS = (LEFT_BY_PLAYER, LEFT_BY_FLOOR)
NO_SHOW_ACTIONS = ("bottom", "down")


# --- state ----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Entry:
    """One name on the list. ``misses``: calls he missed on this list (WL-2)."""

    entry_id: str
    player_id: int
    channel: str
    listed_at: str
    phone: str = ""  # only in entries listed before the contact store (v1 events)
    from_table_id: int | None = None
    misses: int = 0
    away: bool = False
    phone_ref: str = ""  # the callback number's key in the contact store, if any


@dataclass(frozen=True, slots=True)
class Call:
    """A call in progress: ``player_id`` is wanted at ``seat`` of ``table_id`` by
    ``deadline`` (ISO 8601 UTC)."""

    call_id: str
    entry_id: str
    player_id: int
    table_id: int
    seat: int
    called_at: str
    deadline: str


@dataclass(frozen=True, slots=True)
class ListState:
    """A list: its game and stakes (CZK), its names in order, the calls in progress."""

    list_id: str
    list_kind: str
    game: str
    small_blind: int
    big_blind: int
    entries: tuple[Entry, ...] = ()
    calls: tuple[Call, ...] = ()
    table_id: int | None = None  # the table an interest list was promoted to
    main_table_id: int | None = None
    must_move_table_id: int | None = None
    closed: bool = False  # the floor closed it: as if never opened, until opened again

    def entry_of(self, player_id: int) -> Entry | None:
        return next((e for e in self.entries if e.player_id == player_id), None)

    def position_of(self, player_id: int) -> int:
        """1-based place of the player (0: not listed)."""
        return next((i for i, e in enumerate(self.entries, 1) if e.player_id == player_id), 0)

    def call(self, call_id: str) -> Call | None:
        return next((c for c in self.calls if c.call_id == call_id), None)

    def call_of(self, player_id: int) -> Call | None:
        return next((c for c in self.calls if c.player_id == player_id), None)

    def call_for_seat(self, table_id: int, seat: int) -> Call | None:
        return next((c for c in self.calls if (c.table_id, c.seat) == (table_id, seat)), None)

    def first_eligible(self, ineligible: frozenset[int] = frozenset()) -> Entry | None:
        """The next player to call (WL-2): the first name not away (WL-3), not already
        called and not in ``ineligible``."""
        called = {c.player_id for c in self.calls}
        for entry in self.entries:
            if entry.away or entry.player_id in called or entry.player_id in ineligible:
                continue
            return entry
        return None


@dataclass(frozen=True, slots=True)
class NoShowPolicy:
    """The house rule for a called player who is not there (``waitlist.no_show_action``).

    ``action``: ``"bottom"`` (to the end of the list) or ``"down"`` (``places`` places
    down; the catalogue's default "behind the next player called" is ``down`` 1).
    ``max_misses``: after this many missed calls he comes off the list (0: never).
    """

    action: str = "down"
    places: int = 1
    max_misses: int = 3

    def __post_init__(self) -> None:
        if self.action not in NO_SHOW_ACTIONS or self.places < 1 or self.max_misses < 0:
            raise ValueError(f"invalid no-show policy {self!r}")

    @property
    def label(self) -> str:
        return "bottom" if self.action == "bottom" else f"down:{self.places}"

    def new_position(self, position: int, length: int, called: frozenset[int] = frozenset()) -> int:
        """Where a player at ``position`` (1-based) of a list of ``length`` goes. ``down``
        counts only players who will be called after him: ``called`` (the positions of
        others whose calls are open, and of players away, who are not called: WL-3) are
        stepped over, so that two no-shows on calls made together never put the first back
        in front of a player nobody has called yet, and "one place down" puts him behind
        the next player called, not behind one who is away (found by QA)."""
        if self.action == "bottom":
            return length
        passed, new = 0, position
        while passed < self.places and new < length:
            new += 1
            if new not in called:
                passed += 1
        return new


# --- commands -------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class OpenList:
    list_id: str
    list_kind: str
    game: str
    small_blind: int
    big_blind: int


@dataclass(frozen=True, slots=True)
class CloseList:
    """The floor closes the list; the names still on it come off (``reason``: why)."""

    reason: str


@dataclass(frozen=True, slots=True)
class Join:
    """Put ``player_id`` at the bottom (WL-1). ``from_table_id``: the table of the game he
    sits at, if any (the service looks it up): required on a table-change list, refused on a
    waiting list (a seated player asks for a table change instead)."""

    entry_id: str
    player_id: int
    channel: str
    now: datetime
    phone_ref: str = ""
    from_table_id: int | None = None


@dataclass(frozen=True, slots=True)
class Leave:
    player_id: int
    reason: str = LEFT_BY_PLAYER


@dataclass(frozen=True, slots=True)
class MarkAway:
    player_id: int
    away: bool


@dataclass(frozen=True, slots=True)
class CallPlayer:
    """Call the next eligible player (or check that ``player_id`` is him) for ``seat`` at
    ``table_id``; he has ``call_seconds`` to answer. ``ineligible``: players the service
    found seated in this game (or at the target table, on a table-change list).
    ``must_move_waiting``: the must-move table has players (a main-table seat is theirs)."""

    call_id: str
    table_id: int
    seat: int
    now: datetime
    call_seconds: int
    ineligible: frozenset[int] = frozenset()
    player_id: int | None = None
    must_move_waiting: bool = False


@dataclass(frozen=True, slots=True)
class CancelCall:
    call_id: str
    reason: str


@dataclass(frozen=True, slots=True)
class ExpireCall:
    """The call's deadline passed (timer or sweep; ``by_floor``: the floor recorded a
    no-show before it). Idempotent: decides nothing when the call is not open or not due.

    What the tables say at the deadline (the service reads them): ``withdrawn``, why the
    call no longer stands although nobody answered it (``seat_taken``, ``table_closed``,
    ``player_seated``); ``seated_in_game``: the player sits at a table of this list's game.
    A player who was not wanted any more is not a no-show (WL-2).

    ``late_limit``: a timer or sweep that runs more than this after the deadline proves
    the house's timers were down (a server or worker outage): the call is renewed for
    ``call_seconds`` from ``now`` (:class:`CallRenewed`, CXL-10) instead of charging the
    player a miss. ``None``: no such check (the floor's no-show never has it)."""

    call_id: str
    now: datetime
    policy: NoShowPolicy
    by_floor: bool = False
    withdrawn: str | None = None
    seated_in_game: bool = False
    late_limit: timedelta | None = None
    call_seconds: int = 0


@dataclass(frozen=True, slots=True)
class SeatFromList:
    """Seat ``player_id`` from the list at ``seat`` of ``table_id`` (the service seats him
    at the table in the same transaction). On a table-change list ``from_table_id`` is the
    table he moves from with his whole stack (``buy_in`` is ignored)."""

    player_id: int
    table_id: int
    seat: int
    buy_in: int
    ineligible: frozenset[int] = frozenset()
    must_move_waiting: bool = False
    from_table_id: int | None = None  # table change: where he sits now


@dataclass(frozen=True, slots=True)
class PromoteInterest:
    table_id: int
    threshold: int


@dataclass(frozen=True, slots=True)
class LinkMustMove:
    """Link (both ids) or unlink (both ``None``) a main table and its must-move table."""

    main_table_id: int | None
    must_move_table_id: int | None


@dataclass(frozen=True, slots=True)
class RecordMustMove:
    """The service moved ``player_id`` from the must-move table to the main table."""

    player_id: int
    from_seat: int
    to_seat: int


Command = (
    OpenList
    | Join
    | Leave
    | MarkAway
    | CallPlayer
    | CancelCall
    | ExpireCall
    | SeatFromList
    | PromoteInterest
    | LinkMustMove
    | RecordMustMove
    | CloseList
)


# --- decide ---------------------------------------------------------------------------------


def _iso(moment: datetime) -> str:
    """ISO 8601 in UTC (every stored time is UTC).

    Raises:
        ValueError: a naive time.
    """
    if moment.tzinfo is None:
        raise ValueError("times must be timezone-aware (UTC)")
    return moment.astimezone(UTC).isoformat()


def decide(state: ListState | None, command: Command) -> list[DomainEvent]:
    """The events ``command`` produces on the list, or an empty list (nothing to do).

    Raises:
        DomainError: the command is refused (codes in this module's docstring and below);
        NotFound ``list_not_found``: no such list.
    """
    if isinstance(command, OpenList):
        return _open(state, command)
    if state is None or state.closed:
        raise NotFound("list_not_found", "There is no such list.")
    match command:
        case Join():
            return _join(state, command)
        case Leave():
            return _leave(state, command)
        case MarkAway():
            return _mark_away(state, command)
        case CallPlayer():
            return _call(state, command)
        case CancelCall():
            return _cancel(state, command)
        case ExpireCall():
            return _expire(state, command)
        case SeatFromList():
            return _seat(state, command)
        case PromoteInterest():
            return _promote(state, command)
        case LinkMustMove():
            return _link(state, command)
        case RecordMustMove():
            return _must_move(state, command)
        case CloseList():
            return _close(state, command)
    raise TypeError(f"unknown command {command!r}")


MAX_REASON = 200
"""The longest reason the floor gives, characters."""


def _close(state: ListState, c: CloseList) -> list[DomainEvent]:
    if state.calls:  # a called player is on his way to a seat the list holds
        raise DomainError(
            "calls_in_progress",
            "Seat or cancel the calls in progress first.",
            rule="WL-2",
            calls=len(state.calls),
        )
    reason = c.reason.strip()
    if not reason or len(reason) > MAX_REASON:
        raise DomainError(
            "reason_required",
            f"Give the reason, 1 to {MAX_REASON} characters.",
            max_length=MAX_REASON,
        )
    return [WaitingListClosed(state.list_id, reason, tuple(e.player_id for e in state.entries))]


def _open(state: ListState | None, c: OpenList) -> list[DomainEvent]:
    if state is not None and not state.closed:
        raise DomainError("list_exists", "This list is already open.", list_id=c.list_id)
    if c.list_kind not in LIST_KINDS:
        kinds = ", ".join(LIST_KINDS)
        raise DomainError("invalid_list_kind", f"A list is one of {kinds}.", allowed=kinds)
    if c.small_blind <= 0 or c.big_blind < c.small_blind:
        raise DomainError("invalid_stakes", "Stakes are a small and a big blind, SB <= BB.")
    if c.list_kind != INTEREST and c.game not in TABLE_GAMES:  # a game the tables deal
        games = ", ".join(TABLE_GAMES)
        raise DomainError(
            "unknown_game",
            f"A waiting or table-change list is for a game the tables deal: {games} (an "
            "interest list may name any).",
            game=c.game,
            allowed=games,
        )
    return [WaitingListOpened(c.list_id, c.list_kind, c.game, c.small_blind, c.big_blind)]


def _listed(state: ListState, player_id: int) -> Entry:
    entry = state.entry_of(player_id)
    if entry is None:
        raise NotFound(
            "not_on_list",
            f"Player {player_id} is not on this list.",
            player_id=player_id,
            list_id=state.list_id,
        )
    return entry


def _join(state: ListState, c: Join) -> list[DomainEvent]:
    if c.channel not in CHANNELS:
        channels = ", ".join(CHANNELS)
        raise DomainError("invalid_channel", f"A player joins {channels}.", allowed=channels)
    if state.entry_of(c.player_id) is not None:
        raise DomainError(
            "already_listed",
            "The player is already on this list.",
            rule="WL-1",
            player_id=c.player_id,
            position=state.position_of(c.player_id),
        )
    if state.list_kind == TABLE_CHANGE and c.from_table_id is None:
        raise DomainError(
            "not_seated_in_game",
            "Only a player seated in this game can ask for a table change.",
            player_id=c.player_id,
        )
    if state.list_kind == WAITING and c.from_table_id is not None:
        raise DomainError(
            "seated_in_game",
            f"The player already sits in this game, at table {c.from_table_id}: put him on "
            "its table-change list instead.",
            rule="WL-2",
            player_id=c.player_id,
            table_id=c.from_table_id,
        )

    return [
        PlayerListed(
            state.list_id,
            c.entry_id,
            c.player_id,
            c.channel,
            _iso(c.now),
            "",
            c.from_table_id if state.list_kind == TABLE_CHANGE else None,
            phone_ref=c.phone_ref,
        )
    ]


def _leave(state: ListState, c: Leave) -> list[DomainEvent]:
    if c.reason not in LEAVE_REASONS:
        reasons = ", ".join(LEAVE_REASONS)
        raise DomainError("invalid_reason", f"A player leaves by {reasons}.", allowed=reasons)
    entry = _listed(state, c.player_id)
    events: list[DomainEvent] = []
    call = state.call_of(c.player_id)
    if call is not None:
        events.append(CallCancelled(state.list_id, call.call_id, c.player_id, "player_left"))
    position = state.position_of(c.player_id)
    events.append(PlayerLeftList(state.list_id, entry.entry_id, c.player_id, position, c.reason))
    return events


def _mark_away(state: ListState, c: MarkAway) -> list[DomainEvent]:
    entry = _listed(state, c.player_id)
    if entry.away == c.away:
        return []
    if c.away:
        if state.call_of(c.player_id) is not None:
            raise DomainError(
                "player_called",
                "The player is being called; record the no-show or cancel the call first.",
                rule="WL-3",
            )
        return [PlayerMarkedAway(state.list_id, entry.entry_id, c.player_id)]
    return [PlayerMarkedBack(state.list_id, entry.entry_id, c.player_id)]


def _running(state: ListState) -> None:
    if state.list_kind == INTEREST:
        raise DomainError(
            "game_not_running",
            "Nobody is called from an interest list; start the game first.",
            list_id=state.list_id,
        )


def _must_move_first(state: ListState, table_id: int, must_move_waiting: bool) -> None:
    if must_move_waiting and table_id == state.main_table_id:
        raise DomainError(
            "must_move_first",
            "A main-table seat goes to the longest-seated must-move player first.",
            table_id=table_id,
            must_move_table_id=state.must_move_table_id,
        )


def _next_player(state: ListState, player_id: int, ineligible: frozenset[int]) -> None:
    """Refuse anyone but the next eligible player (WL-2, WL-3)."""
    entry = _listed(state, player_id)
    if entry.away:
        raise DomainError(
            "player_away", "The player told staff he is away.", rule="WL-3", player_id=player_id
        )
    if player_id in ineligible:
        raise DomainError(
            "player_not_eligible",
            "The player already plays this game (or sits at that table).",
            rule="WL-2",
            player_id=player_id,
        )
    first = state.first_eligible(ineligible)
    if first is None or first.player_id != player_id:
        raise DomainError(
            "not_next_on_list",
            "Another player is next on the list.",
            rule="WL-2",
            player_id=player_id,
            next_player_id=first.player_id if first else None,
        )


def _call(state: ListState, c: CallPlayer) -> list[DomainEvent]:
    _running(state)
    if c.call_seconds <= 0:
        raise ValueError("call_seconds must be positive")
    _must_move_first(state, c.table_id, c.must_move_waiting)
    held = state.call_for_seat(c.table_id, c.seat)
    if held is not None:
        raise DomainError(
            "seat_already_called",
            "Someone is already called for this seat.",
            rule="WL-2",
            call_id=held.call_id,
            player_id=held.player_id,
        )
    if c.player_id is not None:
        if state.call_of(c.player_id) is not None:
            raise DomainError("already_called", "The player is already called.", rule="WL-2")
        _next_player(state, c.player_id, c.ineligible)
    entry = state.first_eligible(c.ineligible)
    if entry is None:
        raise DomainError(
            "no_eligible_player", "Nobody on the list can take this seat.", rule="WL-2"
        )
    deadline = c.now + timedelta(seconds=c.call_seconds)
    return [
        PlayerCalled(
            state.list_id,
            c.call_id,
            entry.entry_id,
            entry.player_id,
            c.table_id,
            c.seat,
            _iso(c.now),
            _iso(deadline),
        )
    ]


def _open_call(state: ListState, call_id: str) -> Call:
    call = state.call(call_id)
    if call is None:
        raise NotFound("call_not_found", "There is no call in progress with this id.")
    return call


def _cancel(state: ListState, c: CancelCall) -> list[DomainEvent]:
    call = _open_call(state, c.call_id)
    return [CallCancelled(state.list_id, call.call_id, call.player_id, c.reason or "floor")]


def _expire(state: ListState, c: ExpireCall) -> list[DomainEvent]:
    call = state.call(c.call_id)
    if call is None:
        if c.by_floor:
            raise NotFound("call_not_found", "There is no call in progress with this id.")
        return []  # answered, cancelled or already missed: the timer does nothing
    if not c.by_floor and c.now < datetime.fromisoformat(call.deadline):
        return []  # not due yet (an early timer); the sweep or the real timer will come
    entry = _listed(state, call.player_id)
    if c.withdrawn is not None and not c.by_floor:  # nobody to miss: no charge (WL-2)
        withdrawn: list[DomainEvent] = [
            CallCancelled(state.list_id, call.call_id, call.player_id, c.withdrawn)
        ]
        if c.seated_in_game:  # he plays the game he waited for
            position = state.position_of(call.player_id)
            withdrawn.append(PlayerLeftList(
                state.list_id, entry.entry_id, call.player_id, position, LEFT_SEATED_IN_GAME
            ))  # fmt: skip
        return withdrawn
    late = c.now - datetime.fromisoformat(call.deadline)
    if not c.by_floor and c.late_limit is not None and late > c.late_limit:
        renewed = c.now + timedelta(seconds=c.call_seconds)
        return [CallRenewed(
            state.list_id, call.call_id, call.player_id, call.deadline, _iso(renewed),
            int(late.total_seconds()),
        )]  # fmt: skip
    misses = entry.misses + 1
    reason = "floor" if c.by_floor else "deadline"
    events: list[DomainEvent] = [
        CallMissed(state.list_id, call.call_id, call.player_id, reason, misses)
    ]
    position = state.position_of(call.player_id)
    if c.policy.max_misses and misses >= c.policy.max_misses:
        events.append(
            PlayerLeftList(
                state.list_id, entry.entry_id, call.player_id, position, LEFT_AFTER_MISSES
            )
        )
    else:
        events.append(
            PlayerMovedDown(
                state.list_id,
                entry.entry_id,
                call.player_id,
                position,
                c.policy.new_position(
                    position,
                    len(state.entries),
                    frozenset(
                        state.position_of(o.player_id)
                        for o in state.calls
                        if o.call_id != call.call_id
                    )
                    | frozenset(n for n, e in enumerate(state.entries, 1) if e.away),
                ),
                "no_show",
                c.policy.label,
            )
        )
    return events


def _seat(state: ListState, c: SeatFromList) -> list[DomainEvent]:
    _running(state)
    entry = _listed(state, c.player_id)
    _must_move_first(state, c.table_id, c.must_move_waiting)
    held = state.call_for_seat(c.table_id, c.seat)
    if held is not None and held.player_id != c.player_id:
        raise DomainError(
            "seat_called_for_other_player",
            "This seat is held for the player who was called for it.",
            rule="WL-2",
            call_id=held.call_id,
            player_id=held.player_id,
        )
    call = state.call_of(c.player_id)
    if call is None:
        _next_player(state, c.player_id, c.ineligible)
    return [
        PlayerSeatedFromList(
            state.list_id,
            entry.entry_id,
            c.player_id,
            c.table_id,
            c.seat,
            0 if state.list_kind == TABLE_CHANGE else c.buy_in,
            state.position_of(c.player_id),
            call.call_id if call else None,
            c.from_table_id if state.list_kind == TABLE_CHANGE else None,
        )
    ]


def _promote(state: ListState, c: PromoteInterest) -> list[DomainEvent]:
    if state.list_kind != INTEREST:
        raise DomainError("not_an_interest_list", "Only an interest list starts a game.")
    waiting = sum(1 for e in state.entries if not e.away)
    if waiting < c.threshold:
        raise DomainError(
            "not_enough_interest",
            f"{waiting} players wait; the game starts with {c.threshold}.",
            waiting=waiting,
            threshold=c.threshold,
        )
    return [InterestListPromoted(state.list_id, c.table_id, waiting)]


def _link(state: ListState, c: LinkMustMove) -> list[DomainEvent]:
    if state.list_kind != WAITING:
        raise DomainError("not_a_waiting_list", "Must-move tables belong to a waiting list.")
    if c.main_table_id is None or c.must_move_table_id is None:
        return [MustMoveUnlinked(state.list_id)] if state.main_table_id is not None else []
    if c.main_table_id == c.must_move_table_id:
        raise DomainError("invalid_must_move", "The main and must-move tables must differ.")
    return [MustMoveLinked(state.list_id, c.main_table_id, c.must_move_table_id)]


def _must_move(state: ListState, c: RecordMustMove) -> list[DomainEvent]:
    if state.main_table_id is None or state.must_move_table_id is None:
        raise DomainError("no_must_move_table", "This game has no must-move table.")
    held = state.call_for_seat(state.main_table_id, c.to_seat)
    if held is not None:
        raise DomainError(
            "seat_called_for_other_player",
            "This seat is held for the player who was called for it.",
            rule="WL-2",
            call_id=held.call_id,
            player_id=held.player_id,
        )
    return [
        MustMovePlayerMoved(
            state.list_id,
            c.player_id,
            state.must_move_table_id,
            c.from_seat,
            state.main_table_id,
            c.to_seat,
        )
    ]


# --- evolve ---------------------------------------------------------------------------------


def _without(state: ListState, player_id: int) -> ListState:
    return replace(
        state,
        entries=tuple(e for e in state.entries if e.player_id != player_id),
        calls=tuple(c for c in state.calls if c.player_id != player_id),
    )


def _update(state: ListState, player_id: int, **changes: object) -> ListState:
    return replace(
        state,
        entries=tuple(
            replace(e, **changes) if e.player_id == player_id else e  # type: ignore[arg-type]
            for e in state.entries
        ),
    )


def evolve(state: ListState | None, event: DomainEvent) -> ListState | None:
    """The list after ``event`` (events are facts: no checks here)."""
    if isinstance(event, WaitingListOpened):
        return ListState(
            event.list_id, event.list_kind, event.game, event.small_blind, event.big_blind
        )
    assert state is not None, f"{event.TYPE} before the list was opened"
    match event:
        case WaitingListClosed():
            return replace(state, entries=(), calls=(), closed=True)
        case PlayerListed():
            entry = Entry(
                event.entry_id,
                event.player_id,
                event.channel,
                event.listed_at,
                event.phone,
                event.from_table_id,
                phone_ref=event.phone_ref,
            )
            return replace(state, entries=(*state.entries, entry))
        case PlayerLeftList() | PlayerSeatedFromList():
            return _without(state, event.player_id)
        case PlayerMarkedAway():
            return _update(state, event.player_id, away=True)
        case PlayerMarkedBack():
            return _update(state, event.player_id, away=False)
        case PlayerCalled():
            call = Call(
                event.call_id,
                event.entry_id,
                event.player_id,
                event.table_id,
                event.seat,
                event.called_at,
                event.deadline,
            )
            return replace(state, calls=(*state.calls, call))
        case CallCancelled():
            return replace(state, calls=tuple(c for c in state.calls if c.call_id != event.call_id))
        case CallRenewed():
            calls = tuple(
                replace(c, deadline=event.deadline) if c.call_id == event.call_id else c
                for c in state.calls
            )
            return replace(state, calls=calls)
        case CallMissed():
            state = replace(
                state, calls=tuple(c for c in state.calls if c.call_id != event.call_id)
            )
            return _update(state, event.player_id, misses=event.misses)
        case PlayerMovedDown():
            entries = list(state.entries)
            index = next(i for i, e in enumerate(entries) if e.player_id == event.player_id)
            entry = entries.pop(index)
            entries.insert(event.to_position - 1, entry)
            return replace(state, entries=tuple(entries))
        case InterestListPromoted():
            return replace(state, list_kind=WAITING, table_id=event.table_id)
        case MustMoveLinked():
            return replace(
                state,
                main_table_id=event.main_table_id,
                must_move_table_id=event.must_move_table_id,
            )
        case MustMoveUnlinked():
            return replace(state, main_table_id=None, must_move_table_id=None)
        case MustMovePlayerMoved():
            return state
    return state


def fold(events: list[DomainEvent]) -> ListState | None:
    """The list after ``events`` from the start."""
    state: ListState | None = None
    for event in events:
        state = evolve(state, event)
    return state
