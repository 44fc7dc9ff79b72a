"""Projection of tournament events into ``TournamentView`` and ``EntryView``.

Runs inside the append's transaction (guarantee 4), one handler per event type; the
tournament id is the stream's (``tournament-<id>``).
"""

from __future__ import annotations

import dataclasses

from django.db.models import F

from casino.eventstore.projections import Projection
from casino.eventstore.store import RecordedEvent
from tables.models import TableView
from tournaments.domain.bounties import BOUNTY_EVENTS
from tournaments.domain.config import TABLE_ANTE_TYPES
from tournaments.domain.deals import DEAL_EVENTS
from tournaments.domain.events import (
    AddOnTaken,
    BracketDrawn,
    BracketWon,
    BreakDue,
    BreakEnded,
    BreakStarted,
    ChipRaceRun,
    ClockPaused,
    ClockResumed,
    EarlyPayoutCredited,
    FinalTableRedrawn,
    HandForHandEnded,
    HandForHandRoundCompleted,
    HandForHandStarted,
    HandResultRecorded,
    HandsRolledBack,
    HandStacksCorrected,
    LateEntrySeated,
    LateRegistrationClosed,
    LevelsAmended,
    LevelStarted,
    MatchEnded,
    MatchSeated,
    MatchStarted,
    PlayerDisqualified,
    PlayerEliminated,
    PlayerMoved,
    PlayerReEntered,
    PlayerRegistered,
    PlayerReinstated,
    PlayerUnregistered,
    RebuyRequested,
    RebuyRequestLapsed,
    RebuyTaken,
    SatelliteSeatWon,
    ScheduledStartMissed,
    StartScheduled,
    TableAdded,
    TableBroken,
    TableHandStarted,
    TournamentCancelled,
    TournamentCreated,
    TournamentFinished,
    TournamentStarted,
)
from tournaments.domain.payments import PAYMENT_EVENTS
from tournaments.domain.penalties import PENALTY_EVENTS
from tournaments.models import EntryView, TournamentView

projection = Projection("tournaments", models=[TournamentView, EntryView])
projection.track_version("tournament-", TournamentView, "tournament_id", parse=int)


def _tid(recorded: RecordedEvent) -> int:
    return int(recorded.stream.removeprefix("tournament-"))


def _bump(recorded: RecordedEvent, **changes: object) -> None:
    TournamentView.objects.filter(tournament_id=_tid(recorded)).update(
        version=recorded.version, **changes
    )


def _current(recorded: RecordedEvent, player_id: int) -> EntryView:
    """The player's latest entry."""
    entry = (
        EntryView.objects.filter(tournament_id=_tid(recorded), player_id=player_id)
        .order_by("-entry_number")
        .first()
    )
    assert entry is not None, f"player {player_id} has no entry"
    return entry


@projection.on(TournamentCreated)
def _created(recorded: RecordedEvent) -> None:
    e = recorded.event
    assert isinstance(e, TournamentCreated)
    c = e.config
    TournamentView.objects.create(
        tournament_id=_tid(recorded),
        name=c.name,
        config=dataclasses.asdict(c),
        buy_in=c.buy_in,
        fee=c.fee,
        starting_stack=c.starting_stack,
        guarantee=c.guarantee,
        created_at=recorded.recorded_at,
        version=recorded.version,
    )


@projection.on(LevelsAmended)
def _levels_amended(recorded: RecordedEvent) -> None:
    """The published configuration shows the structure as amended (TREG-6)."""
    e = recorded.event
    assert isinstance(e, LevelsAmended)
    config = TournamentView.objects.values_list("config", flat=True).get(
        tournament_id=_tid(recorded)
    )
    _bump(recorded, config={**config, "levels": [dataclasses.asdict(lv) for lv in e.levels]})


@projection.on(PlayerRegistered, PlayerReEntered)
def _entered(recorded: RecordedEvent) -> None:
    e = recorded.event
    assert isinstance(e, PlayerRegistered | PlayerReEntered)
    late = isinstance(e, PlayerReEntered) or e.late
    price = e.buy_in if isinstance(e, PlayerRegistered) else e.price
    if late:
        # Places given while late registration is open are provisional (ELIM-2): everyone
        # out so far finishes behind the new entry, so each of their places moves down one
        # (20-22 of 22 entries become 21-23 of 23), as in ``TournamentFinished``'s results.
        EntryView.objects.filter(tournament_id=_tid(recorded), place__isnull=False).update(
            place=F("place") + 1, place_to=F("place_to") + 1
        )
    EntryView.objects.create(
        tournament_id=_tid(recorded),
        entry_number=e.entry_number,
        player_id=e.player_id,
        status="playing" if late else "registered",
        stack=e.stack,
        registered_at=recorded.recorded_at,
    )
    _bump(
        recorded,
        entries=F("entries") + 1,
        contributions=F("contributions") + price,
        fees=F("fees") + e.fee,
        chips_issued=F("chips_issued") + e.stack,
    )


