"""The floor's rulings on a hand (issue #15): load the hand, decide the ruling, append to
the hand's stream, schedule the clock's expiry. Keyword-only; run inside the caller's
transaction (``run_command``). Rules in :mod:`tables.domain.hand_rulings`,
:mod:`tables.domain.chip_reading`; events in :mod:`tables.ruling_events`.
"""

from __future__ import annotations

import logging
from datetime import datetime

from django.db import transaction

from casino import clock
from casino.domain_events import DomainEvent
from casino.eventstore import aggregates, store
from tables import services, tournament_hooks
from tables.domain import hand as hand_domain
from tables.domain import hand_rulings
from tables.domain import table as table_domain
from tables.domain.chip_reading import (
    BettingSituation,
    ChipReadingPolicy,
    ChipRuling,
    read_chips,
)
from tables.domain.commands import TakeAction
from tables.domain.hand import HandState
from tables.domain.showdown_procedure import HandClosure
from tables.events import (
    ActionTaken,
    BoardDealt,
    HandBegan,
    HandSettled,
    ShuffleRecorded,
    TableOpened,
)
from tables.ruling_events import ChipsRead, ClockCalled

logger = logging.getLogger("tables")


def _load(hand_id: str, if_match: int | None) -> aggregates.Loaded[HandState]:
    loaded = services.load_hand(hand_id)
    if if_match is not None and if_match != loaded.version:
        raise store.StaleVersion(services.hand_stream(hand_id), if_match, loaded.version)
    table = services.load_table(loaded.state.started.table_id).state
    assert table is not None
    services._lock_tournament_of(table)
    return loaded


def rule(
    *, hand_id: str, command: hand_rulings.RulingCommand, if_match: int | None = None
) -> aggregates.Loaded[HandState]:
    """Decide one ruling (:mod:`tables.domain.hand_rulings`) at the clock's now and append
    it with the hand events it leads to (a fold, a misdeal), closing the hand at the table
    when it ends.

    Raises:
        DomainError: the ruling is refused (code and rule ID say why).
    """
    loaded = _load(hand_id, if_match)
    events = hand_rulings.decide_ruling(loaded.state, command, clock.now())
    if not events:
        return loaded
    appended = services.append_to_hand(hand_id, loaded, events)
    called = next((e for e in events if isinstance(e, ClockCalled)), None)
    if called is not None:
        expires = datetime.fromisoformat(called.expires_at)
        transaction.on_commit(lambda: schedule_clock(hand_id, called.clock, expires))
    return appended


def clock_command(
    *,
    hand_id: str,
    called_by: int,
    caller_seated: bool = True,
    seconds: int = 60,
    final_countdown: int = 10,
    expiry: str | None = None,
) -> hand_rulings.CallClock:
    """The clock call on ``hand_id`` with its expiry: the caller's, else the table's
    ``clock_expiry`` (BET-28 dead hand, or BET-29 fold or check)."""
    if expiry is None:
        table = services.load_table(services.load_hand(hand_id).state.started.table_id).state
        assert table is not None
        expiry = table.config.clock_expiry
    return hand_rulings.CallClock(
        called_by,
        caller_seated,
        seconds,
        final_countdown,
        expiry,  # type: ignore[arg-type]
    )


def schedule_clock(hand_id: str, clock_number: int, expires_at: datetime) -> None:
    """Queue the clock's expiry (an ETA task) after commit (BET-28). The task carries the
    clock's number; a stale or early timer does nothing."""
    from casino.celery import queue_timer

    try:
        queue_timer("tables.expire_clock", (hand_id, clock_number), expires_at)
    except Exception:  # the floor can still rule the hand dead by hand
        logger.exception("could not schedule clock %s of hand %s", clock_number, hand_id)


def expire_clock(*, hand_id: str, clock_number: int, policy: str | None = None) -> bool:
    """The clock's timer: kill the hand (BET-28) if this clock still runs and is due;
    returns whether anything was appended."""
    loaded = _load(hand_id, None)
    command = hand_rulings.ExpireClock(clock=clock_number, policy=policy)  # type: ignore[arg-type]
    events = hand_rulings.decide_ruling(loaded.state, command, clock.now())
    if events:
        services.append_to_hand(hand_id, loaded, events)
    return bool(events)


