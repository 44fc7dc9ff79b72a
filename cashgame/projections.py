"""Projection of table-stream events into cash sessions and departures (SES-7).

Runs in the append's transaction, after the tables projection (apps order), so the table's
game and stakes are read from ``TableView``.
"""

from typing import Any

from cashgame.events import (
    ChipsGiven,
    ChipsRedeemed,
    ChipsSold,
    ChipsToppedUp,
    DealerFeePaid,
    PartialCashOut,
    PlayerTransferredIn,
    PlayerTransferredOut,
    RefreshmentPaid,
    SidebetSettled,
    TournamentPrizePaid,
)
from cashgame.models import (
    CageTransaction,
    CashSession,
    ChipMovement,
    Departure,
    PrizePayment,
    TournamentCageTransaction,
)
from casino.eventstore import rows
from casino.eventstore.projections import Projection
from casino.eventstore.store import RecordedEvent
from tables.events import PlayerCashedOut, PlayerSeated
from tables.models import SeatView, TableView
from tournaments.domain import events as tev

projection = Projection(
    "cashgame",
    models=[
        CashSession,
        Departure,
        ChipMovement,
        CageTransaction,
        PrizePayment,
        TournamentCageTransaction,
    ],
)


_STAKES = ("game", "small_blind", "big_blind")


def _stakes(table_id: int) -> dict[str, Any]:
    row = rows.select_one(TableView, {"table_id": table_id}, _STAKES)
    assert row is not None, f"table {table_id} has no view"
    return dict(zip(_STAKES, row, strict=True))


def _update_open_session(table_id: int, player_id: int, **changes: Any) -> None:
    """The player's session at the table that is still open (``left_at`` null)."""
    where = {"table_id": table_id, "player_id": player_id, "left_at": None}
    rows.update(CashSession, where, **changes)


def _ledger(
    recorded: RecordedEvent, table_id: int, *moves: tuple[int, str, int], paid_with: str = "",
    stakes: dict[str, Any] | None = None,
) -> None:  # fmt: skip
    """Record ``(player_id, kind, amount)`` movements of one event in the ledger."""
    stakes = stakes or _stakes(table_id)
    for player, kind, amount in moves:
        rows.insert(
            ChipMovement, position=recorded.position, at=recorded.recorded_at,
            table_id=table_id, player_id=player, kind=kind, amount=amount, paid_with=paid_with,
            **stakes,
        )  # fmt: skip


@projection.on(PlayerSeated, PlayerTransferredIn)
def _sat_down(recorded: RecordedEvent) -> None:
    e = recorded.event
    assert isinstance(e, PlayerSeated | PlayerTransferredIn)
    stakes = _stakes(e.table_id)
    if isinstance(e, PlayerSeated):
        move = (e.player_id, ChipMovement.Kind.BUY_IN, e.buy_in)
        _ledger(recorded, e.table_id, move, paid_with=e.paid_with, stakes=stakes)
    else:
        move = (e.player_id, ChipMovement.Kind.TRANSFER_IN, e.stack)
        _ledger(recorded, e.table_id, move, stakes=stakes)
    rows.insert(
        CashSession,
        player_id=e.player_id,
        table_id=e.table_id,
        seat=e.seat,
        seated_at=recorded.recorded_at,
        chips_in=e.buy_in if isinstance(e, PlayerSeated) else e.stack,
        arrived_by_transfer=isinstance(e, PlayerTransferredIn),
        **stakes,
    )


@projection.on(ChipsToppedUp)
def _topped_up(recorded: RecordedEvent) -> None:
    e = recorded.event
    assert isinstance(e, ChipsToppedUp)
    _ledger(
        recorded,
        e.table_id,
        (e.player_id, ChipMovement.Kind.TOP_UP, e.amount),
        paid_with=e.paid_with,
    )
    _update_open_session(e.table_id, e.player_id, chips_in=rows.Add(e.amount))


@projection.on(RefreshmentPaid)
def _refreshment(recorded: RecordedEvent) -> None:
    e = recorded.event
    assert isinstance(e, RefreshmentPaid)
    _ledger(recorded, e.table_id, (e.player_id, ChipMovement.Kind.REFRESHMENT, e.amount))
    _update_open_session(e.table_id, e.player_id, refreshments=rows.Add(e.amount))


@projection.on(SidebetSettled)
def _sidebet(recorded: RecordedEvent) -> None:
    """Sidebets move chips between players: in the ledger, neither drop nor cash-out."""
    e = recorded.event
    assert isinstance(e, SidebetSettled)
    _ledger(
        recorded,
        e.table_id,
        (e.winner, ChipMovement.Kind.SIDEBET_WON, e.amount),
        (e.loser, ChipMovement.Kind.SIDEBET_LOST, e.amount),
    )


