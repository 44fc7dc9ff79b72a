"""Chips reaching or leaving a seat between hands, by the cash game's rules: the buy-in
(BI-1, BI-3/4/5, BI-10, SES-7), top-ups (BI-6), refreshments from the stack (RAKE-6),
transfers between tables (SES-2/3/4), sidebets recorded and settled between hands (RAKE-5,
BI-7), chip gifts and loans only if nobody objects (BI-9) and the partial cash-out as an
audited floor exception (SES-6). :func:`tables.domain.table.decide` dispatches to them.
"""

from __future__ import annotations

from casino.domain_events import DomainEvent
from casino.errors import DomainError
from tables.cash_events import (
    ChipGiftBlocked,
    ChipsGiven,
    ChipsToppedUp,
    PartialCashOut,
    PlayerTransferredIn,
    PlayerTransferredOut,
    RefreshmentPaid,
    SidebetCalledOff,
    SidebetRecorded,
    SidebetSettled,
)
from tables.domain.seating import next_button as next_button  # callers use table.next_button
from tables.domain.table_commands import (
    CallOffSidebet,
    GiveChips,
    PayRefreshment,
    RecordSidebet,
    SeatPlayer,
    SettleSidebet,
    TakePartialCashOut,
    TopUp,
    TransferIn,
    TransferOut,
)
from tables.domain.table_state import (
    TableState,
    buy_in_range,
    buy_in_rule,
    check_payment,
    free_seat,
    limits_error,
    not_in_hand,
    same_game,
    seat_occupant,
)
from tables.events import (
    PlayerSeated,
)


def decide_seat(state: TableState, cmd: SeatPlayer) -> list[DomainEvent]:
    c = state.config
    free_seat(state, cmd.seat)
    if state.seat_of(cmd.player_id) is not None:
        raise DomainError(
            "player_already_seated",
            "The player already has a seat at this table.",
            rule="BI-10",
            player_id=cmd.player_id,
        )
    limits = {"buy_in": cmd.buy_in, "buy_in_min": c.buy_in_min, "buy_in_max": c.buy_in_max}
    if cmd.returning_minimum and cmd.buy_in < cmd.returning_minimum:
        raise limits_error(
            "buy_in_below_returning_minimum",
            f"The player left this game within the return window with "
            f"{cmd.returning_minimum}; he must buy in for at least that.",
            "SES-7",
            amount_required=cmd.returning_minimum,
            **limits,
        )
    if cmd.buy_in < c.buy_in_min:
        raise limits_error(
            "buy_in_below_minimum",
            f"The minimum buy-in at this table is {c.buy_in_min}.",
            buy_in_rule(c),
            **limits,
        )
    ceiling = buy_in_range(
        c,
        returning_minimum=cmd.returning_minimum,
        return_overrides_max=cmd.return_overrides_max,
    ).high
    if cmd.buy_in > ceiling:
        raise limits_error(
            "buy_in_above_maximum",
            f"The maximum buy-in at this table is {ceiling}.",
            buy_in_rule(c),
            **limits,
        )
    check_payment(cmd.paid_with)
    return [PlayerSeated(c.table_id, cmd.seat, cmd.player_id, cmd.buy_in, cmd.paid_with)]


def decide_top_up(state: TableState, cmd: TopUp) -> list[DomainEvent]:
    """BI-6/BI-7: a top-up between hands goes on the stack at once. One the player declares
    during his hand is paid now and added when the hand ends (``after_hand``; table stakes:
    the chips in play are those he started the hand with). The table maximum counts his
    stack as the hand began plus what he already declared; chips won in the hand do not
    take back a top-up declared while it was allowed (a house reading of BI-6).

    Raises:
        DomainError ``invalid_amount``, ``rebuy_below_minimum`` (BI-7),
        ``top_up_above_maximum`` (BI-3/4/5), ``invalid_payment``, ``seat_empty``.
    """
    c = state.config
    occupant = seat_occupant(state, cmd.seat)
    if cmd.amount <= 0:
        raise DomainError("invalid_amount", "A top-up must be a positive amount.")
    after_hand = state.hand_id is not None and cmd.seat in state.in_hand
    declared = state.top_up_after_hand(cmd.seat)
    context = {
        "amount": cmd.amount,
        "stack": occupant.stack,
        "buy_in_min": c.buy_in_min,
        "buy_in_max": c.buy_in_max,
        **({"top_up_after_hand": declared} if declared else {}),
    }
    # BI-7: a broke player re-buys at least the minimum buy-in; side-bet winnings (the whole
    # stack of a player who won a side bet with no chips) are not table chips, so they count
    # toward neither limit: the re-buy itself is between the minimum and the maximum.
    if (occupant.must_rebuy or occupant.stack == 0) and cmd.amount < c.buy_in_min:
        raise DomainError(
            "rebuy_below_minimum",
            f"A player with no table chips must re-buy at least {c.buy_in_min}; side-bet "
            f"winnings are not table chips.",
            rule="BI-7",
            **context,
        )
    table_chips = 0 if occupant.must_rebuy else occupant.stack
    if table_chips + declared + cmd.amount > c.buy_in_max:
        raise DomainError(
            "top_up_above_maximum",
            f"A top-up may bring the stack to at most {c.buy_in_max}.",
            rule=buy_in_rule(c),  # the table's maximum (BI-3/4/5), not table stakes (BI-6)
            **context,
        )
    check_payment(cmd.paid_with)
    return [
        ChipsToppedUp(
            c.table_id, cmd.seat, occupant.player_id, cmd.amount, cmd.paid_with, after_hand
        )
    ]


