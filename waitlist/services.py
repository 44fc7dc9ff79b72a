"""Command handlers of the waiting lists: load the list, decide, append, return.

Every function is keyword-only and runs inside the caller's transaction (``run_command``
in the API and the Celery tasks); the ones that also write to a table stream open a
nested ``transaction.atomic()`` so that both streams' appends commit together or not at
all. Refusals raise :class:`casino.errors.DomainError` with a stable code and a rule ID,
and nothing is appended. Amounts are whole CZK, times UTC from :mod:`casino.clock`, call
deadlines ``WAITLIST_CALL_SECONDS`` after the call.

Rules: WL-1 (listing), WL-2 (calls, no-shows, seating the next player), WL-3 (away /
removed) in :mod:`waitlist.domain.lists`; seating applies the cash game's rules through
:func:`tables.services.seat_player` (BI-1..BI-5, BI-10, BI-11, SES-7) and table changes
and must-move moves through :func:`cashgame.services.transfer_player` (SES-2, SES-4).
"""

from __future__ import annotations

import logging
import uuid
from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction

from cashgame import services as cash_services
from casino import clock, contacts
from casino.errors import BadRequest, DomainError, NotFound
from casino.eventstore import aggregates, store
from casino.models import require_player
from tables import services as table_services
from tables.models import SeatView, TableView
from waitlist.domain import lists
from waitlist.domain.lists import TABLE_CHANGE, ListState, NoShowPolicy
from waitlist.events import (
    CallMissed,
    CallRenewed,
    PlayerCalled,
    PlayerSeatedFromList,
    WaitingListClosed,
)
from waitlist.models import WaitlistCall

logger = logging.getLogger("waitlist")


# --- streams and loading --------------------------------------------------------------------


def list_id_for(game: str, small_blind: int, big_blind: int, list_kind: str) -> str:
    """The list's id and stream suffix: ``nlh-10-20`` for the game's waiting (or interest)
    list, ``nlh-10-20-change`` for its table-change list."""
    base = f"{game.lower()}-{small_blind}-{big_blind}"
    return f"{base}-change" if list_kind == TABLE_CHANGE else base


def list_stream(list_id: str) -> str:
    return f"waitlist-{list_id}"


def load_list(list_id: str) -> aggregates.Loaded[ListState]:
    """The list aggregate and its stream version.

    Raises:
        NotFound ``list_not_found``.
    """
    loaded = aggregates.load(list_stream(list_id), lists.evolve, None, snapshot_type=ListState)
    if loaded.state is None or loaded.state.closed:
        raise NotFound("list_not_found", f"There is no list {list_id!r}.", list_id=list_id)
    return aggregates.Loaded(loaded.state, loaded.version)


def _execute(
    list_id: str, loaded: aggregates.Loaded[ListState | None], command: lists.Command
) -> list[store.RecordedEvent]:
    """Decide ``command`` on the loaded list and append its events (none: nothing)."""
    events = lists.decide(loaded.state, command)
    if not events:
        return []
    recorded = store.append(list_stream(list_id), events, expected_version=loaded.version)
    state = loaded.state
    for event in events:
        state = lists.evolve(state, event)
    aggregates.save_snapshot(
        list_stream(list_id),
        loaded.version + len(events),
        state,
        previous_version=loaded.version,
    )
    return recorded


def no_show_policy() -> NoShowPolicy:
    """The house rule for no-shows from settings (``waitlist.no_show_action``, WL-2)."""
    return NoShowPolicy(
        action=settings.WAITLIST_NO_SHOW_ACTION,
        places=settings.WAITLIST_NO_SHOW_PLACES,
        max_misses=settings.WAITLIST_MAX_MISSES,
    )


# --- what the tables say --------------------------------------------------------------------


def game_tables(state: ListState) -> list[TableView]:
    """The open tables of the list's game and stakes, by table id."""
    return list(
        TableView.objects.filter(
            game=state.game,
            small_blind=state.small_blind,
            big_blind=state.big_blind,
            status="open",
            mode="cash",  # a tournament table is never a cash list's
        ).order_by("table_id")
    )


def ineligible_players(state: ListState, table_id: int) -> frozenset[int]:
    """Players who cannot be offered a seat at ``table_id`` from this list (WL-2): those
    already seated in the game, or (table-change list) already at that table."""
    seats = SeatView.objects.all()
    if state.list_kind == TABLE_CHANGE:
        seats = seats.filter(table_id=table_id)
    else:
        seats = seats.filter(
            table__game=state.game,
            table__small_blind=state.small_blind,
            table__big_blind=state.big_blind,
            table__mode="cash",
        )
    return frozenset(int(p) for p in seats.values_list("player_id", flat=True))


