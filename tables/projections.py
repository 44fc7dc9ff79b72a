"""Projection of table and hand events into ``TableView``, ``SeatView`` and ``HandView``.

Runs inside the append's transaction (guarantee 4), one handler per event type.
"""

from typing import Any

from django.db.models import F

from casino.eventstore import rows
from casino.eventstore.projections import Projection
from casino.eventstore.store import RecordedEvent
from tables.cash_events import (
    ChipGiftBlocked,
    ChipsGiven,
    ChipsToppedUp,
    DealerFeePaid,
    DeclaredTopUpAdded,
    PartialCashOut,
    PlayerTransferredIn,
    PlayerTransferredOut,
    RefreshmentPaid,
    SidebetCalledOff,
    SidebetRecorded,
    SidebetSettled,
    TableClosed,
    TableLimitsChanged,
)
from tables.domain.show_poker.events import ShowPotAwarded
from tables.events import (
    HandBegan,
    HandEnded,
    HandSettled,
    HandVoided,
    PlayerCashedOut,
    PlayerSeated,
    SeatChanged,
    ShuffleRecorded,
    StacksCorrected,
    TableOpened,
    TournamentChipsAdded,
    TournamentPlayerSeated,
    TournamentPlayerUnseated,
)
from tables.models import HandView, SeatView, TableView

projection = Projection("tables", models=[TableView, SeatView, HandView])
# every handler of a table event sets the version with its changes (``_bump``)
projection.track_version("table-", TableView, "table_id", parse=int, unless_handled=True)


def _bump(table_id: int, recorded: RecordedEvent, **changes: object) -> None:
    rows.update(TableView, {"table_id": table_id}, version=recorded.version, **changes)


@projection.on(TableOpened)
def _opened(recorded: RecordedEvent) -> None:
    e = recorded.event
    assert isinstance(e, TableOpened)
    TableView.objects.create(
        table_id=e.table_id,
        name=e.name,
        game=e.game,
        small_blind=e.small_blind,
        big_blind=e.big_blind,
        ante=e.ante,
        ante_type=e.ante_type,
        buy_in_min=e.buy_in_min,
        buy_in_max=e.buy_in_max,
        rake_percent_bp=e.rake_percent_bp,
        rake_cap=e.rake_cap,
        no_flop_no_drop=e.no_flop_no_drop,
        min_raise_rule=e.min_raise_rule,
        max_seats=e.max_seats,
        returning_player_rule=e.returning_player_rule,
        button_rule=e.button_rule,
        cash_new_player_entry=e.cash_new_player_entry,
        missed_blind_sb_dead=e.missed_blind_sb_dead,
        mode=e.mode,
        tournament_id=e.tournament_id,
        version=recorded.version,
        opened_at=recorded.recorded_at,
    )


@projection.on(PlayerSeated, PlayerTransferredIn, TournamentPlayerSeated)
def _seated(recorded: RecordedEvent) -> None:
    e = recorded.event
    assert isinstance(e, PlayerSeated | PlayerTransferredIn | TournamentPlayerSeated)
    rows.insert(
        SeatView,
        table_id=e.table_id,
        seat=e.seat,
        player_id=e.player_id,
        stack=e.buy_in if isinstance(e, PlayerSeated) else e.stack,
        tournament_id=e.tournament_id if isinstance(e, TournamentPlayerSeated) else None,
        seated_at=recorded.recorded_at,
    )
    _bump(e.table_id, recorded)


@projection.on(PlayerCashedOut, PlayerTransferredOut, TournamentPlayerUnseated)
def _cashed_out(recorded: RecordedEvent) -> None:
    e = recorded.event
    assert isinstance(e, PlayerCashedOut | PlayerTransferredOut | TournamentPlayerUnseated)
    rows.delete(SeatView, {"table_id": e.table_id, "seat": e.seat})
    _bump(e.table_id, recorded)


def _stack_change(table_id: int, seat: int, delta: int) -> None:
    rows.update(SeatView, {"table_id": table_id, "seat": seat}, stack=rows.Add(delta))


@projection.on(ChipsToppedUp, DeclaredTopUpAdded)
def _topped_up(recorded: RecordedEvent) -> None:
    e = recorded.event
    assert isinstance(e, ChipsToppedUp | DeclaredTopUpAdded)
    if not (isinstance(e, ChipsToppedUp) and e.after_hand):  # BI-6: that one waits for
        _stack_change(e.table_id, e.seat, e.amount)  # the hand's end (DeclaredTopUpAdded)
    _bump(e.table_id, recorded)


@projection.on(TournamentChipsAdded)
def _chips_added(recorded: RecordedEvent) -> None:
    e = recorded.event
    assert isinstance(e, TournamentChipsAdded)
    _stack_change(e.table_id, e.seat, e.chips)
    _bump(e.table_id, recorded)


@projection.on(RefreshmentPaid, PartialCashOut, DealerFeePaid)
def _refreshment(recorded: RecordedEvent) -> None:
    e = recorded.event
    assert isinstance(e, RefreshmentPaid | PartialCashOut | DealerFeePaid)
    _stack_change(e.table_id, e.seat, -e.amount)
    _bump(e.table_id, recorded)


