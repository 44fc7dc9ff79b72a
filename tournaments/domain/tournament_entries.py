"""Tournament entries: registration and unregistration (TREG-1/2/4/7/8/9/10/11), the start
with its seat and button draws (SEAT-1/2, TSEAT-1), late registration and re-entry
(TREG-3/14, SEAT-14), bounties placed, rebuys and add-ons (TREG-14/15).

Pure Python, no Django; reached through :func:`tournaments.domain.tournament.decide`.
"""

from __future__ import annotations

import random
from dataclasses import replace
from datetime import datetime

from tournaments.domain import (
    bounties,
    satellites,
    seating,
    standings,
)  # fmt: skip
from tournaments.domain.config import (
    parse_time,
)
from tournaments.domain.events import (
    AddOnTaken,
    BountyPlaced,
    ButtonDraw,
    DrawnCard,
    LateEntrySeated,
    PlayerReEntered,
    PlayerRegistered,
    PlayerReinstated,
    PlayerUnregistered,
    RebuyRequested,
    RebuyTaken,
    SeatAssignment,
    TableAdded,
    TournamentStarted,
    iso,
)
from tournaments.domain.tournament_commands import (
    AddOn,
    LateRegister,
    Rebuy,
    RebuyIfBusted,
    ReEnter,
    Register,
    StartTournament,
    Unregister,
)
from tournaments.domain.tournament_queries import (
    is_headsup,
    late_registration_open,
    tables_due_to_break,
)
from tournaments.domain.tournament_results import (
    draw_bracket,
    settle_after_hand,
)
from tournaments.domain.tournament_rules import (
    Builder,
    check_not_in_hand,
    check_rebuy,
    entry_of,
    level_now,
    player_in_play,
    rebuys_offered,
    rule_error,
)
from tournaments.domain.tournament_state import (
    ELIMINATED,
    PLAYING,
    REGISTERED,
    REGISTERING,
    UNREGISTERED,
    PlayerState,
    TournamentState,
)


def _check_paid_with(paid_with: str) -> None:
    if paid_with not in satellites.PAID_WITH:
        raise rule_error("invalid_payment", "Pay with cash, a satellite seat or T-Money.",
                     rule="TREG-11", paid_with=paid_with)  # fmt: skip


def register_player(b: Builder, cmd: Register, now: datetime) -> None:
    """``Register`` (TREG-7/9/11): one entry per player while registration is open,
    paid in cash, with a satellite seat or T-Money; a bounty placed on him.

    Raises:
        DomainError: ``registration_closed``, ``already_registered``, ``invalid_payment``."""
    s, cfg = b.state, b.state.config
    if s.status != REGISTERING:
        raise rule_error(
            "registration_closed", "The tournament has started: use late registration.",
            rule="TREG-7",
        )  # fmt: skip
    current = s.players.get(cmd.player_id)
    if current is not None and current.status == REGISTERED:
        raise rule_error("already_registered", "One entry per player.", rule="TREG-9")
    _check_paid_with(cmd.paid_with)
    b.emit(PlayerRegistered(
        cmd.player_id, s.next_entry, cfg.buy_in, cfg.fee, cfg.starting_stack, False, iso(now),
        cmd.paid_with,
    ))  # fmt: skip
    _place_bounty(b, cmd.player_id)


def unregister_player(b: Builder, cmd: Unregister, now: datetime) -> None:
    """``Unregister`` (TREG-10): before the start, or before the deadline the
    structure sets.

    Raises:
        DomainError: the unregistration refusals (TREG-10): ``player_not_registered`` for a
            player with no entry (never registered, or withdrawn already),
            ``unregistration_closed`` after the start, the deadline, or in an event that
            allows none."""
    s, cfg = b.state, b.state.config
    p = entry_of(s, cmd.player_id)
    if p.status == UNREGISTERED:  # withdrawn already: he has no entry, as if never registered
        raise rule_error(
            "player_not_registered", "This player has no entry.", rule="TREG-10",
            player_id=cmd.player_id,
        )  # fmt: skip
    if s.status != REGISTERING or p.status != REGISTERED:
        raise rule_error(
            "unregistration_closed", "Only a registered player may withdraw before the start.",
            rule="TREG-10",
        )  # fmt: skip
    deadline = cfg.unregister_deadline
    if not cfg.unregister_allowed or (deadline is not None and now >= parse_time(deadline)):
        raise rule_error(
            "unregistration_closed", "Unregistration is closed for this event.",
            rule="TREG-10", deadline=deadline,
        )  # fmt: skip
    refund = bounties.entry_cost(cfg.buy_in, cfg.fee, cfg.bounty.kind, cfg.bounty.amount)
    refund_as = "cash" if p.paid_with == "cash" else "t_money"  # TREG-11: never cash
    b.emit(PlayerUnregistered(p.player_id, p.entry_number, refund, iso(now), refund_as))


