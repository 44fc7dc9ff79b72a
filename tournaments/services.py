"""Command handlers of the tournament service: load the ``tournament-<id>`` stream, decide
with :mod:`tournaments.domain.tournament`, append, then carry the decision to the physical
tables (seat draw, late entries, moves, eliminations, rebuys, the final table) in the same
transaction, and schedule the clock's next timer once it commits.

Every function is keyword-only and runs inside the caller's transaction (``run_command``
from the API and the Celery tasks); a refusal raises :class:`casino.errors.DomainError`
and nothing is appended, at the tournament or at any table. Money in CZK, chips in chips,
times UTC from :mod:`casino.clock`. Random draws use a fresh seed per command; the outcome
is stored in the events, so a replay never draws again.
"""

from __future__ import annotations

import dataclasses
import secrets
from collections.abc import Callable, Iterable
from datetime import datetime
from typing import Any

import dacite
from django.db import transaction
from django.db.models import Max

from cashgame.models import PrizePayment
from casino import clock
from casino.domain_events import DomainEvent
from casino.errors import Conflict, DomainError, NotFound
from casino.eventstore import aggregates, store
from casino.gaming_day import room_zone
from casino.models import Player, require_player
from tables import services as table_services
from tables import tournament_hooks
from tables.domain.table import Stakes
from tournaments.domain import bounties, deals, payments, penalties, satellites, seating
from tournaments.domain import tournament as domain
from tournaments.domain.config import (
    TABLE_ANTE_TYPES,
    Level,
    TournamentConfig,
    validate_config,
)
from tournaments.domain.events import (
    AddOnTaken,
    BreakStarted,
    ChipRaceRun,
    FinalTableRedrawn,
    LateEntrySeated,
    MatchSeated,
    PlayerDisqualified,
    PlayerEliminated,
    PlayerMoved,
    PlayerReinstated,
    PlayerUnregistered,
    RebuyTaken,
    SatelliteSeatWon,
    TableHandStarted,
    TournamentCancelled,
    TournamentFinished,
    TournamentStarted,
    iso,
)
from tournaments.domain.standings import busted_results
from tournaments.domain.tournament import TournamentState
from tournaments.models import EntryView, TournamentView

_DACITE = dacite.Config(cast=[tuple], strict=True)


def tournament_stream(tournament_id: int) -> str:
    return f"tournament-{tournament_id}"


def load_tournament(tournament_id: int) -> aggregates.Loaded[TournamentState]:
    """The tournament aggregate and its stream version.

    Raises:
        NotFound ``tournament_not_found``.
    """
    # a cold process starts from the stored snapshot (at most SNAPSHOT_EVERY events back)
    loaded = aggregates.load(
        tournament_stream(tournament_id), domain.evolve, None, snapshot_type=TournamentState
    )
    if loaded.state is None:
        raise NotFound(
            "tournament_not_found",
            f"There is no tournament {tournament_id}.",
            tournament_id=tournament_id,
        )
    return aggregates.Loaded(loaded.state, loaded.version)


def execute(
    tournament_id: int, command: domain.Command, *, if_match: int | None = None
) -> tuple[list[DomainEvent], TournamentState]:
    """Decide ``command`` now, append its events, apply them to the tables, schedule the
    clock; return the events and the tournament after them.

    Raises:
        DomainError: refused (nothing appended); ConcurrencyConflict: ``if_match`` stale
            or a concurrent writer (``run_command`` retries on fresh state).
    """
    store.lock_stream(tournament_stream(tournament_id))  # before its tables: no deadlock
    loaded = load_tournament(tournament_id)
    if if_match is not None and if_match != loaded.version:
        raise store.StaleVersion(tournament_stream(tournament_id), if_match, loaded.version)
    events = domain.decide(loaded.state, command, clock.now())
    if not events:
        return [], loaded.state
    stream = tournament_stream(tournament_id)
    store.append(stream, events, expected_version=loaded.version)
    state = loaded.state
    for event in events:
        state = domain.evolve(state, event)
    aggregates.save_snapshot(
        stream, loaded.version + len(events), state, previous_version=loaded.version
    )
    _apply_to_tables(tournament_id, loaded.state, state, events)
    if _clock_key(state) != _clock_key(loaded.state):
        _schedule_clock(tournament_id, state)
    return events, state


def _seed() -> int:
    return secrets.randbits(63)


# --- set-up and registration -----------------------------------------------------------------


def create_tournament(*, config: dict[str, Any]) -> int:
    """Create a tournament from its published configuration (shape:
    :class:`tournaments.domain.config.TournamentConfig`); returns its id.

    Raises:
        DomainError ``invalid_tournament_config`` (the field and the reason).
    """
    try:
        parsed = dacite.from_dict(TournamentConfig, _json_ready(config), config=_DACITE)
    except (dacite.DaciteError, TypeError, ValueError) as error:
        raise DomainError("invalid_tournament_config", str(error)) from None
    if parsed.satellite_target is not None:
        parsed = _satellite_config(parsed)
    validate_config(
        parsed, unknown_bounty_players=_unknown_players(parsed.bounty.players), now=clock.now()
    )
    tournament_id = (TournamentView.objects.aggregate(m=Max("tournament_id"))["m"] or 0) + 1
    command = domain.CreateTournament(str(tournament_id), parsed)
    events = domain.decide(None, command, clock.now())
    store.append(tournament_stream(tournament_id), events, expected_version=0)
    return tournament_id


def _unknown_players(player_ids: Iterable[int]) -> list[int]:
    """The ids among ``player_ids`` that are not players of the room (a fixed bounty's
    named players, BNTY-1), for :func:`validate_config` to report."""
    wanted = set(player_ids)
    known = set(Player.objects.filter(pk__in=wanted).values_list("pk", flat=True))
    return sorted(wanted - known)