@projection.on(ChipsGiven)
def _gift(recorded: RecordedEvent) -> None:
    e = recorded.event
    assert isinstance(e, ChipsGiven)
    _stack_change(e.table_id, e.from_seat, -e.amount)
    _stack_change(e.table_id, e.to_seat, e.amount)
    _bump(e.table_id, recorded)


@projection.on(StacksCorrected)
def _stacks_corrected(recorded: RecordedEvent) -> None:
    e = recorded.event
    assert isinstance(e, StacksCorrected)
    for moved in e.adjustments:
        _stack_change(e.table_id, moved.seat, moved.stack)
    _bump(e.table_id, recorded)


@projection.on(ChipGiftBlocked)
def _gift_blocked(recorded: RecordedEvent) -> None:
    e = recorded.event
    assert isinstance(e, ChipGiftBlocked)
    _bump(e.table_id, recorded)


@projection.on(SeatChanged)
def _seat_changed(recorded: RecordedEvent) -> None:
    e = recorded.event
    assert isinstance(e, SeatChanged)
    SeatView.objects.filter(table_id=e.table_id, seat=e.from_seat).update(seat=e.to_seat)
    _bump(e.table_id, recorded)


@projection.on(ShuffleRecorded)
def _shuffle(recorded: RecordedEvent) -> None:
    e = recorded.event
    assert isinstance(e, ShuffleRecorded)
    _bump(e.table_id, recorded)


@projection.on(SidebetSettled)
def _sidebet_settled(recorded: RecordedEvent) -> None:
    e = recorded.event
    assert isinstance(e, SidebetSettled)
    for player, delta in ((e.loser, -e.amount), (e.winner, e.amount)):
        SeatView.objects.filter(table_id=e.table_id, player_id=player).update(
            stack=F("stack") + delta
        )
    _bump(e.table_id, recorded)


@projection.on(SidebetRecorded, SidebetCalledOff)
def _sidebet_recorded_or_called_off(recorded: RecordedEvent) -> None:
    e = recorded.event
    assert isinstance(e, SidebetRecorded | SidebetCalledOff)
    _bump(e.table_id, recorded)


@projection.on(TableLimitsChanged)
def _limits(recorded: RecordedEvent) -> None:
    e = recorded.event
    assert isinstance(e, TableLimitsChanged)
    _bump(e.table_id, recorded, buy_in_min=e.buy_in_min, buy_in_max=e.buy_in_max)


@projection.on(TableClosed)
def _closed(recorded: RecordedEvent) -> None:
    e = recorded.event
    assert isinstance(e, TableClosed)
    _bump(e.table_id, recorded, status="closed")


@projection.on(HandBegan)
def _hand_began(recorded: RecordedEvent) -> None:
    e = recorded.event
    assert isinstance(e, HandBegan)
    rows.insert(
        HandView,
        hand_id=e.hand_id,
        table_id=e.table_id,
        hand_number=e.hand_number,
        button_seat=e.button_seat,
        players=len(e.seats),
        started_at=recorded.recorded_at,
    )
    _bump(e.table_id, recorded, button_seat=e.button_seat, current_hand_id=e.hand_id)


@projection.on(HandEnded)
def _hand_ended(recorded: RecordedEvent) -> None:
    e = recorded.event
    assert isinstance(e, HandEnded)
    rows.update_each(SeatView, {"table_id": e.table_id}, "seat",
                     [{"seat": s.seat, "stack": s.stack} for s in e.stacks])  # fmt: skip
    rows.update(HandView, {"hand_id": e.hand_id}, rake=e.rake, ended_at=recorded.recorded_at,
                status=rows.Replace("running", "complete"))  # fmt: skip
    changes: dict[str, Any] = {}
    if e.voided:  # the redeal has the last played hand's button (a new game's: the drawn one)
        last = (
            HandView.objects.filter(table_id=e.table_id, status="complete")
            .exclude(hand_id=e.hand_id)
            .order_by("-hand_number")
            .values_list("button_seat", flat=True)
            .first()
        )
        if last is not None:
            changes["button_seat"] = last
    _bump(
        e.table_id,
        recorded,
        current_hand_id=None,
        hands_played=rows.Add(0 if e.voided else 1),  # a misdeal is no hand played
        rake_total=rows.Add(e.rake),
        **changes,
    )


@projection.on(HandSettled)
def _hand_settled(recorded: RecordedEvent) -> None:
    """The hand's pot for the hand list: every pot's chips, rake included (CZK)."""
    e = recorded.event
    assert isinstance(e, HandSettled)
    hand_id = recorded.stream.removeprefix("hand-")
    rows.update(HandView, {"hand_id": hand_id}, pot=sum(p.amount for p in e.pots))


@projection.on(ShowPotAwarded)
def _show_pot_awarded(recorded: RecordedEvent) -> None:
    """A Show poker pot (SHOW-25) adds to its hand's pot in the hand list."""
    e = recorded.event
    assert isinstance(e, ShowPotAwarded)
    hand_id = recorded.stream.removeprefix("show-hand-")
    rows.update(HandView, {"hand_id": hand_id}, pot=rows.Add(e.amount))


@projection.on(HandVoided)
def _hand_voided(recorded: RecordedEvent) -> None:
    """A misdeal or void (MIS-1..3, MIS-11, MIS-12): the hand counts as voided, not played."""
    HandView.objects.filter(hand_id=recorded.stream.removeprefix("hand-")).update(status="voided")
