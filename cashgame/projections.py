"""Projection of table-stream events into cash sessions and departures (SES-7).

Runs in the append's transaction, after the tables projection (apps order), so the table's
game and stakes are read from ``TableView``.
"""

from typing import Any

from cashgame.events import ChipsRedeemed, ChipsSold, TournamentPrizePaid
from cashgame.models import (
    CageTransaction,
    CashSession,
    ChipMovement,
    Departure,
    PrizePayment,
)
from casino.eventstore import rows
from casino.eventstore.projections import Projection
from casino.eventstore.store import RecordedEvent
from tables.cash_events import (
    ChipsGiven,
    ChipsToppedUp,
    DealerFeePaid,
    PartialCashOut,
    PlayerTransferredIn,
    PlayerTransferredOut,
    RefreshmentPaid,
    SidebetSettled,
)
from tables.events import PlayerCashedOut, PlayerSeated
from tables.models import SeatView, TableView

projection = Projection(
    "cashgame",
    models=[
        CashSession,
        Departure,
        ChipMovement,
        CageTransaction,
        PrizePayment,
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
        prize=e.amount,
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
    _update_open_session(e.table_id, e.player_id, partial_cash_outs=rows.Add(e.amount))


@projection.on(DealerFeePaid)
def _dealer_fee(recorded: RecordedEvent) -> None:
    e = recorded.event
    assert isinstance(e, DealerFeePaid)
    _ledger(recorded, e.table_id, (e.player_id, ChipMovement.Kind.DEALER_FEE, e.amount))