@projection.on(PlayerCashedOut, PlayerTransferredOut)
def _left(recorded: RecordedEvent) -> None:
    e = recorded.event
    assert isinstance(e, PlayerCashedOut | PlayerTransferredOut)
    transfer = isinstance(e, PlayerTransferredOut)
    amount = e.stack if isinstance(e, PlayerTransferredOut) else e.amount
    kind = ChipMovement.Kind.TRANSFER_OUT if transfer else ChipMovement.Kind.CASH_OUT
    stakes = _stakes(e.table_id)
    _ledger(recorded, e.table_id, (e.player_id, kind, amount), stakes=stakes)
    _update_open_session(
        e.table_id, e.player_id, left_at=recorded.recorded_at, chips_out=amount,
        left_by_transfer=transfer,
    )  # fmt: skip
    if not transfer:
        key = {"player_id": e.player_id, **stakes}
        if not rows.update(Departure, key, left_at=recorded.recorded_at, amount=amount):
            Departure.objects.update_or_create(  # his first departure at these stakes
                **key, defaults={"left_at": recorded.recorded_at, "amount": amount}
            )


@projection.on(ChipsSold, ChipsRedeemed)
def _cage(recorded: RecordedEvent) -> None:
    e = recorded.event
    assert isinstance(e, ChipsSold | ChipsRedeemed)
    CageTransaction.objects.create(
        position=recorded.position,
        at=recorded.recorded_at,
        player_id=e.player_id,
        session_id=e.session_id,
        kind=CageTransaction.Kind.SOLD
        if isinstance(e, ChipsSold)
        else CageTransaction.Kind.REDEEMED,
        amount=e.amount,
    )


@projection.on(TournamentPrizePaid)
def _prize(recorded: RecordedEvent) -> None:
    e = recorded.event
    assert isinstance(e, TournamentPrizePaid)
    PrizePayment.objects.create(
        position=recorded.position,
        at=recorded.recorded_at,
        player_id=e.player_id,
        tournament_id=e.tournament_id,
        entry_number=e.entry_number,
        place=e.place,
        amount=e.amount,
    )


def _player_at(table_id: int, seat: int) -> int:
    return int(
        SeatView.objects.values_list("player_id", flat=True).get(table_id=table_id, seat=seat)
    )


@projection.on(ChipsGiven)
def _gift(recorded: RecordedEvent) -> None:
    e = recorded.event
    assert isinstance(e, ChipsGiven)
    _ledger(
        recorded,
        e.table_id,
        (_player_at(e.table_id, e.from_seat), ChipMovement.Kind.GIFT_GIVEN, e.amount),
        (_player_at(e.table_id, e.to_seat), ChipMovement.Kind.GIFT_RECEIVED, e.amount),
    )


@projection.on(PartialCashOut)
def _partial(recorded: RecordedEvent) -> None:
    e = recorded.event
    assert isinstance(e, PartialCashOut)
    _ledger(recorded, e.table_id, (e.player_id, ChipMovement.Kind.PARTIAL_CASH_OUT, e.amount))


@projection.on(DealerFeePaid)
def _dealer_fee(recorded: RecordedEvent) -> None:
    e = recorded.event
    assert isinstance(e, DealerFeePaid)
    _ledger(recorded, e.table_id, (e.player_id, ChipMovement.Kind.DEALER_FEE, e.amount))


# --- tournament money through the cage (issue #14) ------------------------------------------
# The cage projects the tournament streams (cashgame depends on tournaments.domain.events, never the
# other way): every payment in or out is a TournamentCageTransaction row.

_IN = "in"
_OUT = "out"


def _tournament_money(
    recorded: RecordedEvent, player_id: int, *moves: tuple[str, str, int]
) -> None:
    tournament_id = int(recorded.stream.removeprefix("tournament-"))
    TournamentCageTransaction.objects.bulk_create(
        TournamentCageTransaction(
            position=recorded.position,
            at=recorded.recorded_at,
            tournament_id=tournament_id,
            player_id=player_id,
            kind=kind,
            direction=direction,
            amount=amount,
        )
        for kind, direction, amount in moves
        if amount > 0
    )


K = TournamentCageTransaction.Kind


@projection.on(tev.PlayerRegistered)
def _t_registered(recorded: RecordedEvent) -> None:
    e = recorded.event
    assert isinstance(e, tev.PlayerRegistered)
    if e.paid_with != "cash":  # a satellite seat or T-Money: no cash moves (TREG-11)
        _tournament_money(recorded, e.player_id, (K.TICKET, _IN, e.buy_in),
                          (K.TICKET_FEE, _IN, e.fee))  # fmt: skip
        return
    _tournament_money(recorded, e.player_id, (K.BUY_IN, _IN, e.buy_in), (K.FEE, _IN, e.fee))