def must_move_waiting(state: ListState, table_id: int) -> bool:
    """Whether a main-table seat belongs to a must-move player now."""
    return (
        state.main_table_id == table_id
        and state.must_move_table_id is not None
        and SeatView.objects.filter(table_id=state.must_move_table_id).exists()
    )


def _table_of_game(state: ListState, table_id: int) -> TableView:
    """The table, checked to run the list's game and stakes.

    Raises:
        NotFound ``table_not_found``; DomainError ``table_game_mismatch``, ``table_closed``.
    """
    table = TableView.objects.filter(table_id=table_id).first()
    if table is None:
        raise NotFound("table_not_found", f"There is no table {table_id}.", table_id=table_id)
    if table.mode != "cash" or (table.game, table.small_blind, table.big_blind) != (
        state.game,
        state.small_blind,
        state.big_blind,
    ):
        raise DomainError(
            "table_game_mismatch",
            "The table does not run this list's game and stakes.",
            table_id=table_id,
            list_id=state.list_id,
        )
    if table.status != "open":
        raise DomainError("table_closed", "The table is closed.", table_id=table_id)
    return table


def _not_held_elsewhere(list_id: str, table_id: int, seat: int, player_id: int | None) -> None:
    """A seat called from another list (the game's waiting list vs its table-change list)
    is held for that call's player.

    Raises:
        DomainError ``seat_already_called`` (WL-2).
    """
    held = (
        WaitlistCall.objects.filter(status="open", table_id=table_id, seat=seat)
        .exclude(waiting_list_id=list_id)
        .exclude(player_id=player_id or 0)
        .first()
    )
    if held is not None:
        raise DomainError(
            "seat_already_called",
            "Someone on another list is already called for this seat.",
            rule="WL-2",
            call_id=held.call_id,
            list_id=held.waiting_list_id,
            player_id=held.player_id,
        )


def _open_seat(table: TableView, seat: int) -> None:
    """Raises DomainError ``invalid_seat`` / ``seat_occupied`` unless ``seat`` is free."""
    if not 1 <= seat <= table.max_seats:
        raise DomainError(
            "invalid_seat", f"Seats are 1 to {table.max_seats}.", seat=seat, table_id=table.pk
        )
    if SeatView.objects.filter(table_id=table.pk, seat=seat).exists():
        raise DomainError("seat_occupied", f"Seat {seat} is taken.", seat=seat, table_id=table.pk)


# --- lists ----------------------------------------------------------------------------------


def open_list(*, game: str, small_blind: int, big_blind: int, list_kind: str) -> str:
    """Open the list of a game and stakes (CZK) and return its id (``nlh-10-20``).

    ``list_kind``: ``waiting``, ``interest`` (refused while a table runs the game:
    ``game_running``) or ``table_change``.

    Raises:
        DomainError ``list_exists``, ``invalid_list_kind``, ``invalid_stakes``,
        ``unknown_game`` (a waiting or table-change list of a game no table deals),
        ``game_running``.
    """
    game = game.upper()
    list_id = list_id_for(game, small_blind, big_blind, list_kind)
    if (
        list_kind == lists.INTEREST
        and TableView.objects.filter(
            game=game, small_blind=small_blind, big_blind=big_blind, status="open", mode="cash"
        ).exists()
    ):
        raise DomainError(
            "game_running",
            "A table runs this game: open its waiting list instead.",
            list_id=list_id,
        )
    loaded = aggregates.load(list_stream(list_id), lists.evolve, None, snapshot_type=ListState)
    command = lists.OpenList(list_id, list_kind, game, small_blind, big_blind)
    _execute(list_id, loaded, command)
    return list_id


def close_list(*, list_id: str, reason: str) -> list[int]:
    """Close the list (a game the room no longer spreads, or one opened by mistake); the
    players still on it come off with it, and are returned in order. The same game and
    stakes may be opened again later.

    Raises:
        NotFound ``list_not_found``; DomainError ``calls_in_progress`` (WL-2: seat or
        cancel them first), ``reason_required``.
    """
    loaded = load_list(list_id)
    recorded = _execute(list_id, _as_optional(loaded), lists.CloseList(reason))
    closed = recorded[0].event
    assert isinstance(closed, WaitingListClosed)
    return list(closed.player_ids)