@projection.on(PlayerUnregistered)
def _unregistered(recorded: RecordedEvent) -> None:
    e = recorded.event
    assert isinstance(e, PlayerUnregistered)
    view = TournamentView.objects.get(tournament_id=_tid(recorded))
    EntryView.objects.filter(tournament=view, entry_number=e.entry_number).update(
        status="unregistered", stack=0
    )
    _bump(
        recorded,
        entries=F("entries") - 1,
        contributions=F("contributions") - view.buy_in,
        fees=F("fees") - view.fee,
        chips_issued=F("chips_issued") - view.starting_stack,
    )


@projection.on(RebuyTaken, AddOnTaken)
def _chips_bought(recorded: RecordedEvent) -> None:
    e = recorded.event
    assert isinstance(e, RebuyTaken | AddOnTaken)
    entry = _current(recorded, e.player_id)
    counter = "rebuys" if isinstance(e, RebuyTaken) else "add_ons"
    EntryView.objects.filter(pk=entry.pk).update(
        stack=F("stack") + e.chips, **{counter: F(counter) + 1}
    )
    _bump(
        recorded,
        contributions=F("contributions") + e.price,
        fees=F("fees") + e.fee,
        chips_issued=F("chips_issued") + e.chips,
    )


@projection.on(TournamentStarted)
def _started(recorded: RecordedEvent) -> None:
    e = recorded.event
    assert isinstance(e, TournamentStarted)
    for a in e.seats:
        EntryView.objects.filter(
            tournament_id=_tid(recorded), player_id=a.player_id, status="registered"
        ).update(status="playing", table_id=a.table_id, seat=a.seat)
    view = TournamentView.objects.get(tournament_id=_tid(recorded))
    config = view.config
    _bump(
        recorded,
        status="running",
        started_at=recorded.recorded_at,
        late_registration_open=config.get("late_reg_until_level") is not None
        or config.get("late_reg_until") is not None,
    )


@projection.on(LateEntrySeated)
def _late_seated(recorded: RecordedEvent) -> None:
    e = recorded.event
    assert isinstance(e, LateEntrySeated)
    EntryView.objects.filter(tournament_id=_tid(recorded), entry_number=e.entry_number).update(
        status="playing", table_id=e.table_id, seat=e.seat, stack=e.stack
    )
    _bump(recorded)


@projection.on(PlayerMoved)
def _moved(recorded: RecordedEvent) -> None:
    e = recorded.event
    assert isinstance(e, PlayerMoved)
    entry = _current(recorded, e.player_id)
    EntryView.objects.filter(pk=entry.pk).update(table_id=e.to_table, seat=e.to_seat)
    _bump(recorded)


@projection.on(FinalTableRedrawn)
def _final_table(recorded: RecordedEvent) -> None:
    e = recorded.event
    assert isinstance(e, FinalTableRedrawn)
    for a in e.seats:
        entry = _current(recorded, a.player_id)
        EntryView.objects.filter(pk=entry.pk).update(table_id=a.table_id, seat=a.seat)
    _bump(recorded)


@projection.on(HandResultRecorded, HandStacksCorrected)
def _hand_result(recorded: RecordedEvent) -> None:
    e = recorded.event
    assert isinstance(e, HandResultRecorded | HandStacksCorrected)
    for s in e.stacks:
        entry = _current(recorded, s.player_id)
        EntryView.objects.filter(pk=entry.pk).update(stack=s.final_stack)
    _bump(recorded)


@projection.on(TournamentCancelled)
def _cancelled(recorded: RecordedEvent) -> None:
    _bump(recorded, status="cancelled", finished_at=recorded.recorded_at)


@projection.on(ChipRaceRun)
def _chip_race(recorded: RecordedEvent) -> None:
    e = recorded.event
    assert isinstance(e, ChipRaceRun)
    for s in e.stacks:
        entry = _current(recorded, s.player_id)
        EntryView.objects.filter(pk=entry.pk).update(stack=s.final_stack)
    TournamentView.objects.filter(tournament_id=_tid(recorded)).update(
        chips_issued=F("chips_issued") + e.chips_added
    )
    _bump(recorded)


@projection.on(PlayerDisqualified)
def _disqualified(recorded: RecordedEvent) -> None:
    e = recorded.event
    assert isinstance(e, PlayerDisqualified)
    EntryView.objects.filter(tournament_id=_tid(recorded), entry_number=e.entry_number).update(
        status="eliminated", stack=0, table_id=None, seat=None, place=e.place, place_to=e.place
    )
    TournamentView.objects.filter(tournament_id=_tid(recorded)).update(
        chips_issued=F("chips_issued") - e.chips_removed
    )
    _bump(recorded)


@projection.on(PlayerEliminated)
def _eliminated(recorded: RecordedEvent) -> None:
    """Out; chips he still held (a heads-up match lost by inactivity, HU-4) leave play."""
    e = recorded.event
    assert isinstance(e, PlayerEliminated)
    entries = EntryView.objects.filter(tournament_id=_tid(recorded), entry_number=e.entry_number)
    held = entries.values_list("stack", flat=True).first() or 0
    entries.update(
        status="eliminated", stack=0, table_id=None, seat=None, place=e.place, place_to=e.place_to
    )
    _bump(recorded, chips_issued=F("chips_issued") - held)