@projection.on(tev.PlayerReEntered)
def _t_reentered(recorded: RecordedEvent) -> None:
    e = recorded.event
    assert isinstance(e, tev.PlayerReEntered)
    _tournament_money(recorded, e.player_id, (K.RE_ENTRY, _IN, e.price), (K.FEE, _IN, e.fee))


@projection.on(tev.RebuyTaken, tev.AddOnTaken)
def _t_chips_bought(recorded: RecordedEvent) -> None:
    e = recorded.event
    assert isinstance(e, tev.RebuyTaken | tev.AddOnTaken)
    kind = K.REBUY if isinstance(e, tev.RebuyTaken) else K.ADD_ON
    _tournament_money(recorded, e.player_id, (kind, _IN, e.price), (K.FEE, _IN, e.fee))


@projection.on(tev.BountyPlaced)
def _t_bounty_placed(recorded: RecordedEvent) -> None:
    e = recorded.event
    assert isinstance(e, tev.BountyPlaced)
    if e.paid_by == "entrant":  # a fixed bounty is the house's money: no cash moves now
        entry = TournamentCageTransaction.objects.filter(  # the registration just before
            tournament_id=int(recorded.stream.removeprefix("tournament-")),
            player_id=e.player_id, position__lte=recorded.position,
        ).exclude(kind__in=(K.FEE, K.TICKET_FEE)).order_by("-position", "-id").first()  # fmt: skip
        kind = K.TICKET if entry is not None and entry.kind == K.TICKET else K.BOUNTY_IN
        _tournament_money(recorded, e.player_id, (kind, _IN, e.amount))


@projection.on(tev.PlayerUnregistered)
def _t_refunded(recorded: RecordedEvent) -> None:
    e = recorded.event
    assert isinstance(e, tev.PlayerUnregistered)
    from tournaments.models import TournamentView

    tournament_id = int(recorded.stream.removeprefix("tournament-"))
    fee = TournamentView.objects.values_list("fee", flat=True).get(tournament_id=tournament_id)
    fee = min(fee, e.refund)  # the fee goes back too (TREG-10): the house gives it up
    if e.refund_as == "t_money":  # TREG-11: a seat won is given back as T-Money, not cash
        _tournament_money(recorded, e.player_id, (K.TICKET, _OUT, e.refund - fee),
                          (K.TICKET_FEE, _OUT, fee))  # fmt: skip
        return
    _tournament_money(recorded, e.player_id, (K.REFUND, _OUT, e.refund - fee), (K.FEE, _OUT, fee))


@projection.on(tev.SatelliteSeatWon)
def _t_seat_won(recorded: RecordedEvent) -> None:
    """The satellite's pool pays the seat (a transfer to the target, or T-Money)."""
    e = recorded.event
    assert isinstance(e, tev.SatelliteSeatWon)
    _tournament_money(recorded, e.player_id, (K.TICKET, _OUT, e.seats * e.seat_value))


@projection.on(tev.TournamentCancelled)
def _t_cancelled(recorded: RecordedEvent) -> None:
    """CXL-3: what was paid with a seat or T-Money goes back as T-Money (TREG-11)."""
    e = recorded.event
    assert isinstance(e, tev.TournamentCancelled)
    for x in e.shares:
        _tournament_money(recorded, x.player_id, (K.TICKET, _OUT, x.t_money - x.t_money_fees),
                          (K.TICKET_FEE, _OUT, x.t_money_fees))  # fmt: skip


@projection.on(tev.WinningsPaid)
def _t_paid(recorded: RecordedEvent) -> None:
    e = recorded.event
    assert isinstance(e, tev.WinningsPaid)
    kind = K.REFUND if e.kind == "cancellation" else K.PRIZE  # a settlement (CXL-2..9)
    _tournament_money(
        recorded, e.player_id, (kind, _OUT, e.prize), (K.BOUNTY_PAID, _OUT, e.bounties),
        (K.FEE, _OUT, e.fees_refunded),
    )  # fmt: skip
    tournament_id = int(recorded.stream.removeprefix("tournament-"))
    for entry in e.entries:  # the cage's list of prizes paid (v2 payments name them)
        PrizePayment.objects.get_or_create(
            tournament_id=tournament_id,
            entry_number=entry.entry_number,
            defaults={
                "position": recorded.position,
                "at": recorded.recorded_at,
                "player_id": e.player_id,
                "place": entry.place,
                "amount": entry.prize,
            },
        )