def join_list(*, list_id: str, player_id: int, channel: str, phone: str = "") -> str:
    """Put the player at the bottom of the list and return his entry id (WL-1). He need
    not be in the room; ``channel`` is ``in_person``, ``phone`` or ``console``. On a
    table-change list he must sit at a table of the game. ``phone`` (a callback number) is
    kept in the contact store, outside the log (``casino.contacts``).

    Raises:
        NotFound ``list_not_found``, ``player_not_found``; DomainError ``already_listed``
        (WL-1), ``not_seated_in_game``, ``seated_in_game`` (WL-2: a seated player asks
        for a table change), ``invalid_channel``.
    """
    require_player(player_id)
    loaded = load_list(list_id)
    from_table_id = None
    if loaded.state.list_kind in (TABLE_CHANGE, lists.WAITING):
        from_table_id = _seated_in_game(loaded.state, player_id)
    entry_id = str(uuid.uuid4())
    # the number goes to the contact store (erasable), the event names it by its key; a
    # refused join rolls the contact row back with the rest of the command
    phone_ref = contacts.keep_phone(player_id=player_id, phone=phone) if phone else ""
    command = lists.Join(entry_id, player_id, channel, clock.now(), phone_ref, from_table_id)
    _execute(list_id, _as_optional(loaded), command)
    return entry_id


def _seated_in_game(state: ListState, player_id: int) -> int | None:
    return (
        SeatView.objects.filter(
            player_id=player_id,
            table__game=state.game,
            table__small_blind=state.small_blind,
            table__big_blind=state.big_blind,
            table__mode="cash",
        )
        .values_list("table_id", flat=True)
        .first()
    )


def _as_optional(loaded: aggregates.Loaded[ListState]) -> aggregates.Loaded[ListState | None]:
    return aggregates.Loaded(loaded.state, loaded.version)


def leave_list(*, list_id: str, player_id: int, reason: str = "player") -> None:
    """Take the player off the list: he asked (``player``, WL-3) or the ``floor`` did. A
    call in progress for him is cancelled.

    Raises:
        NotFound ``list_not_found``, ``not_on_list``; DomainError ``invalid_reason``.
    """
    loaded = load_list(list_id)
    _execute(list_id, _as_optional(loaded), lists.Leave(player_id, reason))


def mark_away(*, list_id: str, player_id: int, away: bool) -> None:
    """Record that a listed player left the room for a while (``away``) or is back
    (WL-3). An away player keeps his place and is skipped when calling.

    Raises:
        NotFound ``not_on_list``; DomainError ``player_called`` (WL-3).
    """
    loaded = load_list(list_id)
    _execute(list_id, _as_optional(loaded), lists.MarkAway(player_id, away))


# --- calls ----------------------------------------------------------------------------------


def call_player(
    *, list_id: str, table_id: int, seat: int, player_id: int | None = None
) -> PlayerCalled:
    """Call the next eligible player for the open ``seat`` at ``table_id`` (WL-2) and
    start his deadline: a Celery timer is scheduled after commit for ``deadline`` (UTC)
    and the sweep catches it if the timer is lost. ``player_id``, if given, must be that
    next player.

    Raises:
        DomainError ``seat_already_called``, ``not_next_on_list``, ``no_eligible_player``
        (WL-2), ``player_away`` (WL-3), ``must_move_first``, ``game_not_running``,
        ``seat_occupied``, ``table_game_mismatch``.
    """
    return _call(list_id, table_id, seat, player_id, skip=frozenset())


def _call(
    list_id: str, table_id: int, seat: int, player_id: int | None, *, skip: frozenset[int]
) -> PlayerCalled:
    """:func:`call_player`, passing over the players in ``skip`` as well."""
    loaded = load_list(list_id)
    state = loaded.state
    _open_seat(_table_of_game(state, table_id), seat)
    _not_held_elsewhere(list_id, table_id, seat, None)
    command = lists.CallPlayer(
        call_id=str(uuid.uuid4()),
        table_id=table_id,
        seat=seat,
        now=clock.now(),
        call_seconds=settings.WAITLIST_CALL_SECONDS,
        ineligible=ineligible_players(state, table_id) | skip,
        player_id=player_id,
        must_move_waiting=must_move_waiting(state, table_id),
    )
    recorded = _execute(list_id, _as_optional(loaded), command)
    called = recorded[0].event
    assert isinstance(called, PlayerCalled)
    deadline = datetime.fromisoformat(called.deadline)
    transaction.on_commit(lambda: schedule_deadline(list_id, called.call_id, deadline))
    return called