def start_tournament(b: Builder, cmd: StartTournament, now: datetime) -> None:
    """``StartTournament`` (TREG-3, TSEAT-1, SEAT-1/2): the minimum field is met, the
    seat draw and the button draw on the tables given, or a heads-up bracket's draw.

    Raises:
        DomainError: too few entries, too few tables."""
    s, cfg = b.state, b.state.config
    if s.status != REGISTERING:
        raise rule_error("tournament_started", "The tournament has already started.")
    players = sorted(p.player_id for p in s.players.values() if p.status == REGISTERED)
    if len(players) < cfg.minimum_field:
        raise rule_error(
            "field_too_small", f"{cfg.minimum_field} entries are needed to start.",
            rule="TREG-3", entries=len(players), minimum=cfg.minimum_field,
        )  # fmt: skip
    if is_headsup(s):
        draw_bracket(b, cmd, players, now)
        return
    needed = seating.tables_needed(len(players), cfg.table_size)
    table_ids = tuple(cmd.table_ids)
    if len(set(table_ids)) != len(table_ids) or len(table_ids) < needed:
        raise rule_error(
            "not_enough_tables", f"{len(players)} players need {needed} distinct tables.",
            rule="TSEAT-1", entries=len(players), needed=needed,
        )  # fmt: skip
    order = tuple(cmd.break_order) if cmd.break_order is not None else table_ids[::-1]
    if sorted(order) != sorted(table_ids):
        raise rule_error("invalid_break_order", "The break order must list every table once.")
    rng = random.Random(cmd.seed)
    draw = seating.draw_seats(players, table_ids, cfg.table_size, rng)
    by_table: dict[int, list[int]] = {}
    for table_id, seat in draw.values():
        by_table.setdefault(table_id, []).append(seat)
    buttons = []
    for table_id in table_ids[:needed]:
        button, cards = seating.initial_button(by_table[table_id], cfg.initial_button, rng)
        buttons.append(ButtonDraw(
            table_id, button, cfg.initial_button, tuple(DrawnCard(st, c) for st, c in cards)
        ))  # fmt: skip
    seats = tuple(SeatAssignment(pid, t, seat) for pid, (t, seat) in sorted(draw.items()))
    b.emit(TournamentStarted(
        iso(now), table_ids[:needed], table_ids[needed:], order, seats, tuple(buttons)
    ))  # fmt: skip


def _late_entry(b: Builder, player_id: int, entry_number: int, seed: int) -> None:
    rng = random.Random(seed)
    s = b.state
    due = set(tables_due_to_break(s))
    layouts = {t: info.layout(s.config.button_rule) for t, info in s.tables.items() if t not in due}
    placement = seating.late_entry_seat(layouts, player_id, rng,
                                        seat_filter=s.config.broken_table_seat_filter)  # fmt: skip
    if placement is None:
        if not s.reserve_tables:
            raise rule_error("no_table_available", "Every table is full and no table is reserved.")
        new_table = s.reserve_tables[0]
        b.emit(TableAdded(new_table))
        placement = seating.Placement(player_id, new_table, rng.randint(1, s.config.table_size))
    stack = b.state.players[player_id].stack
    b.emit(LateEntrySeated(
        player_id, entry_number, placement.table_id, placement.seat, stack,
        placement.wait_for_big_blind,
    ))  # fmt: skip
    settle_after_hand(b, rng)


def _check_late_open(s: TournamentState, now: datetime) -> None:
    if not late_registration_open(s, now):
        raise rule_error(
            "late_registration_closed", "Late registration is closed.", rule="TREG-7",
            level=s.clock.level,
        )  # fmt: skip