def betting_situation(state: HandState, seat_number: int) -> BettingSituation:
    """What the player at ``seat_number`` faces, for reading his chips."""
    seat = hand_domain.seat_in_hand(state, seat_number)
    legal = state.legal
    current = max(s.bet for s in state.seats)
    big_blind = state.started.big_blind
    min_to = legal.min_raise_to if legal and legal.min_raise_to else current + big_blind
    last_bet = big_blind
    for event in reversed(state.history):
        if isinstance(event, BoardDealt):
            break
        if isinstance(event, ActionTaken) and event.action == "bet":
            last_bet = event.amount_to
            break
    preflop = not state.board
    return BettingSituation(
        current_bet=current,
        player_bet=seat.bet,
        stack=seat.stack,
        min_raise_to=min_to,
        big_blind=big_blind,
        last_bet=last_bet,
        previous_raise=max(min_to - current, big_blind),
        max_raise_to=legal.max_raise_to if legal and state.game == "PLO" else None,
        pot_limit=state.game == "PLO",
        bb_option=preflop and seat_number == state.big_blind_seat and current == big_blind,
    )


def read_pushed_chips(
    *,
    hand_id: str,
    seat: int,
    chips: list[list[int]],
    announced: str = "none",
    announced_amount_to: int | None = None,
    policy: ChipReadingPolicy | None = None,
    if_match: int | None = None,
) -> tuple[ChipRuling, aggregates.Loaded[HandState]]:
    """Rule on the chips ``seat`` pushed (BET-10..13, 17..24, 27) and record the action it
    amounts to; an insufficient call (BET-27) records only the ruling.

    Raises:
        DomainError: the chips cannot be read (``no_chips``, ``amount_required`` ...) or
        the resulting action is not legal (``not_your_turn`` ...).
    """
    loaded = _load(hand_id, if_match)
    state = loaded.state
    if state.to_act != seat:
        hand_domain.decide(state, TakeAction(seat=seat, action="check"))  # the refusal
    ruling = read_chips(
        betting_situation(state, seat),
        [tuple(m) for m in chips],
        announced,  # type: ignore[arg-type]
        announced_amount_to,
        policy,
    )
    events: list[DomainEvent] = [
        ChipsRead(seat, tuple(tuple(m) for m in chips), announced, ruling.kind,
                  ruling.amount_to, ruling.rule, ruling.returned, ruling.completed)
    ]  # fmt: skip
    if ruling.kind != "insufficient_call":
        hand_rulings.check_may_raise(state, seat, ruling.kind)
        amount = ruling.amount_to if ruling.kind in ("bet", "raise") else None
        action = TakeAction(seat=seat, action=ruling.kind, amount_to=amount)
        interim = hand_domain.evolve(state, events[0])
        events += hand_domain.decide(interim, action)
    return ruling, services.append_to_hand(hand_id, loaded, events)