def _call_next_after_miss(list_id: str, table_id: int, seat: int, missed: int) -> None:
    """WL-2: "he loses his place and the next name is called": call the next eligible
    player for the seat the no-show left, passing over the no-show himself (he was not
    there a moment ago). Nothing when the house calls by hand
    (``WAITLIST_CALL_NEXT_ON_MISS``) or nobody can be called now (nobody eligible, a
    must-move first, the seat gone): the floor sees the open seat as before."""
    if not settings.WAITLIST_CALL_NEXT_ON_MISS:
        return
    try:
        _call(list_id, table_id, seat, None, skip=frozenset({missed}))
    except DomainError as refused:  # refused before anything was appended
        logger.info("no next call after the miss on %s: %s", list_id, refused.code)


def schedule_deadline(list_id: str, call_id: str, deadline: datetime) -> None:
    """Queue the call's deadline timer (an ETA task). Runs after commit; a broker that is
    down loses only the timer, which the periodic sweep replaces."""
    from casino.celery import queue_timer

    try:
        queue_timer("waitlist.expire_call", (list_id, call_id), deadline)
    except Exception:  # the sweep catches a timer we could not queue
        logger.exception("could not schedule the deadline of call %s", call_id)


def cancel_call(*, list_id: str, call_id: str, reason: str = "floor") -> None:
    """Withdraw a call in progress; the player keeps his place.

    Raises:
        NotFound ``call_not_found``.
    """
    loaded = load_list(list_id)
    _execute(list_id, _as_optional(loaded), lists.CancelCall(call_id, reason))


def expire_call(*, list_id: str, call_id: str, by_floor: bool = False) -> bool:
    """The called player is not there (WL-2): record the miss and move him down by the
    house rule, or take him off after ``WAITLIST_MAX_MISSES``. From the timer or the sweep
    (``by_floor=False``) it does nothing unless the call is still open and its deadline has
    passed, so it is safe to run twice or concurrently (the loser of an append race decides
    again and finds the call closed). A timer that runs more than
    ``WAITLIST_LATE_TIMER_SECONDS`` after the deadline (the server or the worker was down)
    renews the call for ``WAITLIST_CALL_SECONDS`` and queues a fresh timer instead of
    charging a miss (CXL-10). ``by_floor=True``: the floor records a no-show now.

    Returns whether anything was recorded.

    Raises:
        NotFound ``list_not_found``; ``call_not_found`` (only ``by_floor``).
    """
    loaded = load_list(list_id)
    call = loaded.state.call(call_id)
    withdrawn, seated_in_game = _call_withdrawn(loaded.state, call_id)
    late_limit = None if by_floor else timedelta(seconds=settings.WAITLIST_LATE_TIMER_SECONDS)
    command = lists.ExpireCall(call_id, clock.now(), no_show_policy(), by_floor=by_floor,
                               withdrawn=withdrawn, seated_in_game=seated_in_game,
                               late_limit=late_limit,
                               call_seconds=settings.WAITLIST_CALL_SECONDS)  # fmt: skip
    recorded = _execute(list_id, _as_optional(loaded), command)
    renewed = [r.event for r in recorded if isinstance(r.event, CallRenewed)]
    if renewed:  # the house's timers were down: the call stands, with a fresh timer
        deadline = datetime.fromisoformat(renewed[0].deadline)
        transaction.on_commit(lambda: schedule_deadline(list_id, call_id, deadline))
    if call is not None and any(isinstance(r.event, CallMissed) for r in recorded):
        _call_next_after_miss(list_id, call.table_id, call.seat, call.player_id)
    return bool(recorded)


def _call_withdrawn(state: ListState, call_id: str) -> tuple[str | None, bool]:
    """Why a call no longer stands at its deadline although nobody answered it, from the
    tables: its seat was taken by someone else, its table closed, or the player sat down
    (at a table of this game: also ``True``, he leaves the list). ``(None, False)``: the
    call stands and a player who did not come is a no-show (WL-2)."""
    call = state.call(call_id)
    if call is None:
        return None, False
    seated = SeatView.objects.filter(player_id=call.player_id).exists()
    if seated and state.list_kind != TABLE_CHANGE:  # a table change is wanted from a seat
        return "player_seated", _seated_in_game(state, call.player_id) is not None
    table = TableView.objects.filter(table_id=call.table_id).only("status").first()
    if table is None or table.status != "open":
        return "table_closed", False
    occupant = SeatView.objects.filter(table_id=call.table_id, seat=call.seat)
    if occupant.exclude(player_id=call.player_id).exists():
        return "seat_taken", False
    return None, False


