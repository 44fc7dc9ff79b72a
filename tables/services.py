"""Command handlers of the table service: load the stream, decide, append, return.

Each function is keyword-only, runs inside the caller's transaction (``run_command`` or
``transaction.atomic``) and raises :class:`casino.errors.DomainError` on refusal, in which
case nothing is appended. Amounts are integers in CZK (cash tables).
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from typing import cast

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import Max

from casino.domain_events import DomainEvent
from casino.errors import DomainError, NotFound
from casino.eventstore import aggregates, store
from casino.models import Player, require_player, short_name
from tables import cash_rules, tournament_hooks
from tables.domain import blinds, hand_rulings
from tables.domain import hand as hand_domain
from tables.domain import table as table_domain
from tables.domain.commands import (
    AwardPots,
    DealBoard,
    DeclareMisdeal,
    HandCommand,
    MuckCards,
    RecordRabbitHunt,
    RunItTimes,
    ShowCards,
    TakeAction,
    VoidHand,
)
from tables.domain.hand import HandState
from tables.domain.table import TableState
from tables.domain.table_state import buy_in_range
from tables.events import (
    HandBegan,
    HandSettled,
    HandVoided,
    RabbitHunted,
    TableOpened,
)
from tables.models import SeatView, TableView
from tables.ruling_events import OutOfTurnRecorded


def table_stream(table_id: int) -> str:
    return f"table-{table_id}"


def load_table(table_id: int, *, trust_cache: bool = False) -> aggregates.Loaded[TableState | None]:
    """The table aggregate and its stream version (``trust_cache``: as cached, unchecked,
    for reading what never changes, e.g. the table's mode).

    Raises:
        NotFound ``table_not_found``: no such table.
    """
    loaded = aggregates.load(
        table_stream(table_id),
        table_domain.evolve,
        None,
        snapshot_type=TableState,
        trust_cache=trust_cache,
    )
    if loaded.state is None:
        raise NotFound("table_not_found", f"There is no table {table_id}.", table_id=table_id)
    return loaded


def execute_on_table(
    table_id: int,
    command: table_domain.Command | Callable[[TableState], table_domain.Command],
    *,
    if_match: int | None = None,
) -> tuple[list[store.RecordedEvent], TableState]:
    """Decide ``command`` (or the command a function builds from the current table) against
    the table, append its events; return them and the table after them.

    Raises:
        DomainError: the table refuses the command.
        ConcurrencyConflict: ``if_match`` is not the current version, or a writer raced us.
    """
    loaded = load_table(table_id)
    if if_match is not None and if_match != loaded.version:
        raise store.StaleVersion(table_stream(table_id), if_match, loaded.version)
    if callable(command):
        assert loaded.state is not None
        command = command(loaded.state)
    events = table_domain.decide(loaded.state, command)
    recorded = store.append(table_stream(table_id), events, expected_version=loaded.version)
    state = loaded.state
    for event in events:
        state = table_domain.evolve(state, event)
    aggregates.save_snapshot(
        table_stream(table_id),
        loaded.version + len(events),
        state,
        previous_version=loaded.version,
    )
    assert state is not None
    return recorded, state


def open_table(
    *,
    name: str,
    game: str,
    small_blind: int,
    big_blind: int,
    buy_in_min: int | None = None,
    buy_in_max: int | None = None,
    ante: int = 0,
    ante_type: str = "none",
    rake_percent_bp: int | None = None,
    rake_cap: int | None = None,
    no_flop_no_drop: bool | None = None,
    min_raise_rule: str = "previous_increment",
    max_seats: int = 10,
    returning_player_rule: bool = True,
    button_rule: str = blinds.DEAD_BUTTON,
    cash_new_player_entry: str = blinds.WAIT_OR_POST_BOTH,
    missed_blind_sb_dead: bool = True,
    limit_cap_lifted_heads_up: bool | None = None,
    clock_expiry: str = "dead_hand",
    hand_closed_by: str = "next_hand_started",
    allin_faceup_in_cash: bool = False,
    limits_reason: str = "",
) -> int:
    """Open a new table and return its id (the next free number).

    Buy-in limits default to the stakes' configured limits (BI-3, BI-4) and the rake to
    the game's rake schedule (RAKE-1..4); other stakes need limits agreed (BI-5). Limits
    other than the configured ones of these stakes are the floor's change (BI-5): they need
    ``limits_reason``, recorded on the table with who opened it. A table
    may rake less than its step (a promotion, a replay's zero-rake table), never more: the
    schedule is the house's rake, changed by an admin, not per table. A hand
    won before the flop is not raked unless ``no_flop_no_drop=False`` (the rake step's
    setting, else "no flop, no drop": docs/rules-coverage.md).
    A live table gets the catalogue's live defaults: the dead button (SEAT-5), a new
    player between the button and the big blind waits or posts both blinds (SEAT-15), a
    returning player's missed small blind is dead (SEAT-16); ``"forward"`` and
    ``"immediate_no_post"`` (SEAT-6, SES-1) are there for rooms that choose them.
    ``clock_expiry``: what a called clock does when it runs out unless the caller says,
    ``"dead_hand"`` (BET-28, live) or ``"fold_or_check"`` (BET-29, the timeout rule).
    ``hand_closed_by``: when a settled hand closes to disputes of its reading, the next
    hand starting (SD-24), the first riffle (SD-25) or the cut (SD-26) of the next shuffle
    (:func:`record_shuffle`). ``allin_faceup_in_cash``: with a player all-in and the
    betting over every hand is turned face up (SD-10); off, only at tournament tables
    (SD-11, the room's 000 rule).

    Raises:
        DomainError ``buy_in_limits_required`` (BI-5), ``limit_change_needs_reason``
        (BI-5: limits other than the stakes' configured ones), ``invalid_table_config`` (SEAT-3),
        ``rake_above_schedule`` (RAKE-1 for the percentage, RAKE-2..4 for the cap) with
        ``max_rake_percent_bp`` and ``max_rake_cap``.
    """
    limits = cash_rules.rules().default_limits(game, small_blind, big_blind)
    if buy_in_min is None or buy_in_max is None:
        if limits is None:
            raise DomainError(
                "buy_in_limits_required",
                "These stakes have no configured buy-in limits; give the agreed ones.",
                rule="BI-5",
            )
        buy_in_min = limits.buy_in_min if buy_in_min is None else buy_in_min
        buy_in_max = limits.buy_in_max if buy_in_max is None else buy_in_max
    house_limits = limits and (limits.buy_in_min, limits.buy_in_max)
    if house_limits and (buy_in_min, buy_in_max) != house_limits and not limits_reason.strip():
        low, high = house_limits
        raise DomainError(
            "limit_change_needs_reason",
            f"The house limits of these stakes are {low}-{high} CZK (BI-3, BI-4): the floor "
            "must say why this table's differ.",
            rule="BI-5",
            house_buy_in_min=low,
            house_buy_in_max=high,
        )
    rake = cash_rules.rules().rake_for(game, small_blind)
    house = rake or cash_rules.Rake(percent_bp=0, cap=0, no_flop_no_drop=True)
    rake_percent_bp = house.percent_bp if rake_percent_bp is None else rake_percent_bp
    rake_cap = house.cap if rake_cap is None else rake_cap
    if rake_percent_bp > house.percent_bp or rake_cap > house.cap:
        raise DomainError(
            "rake_above_schedule",
            f"The house rakes these stakes at most {house.percent_bp} basis points of the pot, "
            f"capped at {house.cap} CZK a hand: a table may rake less, never more.",
            rule="RAKE-1" if rake_percent_bp > house.percent_bp else house.cap_rule,
            max_rake_percent_bp=house.percent_bp,
            max_rake_cap=house.cap,
        )
    if no_flop_no_drop is None:
        no_flop_no_drop = rake.no_flop_no_drop if rake else True  # no flop, no drop
    table_id = (TableView.objects.aggregate(m=Max("table_id"))["m"] or 0) + 1
    config = TableOpened(
        table_id=table_id,
        name=name,
        game=game,
        small_blind=small_blind,
        big_blind=big_blind,
        ante=ante,
        ante_type=ante_type,
        buy_in_min=buy_in_min,
        buy_in_max=buy_in_max,
        limits_reason=limits_reason.strip() if house_limits else "",
        rake_percent_bp=rake_percent_bp,
        rake_cap=rake_cap,
        no_flop_no_drop=no_flop_no_drop,
        min_raise_rule=min_raise_rule,
        max_seats=max_seats,
        returning_player_rule=returning_player_rule,
        button_rule=button_rule,
        cash_new_player_entry=cash_new_player_entry,
        missed_blind_sb_dead=missed_blind_sb_dead,
        limit_cap_lifted_heads_up=limit_cap_lifted_heads_up,
        clock_expiry=clock_expiry,
        hand_closed_by=hand_closed_by,
        allin_faceup_in_cash=allin_faceup_in_cash,
    )
    events = table_domain.decide(None, table_domain.OpenTable(config))
    # expected_version=0: two floors opening at once race for the number; the loser retries.
    store.append(table_stream(table_id), events, expected_version=0)
    return table_id


def open_tournament_table(
    *,
    tournament_id: int,
    name: str,
    game: str,
    max_seats: int,
    stakes: table_domain.Stakes,
    button_rule: str = blinds.DEAD_BUTTON,
) -> int:
    """Open a table for a tournament and return its id: chips, no rake, the tournament
    minimum-raise rule (BET-7: previous increment), ``button_rule`` (SEAT-5 dead button by
    default, or SEAT-6 forward); ``stakes`` are
    the level in force (each hand takes the level at its start from the tournament).

    Raises:
        DomainError ``invalid_table_config``.
    """
    table_id = (TableView.objects.aggregate(m=Max("table_id"))["m"] or 0) + 1
    config = TableOpened(
        table_id=table_id,
        name=name,
        game=game,
        small_blind=stakes.small_blind,
        big_blind=stakes.big_blind,
        ante=stakes.ante,
        ante_type=stakes.ante_type,
        buy_in_min=0,
        buy_in_max=0,
        rake_percent_bp=0,
        rake_cap=0,
        no_flop_no_drop=False,
        min_raise_rule="previous_increment",
        max_seats=max_seats,
        returning_player_rule=False,
        button_rule=button_rule,
        cash_new_player_entry=blinds.IMMEDIATE_NO_POST,
        mode=table_domain.TOURNAMENT,
        tournament_id=tournament_id,
    )
    events = table_domain.decide(None, table_domain.OpenTable(config))
    store.append(table_stream(table_id), events, expected_version=0)
    return table_id


def seat_entrant(
    *,
    table_id: int,
    seat: int,
    player_id: int,
    stack: int,
    reason: str,
    wait_for_big_blind: bool = False,
) -> None:
    """Seat a tournament player with ``stack`` chips (draw, late entry or a move); with
    ``wait_for_big_blind`` he is dealt in when the big blind reaches him (SEAT-14).

    Raises:
        DomainError ``seat_occupied``, ``invalid_tournament_seat``, ``not_a_tournament_table``.
    """
    execute_on_table(
        table_id,
        table_domain.SeatEntrant(
            seat=seat,
            player_id=player_id,
            stack=stack,
            reason=reason,
            wait_for_big_blind=wait_for_big_blind,
        ),
    )


def add_entrant_chips(*, table_id: int, seat: int, chips: int, reason: str) -> None:
    """A rebuy or add-on: ``chips`` more for the tournament player at ``seat``.

    Raises:
        DomainError ``seat_empty``, ``hand_in_progress`` (TREG-14), ``invalid_chips``.
    """
    execute_on_table(table_id, table_domain.AddEntrantChips(seat=seat, chips=chips, reason=reason))


def close_tournament_table(*, table_id: int, reason: str) -> None:
    """Close a tournament table once its players are gone (broken, TSEAT-4, TSEAT-8).

    Raises:
        DomainError ``table_not_empty``.
    """
    execute_on_table(table_id, table_domain.CloseTable(reason=reason))


def unseat_entrant(*, table_id: int, seat: int, reason: str) -> int:
    """Take a tournament player off his seat between hands; returns his chips.

    Raises:
        DomainError ``seat_empty``, ``hand_in_progress``, ``not_a_tournament_table``.
    """
    recorded, _ = execute_on_table(table_id, table_domain.UnseatEntrant(seat=seat, reason=reason))
    return int(getattr(recorded[0].event, "stack", 0))


def seat_player(
    *,
    table_id: int,
    player_id: int,
    seat: int,
    buy_in: int,
    paid_with: str = "cash",
    if_match: int | None = None,
) -> None:
    """Seat ``player_id`` at ``seat`` with a buy-in of ``buy_in`` CZK (BI-1..BI-5, BI-10);
    a player back in the same game within the return window buys in for at least the
    stack he left with (SES-7).

    Raises:
        NotFound ``player_not_found`` / ``table_not_found``.
        DomainError ``player_seated_elsewhere`` (BI-10) and the table's refusals;
            ``buy_in_exceeds_holdings`` / ``chips_in_circulation_exceeded`` (paid with more
            chips than the player or all players hold, BI-8).
    """
    require_player(player_id)
    if paid_with == "chips":
        cash_rules.rules().require_own_chips(player_id, buy_in)
    check_may_sit(table_id=table_id, player_id=player_id)

    def command(table: TableState) -> table_domain.SeatPlayer:
        c = table.config
        return table_domain.SeatPlayer(
            seat=seat,
            player_id=player_id,
            buy_in=buy_in,
            returning_minimum=_returning_minimum(c, player_id),
            return_overrides_max=settings.CASH_RETURN_OVERRIDES_MAX_BUYIN,
            paid_with=paid_with,
        )

    try:
        with transaction.atomic():  # a savepoint: the race below leaves the command usable
            execute_on_table(table_id, command, if_match=if_match)
    except IntegrityError:
        # Another seating of this player at another table committed first (BI-10): the
        # seat row's unique constraint caught what the check above could not see yet.
        raise DomainError(
            "player_seated_elsewhere",
            "The player already has a seat at another table.",
            rule="BI-10",
            player_id=player_id,
        ) from None


def _returning_minimum(config: TableOpened | TableView, player_id: int) -> int:
    """SES-7's minimum for this player at this table (0: none, or the rule is off)."""
    if not config.returning_player_rule:
        return 0
    return cash_rules.rules().returning_minimum(
        player_id, config.game, config.small_blind, config.big_blind
    )


def check_may_sit(*, table_id: int, player_id: int) -> None:
    """Refuse a player who holds a seat at another table (BI-10) or whom management keeps
    apart from a player at this one (BI-11).

    Raises:
        DomainError ``player_seated_elsewhere`` (BI-10), ``restricted_pair_at_table``
        (BI-11).
    """
    elsewhere = SeatView.objects.filter(player_id=player_id).exclude(table_id=table_id).first()
    check_seating_restrictions(table_id=table_id, player_id=player_id)
    if elsewhere is not None:
        raise DomainError(
            "player_seated_elsewhere",
            f"The player already has a seat at table {elsewhere.table_id}.",
            rule="BI-10",
            player_id=player_id,
            table_id=elsewhere.table_id,
            seat=elsewhere.seat,
        )


def seat_check(*, table_id: int, player_id: int) -> dict[str, object]:
    """Before a seat: who the player is and what he may buy in for here, or why he may not
    sit (the dealer types a player number; this names the player, so a mistyped number is
    seen before the cash is counted). Runs the checks :func:`seat_player` runs, writes
    nothing.

    Returns ``{"player_id", "nickname", "short_name", "buy_in_min", "buy_in_max" (CZK),
    "rule" (what sets the minimum: SES-7 or BI-3/4/5), "refusal": the refusal
    :func:`seat_player` would answer, in the one error shape ``{"code", "rule", "detail",
    ...}``, or ``None``}``; never the full name.

    Raises:
        NotFound ``table_not_found``, ``player_not_found``.
    """
    table = TableView.objects.filter(table_id=table_id).first()
    if table is None:
        raise NotFound("table_not_found", f"There is no table {table_id}.", table_id=table_id)
    player = Player.objects.filter(pk=player_id).first()
    if player is None:
        raise NotFound("player_not_found", f"There is no player {player_id}.", player_id=player_id)
    limits = buy_in_range(
        table,
        returning_minimum=_returning_minimum(table, player_id),
        return_overrides_max=settings.CASH_RETURN_OVERRIDES_MAX_BUYIN,
    )
    refusal = None
    try:
        if SeatView.objects.filter(table_id=table_id, player_id=player_id).exists():
            raise DomainError(
                "player_already_seated",
                "The player already has a seat at this table.",
                rule="BI-10",
                player_id=player_id,
            )
        check_may_sit(table_id=table_id, player_id=player_id)
    except DomainError as refused:
        refusal = refused.as_dict()
    return {
        "player_id": player_id,
        "nickname": player.nickname,
        "short_name": short_name(player.name),
        "buy_in_min": limits.low,
        "buy_in_max": limits.high,
        "rule": limits.rule,
        "refusal": refusal,
    }


def check_seating_restrictions(*, table_id: int, player_id: int) -> None:
    """Refuse a seat at a table where a player management keeps apart sits (BI-11).

    Raises:
        DomainError ``restricted_pair_at_table`` (BI-11).
    """
    partner = cash_rules.rules().restricted_partner_at(table_id, player_id)
    if partner is not None:
        raise DomainError(
            "restricted_pair_at_table",
            "Management does not let these two players sit at the same table.",
            rule="BI-11",
            player_id=player_id,
            restricted_with=partner,
        )


def cash_out(*, table_id: int, seat: int, if_match: int | None = None) -> int:
    """The player at ``seat`` leaves, cashing out his whole stack (SES-5); returns it (CZK).

    Raises:
        DomainError ``seat_empty``, ``hand_in_progress`` (BI-6).
    """
    recorded, _ = execute_on_table(table_id, table_domain.CashOut(seat=seat), if_match=if_match)
    event = recorded[0].event
    return int(getattr(event, "amount", 0))


# --- hands ---------------------------------------------------------------------------------


def hand_stream(hand_id: str) -> str:
    return f"hand-{hand_id}"


def load_hand(hand_id: str, *, trust_cache: bool = False) -> aggregates.Loaded[HandState]:
    """The hand aggregate (folded from its short stream, or cached) and its version
    (``trust_cache``: a cached state unchecked, see :mod:`casino.eventstore.aggregates`).

    Raises:
        NotFound ``hand_not_found``.
    """
    loaded = aggregates.load(
        hand_stream(hand_id), hand_domain.evolve, None, trust_cache=trust_cache,
        finished=_hand_over,
    )  # fmt: skip
    if loaded.state is None:
        raise NotFound("hand_not_found", f"There is no hand {hand_id}.", hand_id=hand_id)
    return cast(aggregates.Loaded[HandState], loaded)


def _check_may_deal(table_id: int, table: TableState) -> None:
    """What refuses a deal before the table plans it: at a tournament table the
    tournament's refusals (a break, CLK-8; hand-for-hand; a table out of play), at a cash
    table a player who plays in a tournament (BI-10). Run by the preview too, so the tablet
    says it before the dealer taps (found by QA: nothing showed a break).

    Raises:
        DomainError: the tournament's refusal; ``player_in_tournament`` (BI-10).
    """
    if table.config.mode == table_domain.TOURNAMENT and table.config.tournament_id:
        tournament_hooks.port().check_may_deal(
            tournament_id=table.config.tournament_id, table_id=table_id
        )
    else:
        _check_nobody_plays_a_tournament(table_id, table)


def _check_nobody_plays_a_tournament(table_id: int, table: TableState) -> None:
    """A cash table deals no player who holds a seat in a tournament that has started
    (BI-10, one active seat at a time). The draw seats a player still at a cash table, as
    players wait in cash games for an event to start, and flags him to the floor; he then
    played hands at both tables in the same minutes (found by QA). A player sitting out
    is not dealt in and is not refused.

    Raises:
        DomainError ``player_in_tournament`` (BI-10).
    """
    playing = {s.player_id: s.seat for s in table.dealt_in_seats if s.status != blinds.SITTING_OUT}
    there = (
        SeatView.objects.filter(player_id__in=playing, tournament_id__isnull=False)
        .exclude(table_id=table_id)
        .order_by("player_id")
        .first()
    )
    if there is not None:
        seat = playing[there.player_id]
        raise DomainError(
            "player_in_tournament",
            f"The player in seat {seat} plays in a tournament at table {there.table_id}: "
            "cash out or sit out that player first.",
            rule="BI-10",
            seat=seat,
            player_id=there.player_id,
            table_id=there.table_id,
        )


def start_hand(
    *,
    table_id: int,
    button_seat: int | None = None,
    straddles: list[int] | None = None,
    if_match: int | None = None,
) -> aggregates.Loaded[HandState]:
    """Deal a new hand at the table as :func:`next_hand` plans it: the button (drawn when a
    game starts, then by the table's ``button_rule``: SEAT-5 dead button or SEAT-6
    forward), the blinds, the owed blinds of returning and new players who post (SEAT-15,
    SEAT-16) and the antes; players sitting out or waiting for the big blind are not dealt
    in and the blinds that pass them are recorded as missed.

    ``straddles``: the seats straddling, in order from under the gun (SEAT-18..20). The
    misdeal window comes from the room's settings (MIS-1..3). ``if_match``: the table
    stream's version the dealer saw.

    Raises:
        ConcurrencyConflict: ``if_match`` is not the table's version.
        DomainError ``hand_in_progress`` (BI-6), ``not_enough_players`` (SEAT-3),
        ``button_out_of_turn`` (SEAT-4, SEAT-5), ``button_seat_not_in_hand`` (SEAT-1),
        straddle codes (SEAT-18..20).
    """
    hand_id = str(uuid.uuid4())
    current = load_table(table_id).state
    assert current is not None
    _lock_tournament_of(current)
    _check_may_deal(table_id, current)
    button_seat = _tournament_button(current, table_id, button_seat)
    recorded, table = execute_on_table(
        table_id,
        table_domain.BeginHand(hand_id=hand_id, button_seat=button_seat),
        if_match=if_match,
    )
    began = recorded[0].event
    assert isinstance(began, HandBegan)
    stakes = None
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
    command = table_domain.start_hand_command(
        began,
        table.config,
        stakes=stakes,
        straddles=tuple(straddles or ()),
        misdeal_action_threshold=settings.MISDEAL_ACTION_THRESHOLD,
        misdeal_counts_passive_actions=settings.MISDEAL_COUNTS_PASSIVE_ACTIONS,
        misdeal_allowed_after_flop=settings.MISDEAL_ALLOWED_AFTER_FLOP,
    )
    events = hand_domain.decide(None, command)
    store.append(hand_stream(hand_id), events, expected_version=0)
    state = hand_domain.load(events)
    assert state is not None
    aggregates.remember(hand_stream(hand_id), len(events), state)
    loaded = aggregates.Loaded(state, len(events))
    if table.config.mode == table_domain.TOURNAMENT:
        assert table.config.tournament_id is not None
        killed = tournament_hooks.port().killed_hands(
            tournament_id=table.config.tournament_id, table_id=table_id
        )
        seats = [s.seat for s in began.seats if s.player_id in killed]
        if seats:  # PEN-2: dealt in, posted, and dead at once
            loaded = append_to_hand(hand_id, loaded, hand_rulings.kill_penalty_hands(state, seats))
    return loaded


def _tournament_button(table: TableState, table_id: int, button_seat: int | None) -> int | None:
    """The button a new game at a tournament table starts with: the tournament's draw
    (SEAT-1 at the start, TSEAT-8 at the final table); ``button_seat`` where it drew none
    (a table added during the event).

    Raises:
        DomainError ``button_drawn`` (SEAT-1): ``button_seat`` is not the seat the
        tournament's draw gave the button (a tablet's own draw dealt the blinds to the wrong
        players: found by QA).
    """
    c = table.config
    if c.mode != table_domain.TOURNAMENT or table.button_seat is not None:
        return button_seat
    assert c.tournament_id is not None
    drawn = tournament_hooks.port().drawn_button(tournament_id=c.tournament_id, table_id=table_id)
    if drawn is None:
        return button_seat
    if button_seat is not None and button_seat != drawn:
        raise DomainError(
            "button_drawn",
            f"The tournament's draw gave the button to seat {drawn}.",
            rule="SEAT-1",
            button_seat=drawn,
        )
    return drawn


def next_hand(*, table_id: int, button_seat: int | None = None) -> blinds.HandPlan:
    """What the next hand would be if dealt now (nothing is written): the button, the
    blinds (a dead small blind's position), who is dealt in, who posts owed blinds, who
    waits for the big blind and which blinds would pass players sitting out (SEAT-5,
    SEAT-15, SEAT-16). ``button_seat``: the draw's outcome when a game starts (SEAT-1).

    Raises:
        NotFound ``table_not_found``; DomainError ``not_enough_players`` (SEAT-3) and what
        refuses a deal now (:func:`_check_may_deal`: a tournament's break, BI-10).
    """
    table = load_table(table_id).state
    assert table is not None
    _check_may_deal(table_id, table)
    drawn = _tournament_button(table, table_id, button_seat)  # as start_hand will deal it
    return table_domain.plan_next_hand(table, drawn_button=drawn)


def change_seat(*, table_id: int, seat: int, new_seat: int, if_match: int | None = None) -> None:
    """The player at ``seat`` moves to the empty ``new_seat`` of the same game between his
    hands, stack and all; further from the big blind he waits for it unless he posts
    (SEAT-17).

    Raises:
        DomainError ``seat_empty``, ``hand_in_progress``, ``seat_occupied``,
        ``seat_out_of_range``, ``not_a_cash_table``.
    """
    command = table_domain.ChangeSeat(seat=seat, new_seat=new_seat)
    execute_on_table(table_id, command, if_match=if_match)


def record_shuffle(*, table_id: int, step: str, if_match: int | None = None) -> None:
    """The dealer reports the first riffle (SD-25) or the cut (SD-26) of the next shuffle,
    between hands; under the table's ``hand_closed_by`` rule it closes the last hand.

    Raises:
        DomainError ``hand_in_progress``, ``invalid_shuffle_step``, ``table_not_found``.
    """
    execute_on_table(table_id, table_domain.RecordShuffle(step=step), if_match=if_match)


def sit_out(*, table_id: int, seat: int, if_match: int | None = None) -> None:
    """The player at ``seat`` sits out from the next hand on, keeping seat and stack; each
    blind that passes his seat is owed (SEAT-16).

    Raises:
        DomainError ``seat_empty``, ``already_sitting_out`` (SEAT-16).
    """
    execute_on_table(table_id, table_domain.SitOut(seat=seat), if_match=if_match)


def sit_in(*, table_id: int, seat: int, post: bool = False, if_match: int | None = None) -> None:
    """The player at ``seat`` comes back, or a new player says how he enters.

    ``post=True``: he posts what he owes and is dealt in at the next hand (SEAT-16: the
    small blind dead unless the table says otherwise, the big blind live; SEAT-15: a new
    player between the button and the big blind posts both). ``post=False``: he waits
    for the big blind when he owes blinds, or plays at once when he owes nothing.

    Raises:
        DomainError ``seat_empty``, ``not_sitting_out``, ``nothing_owed``,
        ``must_wait_for_big_blind`` (SEAT-16).
    """
    execute_on_table(table_id, table_domain.SitIn(seat=seat, post=post), if_match=if_match)


def _execute_on_hand(
    hand_id: str, command: HandCommand, *, if_match: int | None = None
) -> aggregates.Loaded[HandState]:
    """Decide ``command`` on the hand, append, and when it settles close it at the table.

    The dealer's hot path: the hand comes from the process's cache unchecked (a stale one
    collides with the log's unique version and is run again fresh), and the table only for
    its mode, which never changes.
    """
    loaded = load_hand(hand_id, trust_cache=True)
    if if_match is not None and if_match != loaded.version:
        raise store.StaleVersion(hand_stream(hand_id), if_match, loaded.version)
    table = load_table(loaded.state.started.table_id, trust_cache=True).state
    assert table is not None
    _lock_tournament_of(table)
    if isinstance(command, TakeAction):  # a passive hand (BET-30..32), a short call (BET-27)
        hand_rulings.check_may_raise(loaded.state, command.seat, command.action)
    events = hand_domain.decide(loaded.state, command)
    return append_to_hand(hand_id, loaded, events)


def append_to_hand(
    hand_id: str, loaded: aggregates.Loaded[HandState], events: list[DomainEvent]
) -> aggregates.Loaded[HandState]:
    """Append decided ``events`` to the hand (at ``loaded.version``) and, when they end it,
    close it at the table and report it to the tournament (also used by the floor's
    rulings, :mod:`tables.rulings_services`). When the action reaches a player who acted
    out of turn, his ruling (and, binding, his action) follows in the same append
    (BET-25/26, :func:`tables.domain.hand_rulings.rule_out_of_turn`)."""
    events = [*events, *_out_of_turn_follow_up(loaded.state, events)]
    store.append(hand_stream(hand_id), events, expected_version=loaded.version)
    state = loaded.state
    for event in events:
        state = hand_domain.evolve(state, event)
        if isinstance(event, HandSettled | HandVoided):
            _, table = execute_on_table(
                state.started.table_id,
                table_domain.EndHand(
                    hand_id=hand_id,
                    stacks=tuple((s.seat, s.stack) for s in event.final_stacks),
                    rake=event.rake if isinstance(event, HandSettled) else 0,
                    voided=isinstance(event, HandVoided),
                ),
            )
            if table.config.mode == table_domain.TOURNAMENT:
                _report_to_tournament(table, state, event)
        elif isinstance(event, RabbitHunted) and event.fee:
            execute_on_table(
                state.started.table_id,
                table_domain.PayDealerFee(seat=event.seat, amount=event.fee, hand_id=hand_id),
            )
    aggregates.remember(hand_stream(hand_id), loaded.version + len(events), state,
                        finished=_hand_over(state))  # fmt: skip
    return aggregates.Loaded(state, loaded.version + len(events))


def _hand_over(state: HandState | None) -> bool:
    """The hand ended (settled, or voided: that completes it too): its state need not stay
    in the worker's cache."""
    return state is not None and state.is_complete


def _out_of_turn_follow_up(state: HandState, events: list[DomainEvent]) -> list[DomainEvent]:
    """BET-25/26 after ``events``: nothing unless someone acted out of turn in this hand."""
    if not any(isinstance(e, OutOfTurnRecorded) for e in state.history):
        return []
    for event in events:
        state = hand_domain.evolve(state, event)
    return hand_rulings.rule_out_of_turn(state)


def _lock_tournament_of(table: TableState) -> None:
    """At a tournament table, take the tournament's lock before writing anything: the
    tournament's decisions write its stream and then its tables, so every writer takes the
    locks in that order (no deadlock between tables dealing and finishing hands)."""
    if table.config.mode == table_domain.TOURNAMENT:
        store.lock_stream(f"tournament-{table.config.tournament_id}")


def _report_to_tournament(
    table: TableState, hand: HandState, ended: HandSettled | HandVoided
) -> None:
    """Tell the table's tournament how the hand changed each player's chips."""
    players = {s.seat: int(s.player_id) for s in hand.started.seats}
    assert table.config.tournament_id is not None
    tournament_hooks.port().hand_finished(
        tournament_id=table.config.tournament_id,
        table_id=table.config.table_id,
        hand_id=hand.hand_id,
        hand_number=hand.started.hand_number,
        starting_stacks={players[s.seat]: s.stack for s in hand.started.seats},
        final_stacks={players[s.seat]: s.stack for s in ended.final_stacks},
        voided=isinstance(ended, HandVoided),
    )


def record_action(
    *,
    hand_id: str,
    seat: int,
    action: str,
    amount_to: int | None = None,
    if_match: int | None = None,
) -> aggregates.Loaded[HandState]:
    """The player at ``seat`` folds, checks, calls, bets or raises to ``amount_to`` (street
    total, chips/CZK) or goes all-in; legality by pokerkit (BET-1, BET-3, BET-4, BET-8/9,
    BET-14). When the action ends the hand, the pots are settled in the same transaction.

    Raises:
        DomainError: the action is not legal now (code and rule ID say why).
    """
    command = TakeAction(seat=seat, action=action, amount_to=amount_to)  # type: ignore[arg-type]
    return _execute_on_hand(hand_id, command, if_match=if_match)


def deal_board(
    *, hand_id: str, street: str, cards: str, run: int = 1, if_match: int | None = None
) -> aggregates.Loaded[HandState]:
    """Record the flop (3 cards), turn or river (1 card) as the dealer turns them.

    Raises:
        DomainError ``wrong_board_street``, ``invalid_cards``, ``duplicate_card`` (MIS-12),
        ``betting_round_not_complete``.
    """
    command = DealBoard(street=street, cards=cards, run=run)  # type: ignore[arg-type]
    return _execute_on_hand(hand_id, command, if_match=if_match)


def show_cards(
    *, hand_id: str, seat: int, cards: str, if_match: int | None = None
) -> aggregates.Loaded[HandState]:
    """A player tables his hole cards at showdown; once every live player has shown or
    mucked and the board is complete, the server ranks the hands (phevaluator) and awards
    the pots (SD-1, SD-2, SD-20, SD-21).
    """
    return _execute_on_hand(hand_id, ShowCards(seat=seat, cards=cards), if_match=if_match)


def muck_cards(
    *, hand_id: str, seat: int, deliberate: bool = False, if_match: int | None = None
) -> aggregates.Loaded[HandState]:
    """A player mucks at showdown and gives up his claim to the pot (SD-4); an all-in
    hand only when he threw it away on purpose (``deliberate``, SD-12).

    Raises:
        HandRuleViolation ``all_in_hand_not_mucked`` (SD-12) and the showdown refusals.
    """
    command = MuckCards(seat=seat, deliberate=deliberate)
    return _execute_on_hand(hand_id, command, if_match=if_match)


def award_pots(
    *,
    hand_id: str,
    winners_by_pot: list[list[int]],
    winners_by_run: list[list[list[int]]] | None = None,
    if_match: int | None = None,
) -> aggregates.Loaded[HandState]:
    """Manual award: the dealer read the hands and names the winning seats of each pot
    (index 0 = main pot); ties split with the odd chip by the house rule (SD-21).
    """
    command = AwardPots(
        winners_by_pot=tuple(tuple(w) for w in winners_by_pot),
        winners_by_run=tuple(tuple(tuple(w) for w in pots) for pots in (winners_by_run or [])),
    )
    return _execute_on_hand(hand_id, command, if_match=if_match)


def run_it(
    *, hand_id: str, times: int, if_match: int | None = None
) -> aggregates.Loaded[HandState]:
    """The all-in players agreed to run the rest of the board ``times`` (2 or 3) times;
    each run wins its share of every pot, the pot itself is never chopped (RAKE-9, RAKE-10)."""
    return _execute_on_hand(hand_id, RunItTimes(times=times), if_match=if_match)


def declare_misdeal(
    *, hand_id: str, reason: str, if_match: int | None = None
) -> aggregates.Loaded[HandState]:
    """Void the hand as a misdeal within the room's window; every chip goes back
    (MIS-1..MIS-3)."""
    return _execute_on_hand(hand_id, DeclareMisdeal(reason=reason), if_match=if_match)


def void_hand(
    *, hand_id: str, reason: str, if_match: int | None = None
) -> aggregates.Loaded[HandState]:
    """Void the hand at any point before it is settled (a foreign or duplicate card:
    MIS-11, MIS-12); every action is cancelled and every chip goes back."""
    return _execute_on_hand(hand_id, VoidHand(reason=reason), if_match=if_match)


def record_rabbit_hunt(
    *,
    hand_id: str,
    seat: int,
    cards: str,
    fee: int,
    consenting_seats: list[int] | None = None,
    if_match: int | None = None,
) -> aggregates.Loaded[HandState]:
    """After a cash hand, record the undealt cards shown and the dealer's fee, which
    leaves the player's stack (RAKE-7, RAKE-8); the cards never change the result. Every
    other player dealt in consents: ``consenting_seats`` (recorded with the hunt) or a
    consent recorded before for ``seat``.

    Raises:
        HandRuleViolation: ``consent_missing`` (RAKE-8), and the refusals of
        :func:`tables.domain.showdown.decide_rabbit`.
    """
    consent = None if consenting_seats is None else tuple(consenting_seats)
    command = RecordRabbitHunt(seat=seat, cards=cards, fee=fee, consenting_seats=consent)
    return _execute_on_hand(hand_id, command, if_match=if_match)
