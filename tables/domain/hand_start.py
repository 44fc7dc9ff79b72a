"""Dealing a hand in (:class:`StartHand` -> :class:`HandStarted`): the game, stakes and
configuration (BET-4, BET-8, SEAT-7, RAKE-1, MIS-1), the seats dealt in (SEAT-3, SEAT-4,
SEAT-8, SEAT-12), placed and owed blinds (SEAT-5, SEAT-10, SEAT-16) and straddles
(SEAT-18..20). Refusal codes: the docstring of :mod:`tables.domain.hand`.
"""

from __future__ import annotations

from tables.domain.commands import (
    StartHand,
)
from tables.domain.errors import HandRuleViolation
from tables.domain.hand_state import (
    ANTE_TYPES,
    GAMES,
    MIN_RAISE_RULES,
    MODES,
)
from tables.domain.seating import (
    MAX_SEATS,
    acting_order,
    blind_seats,
    forced_bets,
    straddle_amounts,
    straddle_chain,
)
from tables.events import (
    HandStarted,
    SeatInHand,
)


def decide_start(cmd: StartHand) -> HandStarted:
    seats = sorted(cmd.seats, key=lambda s: s.seat)
    numbers = [s.seat for s in seats]
    if not 2 <= len(seats) <= MAX_SEATS:
        raise HandRuleViolation(
            "wrong_player_count",
            "SEAT-3",
            "A hand needs 2 to 10 players.",
            player_count=len(seats),
        )
    if len(set(numbers)) != len(numbers) or numbers[0] < 1 or numbers[-1] > MAX_SEATS:
        raise HandRuleViolation(
            "invalid_seat", "SEAT-3", "Seats are 1..10, each dealt in once.", seats=numbers
        )
    if len({s.player_id for s in seats}) != len(seats):
        raise HandRuleViolation(
            "duplicate_player", "SEAT-3", "A player is dealt in twice.", seats=numbers
        )
    for s in seats:
        if s.stack <= 0:
            raise HandRuleViolation(
                "seat_has_no_chips",
                "SEAT-8",
                "A seat without chips cannot be dealt in.",
                seat=s.seat,
            )
    if not 1 <= cmd.button_seat <= MAX_SEATS:
        raise HandRuleViolation(
            "invalid_button",
            "SEAT-4",
            "The button must be on seat 1..10.",
            button_seat=cmd.button_seat,
        )
    if cmd.game not in GAMES:
        raise HandRuleViolation("unsupported_game", "BET-4", "Games: NLH, PLO, FLH.", game=cmd.game)
    if (
        cmd.big_blind <= 0
        or not 0 <= cmd.small_blind <= cmd.big_blind
        or cmd.ante < 0
        or cmd.ante_type not in ANTE_TYPES
        or (cmd.ante_type == "none") != (cmd.ante == 0)
    ):
        raise HandRuleViolation(
            "invalid_stakes",
            "SEAT-7",
            "Blinds must be 0 <= small <= big, big > 0; an ante needs an ante type.",
            small_blind=cmd.small_blind,
            big_blind=cmd.big_blind,
            ante=cmd.ante,
            ante_type=cmd.ante_type,
        )
    if cmd.min_raise_rule not in MIN_RAISE_RULES or cmd.mode not in MODES:
        raise HandRuleViolation(
            "invalid_config",
            "BET-8",
            "Unknown minimum-raise rule or table mode.",
            min_raise_rule=cmd.min_raise_rule,
            mode=cmd.mode,
        )
    if not 0 <= cmd.rake_percent_bp <= 10_000 or cmd.rake_cap < 0:
        raise HandRuleViolation(
            "invalid_rake",
            "RAKE-1",
            "Rake is 0..10000 basis points with a cap >= 0.",
            rake_percent_bp=cmd.rake_percent_bp,
            rake_cap=cmd.rake_cap,
        )
    if cmd.misdeal_action_threshold < 1:
        raise HandRuleViolation(
            "invalid_config",
            "MIS-1",
            "The misdeal action threshold is at least 1.",
            misdeal_action_threshold=cmd.misdeal_action_threshold,
        )
    _check_blinds(cmd, seats)
    if cmd.straddles:
        _check_straddles(cmd, seats)
    posts = forced_bets(
        cmd.button_seat,
        seats,
        small_blind=cmd.small_blind,
        big_blind=cmd.big_blind,
        ante=cmd.ante,
        ante_type=cmd.ante_type,
        straddles=cmd.straddles,
        small_blind_seat=cmd.small_blind_seat,
        big_blind_seat=cmd.big_blind_seat,
        dead_small_blinds=cmd.dead_small_blinds,
        posted_big_blinds=cmd.posted_big_blinds,
        posted_small_blinds=cmd.posted_small_blinds,
    )
    return HandStarted(
        hand_id=cmd.hand_id,
        table_id=cmd.table_id,
        hand_number=cmd.hand_number,
        button_seat=cmd.button_seat,
        game=cmd.game,
        small_blind=cmd.small_blind,
        big_blind=cmd.big_blind,
        ante=cmd.ante,
        ante_type=cmd.ante_type,
        min_raise_rule=cmd.min_raise_rule,
        rake_percent_bp=cmd.rake_percent_bp,
        rake_cap=cmd.rake_cap,
        no_flop_no_drop=cmd.no_flop_no_drop,
        seats=tuple(seats),
        posts=posts,
        mode=cmd.mode,
        misdeal_action_threshold=cmd.misdeal_action_threshold,
        misdeal_counts_passive_actions=cmd.misdeal_counts_passive_actions,
        misdeal_allowed_after_flop=cmd.misdeal_allowed_after_flop,
        small_blind_seat=cmd.small_blind_seat if cmd.big_blind_seat is not None else None,
        big_blind_seat=cmd.big_blind_seat,
        limit_cap_lifted_heads_up=cmd.limit_cap_lifted_heads_up,
        all_in_face_up=cmd.all_in_face_up,
    )