# --- seating --------------------------------------------------------------------------------


def seat_from_list(
    *,
    list_id: str,
    player_id: int,
    table_id: int,
    seat: int,
    buy_in: int = 0,
    paid_with: str = "cash",
) -> PlayerSeatedFromList:
    """Seat a player from the list at ``seat`` of ``table_id`` and take him off that list
    (he keeps his place on other games' lists). A waiting list starts his cash session
    with ``buy_in`` CZK under the cash-game rules (BI-2..BI-5, BI-10, BI-11, SES-7); a
    table-change list moves him with his whole stack (SES-2, SES-4). The table's and the
    list's appends commit together or not at all.

    He must be the player called for the seat or, uncalled, the next eligible (WL-2).

    Raises:
        DomainError ``not_next_on_list``, ``seat_called_for_other_player`` (WL-2),
        ``buy_in_not_taken`` (400: a buy-in on a table-change list, SES-4),
        ``must_move_first``, ``not_seated_in_game``, and every refusal of the table
        (``buy_in_below_minimum`` ...); NotFound ``not_on_list``.
    """
    with transaction.atomic():
        loaded = load_list(list_id)
        state = loaded.state
        table = _table_of_game(state, table_id)
        from_table_id = None
        if state.list_kind == TABLE_CHANGE:
            from_table_id = _seated_in_game(state, player_id)
            if from_table_id is None:
                raise DomainError(
                    "not_seated_in_game",
                    "The player no longer sits in this game.",
                    player_id=player_id,
                )
        else:
            _open_seat(table, seat)
        _not_held_elsewhere(list_id, table_id, seat, player_id)
        if from_table_id is not None and buy_in:  # taken and ignored before (found by QA)
            raise BadRequest(
                "buy_in_not_taken",
                "A table change moves the whole stack (SES-4): send no buy-in.",
                rule="SES-4",
            )
        command = lists.SeatFromList(
            player_id=player_id,
            table_id=table_id,
            seat=seat,
            buy_in=buy_in,
            ineligible=ineligible_players(state, table_id),
            must_move_waiting=must_move_waiting(state, table_id),
            from_table_id=from_table_id,
        )
        recorded = _execute(list_id, _as_optional(loaded), command)
        seated = recorded[0].event
        assert isinstance(seated, PlayerSeatedFromList)
        if from_table_id is not None:
            from_seat = SeatView.objects.get(table_id=from_table_id, player_id=player_id).seat
            cash_services.transfer_player(
                table_id=from_table_id, seat=from_seat, to_table_id=table_id, to_seat=seat
            )
        else:
            table_services.seat_player(
                table_id=table_id,
                player_id=player_id,
                seat=seat,
                buy_in=buy_in,
                paid_with=paid_with,
            )
            _release_other_calls(list_id, player_id)
        return seated


def _release_other_calls(list_id: str, player_id: int) -> None:
    """He sat down: his calls on other games' lists are withdrawn now, their seats free for
    the next name (he keeps his places; BI-10: he may not take a second seat). They held
    their seats until the deadline, and the floor could not tell why seating him there was
    refused (found by QA). A table-change call is asked from a seat: it stands."""
    others = WaitlistCall.objects.filter(player_id=player_id, status="open").exclude(
        waiting_list_id=list_id
    )
    for other in others.values_list("waiting_list_id", "call_id"):
        if load_list(other[0]).state.list_kind != TABLE_CHANGE:
            cancel_call(list_id=other[0], call_id=other[1], reason="player_seated")


# --- interest lists and must-move tables ----------------------------------------------------


