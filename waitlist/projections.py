"""Projection of the ``waitlist-*`` streams into :class:`WaitingList`, :class:`WaitlistEntry`
and :class:`WaitlistCall`, in the append's transaction (guarantee 4). Positions stay
1-based and contiguous: every removal or move shifts the names in between by one."""

from datetime import datetime

from django.db.models import F

from casino.eventstore.projections import Projection
from casino.eventstore.store import RecordedEvent
from waitlist.events import (
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
from waitlist.models import WaitingList, WaitlistCall, WaitlistEntry

projection = Projection("waitlist", models=[WaitingList, WaitlistEntry, WaitlistCall])
projection.track_version("waitlist-", WaitingList, "list_id")


def _bump(list_id: str, recorded: RecordedEvent, **changes: object) -> None:
    WaitingList.objects.filter(list_id=list_id).update(version=recorded.version, **changes)


@projection.on(WaitingListOpened)
def _opened(recorded: RecordedEvent) -> None:
    e = recorded.event
    assert isinstance(e, WaitingListOpened)
    WaitingList.objects.create(
        list_id=e.list_id,
        list_kind=e.list_kind,
        game=e.game,
        small_blind=e.small_blind,
        big_blind=e.big_blind,
        version=recorded.version,
        opened_at=recorded.recorded_at,
    )


@projection.on(WaitingListClosed)
def _closed(recorded: RecordedEvent) -> None:
    """A closed list leaves the console and the board, its names and calls with it (the
    log keeps them); opening the game again starts a new list."""
    e = recorded.event
    assert isinstance(e, WaitingListClosed)
    WaitingList.objects.filter(list_id=e.list_id).delete()


@projection.on(PlayerListed)
def _listed(recorded: RecordedEvent) -> None:
    e = recorded.event
    assert isinstance(e, PlayerListed)
    WaitlistEntry.objects.create(
        entry_id=e.entry_id,
        waiting_list_id=e.list_id,
        player_id=e.player_id,
        position=WaitlistEntry.objects.filter(waiting_list_id=e.list_id).count() + 1,
        channel=e.channel,
        phone=e.phone,
        phone_ref=e.phone_ref,
        from_table_id=e.from_table_id,
        listed_at=datetime.fromisoformat(e.listed_at),
    )
    _bump(e.list_id, recorded)


@projection.on(PlayerLeftList, PlayerSeatedFromList)
def _removed(recorded: RecordedEvent) -> None:
    e = recorded.event
    assert isinstance(e, PlayerLeftList | PlayerSeatedFromList)
    entries = WaitlistEntry.objects.filter(waiting_list_id=e.list_id)
    entries.filter(entry_id=e.entry_id).delete()
    entries.filter(position__gt=e.position).update(position=F("position") - 1)
    if isinstance(e, PlayerSeatedFromList) and e.call_id:
        WaitlistCall.objects.filter(call_id=e.call_id).update(
            status="answered", closed_at=recorded.recorded_at
        )
    _bump(e.list_id, recorded)


@projection.on(PlayerMarkedAway, PlayerMarkedBack)
def _away(recorded: RecordedEvent) -> None:
    e = recorded.event
    assert isinstance(e, PlayerMarkedAway | PlayerMarkedBack)
    WaitlistEntry.objects.filter(entry_id=e.entry_id).update(away=isinstance(e, PlayerMarkedAway))
    _bump(e.list_id, recorded)


@projection.on(PlayerCalled)
def _called(recorded: RecordedEvent) -> None:
    e = recorded.event
    assert isinstance(e, PlayerCalled)
    WaitlistCall.objects.create(
        call_id=e.call_id,
        waiting_list_id=e.list_id,
        player_id=e.player_id,
        table_id=e.table_id,
        seat=e.seat,
        called_at=datetime.fromisoformat(e.called_at),
        deadline=datetime.fromisoformat(e.deadline),
    )
    _bump(e.list_id, recorded)


@projection.on(CallRenewed)
def _renewed(recorded: RecordedEvent) -> None:
    e = recorded.event
    assert isinstance(e, CallRenewed)
    WaitlistCall.objects.filter(call_id=e.call_id).update(
        deadline=datetime.fromisoformat(e.deadline)
    )
    _bump(e.list_id, recorded)


@projection.on(CallCancelled, CallMissed)
def _call_closed(recorded: RecordedEvent) -> None:
    e = recorded.event
    assert isinstance(e, CallCancelled | CallMissed)
    status = "missed" if isinstance(e, CallMissed) else "cancelled"
    WaitlistCall.objects.filter(call_id=e.call_id).update(
        status=status, closed_at=recorded.recorded_at
    )
    if isinstance(e, CallMissed):
        WaitlistEntry.objects.filter(waiting_list_id=e.list_id, player_id=e.player_id).update(
            misses=e.misses
        )
    _bump(e.list_id, recorded)


@projection.on(PlayerMovedDown)
def _moved(recorded: RecordedEvent) -> None:
    e = recorded.event
    assert isinstance(e, PlayerMovedDown)
    entries = WaitlistEntry.objects.filter(waiting_list_id=e.list_id)
    entries.filter(position__gt=e.from_position, position__lte=e.to_position).update(
        position=F("position") - 1
    )
    entries.filter(entry_id=e.entry_id).update(position=e.to_position)
    _bump(e.list_id, recorded)


@projection.on(InterestListPromoted)
def _promoted(recorded: RecordedEvent) -> None:
    e = recorded.event
    assert isinstance(e, InterestListPromoted)
    _bump(e.list_id, recorded, list_kind="waiting", table_id=e.table_id)


@projection.on(MustMoveLinked, MustMoveUnlinked)
def _must_move_link(recorded: RecordedEvent) -> None:
    e = recorded.event
    assert isinstance(e, MustMoveLinked | MustMoveUnlinked)
    if isinstance(e, MustMoveLinked):
        _bump(
            e.list_id,
            recorded,
            main_table_id=e.main_table_id,
            must_move_table_id=e.must_move_table_id,
        )
    else:
        _bump(e.list_id, recorded, main_table_id=None, must_move_table_id=None)


@projection.on(MustMovePlayerMoved)
def _must_moved(recorded: RecordedEvent) -> None:
    e = recorded.event
    assert isinstance(e, MustMovePlayerMoved)
    _bump(e.list_id, recorded)