def hand_closure(hand: HandState) -> HandClosure:
    """When the hand's disputes close, by the table's ``hand_closed_by`` rule: a reading
    when the table's next hand begins (SD-24), or earlier at the first riffle (SD-25) or
    the cut (SD-26) of the next shuffle the dealer reports (``tables.ShuffleRecorded``; a
    cut comes after the riffle, and dealing the next hand after both); an accounting error
    at the next hand's first action that puts chips in ("substantial action")."""
    recorded = store.read_stream(services.hand_stream(hand.hand_id))
    settled_at = next(
        (r.recorded_at for r in recorded if isinstance(r.event, HandSettled)), clock.now()
    )
    table_events = store.read_stream(services.table_stream(hand.started.table_id))
    config = table_events[0].event
    assert isinstance(config, TableOpened)
    closed_by = config.hand_closed_by
    ours = next(
        (
            i
            for i, r in enumerate(table_events)
            if isinstance(r.event, HandBegan) and r.event.hand_id == hand.hand_id
        ),
        None,
    )
    closes = ("cut",) if closed_by == "cut" else ("first_riffle", "cut")
    next_event_at = None
    next_hand: str | None = None
    for r in table_events[ours + 1 :] if ours is not None else ():
        if isinstance(r.event, HandBegan):
            next_event_at = next_event_at or r.recorded_at
            next_hand = r.event.hand_id
            break
        if (
            closed_by != "next_hand_started"
            and isinstance(r.event, ShuffleRecorded)
            and r.event.step in closes
            and next_event_at is None
        ):
            next_event_at = r.recorded_at
    action_at = None
    if next_hand is not None:
        action_at = next(
            (
                r.recorded_at
                for r in store.read_stream(services.hand_stream(next_hand))
                if isinstance(r.event, ActionTaken) and r.event.added > 0
            ),
            None,
        )
    during_break = (
        config.mode == table_domain.TOURNAMENT
        and next_hand is None
        and config.tournament_id is not None
        and tournament_hooks.port().break_started_since(
            tournament_id=config.tournament_id, since=settled_at
        )
    )
    return HandClosure(
        settled_at=settled_at,
        closed_by=closed_by,  # type: ignore[arg-type]
        next_event_at=next_event_at,
        substantial_action_at=action_at,
        during_break=during_break,
    )


def correct_result(
    *,
    hand_id: str,
    kind: str,
    detail: str,
    adjustments: list[dict[str, int]],
    if_match: int | None = None,
) -> aggregates.Loaded[HandState]:
    """Append a correction to a settled hand inside its dispute window (SD-24); after it
    the correction is refused (``dispute_window_closed``). The settlement is never
    rewritten. At a cash table the chips of ``adjustments`` (seat, amount in CZK; summing
    to 0) move between the stacks in the same transaction (``tables.StacksCorrected`` on
    the table), or, for an accounting error upheld while the next hand runs (before
    substantial action on it), when that hand ends (``tables.StacksCorrectionDeferred``,
    then ``StacksCorrected`` or, if a stack no longer covers its part,
    ``CorrectionUnsettled`` for the cage). At a tournament table the chips move in the
    tournament's record too (``tournaments.HandStacksCorrected``), between players still in
    play and before the next hand; a correction that would bring back a player the hand
    eliminated, or bust one, is refused (the director rules on the elimination).

    Raises:
        DomainError ``hand_not_complete``, ``dispute_window_closed``,
        ``adjustments_not_balanced``, ``correction_exceeds_winnings``,
        ``correction_exceeds_pots``, ``seat_not_in_contest`` (SD-24; every earlier
        correction of the hand counted); ``player_left_table``, ``correction_exceeds_stack``
        (SD-24); at a tournament table ``player_not_playing`` (eliminated by the hand),
        ``correction_busts_player``, ``hand_in_progress``: nothing is appended.
    """
    with transaction.atomic():
        loaded = services.load_hand(hand_id)
        command = hand_rulings.CorrectResult(
            kind=kind,  # type: ignore[arg-type]
            detail=detail,
            adjustments=tuple((a["seat"], a["amount"]) for a in adjustments),
            closure=hand_closure(loaded.state),
        )
        corrected = rule(hand_id=hand_id, command=command, if_match=if_match)
        started = corrected.state.started
        players = tuple((s.seat, int(s.player_id)) for s in started.seats)
        if started.mode == "tournament":
            table = services.load_table(started.table_id, trust_cache=True).state
            assert table is not None and table.config.tournament_id is not None
            player_at = dict(players)
            by_player: dict[int, int] = {}
            for seat, amount in command.adjustments:
                pid = player_at[seat]
                by_player[pid] = by_player.get(pid, 0) + amount
            tournament_hooks.port().correct_hand_stacks(
                tournament_id=table.config.tournament_id,
                table_id=started.table_id,
                hand_id=hand_id,
                adjustments=by_player,
            )
        services.execute_on_table(
            started.table_id,
            table_domain.CorrectStacks(
                hand_id=hand_id, adjustments=command.adjustments, players=players
            ),
        )
        return corrected