def _check_blinds(cmd: StartHand, seats: list[SeatInHand]) -> None:
    """Placed blinds (SEAT-5, SEAT-7, SEAT-10) and owed blinds (SEAT-15, SEAT-16)."""
    numbers = [s.seat for s in seats]
    order = acting_order(cmd.button_seat, numbers)
    heads_up = len(order) == 2
    if cmd.big_blind_seat is None:
        if cmd.small_blind_seat is not None:
            raise HandRuleViolation(
                "invalid_blind_seat",
                "SEAT-5",
                "Placing the small blind needs the big blind's seat too.",
                small_blind_seat=cmd.small_blind_seat,
            )
    else:
        bb, sb = cmd.big_blind_seat, cmd.small_blind_seat
        if bb not in numbers or (sb is not None and (sb not in numbers or sb == bb)):
            raise HandRuleViolation(
                "invalid_blind_seat",
                "SEAT-5",
                "The blinds must be two different seats dealt in (no small blind: dead).",
                small_blind_seat=sb,
                big_blind_seat=bb,
            )
        if heads_up and sb != cmd.button_seat:
            raise HandRuleViolation(
                "invalid_blind_seat",
                "SEAT-10",
                "Heads-up the button posts the small blind and the other seat the big blind.",
                button_seat=cmd.button_seat,
                small_blind_seat=sb,
                big_blind_seat=bb,
            )
        bb_index = order.index(bb)
        if not heads_up and (
            bb == cmd.button_seat
            or sb == cmd.button_seat
            or (sb is not None and order.index(sb) != bb_index - 1)
        ):
            raise HandRuleViolation(
                "blinds_out_of_order",
                "SEAT-7",
                "The small blind is the seat dealt in just before the big blind, and neither"
                " blind is the button.",
                button_seat=cmd.button_seat,
                small_blind_seat=sb,
                big_blind_seat=bb,
            )
    owed = (
        ("dead_small_blinds", cmd.dead_small_blinds),
        ("posted_big_blinds", cmd.posted_big_blinds),
        ("posted_small_blinds", cmd.posted_small_blinds),
    )
    if not any(posting for _, posting in owed):
        return
    sb_seat, bb_seat = blind_seats(cmd.button_seat, order, cmd.small_blind_seat, cmd.big_blind_seat)
    for name, posting in owed:
        for seat in posting:
            if seat not in numbers:
                raise HandRuleViolation(
                    "seat_not_in_hand", "SEAT-12", f"Seat {seat} is not dealt in.", seat=seat
                )
        if heads_up or len(set(posting)) != len(posting) or {sb_seat, bb_seat} & set(posting):
            raise HandRuleViolation(
                "invalid_post",
                "SEAT-16",
                "Owed blinds are posted once each, by seats other than the blinds, and not"
                " heads-up.",
                **{name: list(posting)},
            )