def register_late(b: Builder, cmd: LateRegister, now: datetime) -> None:
    """``LateRegister`` (TREG-7/9, SEAT-14): an entry after the start while late
    registration is open, seated by the entry rule.

    Raises:
        DomainError: ``not_started``, ``late_registration_closed``, ``already_registered``,
            ``use_reentry``."""
    s, cfg = b.state, b.state.config
    if s.status == REGISTERING:
        raise rule_error("not_started", "Register normally before the start.", rule="TREG-7")
    _check_late_open(s, now)
    current = s.players.get(cmd.player_id)
    if current is not None and current.status == PLAYING:
        raise rule_error("already_registered", "One entry per player.", rule="TREG-9")
    if current is not None and current.status == ELIMINATED:
        raise rule_error("use_reentry", "An eliminated player may only re-enter.", rule="TREG-9")
    entry = s.next_entry
    _check_paid_with(cmd.paid_with)
    b.emit(PlayerRegistered(
        cmd.player_id, entry, cfg.buy_in, cfg.fee, cfg.starting_stack, True, iso(now),
        cmd.paid_with,
    ))  # fmt: skip
    _place_bounty(b, cmd.player_id)
    _late_entry(b, cmd.player_id, entry, cmd.seed)


def re_enter(b: Builder, cmd: ReEnter, now: datetime) -> None:
    """``ReEnter`` (TREG-9): an eliminated player buys a new entry while re-entry is open
    and he has re-entries left.

    Raises:
        DomainError: ``reentry_not_allowed``, ``not_eliminated``, ``reentry_closed``,
            ``reentry_limit``."""
    s, cfg = b.state, b.state.config
    rule = cfg.reentry
    if not rule.allowed:  # the event's answer before the player's (found by QA)
        raise rule_error("reentry_not_allowed", "This event has no re-entry.", rule="TREG-9")
    p = entry_of(s, cmd.player_id)
    if p.status != ELIMINATED:
        raise rule_error("not_eliminated", "Only an eliminated player may re-enter.", rule="TREG-9")
    _check_late_open(s, now)
    if rule.until_level is not None and level_now(s) > rule.until_level:
        raise rule_error("reentry_closed", "The re-entry period is over.", rule="TREG-9")
    if rule.max_per_player and p.entries - 1 >= rule.max_per_player:
        raise rule_error(
            "reentry_limit", "No re-entries left for this player.", rule="TREG-9",
            max_per_player=rule.max_per_player,
        )  # fmt: skip
    entry = s.next_entry
    b.emit(PlayerReEntered(p.player_id, entry, rule.price, rule.fee, cfg.reentry_stack, iso(now)))
    _place_bounty(b, p.player_id)
    _late_entry(b, p.player_id, entry, cmd.seed)


def _place_bounty(b: Builder, player_id: int) -> None:
    """A bounty on a new entry's head (BNTY-1; a named player only if he registers, BNTY-6)."""
    rule = b.state.config.bounty
    amount = bounties.place_bounty(rule.kind, rule.amount, rule.players, player_id)
    if amount:
        paid_by = "house" if rule.kind == "fixed" else "entrant"
        entry = b.state.players[player_id].entry_number
        b.emit(BountyPlaced(player_id, entry, amount, paid_by))


def rebuy_if_busted(b: Builder, cmd: RebuyIfBusted, now: datetime) -> None:
    """TREG-14 through the dealer API: during his table's hand a player who may bust asks
    to rebuy; if the hand leaves him with no chips the rebuy is taken before the next deal
    (and he is not eliminated)."""
    s = b.state
    rebuys_offered(s)
    p = player_in_play(s, cmd.player_id, rule="TREG-14")
    assert p.table_id is not None
    if not s.tables[p.table_id].in_hand:
        raise rule_error("no_hand_in_progress", "Between hands a rebuy is taken at once.",
                     rule="TREG-14")  # fmt: skip
    check_rebuy(s, replace(p, stack=0), busted=True)
    if p.player_id not in s.pending_rebuys:
        b.emit(RebuyRequested(p.player_id, p.table_id))


def take_rebuy(b: Builder, cmd: Rebuy, now: datetime) -> None:
    """``Rebuy`` (TREG-14): chips added between hands, at or below the threshold.

    Raises:
        DomainError: the :func:`check_rebuy` refusals, ``hand_in_progress``."""
    s = b.state
    rebuys_offered(s)  # the event's answer before the player's (found by QA)
    if cmd.player_id in s.rebuy_windows:  # busted by his table's last hand
        rebuy_into_seat(b, s.players[cmd.player_id])
        return
    p = player_in_play(s, cmd.player_id, rule="TREG-14")
    check_rebuy(s, p, busted=False)
    check_not_in_hand(s, p)
    r = s.config.rebuy
    b.emit(RebuyTaken(p.player_id, r.price, r.fee, s.config.rebuy_stack, False))