def decide_refreshment(state: TableState, cmd: PayRefreshment) -> list[DomainEvent]:
    occupant = seat_occupant(state, cmd.seat)
    not_in_hand(state, cmd.seat, rule="RAKE-6")
    context = {"amount": cmd.amount, "limit": cmd.limit, "stack": occupant.stack}
    if cmd.amount <= 0:
        raise DomainError("invalid_amount", "The amount must be positive.", rule="RAKE-6")
    if cmd.amount > cmd.limit:
        raise DomainError(
            "refreshment_above_limit",
            f"Refreshments paid with chips are limited to {cmd.limit}.",
            rule="RAKE-6",
            **context,
        )
    if cmd.amount > occupant.stack:
        raise DomainError(
            "amount_exceeds_stack", "The stack is smaller than that.", rule="RAKE-6", **context
        )
    return [RefreshmentPaid(state.config.table_id, cmd.seat, occupant.player_id, cmd.amount)]


def decide_transfer_out(state: TableState, cmd: TransferOut) -> list[DomainEvent]:
    c = state.config
    occupant = seat_occupant(state, cmd.seat)
    not_in_hand(state, cmd.seat, rule="SES-4")
    if cmd.to_table.table_id == c.table_id:
        raise DomainError("transfer_to_same_table", "Choose another table.", rule="SES-4")
    if not same_game(c, cmd.to_table):
        raise DomainError(
            "transfer_game_mismatch",
            "A transfer keeps the stack only to a table of the same game and stakes; "
            "cash out and buy in instead.",
            rule="SES-3",
            to_table_id=cmd.to_table.table_id,
        )
    return [
        PlayerTransferredOut(
            c.table_id, cmd.seat, occupant.player_id, occupant.stack, cmd.to_table.table_id
        ),
        *sidebets_called_off(state, occupant.player_id),
    ]


def decide_transfer_in(state: TableState, cmd: TransferIn) -> list[DomainEvent]:
    c = state.config
    if state.closed:
        raise DomainError("table_closed", "The table is closed.")
    free_seat(state, cmd.seat)
    if state.seat_of(cmd.player_id) is not None:
        raise DomainError("player_already_seated", "The player already sits here.", rule="BI-10")
    if not same_game(c, cmd.from_table):
        raise DomainError(
            "transfer_game_mismatch",
            "A transfer keeps the stack only to a table of the same game and stakes.",
            rule="SES-3",
        )
    return [
        PlayerTransferredIn(c.table_id, cmd.seat, cmd.player_id, cmd.stack, cmd.from_table.table_id)
    ]


def decide_sidebet(state: TableState, cmd: RecordSidebet) -> list[DomainEvent]:
    for player in (cmd.player_a, cmd.player_b):
        if state.seat_of(player) is None:
            raise DomainError(
                "player_not_at_table",
                "Both players of a sidebet must be seated at the table.",
                rule="RAKE-5",
                player_id=player,
            )
    if cmd.player_a == cmd.player_b or cmd.amount <= 0:
        raise DomainError(
            "invalid_sidebet", "A sidebet is between two players for a positive amount."
        )
    if any(b.sidebet_id == cmd.sidebet_id for b in state.sidebets):
        raise DomainError("sidebet_exists", "That sidebet is already recorded.")
    covered = min(
        seat.stack for seat in state.seats if seat.player_id in (cmd.player_a, cmd.player_b)
    )
    if cmd.amount > covered:
        raise DomainError(
            "amount_exceeds_stack",
            "A sidebet is settled in chips at the table: each player's stack must cover it.",
            rule="RAKE-5",
            stack=covered,
            amount=cmd.amount,
        )
    return [
        SidebetRecorded(
            state.config.table_id,
            cmd.sidebet_id,
            cmd.player_a,
            cmd.player_b,
            cmd.amount,
            cmd.description,
        )
    ]