def _check_straddles(cmd: StartHand, seats: list[SeatInHand]) -> None:
    """SEAT-18..20: cash only, the UTG chain up to the button, each posted in full."""
    if cmd.mode == "tournament":
        raise HandRuleViolation(
            "straddle_not_allowed",
            "SEAT-18",
            "Straddles are allowed in cash games only.",
            mode=cmd.mode,
            straddles=list(cmd.straddles),
        )
    if len(seats) == 2:
        raise HandRuleViolation(
            "straddle_not_allowed",
            "SEAT-18",
            "Heads-up nobody may straddle: the seat left of the big blind is the button,"
            " who posts the small blind.",
            player_count=2,
            straddles=list(cmd.straddles),
        )
    live_posters = set(cmd.posted_big_blinds) | set(cmd.posted_small_blinds)
    if live_posters & set(cmd.straddles):
        raise HandRuleViolation(
            "straddle_not_allowed",
            "SEAT-18",
            "A seat posting an owed blind live may not straddle.",
            straddles=list(cmd.straddles),
            seats=sorted(live_posters & set(cmd.straddles)),
        )
    by_seat = {s.seat: s for s in seats}
    chain = straddle_chain(cmd.button_seat, by_seat, cmd.big_blind_seat)
    amounts = straddle_amounts(cmd.big_blind, len(cmd.straddles))
    for i, (seat, amount) in enumerate(zip(cmd.straddles, amounts, strict=True)):
        if seat not in by_seat:
            raise HandRuleViolation(
                "seat_not_in_hand", "SEAT-12", f"Seat {seat} is not dealt in.", seat=seat
            )
        if i >= len(chain):
            raise HandRuleViolation(
                "straddle_past_button",
                "SEAT-19",
                f"The button (seat {cmd.button_seat}) is the last seat that may straddle.",
                seat=seat,
                button_seat=cmd.button_seat,
                straddle_number=i + 1,
            )
        if seat != chain[i]:
            what = "the seat left of the big blind" if i == 0 else "the next seat clockwise"
            raise HandRuleViolation(
                "mississippi_straddle_not_allowed",
                "SEAT-20",
                f"Straddle {i + 1} may only come from {what} (seat {chain[i]}), not seat {seat}.",
                seat=seat,
                expected_seat=chain[i],
                straddle_number=i + 1,
            )
        ante = min(cmd.ante, by_seat[seat].stack) if cmd.ante_type == "per_player" else 0
        if seat in cmd.dead_small_blinds:
            ante = min(ante + cmd.small_blind, by_seat[seat].stack)
        if by_seat[seat].stack - ante < amount:
            raise HandRuleViolation(
                "straddle_exceeds_stack",
                "SEAT-18",
                f"Seat {seat} cannot post the full straddle of {amount}.",
                seat=seat,
                straddle=amount,
                stack=by_seat[seat].stack,
                ante=ante,
            )