def rebuy_into_seat(b: Builder, p: PlayerState) -> None:
    """TREG-14 after the hand: a player his table's last hand eliminated rebuys before that
    table deals again ("without missing a hand"). His elimination is undone
    (:class:`PlayerReinstated`, the provisional places of the others moved) and he sits in
    his seat again with the rebuy's chips (``RebuyTaken`` ``busted``); the tables are
    balanced again as after an entry.

    When a balancing move gave his seat away he is seated as a late entry is (the
    smallest table; SEAT-14: outside the zone between the button and the big blind, else
    he waits for the big blind).

    Raises:
        DomainError: the :func:`check_rebuy` refusals (the period, his limit);
            ``rebuy_window_closed`` when he finished in the money (his prize is fixed), a
            bounty was paid for him (ask for the rebuy during the hand: ``RebuyIfBusted``),
            or no table has a seat."""
    s = b.state
    table_id, seat = s.rebuy_windows[p.player_id]
    check_rebuy(s, replace(p, stack=0), busted=True)
    mine = next(e for e in reversed(s.eliminations) if e.entry_number == p.entry_number)
    if s.config.bounty.kind != "none":
        raise rule_error(
            "rebuy_window_closed", "His bounty was paid at the knockout: a rebuy in a bounty "
            "event is asked during the hand.", rule="TREG-14", player_id=p.player_id,
        )  # fmt: skip
    if mine.place <= s.places_paid:
        raise rule_error(
            "rebuy_window_closed", "He finished in the money: his prize is fixed.",
            rule="TREG-14", player_id=p.player_id, place=mine.place,
        )  # fmt: skip
    wait = False
    if seat in s.tables[table_id].seats:  # a balancing move filled it: seated as an entry
        due = set(tables_due_to_break(s))
        rule = s.config.button_rule
        layouts = {t: i.layout(rule) for t, i in s.tables.items() if t not in due}
        placement = seating.late_entry_seat(
            layouts, p.player_id, random.Random(p.player_id),
            seat_filter=s.config.broken_table_seat_filter,
        )  # fmt: skip
        if placement is None:
            raise rule_error(
                "rebuy_window_closed", "His seat was given to another player.",
                rule="TREG-14", player_id=p.player_id, table_id=table_id, seat=seat,
            )  # fmt: skip
        table_id, seat, wait = placement.table_id, placement.seat, placement.wait_for_big_blind
    places = standings.places_without(s, mine, s.players_left + 2)
    b.emit(PlayerReinstated(p.player_id, p.entry_number, table_id, seat, places, wait))
    r = s.config.rebuy
    b.emit(RebuyTaken(p.player_id, r.price, r.fee, s.config.rebuy_stack, True))
    settle_after_hand(b, None)  # one more player at his table: balancing (TSEAT-3), as an entry


def take_add_on(b: Builder, cmd: AddOn, now: datetime) -> None:
    """``AddOn`` (CLK-5): the add-on at the configured break or level, between hands.

    Raises:
        DomainError: ``add_on_not_allowed``, ``add_on_closed``, ``add_on_limit``,
            ``hand_in_progress``."""
    s = b.state
    rule = s.config.add_on
    if not rule.allowed:  # the event's answer before the player's (found by QA)
        raise rule_error("add_on_not_allowed", "This event has no add-on.", rule="CLK-5")
    p = player_in_play(s, cmd.player_id, rule="CLK-5")
    if level_now(s) != rule.at_level:
        raise rule_error(
            "add_on_closed", f"Add-ons are taken during level {rule.at_level} and its break.",
            rule="CLK-5", level=s.clock.level, at_level=rule.at_level,
        )  # fmt: skip
    if rule.max_per_player and p.add_ons >= rule.max_per_player:
        raise rule_error("add_on_limit", "No add-ons left for this player.", rule="CLK-5")
    check_not_in_hand(s, p)
    b.emit(AddOnTaken(p.player_id, rule.price, rule.fee, s.config.add_on_stack))