def decide_settle(state: TableState, cmd: SettleSidebet) -> list[DomainEvent]:
    bet = next((b for b in state.sidebets if b.sidebet_id == cmd.sidebet_id), None)
    if bet is None:
        raise DomainError("sidebet_not_found", "No open sidebet with that id.")
    if cmd.winner not in (bet.player_a, bet.player_b):
        raise DomainError("invalid_winner", "The winner must be one of the two players.")
    if state.hand_id is not None:
        raise DomainError(
            "hand_in_progress",
            "Sidebet chips change hands only after the hand has ended.",
            rule="RAKE-5",
            hand_id=state.hand_id,
        )
    loser = bet.player_b if cmd.winner == bet.player_a else bet.player_a
    loser_seat, winner_seat = state.seat_of(loser), state.seat_of(cmd.winner)
    if loser_seat is None or winner_seat is None:
        raise DomainError(
            "player_not_at_table", "Both players must still be seated.", rule="RAKE-5"
        )
    if loser_seat.stack < bet.amount:
        raise DomainError(
            "amount_exceeds_stack",
            "The loser's stack does not cover the sidebet.",
            rule="RAKE-5",
            stack=loser_seat.stack,
            amount=bet.amount,
        )
    return [
        SidebetSettled(
            state.config.table_id,
            bet.sidebet_id,
            cmd.winner,
            loser,
            bet.amount,
            winner_must_rebuy=winner_seat.stack == 0,
        )
    ]


def decide_call_off(state: TableState, cmd: CallOffSidebet) -> list[DomainEvent]:
    """The players call off an open sidebet: no chips move (RAKE-5: staff do not rule on
    side bets, they only move the chips of one that is paid).

    Raises:
        DomainError ``sidebet_not_found``.
    """
    if not any(b.sidebet_id == cmd.sidebet_id for b in state.sidebets):
        raise DomainError("sidebet_not_found", "No open sidebet with that id.")
    return [SidebetCalledOff(state.config.table_id, cmd.sidebet_id, "agreed")]


def sidebets_called_off(state: TableState, player_id: int) -> list[DomainEvent]:
    """The open sidebets of ``player_id``, called off as he leaves the table (a cash-out or
    a transfer): they can no longer be paid in chips at the table (RAKE-5)."""
    return [
        SidebetCalledOff(state.config.table_id, b.sidebet_id, "player_left", player_id)
        for b in state.sidebets
        if player_id in (b.player_a, b.player_b)
    ]


def decide_gift(state: TableState, cmd: GiveChips) -> list[DomainEvent]:
    giver, taker = seat_occupant(state, cmd.from_seat), seat_occupant(state, cmd.to_seat)
    if not cmd.allowed:
        raise DomainError(
            "chip_transfer_not_allowed", "Chips may not change hands in this game.", rule="BI-9"
        )
    if giver.seat == taker.seat or cmd.amount <= 0:
        raise DomainError("invalid_chip_transfer", "Give a positive amount to another seat.")
    for seat in (cmd.from_seat, cmd.to_seat):
        not_in_hand(state, seat)
    if cmd.amount > giver.stack:
        raise DomainError(
            "amount_exceeds_stack",
            "The stack is smaller than that.",
            rule="BI-8",
            stack=giver.stack,
            amount=cmd.amount,
        )
    others = tuple(s.seat for s in state.seats if s.seat not in (cmd.from_seat, cmd.to_seat))
    strangers = [seat for seat in cmd.objected_by if seat not in others]
    if strangers:
        raise DomainError(
            "objection_from_outside",
            "Only the other players at the table can object.",
            rule="BI-9",
            seats=strangers,
        )
    c = state.config
    if cmd.objected_by:  # not a refusal: the request and the objection are the record
        return [
            ChipGiftBlocked(
                c.table_id, cmd.from_seat, cmd.to_seat, cmd.amount, tuple(sorted(cmd.objected_by))
            )
        ]
    return [ChipsGiven(c.table_id, cmd.from_seat, cmd.to_seat, cmd.amount, others)]


def decide_partial(state: TableState, cmd: TakePartialCashOut) -> list[DomainEvent]:
    occupant = seat_occupant(state, cmd.seat)
    if not cmd.floor_override:
        raise DomainError(
            "partial_cash_out_not_allowed",
            "A player cashes out his whole stack; only the floor may make an exception.",
            rule="SES-5",
        )
    if not cmd.reason.strip():
        raise DomainError("partial_cash_out_needs_reason", "The floor must say why.", rule="SES-6")
    not_in_hand(state, cmd.seat)
    if cmd.amount > occupant.stack:  # the code every other stack check answers (QA)
        raise DomainError("amount_exceeds_stack", "The stack is smaller than that.",
                          rule="SES-6", amount=cmd.amount, stack=occupant.stack)  # fmt: skip
    if not 0 < cmd.amount < occupant.stack:
        raise DomainError(
            "invalid_amount",
            "A partial cash-out leaves chips on the table; to leave, cash out.",
            rule="SES-6",
            amount=cmd.amount,
            stack=occupant.stack,
        )
    return [
        PartialCashOut(
            state.config.table_id,
            cmd.seat,
            occupant.player_id,
            cmd.amount,
            cmd.approved_by,
            cmd.reason.strip(),
        )
    ]