@projection.on(PlayerReinstated)
def _reinstated(recorded: RecordedEvent) -> None:
    """Back in his seat (TREG-14, a rebuy after the bust; the ``RebuyTaken`` after it
    brings his chips); the others out take their moved provisional places."""
    e = recorded.event
    assert isinstance(e, PlayerReinstated)
    tid = _tid(recorded)
    EntryView.objects.filter(tournament_id=tid, entry_number=e.entry_number).update(
        status="playing", stack=0, table_id=e.table_id, seat=e.seat, place=None, place_to=None
    )
    for moved in e.places:
        EntryView.objects.filter(tournament_id=tid, entry_number=moved.entry_number).update(
            place=moved.place, place_to=moved.place_to
        )
    _bump(recorded)


@projection.on(BracketDrawn)
def _bracket_drawn(recorded: RecordedEvent) -> None:
    """Every entrant is in play from the draw, those with a bye too (HU-2)."""
    e = recorded.event
    assert isinstance(e, BracketDrawn)
    EntryView.objects.filter(
        tournament_id=_tid(recorded), player_id__in=e.entrants, status="registered"
    ).update(status="playing")
    _bump(recorded)


@projection.on(MatchSeated)
def _match_seated(recorded: RecordedEvent) -> None:
    """Both players at the match's table with a fresh stack (HU-1)."""
    e = recorded.event
    assert isinstance(e, MatchSeated)
    before = 0
    for a in e.seats:
        entry = _current(recorded, a.player_id)
        before += entry.stack
        EntryView.objects.filter(pk=entry.pk).update(
            table_id=a.table_id, seat=a.seat, stack=e.stack
        )
    _bump(recorded, chips_issued=F("chips_issued") + e.stack * len(e.seats) - before)


@projection.on(LevelStarted)
def _level(recorded: RecordedEvent) -> None:
    """The level in force, also on the tournament's tables' views (CLK-2): a tablet shows
    the blinds and ante its next hand will post, not those the table was opened with."""
    e = recorded.event
    assert isinstance(e, LevelStarted)
    _bump(recorded, level=e.level, clock_version=e.clock_version)
    TableView.objects.filter(tournament_id=_tid(recorded)).update(
        small_blind=e.small_blind,
        big_blind=e.big_blind,
        ante=e.ante,
        ante_type=TABLE_ANTE_TYPES.get(e.ante_type, e.ante_type),
    )


@projection.on(ClockPaused, ClockResumed, BreakStarted, BreakEnded)
def _clock(recorded: RecordedEvent) -> None:
    e = recorded.event
    assert isinstance(e, ClockPaused | ClockResumed | BreakStarted | BreakEnded)
    _bump(recorded, clock_version=e.clock_version)


@projection.on(HandForHandStarted, HandForHandEnded)
def _hand_for_hand(recorded: RecordedEvent) -> None:
    _bump(recorded, hand_for_hand=isinstance(recorded.event, HandForHandStarted))


@projection.on(LateRegistrationClosed)
def _late_closed(recorded: RecordedEvent) -> None:
    _bump(recorded, late_registration_open=False)


@projection.on(TournamentFinished)
def _finished(recorded: RecordedEvent) -> None:
    e = recorded.event
    assert isinstance(e, TournamentFinished)
    tid = _tid(recorded)
    for r in e.results:
        changes: dict[str, object] = {"place": r.place, "place_to": r.place_to, "prize": r.prize}
        entry = EntryView.objects.filter(tournament_id=tid, entry_number=r.entry_number)
        if r.place == 1:  # the winner, or each player tied when equal prizes end it (ELIM-1)
            changes["table_id"], changes["seat"] = None, None
            changes["status"] = "winner"
        elif entry.filter(status="playing").exists():  # still in when a deal ended it
            changes["table_id"], changes["seat"] = None, None
            changes["status"] = "placed"
        entry.update(**changes)
    _bump(
        recorded,
        status="finished",
        finished_at=recorded.recorded_at,
        winner_player_id=e.winner_player_id,
        prize_pool_final=e.prize_pool,
        overlay=e.overlay,
    )


@projection.on(BreakDue, TableAdded, TableBroken, TableHandStarted, HandForHandRoundCompleted)
@projection.on(*DEAL_EVENTS, *BOUNTY_EVENTS, *PAYMENT_EVENTS, EarlyPayoutCredited)
@projection.on(*PENALTY_EVENTS, StartScheduled, ScheduledStartMissed, HandsRolledBack)
@projection.on(RebuyRequested, RebuyRequestLapsed, MatchStarted, MatchEnded, BracketWon)
@projection.on(SatelliteSeatWon)
def _version_only(recorded: RecordedEvent) -> None:
    _bump(recorded)
