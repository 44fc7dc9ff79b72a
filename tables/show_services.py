"""Show poker hands at a table (SHOW-1..27): the table deals a hand (``BeginHand``), the
hand lives in its own stream ``show-hand-<hand_id>`` (:mod:`tables.domain.show_poker`), and
when it is settled or misdealt the stacks go back to the table (``EndHand``, no rake).
Keyword-only services run inside the caller's transaction (``run_command``).
"""

from __future__ import annotations

import dataclasses
import uuid

from casino.errors import DomainError, NotFound
from casino.eventstore import aggregates, store
from casino.models import require_player
from tables import services, tournament_hooks
from tables.domain import table as table_domain
from tables.domain.show_poker import game as show
from tables.domain.show_poker import penalties
from tables.domain.show_poker.events import (
    PenaltyHandServed,
    ShowHandSettled,
    ShowMisdealt,
    SitOutPenalty,
)
from tables.events import HandBegan, SeatInHand


def show_stream(hand_id: str) -> str:
    return f"show-hand-{hand_id}"


def load_show_hand(hand_id: str) -> aggregates.Loaded[show.ShowState]:
    """The Show poker hand and its stream version.

    Raises:
        NotFound ``hand_not_found``.
    """
    loaded = aggregates.load(show_stream(hand_id), show.evolve, None)
    if loaded.state is None:
        raise NotFound("hand_not_found", f"There is no Show poker hand {hand_id}.")
    return loaded  # type: ignore[return-value]


def start_show_hand(
    *,
    table_id: int,
    button_seat: int | None = None,
    sitting_out_paying: list[int] | None = None,
    if_match: int | None = None,
) -> aggregates.Loaded[show.ShowState]:
    """Deal a Show poker hand at a Show poker table: every player dealt in posts one blind
    (the table's big blind, or the tournament level's; SHOW-2). A player who owes sit-out
    hands from his penalty record (:func:`record_show_penalty`) posts his blind and is not
    dealt in, without being named (SHOW-20..22); ``sitting_out_paying`` adds seats the
    floor sits out the same way.

    Raises:
        ConcurrencyConflict: ``if_match`` is not the table stream's version.
        DomainError ``not_show_poker`` (SHOW-2), the table's ``BeginHand`` refusals.
    """
    current = services.load_table(table_id).state
    assert current is not None
    if current.config.game != table_domain.SHOW_POKER:
        raise DomainError("not_show_poker", "This table does not deal Show poker.", rule="SHOW-2")
    services._lock_tournament_of(current)
    hand_id = str(uuid.uuid4())
    recorded, table = services.execute_on_table(
        table_id,
        table_domain.BeginHand(hand_id=hand_id, button_seat=button_seat),
        if_match=if_match,
    )
    began = recorded[0].event
    assert isinstance(began, HandBegan)
    blind = table.config.big_blind
    if table.config.mode == table_domain.TOURNAMENT:
        assert table.config.tournament_id is not None
        stakes = tournament_hooks.port().table_hand_started(
            tournament_id=table.config.tournament_id,
            table_id=table_id,
            hand_number=began.hand_number,
            button_seat=began.button_seat,
            small_blind_seat=began.small_blind_seat,
            big_blind_seat=began.big_blind_seat,
        )
        blind = stakes.big_blind
    owing = {seat.seat for seat in began.seats if _hands_owed(seat.player_id)}
    command = show.StartShowHand(
        hand_id=hand_id,
        table_id=table_id,
        hand_number=began.hand_number,
        button_seat=began.button_seat,
        seats=tuple(SeatInHand(s.seat, str(s.player_id), s.stack) for s in began.seats),
        blind=blind,
        mode=table.config.mode,  # type: ignore[arg-type]
        sitting_out_paying=tuple(sorted(owing | set(sitting_out_paying or ()))),
        rabbit_hunt_allowed=True,  # SHOW-24
    )
    events = show.decide(None, command)
    store.append(show_stream(hand_id), events, expected_version=0)
    state = show.load(events)
    assert state is not None
    aggregates.remember(show_stream(hand_id), len(events), state)
    return aggregates.Loaded(state, len(events))


def play(
    *, hand_id: str, command: show.ShowCommand, if_match: int | None = None
) -> aggregates.Loaded[show.ShowState]:
    """Decide one Show poker command and append; a settled or misdealt hand returns its
    stacks to the table (no rake).

    Raises:
        DomainError: the command is refused (code and rule ID say why).
    """
    loaded = load_show_hand(hand_id)
    if if_match is not None and if_match != loaded.version:
        raise store.StaleVersion(show_stream(hand_id), if_match, loaded.version)
    table = services.load_table(loaded.state.started.table_id).state
    assert table is not None
    services._lock_tournament_of(table)
    if isinstance(command, show.StartShowdownClock):
        # how long nothing better was declared is the log's to say, not the tablet's
        last = store.read_stream(show_stream(hand_id))[-1].recorded_at
        command = dataclasses.replace(command, idle_since=max(command.idle_since, last))
    events = show.decide(loaded.state, command)
    store.append(show_stream(hand_id), events, expected_version=loaded.version)
    state = loaded.state
    for event in events:
        state = show.evolve(state, event)
        if isinstance(event, ShowHandSettled):
            _serve_penalty_hands(state)
        if isinstance(event, ShowHandSettled | ShowMisdealt):
            services.execute_on_table(
                state.started.table_id,
                table_domain.EndHand(
                    hand_id=hand_id, stacks=tuple(sorted(state.stacks.items())), rake=0
                ),
            )
    aggregates.remember(show_stream(hand_id), loaded.version + len(events), state)
    return aggregates.Loaded(state, loaded.version + len(events))


def penalty_stream(player_id: int) -> str:
    return f"show-penalties-{player_id}"


def _hands_owed(player_id: int | str) -> int:
    """Sit-out hands the player still owes on his Show poker record (SHOW-20..22)."""
    return penalties.hands_owed(r.event for r in store.read_stream(penalty_stream(int(player_id))))


def _serve_penalty_hands(state: show.ShowState) -> None:
    """A completed hand counts one hand served for every player who sat it out owing
    penalty hands (SHOW-20..22); appended in the hand's own transaction."""
    started = state.started
    for seat in started.seats:
        if seat.seat not in started.sitting_out:
            continue
        stream = penalty_stream(int(seat.player_id))
        record = [r.event for r in store.read_stream(stream)]
        if penalties.hands_owed(record):
            served = PenaltyHandServed(seat.player_id, started.hand_id)
            store.append(stream, [served], expected_version=len(record))


def record_show_penalty(
    *,
    player_id: int,
    offence: str,
    players_in_pot: int = 3,
    oot_increment: str = "repeat",
) -> SitOutPenalty:
    """Record a Show poker penalty on the player (SHOW-20..22): the occurrence counts his
    earlier penalties for the same offence; the sit-out is served with blinds paid (deal
    his hands with ``sitting_out_paying``).

    Raises:
        NotFound ``player_not_found``; DomainError ``invalid_occurrence``.
    """
    require_player(player_id)
    stream = penalty_stream(player_id)
    earlier = [r.event for r in store.read_stream(stream)]
    occurrence = 1 + sum(
        1 for e in earlier if isinstance(e, SitOutPenalty) and e.offence == offence
    )
    event = penalties.penalty_event(
        str(player_id), offence, occurrence,  # type: ignore[arg-type]
        players_in_pot=players_in_pot, oot_increment=oot_increment,
    )  # fmt: skip
    store.append(stream, [event], expected_version=len(earlier))
    return event