def _satellite_config(config: TournamentConfig) -> TournamentConfig:
    """A satellite's seat value is its target's buy-in, fee and entrant bounty (TREG-11).

    Raises:
        DomainError ``invalid_satellite_target``: no such event, or it is over.
    """
    assert config.satellite_target is not None
    try:
        target = load_tournament(config.satellite_target).state
    except NotFound:
        target = None
    if target is None or target.status not in (domain.REGISTERING, domain.RUNNING):
        raise DomainError(
            "invalid_satellite_target", "A satellite's target must be an event still to play.",
            rule="TREG-11", satellite_target=config.satellite_target,
        )  # fmt: skip
    t = target.config
    value = bounties.entry_cost(t.buy_in, t.fee, t.bounty.kind, t.bounty.amount)
    return dataclasses.replace(config, satellite_seat_value=value)


def _json_ready(value: Any) -> Any:
    """Datetimes as ISO-8601 UTC strings, lists as tuples (the event's JSON shape)."""
    if isinstance(value, datetime):
        return iso(value)
    if isinstance(value, dict):
        return {k: _json_ready(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return tuple(_json_ready(v) for v in value)
    return value


def register_player(
    *, tournament_id: int, player_id: int, pay_with: str = "cash", if_match: int | None = None
) -> None:
    """Register before the start: buy-in + fee paid, one entry per player (TREG-1, TREG-9);
    after the start this is a late registration (TREG-7) seated by draw. ``pay_with``:
    ``cash`` at the cage, ``t_money`` from the player's T-Money (TREG-11), or
    ``satellite`` (a seat won, only from :func:`award_satellite_seats`).

    Raises:
        NotFound ``player_not_found``; DomainError ``already_registered`` (TREG-9),
        ``late_registration_closed`` (TREG-7/8), ``insufficient_t_money`` (TREG-11) ...
    """
    state = load_tournament(tournament_id).state  # 404 for an unknown tournament first
    require_player(player_id)
    command: domain.Command
    if state.status == domain.REGISTERING:
        command = domain.Register(player_id, pay_with)
    else:
        command = domain.LateRegister(player_id, _seed(), pay_with)
    _, after = execute(tournament_id, command, if_match=if_match)
    if pay_with == "t_money":
        c = after.config
        cost = bounties.entry_cost(c.buy_in, c.fee, c.bounty.kind, c.bounty.amount)
        _t_money(player_id, satellites.Spend(cost, tournament_id))


def t_money_stream(player_id: int) -> str:
    return f"tmoney-{player_id}"


def load_t_money(player_id: int) -> aggregates.Loaded[satellites.Account]:
    """The player's T-Money account (TREG-11) and its stream version."""
    return aggregates.load(
        t_money_stream(player_id), satellites.evolve, satellites.Account(player_id)
    )  # fmt: skip


def _t_money(player_id: int, command: satellites.Credit | satellites.Spend) -> None:
    """Credit or spend T-Money (TREG-11), in the caller's transaction.

    Raises:
        DomainError ``insufficient_t_money``: the whole command rolls back.
    """
    stream = t_money_stream(player_id)
    store.lock_stream(stream)
    loaded = load_t_money(player_id)
    events = satellites.decide(loaded.state, command, clock.now())
    store.append(stream, events, expected_version=loaded.version)
    state = loaded.state
    for event in events:
        state = satellites.evolve(state, event)
    aggregates.remember(stream, loaded.version + len(events), state)


def award_satellite_seats(*, satellite_id: int, event: SatelliteSeatWon) -> None:
    """TREG-11: the seat winner is registered in the target at once (seated straight in
    during its late registration); a seat that cannot be used (the target is over or
    closed, he holds an entry already, a second seat) becomes T-Money."""
    for n in range(event.seats):
        if n == 0:
            try:
                with transaction.atomic():  # a refusal leaves nothing half written
                    register_player(tournament_id=event.target_tournament_id,
                                    player_id=event.player_id, pay_with="satellite")  # fmt: skip
                continue
            except (DomainError, NotFound):
                pass
        _t_money(event.player_id, satellites.Credit(
            event.seat_value, f"satellite {satellite_id}: seat in {event.target_tournament_id}"
        ))  # fmt: skip


def unregister_player(*, tournament_id: int, player_id: int, if_match: int | None = None) -> int:
    """Withdraw before the start and the deadline; returns the refund, CZK (TREG-10).

    Raises:
        DomainError ``unregistration_closed`` (TREG-10), ``player_not_registered``.
    """
    events, _ = execute(tournament_id, domain.Unregister(player_id), if_match=if_match)
    withdrawn = next(e for e in events if isinstance(e, PlayerUnregistered))
    if withdrawn.refund_as == "t_money":  # a seat won or bought with T-Money (TREG-11)
        _t_money(player_id, satellites.Credit(
            withdrawn.refund, f"unregistered from tournament {tournament_id}"
        ))  # fmt: skip
    return withdrawn.refund


def re_enter(*, tournament_id: int, player_id: int, if_match: int | None = None) -> None:
    """A new entry for an eliminated player, seated by draw (TREG-9, re-entry rule).

    Raises:
        DomainError ``reentry_not_allowed`` and the late-registration refusals.
    """
    execute(tournament_id, domain.ReEnter(player_id, _seed()), if_match=if_match)


def rebuy(*, tournament_id: int, player_id: int, if_match: int | None = None) -> None:
    """A rebuy between hands while the stack is at or below the threshold; during his
    table's hand, a rebuy taken if the hand busts him, before the next deal (TREG-14).

    Raises:
        DomainError: the rebuy rule's refusals (window, limit, stack).
    """
    state = load_tournament(tournament_id).state
    player = state.players.get(player_id)
    table = None if player is None or player.table_id is None else player.table_id
    in_hand = table is not None and table in state.tables and state.tables[table].in_hand
    command = domain.RebuyIfBusted(player_id) if in_hand else domain.Rebuy(player_id)
    execute(tournament_id, command, if_match=if_match)


def add_on(*, tournament_id: int, player_id: int, if_match: int | None = None) -> None:
    """The add-on at its level or the break after it (CLK-5).

    Raises:
        DomainError: the add-on rule's refusals.
    """
    execute(tournament_id, domain.AddOn(player_id), if_match=if_match)


def start_tournament(
    *, tournament_id: int, reserve_tables: int = 1, game: str = "NLH", if_match: int | None = None
) -> None:
    """Open the tables, draw the seats and each table's button (TSEAT-1, SEAT-1/2), seat
    every entrant with the starting stack (TREG-1, an absent one too: TREG-2) and start the
    clock at level 1. ``reserve_tables`` more tables are opened for late entries.

    Raises:
        DomainError ``field_too_small`` (TREG-3), ``tournament_started``.
    """
    store.lock_stream(tournament_stream(tournament_id))
    loaded = load_tournament(tournament_id)
    state = loaded.state
    # The domain refuses a start (TREG-3, already started); the tables opened here are then
    # rolled back with the rest of the command.
    registered = sum(1 for p in state.players.values() if p.status == domain.REGISTERED)
    count = seating.tables_needed(registered, state.config.table_size) + max(0, reserve_tables)
    level = state.config.level(1)
    stakes = Stakes(level.small_blind, level.big_blind, level.ante, level.table_ante_type)
    table_ids = tuple(
        table_services.open_tournament_table(
            tournament_id=tournament_id,
            # the tournament's name: every screen adds the table's number (the floor's
            # "#7", the director's "Table 7") in its own language; a stored "table 1"
            # was English on a Czech screen and a second number beside the table's (QA)
            name=state.config.name,
            game=game,
            # the final table may seat more than the others (TSEAT-8)
            max_seats=max(state.config.table_size, state.config.final_table_players),
            stakes=stakes,
            button_rule=state.config.button_rule,
        )
        for _ in range(count)
    )
    execute(tournament_id, domain.StartTournament(table_ids, _seed()), if_match=if_match)
    execute(tournament_id, domain.StartClock())


# --- deals (DEAL-1..11) ------------------------------------------------------------------------


def request_deal(*, tournament_id: int, player_id: int, if_match: int | None = None) -> None:
    """A remaining player asks to discuss a deal; when all have, the final table pauses
    after the hand in progress and the director's feed shows ``DealDiscussionStarted``
    (DEAL-4).

    Raises:
        DomainError ``deals_not_allowed`` (DEAL-1), ``deal_not_at_final_table`` (DEAL-3),
        ``not_in_deal`` (DEAL-2).
    """
    execute(tournament_id, deals.RequestDeal(player_id), if_match=if_match)


def propose_deal(
    *,
    tournament_id: int,
    method: str = "icm",
    money_on_table: int | None = None,
    amounts: dict[int, int] | None = None,
    if_match: int | None = None,
) -> None:
    """The director proposes a deal by ICM, chip count, even split or custom amounts (CZK,
    every remaining player), leaving ``money_on_table`` CZK for 1st place (DEAL-5..9).

    Raises:
        DomainError ``no_deal_discussion`` (DEAL-4), ``deal_must_include_everyone``
        (DEAL-2), ``invalid_deal`` (DEAL-5/6), ``prize_pool_provisional`` (TREG-15).
    """
    command = deals.ProposeDeal(method, money_on_table, amounts, _seed())
    execute(tournament_id, command, if_match=if_match)


def confirm_deal(*, tournament_id: int, player_id: int, if_match: int | None = None) -> None:
    """Record a player's confirmation; the last one makes the deal final (DEAL-5).

    Raises:
        DomainError ``no_deal_proposed``, ``not_in_deal`` (DEAL-2).
    """
    execute(tournament_id, deals.ConfirmDeal(player_id), if_match=if_match)


def cancel_deal(
    *,
    tournament_id: int,
    reason: str = "director",
    player_id: int | None = None,
    if_match: int | None = None,
) -> None:
    """A player declines or the director calls the deal off; play resumes.

    Raises:
        DomainError ``no_deal_discussion``.
    """
    execute(tournament_id, deals.CancelDeal(reason, player_id), if_match=if_match)


# --- winnings at the cage (ELIM-6..9, BNTY-*) ----------------------------------------------------


def pay_winnings(*, tournament_id: int, player_id: int, if_match: int | None = None) -> int:
    """The cashier pays the player everything he is owed now (prizes, a deal share, the
    early payout, bounties won); the cage's day balance includes it. Returns CZK paid.

    Raises:
        DomainError ``nothing_owed``, ``winnings_held`` (ELIM-9).
    """
    events, _ = execute(tournament_id, payments.PayWinnings(player_id), if_match=if_match)
    paid = events[0]
    return sum(int(getattr(paid, f, 0)) for f in ("prize", "bounties", "fees_refunded"))


def pay_entry_prize(*, tournament_id: int, entry_number: int) -> PrizePayment:
    """The cage pays the prize of one entry in cash, once: when the tournament has finished,
    or while it runs for an entry out in the money once its place and prize are fixed
    (:func:`tournaments.domain.standings.busted_results`, ELIM-6).

    One rule for what a player is owed: the payment is the tournament's own
    (:func:`pay_winnings`, ELIM-6..9), so it pays in one go
    everything the tournament owes the entry's player (his prizes and any bounties won),
    refuses held winnings (ELIM-9), counts in the cage's tournament money, and can never be
    paid a second time through either path. The entry's row in the list of prizes paid
    comes from that ``tournaments.WinningsPaid``.

    Raises:
        NotFound ``entry_not_found`` (404); DomainError ``no_prize`` (the entry won
        nothing, or its prize is not fixed yet), ``prize_already_paid`` (409, with
        ``paid_at``, UTC, and ``paid_at_room_time``, the room's ``YYYY-MM-DD HH:MM``),
        ``winnings_held`` (ELIM-9).
    """
    entry = EntryView.objects.filter(tournament_id=tournament_id, entry_number=entry_number).first()
    if entry is None:
        raise NotFound(
            "entry_not_found",
            f"Tournament {tournament_id} has no entry {entry_number}.",
            tournament_id=tournament_id,
            entry_number=entry_number,
        )
    prize = entry.prize
    if prize is None and entry.place is not None:  # out while the event runs (ELIM-6)
        state = load_tournament(tournament_id).state
        busted = busted_results(state) if state is not None else ()
        prize = next((r.prize for r in busted if r.entry_number == entry_number), None)
    if not prize or entry.place is None:
        raise DomainError(
            "no_prize",
            "This entry has no prize to pay (the tournament has not ended, or it finished "
            "out of the money).",
            tournament_id=tournament_id,
            entry_number=entry_number,
        )
    paid = PrizePayment.objects.filter(
        tournament_id=tournament_id, entry_number=entry_number
    ).first()
    if paid is None:
        try:
            pay_winnings(tournament_id=tournament_id, player_id=entry.player_id)
        except DomainError as refused:
            if refused.code != "nothing_owed":
                raise
            # paid before payments named their entries (v1 events): nothing is owed now
            raise Conflict(
                "prize_already_paid",
                "The tournament owes this player nothing now: his winnings were paid.",
                tournament_id=tournament_id,
                entry_number=entry_number,
            ) from None
        return PrizePayment.objects.get(tournament_id=tournament_id, entry_number=entry_number)
    room_time = f"{paid.at.astimezone(room_zone()):%Y-%m-%d %H:%M}"
    raise Conflict(
        "prize_already_paid",
        f"This prize was paid at {room_time}.",
        tournament_id=tournament_id,
        entry_number=entry_number,
        amount=paid.amount,
        paid_at=paid.at.isoformat().replace("+00:00", "Z"),
        paid_at_room_time=room_time,
    )


def hold_winnings(
    *, tournament_id: int, player_id: int, reason: str, if_match: int | None = None
) -> None:
    """Hold a player's winnings for a game-integrity review (ELIM-9)."""
    execute(tournament_id, payments.HoldWinnings(player_id, reason), if_match=if_match)


def release_winnings(
    *, tournament_id: int, player_id: int, reason: str, if_match: int | None = None
) -> None:
    """End the review: the held winnings may be paid (ELIM-9)."""
    execute(tournament_id, payments.ReleaseWinnings(player_id, reason), if_match=if_match)


# --- penalties (PEN-1..16) -----------------------------------------------------------------------


def issue_penalty(
    *,
    tournament_id: int,
    player_id: int,
    offence: str,
    reason: str,
    kind: str | None = None,
    hands: int = 0,
    orbits: int = 0,
    override: bool = False,
    if_match: int | None = None,
) -> None:
    """The floor's ruling: warning, sit-out (hands or orbits; dealt in, blinds posted,
    hand killed) or disqualification (chips removed), the ladder's step unless recorded
    as an override with its reason (PEN-1/2/9/16); during a hand it applies after the hand.

    Raises:
        DomainError ``penalty_off_the_ladder`` (PEN-16), ``reason_required``,
        ``invalid_penalty``, ``player_not_playing``.
    """
    command = penalties.IssuePenalty(player_id, offence, reason, kind, hands, orbits, override)
    execute(tournament_id, command, if_match=if_match)


def flag_conduct(
    *, tournament_id: int, player_id: int, offence: str, detail: str, if_match: int | None = None
) -> None:
    """Record conduct for the floor (PEN-5..15)."""
    execute(tournament_id, penalties.FlagConduct(player_id, offence, detail), if_match=if_match)


def correct_seat(
    *, tournament_id: int, player_id: int, table_id: int, seat: int, if_match: int | None = None
) -> None:
    """A player found in the wrong seat is moved, stack and all, to ``seat`` of
    ``table_id`` between hands (TSEAT-2): a ``PlayerMoved`` with reason ``wrong_seat``,
    applied to both tables.

    Raises:
        DomainError ``tournament_not_running``, ``player_not_playing``,
        ``table_not_in_play``, ``invalid_seat``, ``already_in_that_seat``, ``seat_taken``,
        ``hand_in_progress``.
    """
    command = domain.CorrectSeat(player_id, table_id, seat)
    execute(tournament_id, command, if_match=if_match)


# --- scheduling, crashes, cancellation (TREG-5, CXL-1..10) ---------------------------------------


def schedule_start(
    *,
    tournament_id: int,
    start_at: datetime,
    delay: bool = False,
    reason: str = "",
    if_match: int | None = None,
) -> None:
    """Set the lobby start time (aware UTC), or delay it with a logged reason (TREG-5);
    bringing a set time forward needs a reason too.

    Raises:
        DomainError ``tournament_started``, ``invalid_time``, ``start_in_past``,
        ``not_a_delay``, ``delay_required``, ``reason_required``.
    """
    command = domain.ScheduleStart(iso(start_at), delay, reason)
    execute(tournament_id, command, if_match=if_match)


def roll_back_hands(
    *, tournament_id: int, reason: str = "server crash", if_match: int | None = None
) -> int:
    """After a server crash every hand in progress goes back to its start stacks (CXL-1):
    recorded on the tournament, then each hand is voided at its table (every chip goes
    back; the table reports the unchanged stacks). Returns how many hands.

    Raises:
        DomainError ``no_hand_in_progress``.
    """
    from tables.models import TableView

    events, _ = execute(tournament_id, domain.RollBackHands(reason), if_match=if_match)
    hands = getattr(events[0], "hands", ())
    for th in hands:
        hand_id = TableView.objects.values_list("current_hand_id", flat=True).get(
            table_id=th.table_id
        )
        if hand_id:
            table_services.void_hand(hand_id=hand_id, reason=f"CXL-1: {reason}")
    return len(hands)


def cancel_tournament(
    *, tournament_id: int, method: str, reason: str, if_match: int | None = None
) -> None:
    """Cancel and settle every player (CXL-2..9) under the versioned policy: ``rollback``
    refunds everything paid, ``roll_forward`` refunds fees and knockout bounties and shares
    the pool (before the money: half equally, half by chips; in the money: the smallest
    unawarded prize each, the rest by chips). The cage pays the shares.

    Raises:
        DomainError ``invalid_cancellation``, ``hand_in_progress`` (CXL-1 first).
    """
    execute(tournament_id, domain.CancelTournament(method, reason), if_match=if_match)


# --- the clock ---------------------------------------------------------------------------------


def pause_clock(*, tournament_id: int, if_match: int | None = None) -> None:
    """The director stops the clock (time left is kept).

    Raises: DomainError ``clock_paused``, ``break_due`` ...
    """
    execute(tournament_id, domain.PauseClock(), if_match=if_match)


def resume_clock(*, tournament_id: int, if_match: int | None = None) -> None:
    """The director restarts the clock from the time left."""
    execute(tournament_id, domain.ResumeClock(), if_match=if_match)


def adjust_clock(*, tournament_id: int, seconds: int, if_match: int | None = None) -> None:
    """The director gives the level or break in progress ``seconds`` more (positive) or
    takes some off (negative), running or stopped; the level-end timer follows.

    Raises: DomainError ``clock_not_running``, ``clock_counts_hands`` (SHOW-1),
    ``invalid_clock_adjustment``, ``clock_adjustment_too_large``.
    """
    execute(tournament_id, domain.AdjustClock(seconds), if_match=if_match)


def amend_levels(
    *,
    tournament_id: int,
    from_level: int,
    levels: list[dict[str, Any]],
    reason: str,
    if_match: int | None = None,
) -> None:
    """The director changes the structure from ``from_level`` on to ``levels`` (each as
    :class:`tournaments.domain.config.Level`: blinds and ante in chips, minutes), with the
    ``reason`` for the change log (TREG-6); levels played stay as played.

    Raises: DomainError ``tournament_finished``, ``level_already_played``,
    ``invalid_structure``, ``invalid_tournament_config`` (TREG-6).
    """
    parsed = tuple(Level(**level) for level in levels)
    execute(tournament_id, domain.AmendLevels(from_level, parsed, reason), if_match=if_match)


def start_break(
    *, tournament_id: int, minutes: int | None = None, if_match: int | None = None
) -> None:
    """The director calls a break; it starts when the hands in progress end (CLK-7)."""
    execute(tournament_id, domain.StartBreak(minutes=minutes), if_match=if_match)


def end_break(*, tournament_id: int, if_match: int | None = None) -> None:
    """The director ends the break now."""
    execute(tournament_id, domain.EndBreak(), if_match=if_match)


def set_hand_for_hand(*, tournament_id: int, on: bool, if_match: int | None = None) -> None:
    """The director switches hand-for-hand on or off (TSEAT-9, only with >1 table).

    Raises: DomainError ``hand_for_hand_single_table`` (TSEAT-9) ...
    """
    execute(
        tournament_id,
        domain.StartHandForHand() if on else domain.EndHandForHand(_seed()),
        if_match=if_match,
    )


def close_late_registration(*, tournament_id: int, if_match: int | None = None) -> None:
    """The director closes late registration now (TREG-7)."""
    execute(tournament_id, domain.CloseLateRegistration(), if_match=if_match)


def run_clock(
    *, tournament_id: int, level: int | None = None, clock_version: int | None = None
) -> int:
    """Apply the clock commands due now: the start at the lobby time (TREG-5), level ends,
    break start and end, late registration by clock time (CLK-1..8). A timer passes the
    ``level`` and ``clock_version`` it was scheduled for and does nothing if either
    changed; the beat sweep passes neither.
    Each due command carries the version it expects, so two timers racing apply it once.
    Returns how many events were appended.
    """
    state = load_tournament(tournament_id).state
    if level is not None and state.clock.level != level:
        return 0
    if clock_version is not None and state.clock.version != clock_version:
        return 0
    if state.status == domain.REGISTERING:
        return _start_when_scheduled(tournament_id, state)
    appended = 0
    for command in domain.due_clock_commands(state, clock.now()):
        events, _ = execute(tournament_id, command)
        appended += len(events)
    return appended


def _start_when_scheduled(tournament_id: int, state: TournamentState) -> int:
    """TREG-5: at the lobby time the event starts by itself (one reserve table, as the
    director's default), or, with too few entries (TREG-3), records the missed start once
    and waits for the director. Returns how many events were appended."""
    due = domain.scheduled_start_due(state, clock.now())
    if due == "start":
        before = load_tournament(tournament_id).version
        start_tournament(tournament_id=tournament_id)
        return load_tournament(tournament_id).version - before
    if due == "missed":
        events, _ = execute(tournament_id, domain.MissScheduledStart())
        return len(events)
    return 0


def _next_timer(state: TournamentState) -> datetime | None:
    """When the clock next has something to do."""
    if state.status == domain.REGISTERING:
        return None if state.start_missed else state.scheduled_start
    c = state.clock
    moments = [c.level_ends_at, c.break_ends_at, domain.next_break_at(state)]
    until = state.config.late_reg_until
    if state.late_reg_open and until is not None:
        from tournaments.domain.config import parse_time

        moments.append(parse_time(until))
    due = [m for m in moments if m is not None]
    return min(due) if due else None


def _clock_key(state: TournamentState) -> tuple[Any, ...]:
    """What a timer depends on: a new timer is needed only when it changes."""
    return (state.status, state.clock.level, state.clock.version, _next_timer(state))


def _schedule_clock(tournament_id: int, state: TournamentState) -> None:
    """After commit: an ETA task at the next clock moment, carrying the level and clock
    version it expects (a beat sweep catches a lost one)."""
    scheduled = state.status == domain.REGISTERING
    if not scheduled and (state.status != domain.RUNNING or state.clock.level == 0):
        return
    at = _next_timer(state)
    if at is None:
        return
    level, version = state.clock.level, state.clock.version

    def schedule() -> None:
        from casino.celery import queue_timer

        queue_timer("tournaments.clock_timer", (tournament_id, level, version), at)

    # robust: a broker that is down must not turn the committed write into an error; the
    # beat sweep does the timer's work anyway.
    transaction.on_commit(schedule, robust=True)


# --- the tables ----------------------------------------------------------------------------------


def _seat_at(table_id: int, player_id: int) -> int:
    """The player's seat at the physical table.

    Raises:
        DomainError ``player_not_at_table`` (TSEAT-2): the table and the tournament disagree
            (the whole command rolls back rather than lose chips).
    """
    table = table_services.load_table(table_id).state
    assert table is not None
    seat = table.seat_of(player_id)
    if seat is None:
        raise DomainError(
            "player_not_at_table",
            "The tournament places this player at a table where he does not sit.",
            rule="TSEAT-2",
            player_id=player_id,
            table_id=table_id,
        )
    return seat.seat


def _apply_to_tables(
    tournament_id: int,
    before: TournamentState,
    after: TournamentState,
    events: Iterable[DomainEvent],
) -> None:
    """Carry the tournament's decisions to the physical tables (their own streams), in
    order; tables out of play close once late registration is over."""
    reinstated: dict[int, PlayerReinstated] = {}
    for event in events:
        match event:
            case TournamentStarted(seats=seats):
                stack = after.config.starting_stack
                for a in seats:
                    table_services.seat_entrant(
                        table_id=a.table_id,
                        seat=a.seat,
                        player_id=a.player_id,
                        stack=stack,
                        reason="draw",
                    )
            case LateEntrySeated():
                table_services.seat_entrant(
                    table_id=event.table_id,
                    seat=event.seat,
                    player_id=event.player_id,
                    stack=event.stack,
                    reason="late_entry",
                    wait_for_big_blind=event.wait_for_big_blind,
                )
            case PlayerReinstated():
                reinstated[event.player_id] = event  # seated with the rebuy's chips, next
            case RebuyTaken() if event.player_id in reinstated:
                back = reinstated.pop(event.player_id)
                table_services.seat_entrant(
                    table_id=back.table_id,
                    seat=back.seat,
                    player_id=event.player_id,
                    stack=event.chips,
                    reason="rebuy",
                    wait_for_big_blind=back.wait_for_big_blind,
                )
            case RebuyTaken() | AddOnTaken():
                player = after.players[event.player_id]
                assert player.table_id is not None
                table_services.add_entrant_chips(
                    table_id=player.table_id,
                    seat=_seat_at(player.table_id, event.player_id),
                    chips=event.chips,
                    reason="rebuy" if isinstance(event, RebuyTaken) else "add_on",
                )
            case PlayerEliminated():
                table_services.unseat_entrant(
                    table_id=event.table_id,
                    seat=_seat_at(event.table_id, event.player_id),
                    reason="eliminated",
                )
            case PlayerMoved():
                chips = table_services.unseat_entrant(
                    table_id=event.from_table, seat=event.from_seat, reason=event.reason
                )
                table_services.seat_entrant(
                    table_id=event.to_table,
                    seat=event.to_seat,
                    player_id=event.player_id,
                    stack=chips,
                    reason=event.reason,
                    wait_for_big_blind=event.wait_for_big_blind,
                )
            case FinalTableRedrawn():
                _redraw_final_table(before, event)
            case MatchSeated():
                _seat_match(event)
            case SatelliteSeatWon():
                award_satellite_seats(satellite_id=tournament_id, event=event)
            case TournamentCancelled():
                for share in event.shares:  # CXL-3: seats and T-Money come back as T-Money
                    if share.t_money:
                        _t_money(share.player_id, satellites.Credit(
                            share.t_money, f"tournament {tournament_id} cancelled"
                        ))  # fmt: skip
                _clear_the_tables(tournament_id, after, lambda _: "cancelled")
            case TournamentFinished():
                first = frozenset(r.player_id for r in domain.winners(after))

                def reason(player_id: int, first: frozenset[int] = first) -> str:
                    return "winner" if player_id in first else "deal"  # ELIM-1: ties too

                _clear_the_tables(tournament_id, after, reason)
            case PlayerDisqualified(table_id=table_id) if table_id is not None:
                table_services.unseat_entrant(  # his chips leave play (PEN-2)
                    table_id=table_id, seat=_seat_at(table_id, event.player_id),
                    reason="disqualified",
                )  # fmt: skip
            case ChipRaceRun():
                for ps in event.stacks:  # CR-2..5: the coloured-up stacks, between hands
                    if ps.final_stack == ps.starting_stack:
                        continue
                    seat = _seat_at(event.table_id, ps.player_id)
                    table_services.unseat_entrant(
                        table_id=event.table_id, seat=seat, reason="chip_race"
                    )
                    table_services.seat_entrant(
                        table_id=event.table_id, seat=seat, player_id=ps.player_id,
                        stack=ps.final_stack, reason="chip_race",
                    )  # fmt: skip
    if not after.late_reg_open and after.status != domain.REGISTERING:
        _close_tables_out_of_play(tournament_id, after)


def _clear_the_tables(
    tournament_id: int, state: TournamentState, reason_for: Callable[[int], str]
) -> None:
    """The tournament is over: finished (ELIM-1, or a deal ended it, DEAL-7) or cancelled
    (CXL-2..9). Every player still seated (the winner, everyone in a deal, everyone when it
    is cancelled) leaves his seat with his chips (``reason_for(player_id)``), and the
    tournament's tables still open close."""
    from tables.models import TableView

    for player in state.players.values():
        if player.table_id is not None and player.seat is not None:
            table_services.unseat_entrant(
                table_id=player.table_id,
                seat=_seat_at(player.table_id, player.player_id),
                reason=reason_for(player.player_id),
            )
    still_open = TableView.objects.filter(tournament_id=tournament_id, status="open")
    for table_id in still_open.values_list("table_id", flat=True):
        table_services.close_tournament_table(table_id=table_id, reason="tournament over")


def _close_tables_out_of_play(tournament_id: int, state: TournamentState) -> None:
    """Close the tournament's tables that are empty and out of play: broken tables
    (TSEAT-4, TSEAT-8) and unused reserve ones. While late registration is open they stay
    open: a late entry may bring a broken or reserve table back into play."""
    from tables.models import TableView

    idle = TableView.objects.filter(tournament_id=tournament_id, status="open").exclude(
        table_id__in=list(state.tables)
    )
    for table_id in idle.values_list("table_id", flat=True):
        table_services.close_tournament_table(table_id=table_id, reason="out of play")


def _seat_match(event: MatchSeated) -> None:
    """A heads-up match (HU-1): each player leaves the seat he holds (his chips go back:
    every match starts even) and takes his seat at the match's table with the fresh stack."""
    players = {a.player_id for a in event.seats}
    for table_id in (event.table_id, *event.released):
        table = table_services.load_table(table_id).state
        assert table is not None
        for seat in table.seats:
            if seat.player_id in players:
                table_services.unseat_entrant(table_id=table_id, seat=seat.seat, reason="match")
    for a in event.seats:
        table_services.seat_entrant(
            table_id=a.table_id, seat=a.seat, player_id=a.player_id, stack=event.stack,
            reason="match",
        )  # fmt: skip


def _redraw_final_table(before: TournamentState, event: FinalTableRedrawn) -> None:
    """Every remaining player leaves his seat with his chips and takes the seat drawn at
    the final table (TSEAT-8); the final table starts a new game with the drawn button."""
    chips: dict[int, int] = {}
    for table_id in before.tables:
        table = table_services.load_table(table_id).state
        assert table is not None
        for seat in table.seats:
            if seat.stack > 0:
                chips[seat.player_id] = table_services.unseat_entrant(
                    table_id=table_id, seat=seat.seat, reason="final_table"
                )
    for a in event.seats:
        table_services.seat_entrant(
            table_id=a.table_id,
            seat=a.seat,
            player_id=a.player_id,
            stack=chips[a.player_id],
            reason="final_table",
        )


class TournamentTables:
    """The tournament side of :mod:`tables.tournament_hooks`, installed at start-up."""

    def correct_hand_stacks(
        self, *, tournament_id: int, table_id: int, hand_id: str, adjustments: dict[int, int]
    ) -> None:
        command = domain.CorrectHandStacks(table_id, hand_id, tuple(sorted(adjustments.items())))
        execute(tournament_id, command)

    def killed_hands(self, *, tournament_id: int, table_id: int) -> tuple[int, ...]:
        state = load_tournament(tournament_id).state
        return domain.hand_permission(state, table_id).killed_hands

    def break_started_since(self, *, tournament_id: int, since: datetime) -> bool:
        return any(
            isinstance(r.event, BreakStarted) and r.recorded_at >= since
            for r in store.read_stream(tournament_stream(tournament_id))
        )

    def check_may_deal(self, *, tournament_id: int, table_id: int) -> None:
        state = load_tournament(tournament_id).state
        domain.check_may_deal(state, table_id)

    def drawn_button(self, *, tournament_id: int, table_id: int) -> int | None:
        info = load_tournament(tournament_id).state.tables.get(table_id)
        return None if info is None else info.button_seat

    def table_hand_started(
        self,
        *,
        tournament_id: int,
        table_id: int,
        hand_number: int,
        button_seat: int,
        small_blind_seat: int | None,
        big_blind_seat: int | None,
    ) -> Stakes:
        command = domain.StartTableHand(
            table_id, hand_number, button_seat, small_blind_seat, big_blind_seat
        )
        events, _ = execute(tournament_id, command)
        started = next(e for e in events if isinstance(e, TableHandStarted))
        ante_type = TABLE_ANTE_TYPES.get(started.ante_type, started.ante_type)
        return Stakes(started.small_blind, started.big_blind, started.ante, ante_type)

    def hand_finished(
        self,
        *,
        tournament_id: int,
        table_id: int,
        hand_id: str,
        hand_number: int,
        starting_stacks: dict[int, int],
        final_stacks: dict[int, int],
        voided: bool = False,
    ) -> None:
        if voided:  # redealt: the tournament only learns the table is free again
            execute(tournament_id, domain.RecordHandResult(
                table_id, hand_number, starting_stacks, final_stacks, _seed(), voided=True,
            ))  # fmt: skip
            return
        command = domain.RecordHandResult(
            table_id, hand_number, starting_stacks, final_stacks, _seed(),
            knockouts=_knockouts(hand_id, final_stacks),
            conduct_flags=_conduct_flags(hand_id),
            best_hands=_best_hands(hand_id, final_stacks),
            absent=_absent_players(hand_id),
        )  # fmt: skip
        execute(tournament_id, command)


def _read_showdown(
    hand_id: str,
) -> tuple[Any, list[str], list[tuple[int, str]], dict[int, list[str]]]:
    """The hand's start event, its board (first run), river actions and shown cards."""
    from tables.events import ActionTaken, BoardDealt, CardsShown, HandStarted
    from tables.services import hand_stream

    started = None
    board: list[str] = []
    river: list[tuple[int, str]] = []
    shown: dict[int, list[str]] = {}
    street = "preflop"
    for recorded in store.read_stream(hand_stream(hand_id)):
        e = recorded.event
        if isinstance(e, HandStarted):
            started = e
        elif isinstance(e, BoardDealt) and e.run == 1:
            street = e.street
            board += [e.cards[i : i + 2] for i in range(0, len(e.cards), 2)]
        elif isinstance(e, ActionTaken) and street == "river":
            river.append((e.seat, e.action))
        elif isinstance(e, CardsShown):
            shown[e.seat] = [e.cards[i : i + 2] for i in range(0, len(e.cards), 2)]
    return started, board, river, shown


def _absent_players(hand_id: str) -> tuple[int, ...]:
    """The players ruled absent at the deal of the hand (SEAT-13), for HU-4."""
    from tables.events import HandStarted
    from tables.ruling_events import AbsenceRuled

    seats: dict[int, int] = {}
    absent: list[int] = []
    for recorded in store.read_stream(table_services.hand_stream(hand_id)):
        e = recorded.event
        if isinstance(e, HandStarted):
            seats = {s.seat: int(s.player_id) for s in e.seats}
        elif isinstance(e, AbsenceRuled) and e.seat in seats:
            absent.append(seats[e.seat])
    return tuple(absent)


def _best_hands(hand_id: str, final_stacks: dict[int, int]) -> tuple[int, ...]:
    """ELIM-3 through the dealer API: the busted players who showed their cards, best
    hand first (hold'em, phevaluator; lower rank is better), for the remainder of tied
    busts. Empty when fewer than two busted players showed."""
    busted = {pid for pid, chips in final_stacks.items() if chips == 0}
    if len(busted) < 2:
        return ()
    from phevaluator import evaluate_cards

    started, board, _, shown = _read_showdown(hand_id)
    if started is None or len(board) != 5:
        return ()
    player = {x.seat: int(x.player_id) for x in started.seats}
    ranked = sorted(
        (evaluate_cards(*board, *cards), player[seat])
        for seat, cards in shown.items()
        if player.get(seat) in busted and len(cards) == 2
    )
    return tuple(pid for _, pid in ranked) if len(ranked) >= 2 else ()


def _conduct_flags(hand_id: str) -> tuple[tuple[int, str, str], ...]:
    """What the system sees in the hand's events: PEN-8, every action the dealer recorded
    as out of turn (``tables.OutOfTurnRecorded``); PEN-10, a player in last position on the
    river who checked or only called with the nuts (his cards shown, hold'em)."""
    from tables.ruling_events import OutOfTurnRecorded
    from tables.services import hand_stream

    started, board, river, shown = _read_showdown(hand_id)
    if started is None:
        return ()
    player = {x.seat: int(x.player_id) for x in started.seats}
    flags = [
        (player[e.seat], "out_of_turn", f"{e.action} out of turn (seat {e.to_act} was to act)")
        for e in (r.event for r in store.read_stream(hand_stream(hand_id)))
        if isinstance(e, OutOfTurnRecorded) and e.seat in player
    ]
    if getattr(started, "game", "NLH") in ("NLH", "nlh"):
        seat = penalties.checked_nuts_on_river(board, river, shown)
        if seat is not None:
            flags.append((player[seat], "checked_nuts_on_river", f"board {''.join(board)}"))
    return tuple(flags)


def _knockouts(hand_id: str, final_stacks: dict[int, int]) -> dict[int, tuple[int, ...]]:
    """For each player who lost his last chips: the winners of the pot he was all-in in
    (BNTY-2), earliest position clockwise from the button first (BNTY-4)."""
    busted = [pid for pid, chips in final_stacks.items() if chips == 0]
    if not busted:
        return {}
    from tables.events import HandSettled, HandStarted
    from tables.services import hand_stream

    started = settled = None
    for recorded in store.read_stream(hand_stream(hand_id)):
        if isinstance(recorded.event, HandStarted):
            started = recorded.event
        elif isinstance(recorded.event, HandSettled):
            settled = recorded.event
    if started is None or settled is None:
        return {}
    player = {s.seat: int(s.player_id) for s in started.seats}
    button = started.button_seat

    def order(seats: Iterable[int]) -> list[int]:
        return [player[x] for x in sorted(seats, key=lambda seat: (seat - button - 1) % 100)]

    pots = [
        (p.index, [player[x] for x in p.eligible_seats], order(w.seat for w in p.winners))
        for p in settled.pots
    ]
    return {pid: bounties.relevant_pot_winners(pots, pid) for pid in busted}


def install() -> None:
    """Let tournament tables ask this service (``TournamentsConfig.ready``)."""
    tournament_hooks.register(TournamentTables())