def start_interest_game(
    *,
    list_id: str,
    name: str = "",
    buy_in_min: int | None = None,
    buy_in_max: int | None = None,
    max_seats: int = 10,
    table_id: int | None = None,
    limits_reason: str = "",
) -> int:
    """Start an interest list's game once ``WAITLIST_INTEREST_THRESHOLD`` players (not
    away) wait; the list becomes the table's waiting list. Returns the table id.

    With ``table_id`` the game starts at that table, which the floor chose: an open cash
    table of the list's game and stakes with nobody seated (``name`` and the limits are
    then the table's own and must not be given). Without it a new table ``name`` opens,
    its limits defaulting to the stakes' configured ones (BI-3..BI-5); others need
    ``limits_reason`` (BI-5).

    Raises:
        DomainError ``not_an_interest_list``, ``not_enough_interest``, ``table_not_empty``,
        ``table_game_mismatch``, ``table_closed``, ``table_settings_not_allowed``, and a new
        table's refusals (``buy_in_limits_required`` ...); NotFound ``table_not_found``.
    """
    with transaction.atomic():
        loaded = load_list(list_id)
        state = loaded.state
        # Checked first so a refused start opens nothing; the table id comes after.
        lists.decide(state, lists.PromoteInterest(0, settings.WAITLIST_INTEREST_THRESHOLD))
        if table_id is not None:
            if name or buy_in_min is not None or buy_in_max is not None or limits_reason:
                raise DomainError(
                    "table_settings_not_allowed",
                    "The game starts at an existing table: its name and limits are its own.",
                    table_id=table_id,
                )
            _table_of_game(state, table_id)
            if SeatView.objects.filter(table_id=table_id).exists():
                raise DomainError(
                    "table_not_empty",
                    "Players sit at that table: start the game at an empty one.",
                    table_id=table_id,
                )
        else:
            if not name:
                raise DomainError("table_name_required", "Name the new table.")
            table_id = table_services.open_table(
                name=name,
                game=state.game,
                small_blind=state.small_blind,
                big_blind=state.big_blind,
                buy_in_min=buy_in_min,
                buy_in_max=buy_in_max,
                max_seats=max_seats,
                limits_reason=limits_reason,
            )
        command = lists.PromoteInterest(table_id, settings.WAITLIST_INTEREST_THRESHOLD)
        _execute(list_id, _as_optional(loaded), command)
        return table_id


def link_must_move(
    *, list_id: str, main_table_id: int | None, must_move_table_id: int | None
) -> None:
    """Make ``must_move_table_id`` feed ``main_table_id`` (both tables of the list's game),
    or unlink with both ``None``.

    Raises:
        DomainError ``invalid_must_move``, ``not_a_waiting_list``, ``table_game_mismatch``.
    """
    loaded = load_list(list_id)
    for table_id in (main_table_id, must_move_table_id):
        if table_id is not None:
            _table_of_game(loaded.state, table_id)
    command = lists.LinkMustMove(main_table_id, must_move_table_id)
    _execute(list_id, _as_optional(loaded), command)


def move_must_move_player(*, list_id: str, seat: int) -> dict[str, int]:
    """A main-table seat opened: move the longest-seated must-move player there with his
    whole stack (SES-2, SES-4). Returns ``{player_id, from_table_id, from_seat,
    to_table_id, to_seat}``.

    Raises:
        DomainError ``no_must_move_table``, ``no_must_move_player``, and the transfer's
        refusals (``hand_in_progress``, ``seat_occupied`` ...).
    """
    with transaction.atomic():
        loaded = load_list(list_id)
        state = loaded.state
        if state.must_move_table_id is None or state.main_table_id is None:
            raise DomainError("no_must_move_table", "This game has no must-move table.")
        longest = longest_seated(state.must_move_table_id)
        if longest is None:
            raise DomainError(
                "no_must_move_player",
                "Nobody sits at the must-move table.",
                table_id=state.must_move_table_id,
            )
        _not_held_elsewhere(list_id, state.main_table_id, seat, longest.player_id)
        command = lists.RecordMustMove(longest.player_id, longest.seat, seat)
        _execute(list_id, _as_optional(loaded), command)
        cash_services.transfer_player(
            table_id=state.must_move_table_id,
            seat=longest.seat,
            to_table_id=state.main_table_id,
            to_seat=seat,
        )
        return {
            "player_id": longest.player_id,
            "from_table_id": state.must_move_table_id,
            "from_seat": longest.seat,
            "to_table_id": state.main_table_id,
            "to_seat": seat,
        }


def longest_seated(table_id: int) -> SeatView | None:
    """The player seated longest at the table (earliest ``seated_at``), or ``None``."""
    return SeatView.objects.filter(table_id=table_id).order_by("seated_at", "id").first()
