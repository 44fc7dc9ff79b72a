"""The table aggregate: seats and stacks between hands, and which hand is running.

Pure Python (no Django): ``decide(state, command) -> events`` and ``evolve(state, event)``.
Every chip that reaches or leaves a seat outside a hand passes through here.

Rules: SEAT-3 (2-10 seats), BI-1 (seating is a staff action), BI-3/BI-4/BI-5 (buy-in
limits; a floor override with a reason), BI-6 (nothing added or removed during a hand;
top-ups between hands, never above the maximum), BI-7 (a sidebet winner with no chips must
re-buy the minimum), BI-10 (one seat per player; across tables the service checks the
projection), SES-2/3/4 (transfers keep the whole stack, same game and stakes, no buy-in
limits), SES-5 (a cash-out takes the whole stack), SES-7 (returning players: the service
passes the minimum it found), RAKE-5 (sidebets settle only between hands), RAKE-6
(refreshments from the stack, not in a hand, up to the limit), BI-9 (chip loans and gifts
only if nobody objects; the objection is recorded), SES-6 (partial cash-out only as an
audited floor exception), SEAT-1/SEAT-4 (button).

Button, blinds and entry (:mod:`tables.domain.blinds` plans each hand): SEAT-5 dead button
or SEAT-6 forward button (``button_rule``), SEAT-10/SEAT-11 heads-up placement, SEAT-15 vs
SES-1 new players in a running game (``cash_new_player_entry``), SEAT-16 sitting out and
missed blinds (``SitOut`` / ``SitIn``; ``missed_blind_sb_dead``), SES-2 (a transferred player
plays at once). ``HandBegan`` names the blinds, the owed posts, the players waiting for the
big blind and the blinds missed, so ``evolve`` only applies it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from casino.domain_events import DomainEvent
from casino.errors import DomainError
from tables.cash_events import (
    ChipsGiven,
    ChipsToppedUp,
    DealerFeePaid,
    DeclaredTopUpAdded,
    PartialCashOut,
    PlayerSatIn,
    PlayerSatOut,
    PlayerTransferredIn,
    PlayerTransferredOut,
    RefreshmentPaid,
    SidebetCalledOff,
    SidebetRecorded,
    SidebetSettled,
    TableClosed,
    TableLimitsChanged,
)
from tables.domain import blinds, rulings, showdown_procedure
from tables.domain.blinds import (
    ACTIVE,
    BUTTON_RULES,
    ENTRY_RULES,
    NEW,
    SITTING_OUT,
    WAIT_OR_POST_BOTH,
    WAITING,
    HandPlan,
    LastBlinds,
    NotEnoughPlayers,
    SeatStatus,
)
from tables.domain.commands import StartHand
from tables.domain.hand_state import ANTE_TYPES, MIN_RAISE_RULES
from tables.domain.seating import MAX_SEATS, blind_seats
from tables.domain.seating import next_button as next_button  # callers use table.next_button
from tables.domain.table_commands import (
    HAND_CLOSED_BY,
    PAYMENT_METHODS,
    SHUFFLE_STEPS,
    AddEntrantChips,
    BeginHand,
    CallOffSidebet,
    CashOut,
    ChangeLimits,
    ChangeSeat,
    CloseTable,
    Command,
    CorrectStacks,
    EndHand,
    GiveChips,
    OpenTable,
    PayDealerFee,
    PayRefreshment,
    RecordShuffle,
    RecordSidebet,
    SeatEntrant,
    SeatPlayer,
    SettleSidebet,
    SitIn,
    SitOut,
    Stakes,
    TakePartialCashOut,
    TopUp,
    TransferIn,
    TransferOut,
    UnseatEntrant,
)
from tables.domain.table_money import (
    decide_call_off,
    decide_gift,
    decide_partial,
    decide_refreshment,
    decide_seat,
    decide_settle,
    decide_sidebet,
    decide_top_up,
    decide_transfer_in,
    decide_transfer_out,
    sidebets_called_off,
)
from tables.domain.table_state import (
    CASH,
    MODES,
    SHOW_POKER,
    TABLE_GAMES,
    TOURNAMENT,
    OpenSidebet,
    PreHand,
    Seat,
    TableState,
    buy_in_rule,
    free_seat,
    not_in_hand,
    same_game,
    seat_occupant,
)
from tables.events import (
    CorrectionUnsettled,
    DealtInSeat,
    HandBegan,
    HandEnded,
    PlayerCashedOut,
    PlayerSeated,
    SeatBlind,
    SeatChanged,
    SeatInHand,
    SeatStack,
    ShuffleRecorded,
    StacksCorrected,
    StacksCorrectionDeferred,
    TableOpened,
    TournamentChipsAdded,
    TournamentPlayerSeated,
    TournamentPlayerUnseated,
)

CASH_ONLY = (
    SeatPlayer,
    CashOut,
    TopUp,
    PayRefreshment,
    ChangeLimits,
    TransferOut,
    TransferIn,
    RecordSidebet,
    SettleSidebet,
    CallOffSidebet,
    GiveChips,
    TakePartialCashOut,
    PayDealerFee,
    ChangeSeat,
    SitOut,
    SitIn,
)
"""Commands of the cash game: refused at a tournament table, where seats, stacks and
blinds come from the tournament (an absent player is dealt in and posts, so nobody sits
out). ``CorrectStacks`` is not one: at a tournament table it follows the tournament's own
``tournaments.HandStacksCorrected`` in the same transaction (SD-24)."""


def _validate_config(c: TableOpened) -> None:
    """Refuse a table that could not be played.

    Raises:
        DomainError ``invalid_table_config``, naming every problem; its ``rule`` is the one
        rule all of them break (SEAT-3 the seats, BI-5 the buy-in limits), else none: a
        refused limit cited SEAT-3, "a table seats 2 to 10" (found by QA).
    """
    problems = []
    rules: set[str | None] = set()
    if c.game not in TABLE_GAMES:
        problems.append(f"game must be one of {TABLE_GAMES}")
    if c.ante_type not in ANTE_TYPES:
        problems.append(f"ante_type must be one of {ANTE_TYPES}")
    if c.min_raise_rule not in MIN_RAISE_RULES:
        problems.append(f"min_raise_rule must be one of {MIN_RAISE_RULES}")
    if not (0 < c.small_blind <= c.big_blind):
        problems.append("blinds must satisfy 0 < small_blind <= big_blind")
        rules.add(None)
    if c.ante < 0 or (c.ante_type == "none") != (c.ante == 0):
        problems.append("ante must be positive exactly when ante_type is not 'none'")
    if c.mode == CASH and not (0 < c.buy_in_min <= c.buy_in_max):
        problems.append("The buy-in minimum must be at least 1 and no more than the maximum.")
        rules.add("BI-5")
    elif c.mode == CASH and c.buy_in_max < c.big_blind:  # a seat bought for 1 chip at 10/20
        problems.append("The buy-in maximum must cover at least the big blind.")
        rules.add("BI-5")
    if not (0 <= c.rake_percent_bp <= 10_000) or c.rake_cap < 0:
        problems.append("rake must be 0-10000 basis points with a cap >= 0")
    if not (2 <= c.max_seats <= MAX_SEATS):
        problems.append(f"max_seats must be 2-{MAX_SEATS}")
        rules.add("SEAT-3")
    if c.button_rule not in BUTTON_RULES:
        problems.append(f"button_rule must be one of {BUTTON_RULES}")
    if c.cash_new_player_entry not in ENTRY_RULES:
        problems.append(f"cash_new_player_entry must be one of {ENTRY_RULES}")
    if c.mode not in MODES:
        problems.append(f"mode must be one of {MODES}")
    if c.clock_expiry not in ("dead_hand", "fold_or_check"):
        problems.append("clock_expiry must be dead_hand or fold_or_check")
    if c.hand_closed_by not in HAND_CLOSED_BY:
        problems.append(f"hand_closed_by must be one of {HAND_CLOSED_BY}")
    if c.mode == TOURNAMENT and (c.tournament_id is None or c.rake_percent_bp or c.rake_cap):
        problems.append("a tournament table names its tournament and takes no rake")
    if problems:
        if len(rules) != 1 or len(problems) > len(rules):  # others broke no one rule
            rules = {None}
        raise DomainError("invalid_table_config", "; ".join(problems), rule=rules.pop())


def _last_blinds(state: TableState) -> LastBlinds | None:
    if state.button_seat is None:
        return None
    return LastBlinds(state.button_seat, state.small_blind_seat, state.big_blind_seat)


def _redeal_button(state: TableState) -> int | None:
    """The drawn button of a new game whose first hand was voided, while its seat is
    still dealt in (else the redeal draws again, SEAT-1)."""
    seat = state.seat(state.redeal_button) if state.redeal_button is not None else None
    if seat is None or seat.stack <= 0 or seat.must_rebuy or seat.status != ACTIVE:
        return None
    return seat.seat


def plan_next_hand(state: TableState, drawn_button: int | None = None) -> HandPlan:
    """Who the next hand would deal in, the button, the blinds, the owed posts and the
    players waiting (for the tablet to show before dealing, e.g. to ask a new player
    between the button and the big blind whether he posts or waits).

    Raises:
        DomainError ``not_enough_players`` (SEAT-3).
    """
    seats = [
        SeatStatus(
            seat=s.seat,
            status=s.status,
            can_play=s.stack > 0 and not s.must_rebuy,
            post=s.post,
            missed_small_blind=s.missed_small_blind,
            missed_big_blind=s.missed_big_blind,
        )
        for s in state.seats
    ]
    try:
        return blinds.plan_hand(
            seats,
            _last_blinds(state),
            button_rule=state.config.button_rule,
            missed_blind_sb_dead=state.config.missed_blind_sb_dead,
            drawn_button=drawn_button if drawn_button is not None else _redeal_button(state),
            max_seats=state.config.max_seats,
            tournament=state.config.mode == TOURNAMENT,
        )
    except NotEnoughPlayers as short:
        raise DomainError(
            "not_enough_players",
            "A hand needs at least two seated players with chips who are not sitting out"
            " or waiting for the big blind.",
            rule="SEAT-3",
            players=short.players,
        ) from None


def _decide_begin(state: TableState, cmd: BeginHand) -> list[DomainEvent]:
    c = state.config
    if state.hand_id is not None:  # one hand at a time (no rule to cite: BI-6 is about chips)
        raise DomainError(
            "hand_in_progress",
            "The previous hand is not finished.",
            hand_id=state.hand_id,
        )
    drawn = cmd.button_seat
    if drawn is not None and state.button_seat is None:
        players = plan_next_hand(state).dealt_in
        if drawn not in players:
            raise DomainError(
                "button_seat_not_in_hand",
                f"The button must be on a seat dealt in: {list(players)}.",
                rule="SEAT-1",
                button_seat=drawn,
            )
        plan = plan_next_hand(state, drawn)
    else:
        plan = plan_next_hand(state)
        if drawn is not None and drawn != plan.button_seat:
            rule = "SEAT-5" if c.button_rule == blinds.DEAD_BUTTON else "SEAT-4"
            raise DomainError(
                "button_out_of_turn",
                f"The button moves by itself, to seat {plan.button_seat}.",
                rule=rule,
                button_seat=drawn,
                expected_button_seat=plan.button_seat,
            )
    by_seat = {s.seat: s for s in state.seats}
    posts = [SeatBlind(plan.big_blind_seat, "big_blind")]
    if plan.small_blind_seat is not None:
        posts.insert(0, SeatBlind(plan.small_blind_seat, "small_blind"))
    posts += [SeatBlind(seat, kind) for seat, kind in plan.posts]
    return [
        HandBegan(
            c.table_id,
            cmd.hand_id,
            state.hands_played + 1,
            plan.button_seat,
            tuple(
                DealtInSeat(seat, by_seat[seat].player_id, by_seat[seat].stack)
                for seat in plan.dealt_in
            ),
            small_blind_seat=plan.small_blind_seat,
            big_blind_seat=plan.big_blind_seat,
            dead_small_blind_seat=plan.dead_small_blind_seat,
            posts=tuple(posts),
            waiting_seats=plan.waiting,
            missed_blinds=tuple(SeatBlind(seat, kind) for seat, kind in plan.missed),
        )
    ]


def start_hand_command(
    began: HandBegan,
    config: TableOpened,
    *,
    straddles: tuple[int, ...] = (),
    misdeal_action_threshold: int = 2,
    misdeal_counts_passive_actions: bool = True,
    misdeal_allowed_after_flop: bool = False,
    stakes: Stakes | None = None,
) -> StartHand:
    """The hand engine's :class:`StartHand` for a ``HandBegan`` of this table: the seats,
    button, blinds and owed posts it names, with the table's rake and mode and its stakes
    (or ``stakes``: a tournament's level when the hand starts, CLK-2)."""
    stakes = stakes or Stakes(config.small_blind, config.big_blind, config.ante, config.ante_type)
    owed: dict[str, list[int]] = {"dead_sb": [], "posted_bb": [], "posted_sb": []}
    for post in began.posts:
        if post.kind in owed:
            owed[post.kind].append(post.seat)
    return StartHand(
        hand_id=began.hand_id,
        table_id=began.table_id,
        hand_number=began.hand_number,
        button_seat=began.button_seat,
        seats=tuple(SeatInHand(s.seat, str(s.player_id), s.stack) for s in began.seats),
        small_blind=stakes.small_blind,
        big_blind=stakes.big_blind,
        game=config.game,  # type: ignore[arg-type]
        ante=stakes.ante,
        ante_type=stakes.ante_type,  # type: ignore[arg-type]
        min_raise_rule=config.min_raise_rule,  # type: ignore[arg-type]
        rake_percent_bp=config.rake_percent_bp,
        rake_cap=config.rake_cap,
        no_flop_no_drop=config.no_flop_no_drop,
        mode=config.mode,  # type: ignore[arg-type]
        straddles=straddles,
        misdeal_action_threshold=misdeal_action_threshold,
        misdeal_counts_passive_actions=misdeal_counts_passive_actions,
        misdeal_allowed_after_flop=misdeal_allowed_after_flop,
        small_blind_seat=began.small_blind_seat,
        big_blind_seat=began.big_blind_seat,
        dead_small_blinds=tuple(owed["dead_sb"]),
        posted_big_blinds=tuple(owed["posted_bb"]),
        posted_small_blinds=tuple(owed["posted_sb"]),
        limit_cap_lifted_heads_up=limit_cap_lifted_heads_up(config),
        all_in_face_up=showdown_procedure.all_in_face_up(
            mode=config.mode,  # type: ignore[arg-type]
            allin_faceup_in_cash=config.allin_faceup_in_cash,
        )
        is not None,
    )


def limit_cap_lifted_heads_up(config: TableOpened) -> bool:
    """Fixed limit: whether the raise cap is lifted heads-up (BET-6) or kept (BET-5): the
    table's setting, else BET-6 at cash tables and BET-5 in tournaments."""
    if config.limit_cap_lifted_heads_up is not None:
        return config.limit_cap_lifted_heads_up
    return config.mode != TOURNAMENT


def _decide_sit_out(state: TableState, cmd: SitOut) -> list[DomainEvent]:
    occupant = seat_occupant(state, cmd.seat)
    if occupant.status == SITTING_OUT:
        raise DomainError(
            "already_sitting_out", f"Seat {cmd.seat} is sitting out.", rule="SEAT-16", seat=cmd.seat
        )
    return [PlayerSatOut(state.config.table_id, cmd.seat, occupant.player_id)]


def _decide_sit_in(state: TableState, cmd: SitIn) -> list[DomainEvent]:
    occupant = seat_occupant(state, cmd.seat)
    status = occupant.status
    if status == ACTIVE or (status == NEW and not cmd.post):
        raise DomainError(
            "not_sitting_out",
            f"Seat {cmd.seat} is not sitting out or waiting for the big blind.",
            rule="SEAT-16",
            seat=cmd.seat,
            status=status,
        )
    if status == SITTING_OUT and cmd.post and not occupant.owes:
        raise DomainError(
            "nothing_owed",
            "No blind passed this seat while the player was away: he sits in without posting.",
            rule="SEAT-16",
            seat=cmd.seat,
        )
    if status == WAITING and not cmd.post and not occupant.post:
        raise DomainError(
            "must_wait_for_big_blind",
            "The player waits for the big blind; to play before it he must post the small"
            " blind (dead) and the big blind.",
            rule="SEAT-16",
            seat=cmd.seat,
            missed_small_blind=occupant.missed_small_blind,
            missed_big_blind=occupant.missed_big_blind,
        )
    return [
        PlayerSatIn(
            state.config.table_id,
            cmd.seat,
            occupant.player_id,
            cmd.post,
            owes_small_blind=occupant.missed_small_blind,
            owes_big_blind=occupant.missed_big_blind,
        )
    ]


def decide(state: TableState | None, command: Command) -> list[DomainEvent]:
    """Events that ``command`` causes at this table.

    Raises:
        DomainError: ``table_already_open``, ``table_not_open``, ``table_closed``,
            ``invalid_table_config``, ``seat_out_of_range`` (SEAT-3), ``seat_occupied``
            (BI-1), ``player_already_seated`` (BI-10), ``buy_in_below_minimum`` /
            ``buy_in_above_maximum`` (BI-3/BI-4/BI-5), ``buy_in_below_returning_minimum``
            (SES-7), ``seat_empty``, ``hand_in_progress`` (BI-6, RAKE-5, RAKE-6, SES-4),
            ``top_up_above_maximum`` (BI-6), ``rebuy_below_minimum`` (BI-7),
            ``refreshment_above_limit`` (RAKE-6), ``transfer_game_mismatch`` (SES-3),
            ``table_not_empty``, ``limit_change_needs_reason`` (BI-5), sidebet codes
            (RAKE-5), ``not_enough_players`` (SEAT-3), ``button_out_of_turn`` (SEAT-4, or
            SEAT-5 with the dead button), ``no_hand_in_progress``, ``already_sitting_out``,
            ``not_sitting_out``, ``nothing_owed``, ``must_wait_for_big_blind`` (SEAT-16).
    """
    if isinstance(command, OpenTable):
        if state is not None:
            raise DomainError("table_already_open", "This table is already open.")
        _validate_config(command.config)
        return [command.config]
    if state is None:
        raise DomainError("table_not_open", "The table is not open.")
    if state.closed and not isinstance(command, CashOut | TransferOut):
        raise DomainError("table_closed", "The table is closed.", table_id=state.config.table_id)
    c = state.config
    if c.mode == TOURNAMENT and isinstance(command, CASH_ONLY):
        raise DomainError(
            "tournament_table",
            "Seats, stacks and blinds at a tournament table come from the tournament.",
            table_id=c.table_id,
            tournament_id=c.tournament_id,
        )
    if c.mode == CASH and isinstance(command, SeatEntrant | UnseatEntrant | AddEntrantChips):
        raise DomainError("not_a_tournament_table", "This is a cash table.", table_id=c.table_id)
    match command:
        case SeatPlayer():
            return decide_seat(state, command)
        case SeatEntrant(
            seat=seat, player_id=player_id, stack=stack, reason=reason, wait_for_big_blind=wait
        ):
            free_seat(state, seat)
            if state.seat_of(player_id) is not None or stack <= 0:
                raise DomainError(
                    "invalid_tournament_seat",
                    "The player is already at this table, or has no chips.",
                    player_id=player_id,
                    stack=stack,
                )
            return [
                TournamentPlayerSeated(
                    c.table_id, seat, player_id, stack, c.tournament_id or 0, reason, wait
                )
            ]
        case AddEntrantChips(seat=seat, chips=chips, reason=reason):
            occupant = seat_occupant(state, seat)
            not_in_hand(state, seat, rule="TREG-14")
            if chips <= 0:
                raise DomainError("invalid_chips", "Chips added must be positive.", chips=chips)
            return [
                TournamentChipsAdded(
                    c.table_id, seat, occupant.player_id, chips, c.tournament_id or 0, reason
                )
            ]
        case UnseatEntrant(seat=seat, reason=reason):
            occupant = seat_occupant(state, seat)
            not_in_hand(state, seat, rule="TSEAT-3")
            return [
                TournamentPlayerUnseated(
                    c.table_id,
                    seat,
                    occupant.player_id,
                    occupant.stack,
                    c.tournament_id or 0,
                    reason,
                )
            ]
        case CashOut(seat=seat):
            occupant = seat_occupant(state, seat)
            not_in_hand(state, seat)
            return [
                PlayerCashedOut(c.table_id, seat, occupant.player_id, occupant.stack),
                *sidebets_called_off(state, occupant.player_id),
            ]
        case TopUp():
            return decide_top_up(state, command)
        case PayRefreshment():
            return decide_refreshment(state, command)
        case ChangeLimits(buy_in_min=low, buy_in_max=high, reason=reason, changed_by=actor):
            if not reason.strip():
                raise DomainError(
                    "limit_change_needs_reason",
                    "The floor must say why the limits change.",
                    rule="BI-5",
                )
            _validate_config(replace(c, buy_in_min=low, buy_in_max=high))
            return [TableLimitsChanged(c.table_id, low, high, reason.strip(), actor)]
        case TransferOut():
            return decide_transfer_out(state, command)
        case TransferIn():
            return decide_transfer_in(state, command)
        case CloseTable(reason=reason):
            if state.seats or state.hand_id is not None:
                raise DomainError(
                    "table_not_empty",
                    "Move or cash out every player before closing the table.",
                    seats=[s.seat for s in state.seats],
                )
            return [TableClosed(c.table_id, reason)]
        case RecordSidebet():
            return decide_sidebet(state, command)
        case SettleSidebet():
            return decide_settle(state, command)
        case CallOffSidebet():
            return decide_call_off(state, command)
        case GiveChips():
            return decide_gift(state, command)
        case TakePartialCashOut():
            return decide_partial(state, command)
        case PayDealerFee(seat=seat, amount=amount, hand_id=hand_id):
            occupant = seat_occupant(state, seat)
            not_in_hand(state, seat, rule="RAKE-8")
            if not 0 < amount <= occupant.stack:
                raise DomainError(
                    "invalid_fee",
                    "The fee must be positive and covered by the stack.",
                    rule="RAKE-8",
                    amount=amount,
                    stack=occupant.stack,
                )
            return [DealerFeePaid(c.table_id, seat, occupant.player_id, amount, hand_id)]
        case CorrectStacks():
            return _decide_correction(state, command)
        case ChangeSeat():
            return _decide_seat_change(state, command)
        case RecordShuffle(step=step):
            if step not in SHUFFLE_STEPS:
                raise DomainError("invalid_shuffle_step", "first_riffle or cut.", rule="SD-25")
            if state.hand_id is not None:
                raise DomainError(
                    "hand_in_progress", "The next shuffle starts after the hand.", rule="SD-25"
                )
            return [ShuffleRecorded(c.table_id, step)]
        case BeginHand():
            return _decide_begin(state, command)
        case SitOut():
            return _decide_sit_out(state, command)
        case SitIn():
            return _decide_sit_in(state, command)
        case EndHand(hand_id=hand_id, stacks=stacks, rake=rake, voided=voided):
            if state.hand_id != hand_id:
                raise DomainError("no_hand_in_progress", "That hand is not running at this table.")
            ended = HandEnded(c.table_id, hand_id, tuple(SeatStack(s, v) for s, v in stacks),
                              rake, voided)  # fmt: skip
            after = _after(state, ended)
            corrections = _deferred_corrections(state.deferred_corrections, after)
            top_ups = [  # BI-6: declared during the hand, paid, on the stack now
                DeclaredTopUpAdded(c.table_id, hand_id, t.seat, t.player_id, t.amount)
                for t in state.declared_top_ups
            ]
            return [ended, *corrections, *top_ups]
    raise TypeError(f"unknown command {command!r}")


def _decide_seat_change(state: TableState, cmd: ChangeSeat) -> list[DomainEvent]:
    """SEAT-17: between his hands a player takes an empty seat of the same game; further
    from the big blind he waits until the big blind reaches him (or posts), closer to it he
    plays at once (:func:`tables.domain.rulings.seat_change_entry`)."""
    occupant = seat_occupant(state, cmd.seat)
    not_in_hand(state, cmd.seat, rule="SEAT-17")
    free_seat(state, cmd.new_seat)
    waits = False
    if state.big_blind_seat is not None and occupant.status != SITTING_OUT:
        occupied = [s.seat for s in state.seats]
        entry = rulings.seat_change_entry(
            old_seat=cmd.seat, new_seat=cmd.new_seat, big_blind_seat=state.big_blind_seat,
            seats=[*occupied, state.big_blind_seat],
        )  # fmt: skip
        waits = entry == "wait_or_post"
    return [SeatChanged(state.config.table_id, cmd.seat, cmd.new_seat, occupant.player_id, waits)]


def _decide_correction(state: TableState, cmd: CorrectStacks) -> list[DomainEvent]:
    """SD-24: the chips of an upheld dispute move between the same players' stacks, never
    below zero. A pot-accounting error may still be raised while the next hand runs (until
    substantial action on it): the chips of the seats in that hand cannot move during it,
    so the correction waits for its end (:func:`_deferred_corrections`)."""
    c = state.config
    players = dict(cmd.players)
    occupants = {seat: _disputed_player(state, seat, players) for seat, _ in cmd.adjustments}
    moved = []
    if state.hand_id is not None and any(s in state.in_hand for s, _ in cmd.adjustments):
        moved = [SeatStack(seat, amount) for seat, amount in cmd.adjustments if amount]
        if not moved:
            return []
        involved = tuple((m.seat, players[m.seat]) for m in moved)
        return [StacksCorrectionDeferred(c.table_id, cmd.hand_id, tuple(moved), involved)]
    for seat, amount in cmd.adjustments:
        occupant = occupants[seat]
        if occupant.stack + amount < 0:
            raise DomainError(
                "correction_exceeds_stack",
                "The correction takes more chips than the stack holds.",
                rule="SD-24",
                seat=seat,
                stack=occupant.stack,
                amount=amount,
            )
        if amount:
            moved.append(SeatStack(seat, amount))
    return [StacksCorrected(c.table_id, cmd.hand_id, tuple(moved))] if moved else []


def _disputed_player(state: TableState, seat: int, players: dict[int, int]) -> Seat:
    """The disputed hand's player still at ``seat`` (SD-24).

    Raises:
        DomainError ``player_left_table``: he left it (settle with him at the cage).
    """
    occupant = state.seat(seat)
    if occupant is None or occupant.player_id != players.get(seat):
        raise DomainError(
            "player_left_table",
            "A player of the disputed hand has left this seat: settle the correction "
            "with him at the cage.",
            rule="SD-24",
            seat=seat,
        )
    return occupant


def _after(state: TableState, event: DomainEvent) -> TableState:
    """``state`` after ``event`` (an event of an open table never closes it to ``None``)."""
    after = evolve(state, event)
    assert after is not None
    return after


def _deferred_corrections(
    deferred: tuple[StacksCorrectionDeferred, ...], after: TableState
) -> list[DomainEvent]:
    """The corrections ``deferred`` during the hand that just ended (SD-24), in the order
    they were upheld, on the table ``after`` it: each moves its chips now
    (``StacksCorrected``) or, when a stack no longer covers its part or a seat's player is
    no longer the disputed hand's, goes to the cage (``CorrectionUnsettled``)."""
    events: list[DomainEvent] = []
    for correction in deferred:
        players = dict(correction.players)
        short = None
        for moved in correction.adjustments:
            seat = after.seat(moved.seat)
            stack = seat.stack if seat is not None else 0
            if seat is None or seat.player_id != players.get(moved.seat):
                short = (moved.seat, stack, "player_left")  # left, moved or replaced meanwhile
                break
            if stack + moved.stack < 0:
                short = (moved.seat, stack, "short")
                break
        if short is None:
            event: DomainEvent = StacksCorrected(
                correction.table_id, correction.hand_id, correction.adjustments
            )
            after = _after(after, event)
        else:
            event = CorrectionUnsettled(
                correction.table_id, correction.hand_id, correction.adjustments, *short
            )
        events.append(event)
    return events


def _with_stack(state: TableState, seat: int, delta: int, **changes: object) -> TableState:
    seats = tuple(
        replace(s, stack=s.stack + delta, **changes) if s.seat == seat else s  # type: ignore[arg-type]
        for s in state.seats
    )
    return replace(state, seats=seats)


def _sit(state: TableState, seat: Seat) -> TableState:
    return replace(state, seats=tuple(sorted((*state.seats, seat), key=lambda s: s.seat)))


def _leave(state: TableState, seat: int) -> TableState:
    left = tuple(s for s in state.seats if s.seat != seat)
    if left:
        return replace(state, seats=left)
    # An empty table ends the game: the next one starts with a new button draw.
    return replace(
        state, seats=left, button_seat=None, small_blind_seat=None, big_blind_seat=None,
        redeal_button=None,
    )  # fmt: skip


def _entry_status(state: TableState) -> str:
    """A new player in a running game waits or posts at a ``wait_or_post_both`` table
    (SEAT-15); in a new game, or at an ``immediate_no_post`` table, he plays (SES-1)."""
    if state.config.cash_new_player_entry == WAIT_OR_POST_BOTH and state.button_seat is not None:
        return NEW
    return ACTIVE


def _hand_began(state: TableState, event: HandBegan) -> TableState:
    dealt = {s.seat for s in event.seats}
    waiting = set(event.waiting_seats)
    missed_sb = {m.seat for m in event.missed_blinds if m.kind == "small_blind"}
    missed_bb = {m.seat for m in event.missed_blinds if m.kind == "big_blind"}
    seats = []
    for s in state.seats:
        if s.seat in dealt:
            s = replace(
                s, status=ACTIVE, post=False, missed_small_blind=False, missed_big_blind=False
            )
        else:
            if s.seat in waiting:
                s = replace(s, status=WAITING)
            if s.seat in missed_sb or s.seat in missed_bb:
                s = replace(
                    s,
                    missed_small_blind=s.missed_small_blind or s.seat in missed_sb,
                    missed_big_blind=s.missed_big_blind or s.seat in missed_bb,
                )
        seats.append(s)
    if event.big_blind_seat is None:  # recorded before the blinds were named: by position
        sb, bb = blind_seats(event.button_seat, dealt)
    else:
        sb = event.small_blind_seat
        if sb is None:
            sb = event.dead_small_blind_seat
        bb = event.big_blind_seat
    changed = [(a, b) for a, b in zip(state.seats, seats, strict=True) if a != b]
    pre_hand = PreHand(
        state.button_seat, state.small_blind_seat, state.big_blind_seat,
        tuple(a for a, _ in changed), tuple(b for _, b in changed),
    )  # fmt: skip
    return replace(
        state,
        seats=tuple(seats),
        hand_id=event.hand_id,
        button_seat=event.button_seat,
        small_blind_seat=sb,
        big_blind_seat=bb,
        in_hand=tuple(s.seat for s in event.seats),
        pre_hand=pre_hand,
        redeal_button=None,
    )


def _hand_voided(state: TableState, seats: tuple[Seat, ...]) -> TableState:
    """A misdeal or void (MIS-1..3, MIS-6, MIS-11, MIS-12): the hand is redealt as if it
    had never started. The button and blinds go back to the last hand's (the redeal has the
    same button), and each seat the start changed (owed blinds posted, a waiting player dealt
    in) is put back: the blinds he owed, and his status unless it changed again during the
    hand (a sit-out asked for then stands). A new game's first hand keeps its drawn button
    for the redeal."""
    pre = state.pre_hand
    if pre is None:  # recorded before the table kept what a start changed
        return state
    after = {s.seat: s for s in pre.after}
    before = {s.seat: s for s in pre.before}
    restored = []
    for s in seats:
        was, began = before.get(s.seat), after.get(s.seat)
        if was is not None and began is not None and s.player_id == was.player_id:
            s = replace(s, missed_small_blind=was.missed_small_blind,
                        missed_big_blind=was.missed_big_blind)  # fmt: skip
            if (s.status, s.post) == (began.status, began.post):
                s = replace(s, status=was.status, post=was.post)
        restored.append(s)
    return replace(
        state,
        seats=tuple(restored),
        button_seat=pre.button_seat,
        small_blind_seat=pre.small_blind_seat,
        big_blind_seat=pre.big_blind_seat,
        redeal_button=state.button_seat if pre.button_seat is None else None,
    )


def _sat_out(seat: Seat) -> Seat:
    if seat.status == NEW:  # never dealt in: to play before his big blind he posts both
        return replace(
            seat, status=SITTING_OUT, post=False, missed_small_blind=True, missed_big_blind=True
        )
    return replace(seat, status=SITTING_OUT, post=False)


def _sat_in(seat: Seat, event: PlayerSatIn) -> Seat:
    if seat.status == NEW:
        return replace(seat, post=event.post)
    if event.post or seat.owes:
        return replace(seat, status=WAITING, post=event.post)
    return replace(seat, status=ACTIVE, post=False)


def _with_seat(state: TableState, number: int, change: Callable[[Seat], Seat]) -> TableState:
    return replace(state, seats=tuple(change(s) if s.seat == number else s for s in state.seats))


def evolve(state: TableState | None, event: DomainEvent) -> TableState | None:
    """The table after ``event``."""
    if isinstance(event, TableOpened):
        return TableState(config=event)
    if state is None:
        raise ValueError(f"{event.TYPE} before TableOpened")
    match event:
        case PlayerSeated(seat=seat, player_id=player_id, buy_in=buy_in):
            return _sit(state, Seat(seat, player_id, buy_in, status=_entry_status(state)))
        case PlayerTransferredIn(seat=seat, player_id=player_id, stack=stack):
            return _sit(state, Seat(seat, player_id, stack))
        case TournamentPlayerSeated(seat=seat, player_id=player_id, stack=stack):
            # SEAT-14: between the button and the big blind he waits for the big blind
            status = WAITING if event.wait_for_big_blind else ACTIVE
            return _sit(state, Seat(seat, player_id, stack, status=status))
        case (
            PlayerCashedOut(seat=seat)
            | PlayerTransferredOut(seat=seat)
            | TournamentPlayerUnseated(seat=seat)
        ):
            return _leave(state, seat)
        case ChipsToppedUp(after_hand=True):  # BI-6: paid now, on the stack after the hand
            return replace(state, declared_top_ups=(*state.declared_top_ups, event))
        case (
            ChipsToppedUp(seat=seat, amount=amount)
            | TournamentChipsAdded(seat=seat, chips=amount)
            | DeclaredTopUpAdded(seat=seat, amount=amount)
        ):
            return _with_stack(state, seat, amount, must_rebuy=False)
        case (
            RefreshmentPaid(seat=seat, amount=amount)
            | PartialCashOut(seat=seat, amount=amount)
            | DealerFeePaid(seat=seat, amount=amount)
        ):
            return _with_stack(state, seat, -amount)
        case ChipsGiven(from_seat=giver, to_seat=taker, amount=amount):
            return _with_stack(_with_stack(state, giver, -amount), taker, amount)
        case SeatChanged(from_seat=old, to_seat=new, waits_for_big_blind=waits):
            mover = state.seat(old)
            assert mover is not None
            arrived = replace(mover, seat=new, status=WAITING if waits else mover.status)
            others = tuple(x for x in state.seats if x.seat != old)
            return _sit(replace(state, seats=others), arrived)
        case StacksCorrected(adjustments=adjustments):
            for moved in adjustments:
                state = _with_stack(state, moved.seat, moved.stack)
            return state
        case StacksCorrectionDeferred():
            return replace(state, deferred_corrections=(*state.deferred_corrections, event))
        case CorrectionUnsettled():
            return state
        case TableLimitsChanged(buy_in_min=low, buy_in_max=high):
            return replace(state, config=replace(state.config, buy_in_min=low, buy_in_max=high))
        case TableClosed():
            return replace(state, closed=True)
        case SidebetRecorded(sidebet_id=sid, player_a=a, player_b=b, amount=amount):
            return replace(state, sidebets=(*state.sidebets, OpenSidebet(sid, a, b, amount)))
        case SidebetSettled(sidebet_id=sid, winner=winner, loser=loser, amount=amount):
            won, lost = state.seat_of(winner), state.seat_of(loser)
            assert won is not None and lost is not None
            state = _with_stack(state, lost.seat, -amount)
            state = _with_stack(state, won.seat, amount, must_rebuy=event.winner_must_rebuy)
            return replace(state, sidebets=tuple(b for b in state.sidebets if b.sidebet_id != sid))
        case SidebetCalledOff(sidebet_id=sid):
            return replace(state, sidebets=tuple(b for b in state.sidebets if b.sidebet_id != sid))
        case HandBegan():
            return _hand_began(state, event)
        case PlayerSatOut(seat=seat):
            return _with_seat(state, seat, _sat_out)
        case PlayerSatIn(seat=seat):
            return _with_seat(state, seat, lambda s: _sat_in(s, event))
        case HandEnded(stacks=stacks):
            after = {s.seat: s.stack for s in stacks}
            seats = tuple(replace(s, stack=after.get(s.seat, s.stack)) for s in state.seats)
            if event.voided:
                state = _hand_voided(state, seats)
                seats = state.seats
            return replace(
                state, seats=seats, hand_id=None, in_hand=(), hands_played=state.hands_played + 1,
                pre_hand=None, deferred_corrections=(), declared_top_ups=(),
            )  # fmt: skip
    return state


# The commands and the state are used through this module too (``table.SeatPlayer``).
__all__ = [
    "CASH",
    "CASH_ONLY",
    "HAND_CLOSED_BY",
    "MODES",
    "PAYMENT_METHODS",
    "SHOW_POKER",
    "SHUFFLE_STEPS",
    "TABLE_GAMES",
    "TOURNAMENT",
    "AddEntrantChips",
    "BeginHand",
    "CallOffSidebet",
    "CashOut",
    "ChangeLimits",
    "ChangeSeat",
    "CloseTable",
    "Command",
    "CorrectStacks",
    "EndHand",
    "GiveChips",
    "OpenSidebet",
    "OpenTable",
    "PayDealerFee",
    "PayRefreshment",
    "RecordShuffle",
    "RecordSidebet",
    "Seat",
    "SeatEntrant",
    "SeatPlayer",
    "SettleSidebet",
    "SitIn",
    "SitOut",
    "Stakes",
    "TableState",
    "TakePartialCashOut",
    "TopUp",
    "TransferIn",
    "TransferOut",
    "UnseatEntrant",
    "buy_in_rule",
    "decide",
    "evolve",
    "limit_cap_lifted_heads_up",
    "next_button",
    "plan_next_hand",
    "same_game",
    "start_hand_command",
]
