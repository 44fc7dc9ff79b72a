"""Reading the chips a player pushed: the dealer's and floor's call-or-raise rulings. Pure.

The tablet may send the chips a player put over the line (their denominations, in the
motions he made) and what he said, instead of a total; :func:`read_chips` rules what that
wager is, citing the rule. The result is an ordinary action (check, call, bet or raise to a
street total) that the hand engine then checks for legality, or an *insufficient call*
the player must complete or forfeit.

Rules (catalogue section 6) and their settings (:class:`ChipReadingPolicy`):

* BET-17 (string bet): chips added in more than one motion with no amount announced: only
  the first motion counts (the rest is returned). "Call X and raise Y" is not a valid
  raise: it is a call (``raise_methods_allowed`` off, 000); with it on (BET-18 c, 002),
  "raise" announced then the call and raise in one move is a raise.
* BET-18 (raise methods): all chips in one move, the amount announced first, or "raise"
  announced then the chips in one move.
* BET-19 (forward motion): an uncounted pile pushed forward is a wager of its full sum.
* BET-20 (single chip, nothing announced): facing a bet it is a call; opening it is a bet
  of its value (below the minimum bet: a minimum bet to be completed); the big blind's
  single chip preflop in an unraised pot is a raise (000) or a check (002), setting
  ``bb_single_chip_unraised_is_raise``.
* BET-21 (oversized chip): without "raise" announced it is a call; with "raise" announced
  the whole chip is the raise (pot limit: the largest raise allowed, up to its value).
* BET-22 (several chips of one value): a call if removing one chip would leave less than
  the call, otherwise a raise.
* BET-10 / BET-11 / BET-12 / BET-13 (incomplete raise, mixed chips, nothing announced):
  between a call and a full raise the wager is a raise completed to the minimum, or a call
  (the excess returned), by ``incomplete_raise_base``:

  - ``"last_bet"`` (BET-10): the raise is at least 50 % of the last bet;
  - ``"bet_faced_1_5x"`` (BET-11): the wager is at least 1.5 x the bet faced;
  - ``"min_raise"`` (BET-12): the amount above the call is at least 50 % of the minimum
    raise;
  - ``"previous_raise"`` (BET-13, the default): the raise is at least 50 % of the previous
    raise.
* BET-23 (pot talk): "pot" is an amount only in pot limit (the largest raise); in no limit
  it commits the player to bet but fixes no amount (the amount must be stated).
* BET-24 (caller's duty): "call" announced is a call of the true amount whatever was
  pushed, even after a wrong count.
* BET-27 (insufficient call): less than the call, not all-in and nothing announced: the
  player completes the call or forfeits the chips he put in and folds; he may not raise.

Amounts are chips (tournament) or CZK (cash); ``*_to`` amounts are street totals.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from tables.domain.errors import HandRuleViolation

Announcement = Literal["none", "call", "raise", "pot", "all_in", "call_and_raise"]
RulingKind = Literal["check", "call", "bet", "raise", "insufficient_call"]
IncompleteRaiseBase = Literal["last_bet", "bet_faced_1_5x", "min_raise", "previous_raise"]
INCOMPLETE_RAISE_RULE: dict[str, str] = {
    "last_bet": "BET-10",
    "bet_faced_1_5x": "BET-11",
    "min_raise": "BET-12",
    "previous_raise": "BET-13",
}


@dataclass(frozen=True, slots=True)
class ChipReadingPolicy:
    """The house's choices where the documents differ (catalogue parameters)."""

    incomplete_raise_base: IncompleteRaiseBase = "previous_raise"
    incomplete_raise_threshold_pct: int = 50
    overbet_raise_multiple_pct: int = 150
    bb_single_chip_unraised_is_raise: bool = True
    raise_methods_allowed: bool = False
    """BET-18 c: "raise", then the call and the raise in one move (002). Off: BET-17."""


@dataclass(frozen=True, slots=True)
class BettingSituation:
    """What the player faces on this street.

    ``current_bet``: the highest street total (what a call matches); ``player_bet``: his
    own street total already out; ``stack``: chips behind; ``min_raise_to`` /
    ``max_raise_to``: the legal bet/raise totals (``max_raise_to`` ``None``: no limit);
    ``last_bet``: the size of the street's opening bet (or the big blind preflop);
    ``previous_raise``: the last raise increment (the big blind when nobody raised);
    ``big_blind``: the minimum bet; ``bb_option``: he is the big blind preflop and nobody
    raised.
    """

    current_bet: int
    player_bet: int
    stack: int
    min_raise_to: int
    big_blind: int
    last_bet: int = 0
    previous_raise: int = 0
    max_raise_to: int | None = None
    pot_limit: bool = False
    bb_option: bool = False

    @property
    def to_call(self) -> int:
        return max(0, self.current_bet - self.player_bet)


@dataclass(frozen=True, slots=True)
class ChipRuling:
    """What the wager is. ``amount_to`` is the street total for call/bet/raise;
    ``completed`` says a short raise or bet must be topped up to ``amount_to``;
    ``returned`` is the chips given back (a string bet's later motions, a call's excess);
    ``rule`` the catalogue ID behind it; ``detail`` the sentence for the dealer."""

    kind: RulingKind
    amount_to: int
    rule: str
    detail: str
    completed: bool = False
    returned: int = 0


def read_chips(
    situation: BettingSituation,
    motions: Sequence[Sequence[int]],
    announced: Announcement = "none",
    announced_amount_to: int | None = None,
    policy: ChipReadingPolicy | None = None,
) -> ChipRuling:
    """Rule on chips pushed in ``motions`` (each motion the chip values moved at once).

    Raises:
        HandRuleViolation: ``no_chips`` (BET-19: nothing pushed and nothing announced),
        ``invalid_chip`` (a chip value <= 0), ``amount_required`` (BET-23: "pot" in no
        limit fixes no amount), ``chips_exceed_stack`` (BET-24).
    """
    policy = policy or ChipReadingPolicy()
    s = situation
    if any(c <= 0 for motion in motions for c in motion):
        raise HandRuleViolation("invalid_chip", "BET-19", "Chip values are positive.")
    all_in_to = s.player_bet + s.stack
    if announced_amount_to is not None:  # BET-18 b: the amount announced first
        kind: RulingKind = "bet" if s.current_bet == 0 else "raise"
        if announced_amount_to <= s.current_bet:
            kind = "call" if s.current_bet else "check"
            return ChipRuling(kind, s.current_bet, "BET-15", "The announced amount is a call.")
        return ChipRuling(kind, min(announced_amount_to, all_in_to), "BET-18", "Announced.")
    if announced == "call":
        true_to = min(s.current_bet, all_in_to)
        pushed = sum(sum(m) for m in motions)
        return ChipRuling(
            "call" if s.to_call else "check",
            true_to,
            "BET-24",
            "A call is the true amount, whatever was counted or pushed.",
            returned=max(0, pushed - (true_to - s.player_bet)),
        )
    if announced == "all_in":
        kind = "call" if all_in_to <= s.current_bet else ("bet" if not s.current_bet else "raise")
        return ChipRuling(kind, all_in_to, "BET-15", "All-in is binding.")
    if announced == "pot":
        if not s.pot_limit or s.max_raise_to is None:
            raise HandRuleViolation(
                "amount_required",
                "BET-23",
                '"Pot" is an amount only in pot limit: the player must bet, with an amount.',
            )
        kind = "bet" if not s.current_bet else "raise"
        return ChipRuling(kind, min(s.max_raise_to, all_in_to), "BET-23", "Pot-limit pot bet.")

    first, rest = (list(motions[0]) if motions else []), [c for m in motions[1:] for c in m]
    string_bet = bool(rest) and announced != "raise"
    counted = first if string_bet else first + rest
    if string_bet:
        ruling = _read_one_motion(s, counted, announced, policy)
        extra = sum(rest)
        return ChipRuling(
            ruling.kind,
            ruling.amount_to,
            "BET-17",
            f"String bet: only the first motion counts ({ruling.kind}); {extra} returned.",
            completed=ruling.completed,
            returned=ruling.returned + extra,
        )
    if announced == "call_and_raise":
        if not policy.raise_methods_allowed:
            ruling = _call(s, sum(counted))
            return ChipRuling(
                ruling.kind,
                ruling.amount_to,
                "BET-17",
                '"Call X and raise Y" is not a valid raise: it is a call.',
                returned=ruling.returned,
            )
        announced = "raise"  # BET-18 c
    return _read_one_motion(s, counted, announced, policy)


def _read_one_motion(
    s: BettingSituation, chips: list[int], announced: Announcement, policy: ChipReadingPolicy
) -> ChipRuling:
    pushed = sum(chips)
    if not chips:
        if s.to_call == 0:
            return ChipRuling("check", s.current_bet, "BET-16", "Nothing pushed: a check.")
        raise HandRuleViolation("no_chips", "BET-19", "No chips were pushed.")
    if pushed > s.stack:
        raise HandRuleViolation(
            "chips_exceed_stack", "BI-6", "More chips than the stack.", stack=s.stack
        )
    all_in_to = s.player_bet + s.stack
    total = s.player_bet + pushed
    if announced == "raise":
        return _announced_raise(s, chips, total, all_in_to)
    if len(chips) == 1:
        return _single_chip(s, chips[0], total, all_in_to, policy)
    if s.current_bet and len(set(chips)) == 1 and total > s.current_bet:
        # BET-22: a call if removing one chip leaves less than the call
        if pushed - chips[0] < s.to_call:
            return _call(
                s, pushed, rule="BET-22", why="removing one chip leaves less than the call"
            )
        return _raise_or_complete(s, total, all_in_to, "BET-22", "several chips of one value")
    if s.current_bet == 0:
        if total >= s.min_raise_to or total == all_in_to:
            return ChipRuling("bet", total, "BET-19", "Chips pushed forward: a bet of their sum.")
        return ChipRuling(
            "bet", s.min_raise_to, "BET-3", "Below the minimum bet: completed.", completed=True
        )
    if total < s.current_bet:
        if total == all_in_to:
            return ChipRuling("call", total, "BET-19", "All-in for less than the call.")
        return ChipRuling(
            "insufficient_call",
            s.current_bet,
            "BET-27",
            "Short of the call: complete the call or forfeit the chips and fold; no raise.",
        )
    if total == s.current_bet:
        return ChipRuling("call", total, "BET-19", "The chips pushed match the call.")
    if total >= s.min_raise_to or total == all_in_to:
        return ChipRuling("raise", total, "BET-19", "Chips pushed forward: a raise of their sum.")
    return _incomplete_raise(s, total, all_in_to, policy)


def _call(
    s: BettingSituation, pushed: int, rule: str = "BET-20", why: str = "a single chip"
) -> ChipRuling:
    if s.to_call == 0:
        return ChipRuling("check", s.current_bet, rule, f"No bet to call: {why} is a check.",
                          returned=pushed)  # fmt: skip
    call_to = min(s.current_bet, s.player_bet + s.stack)
    return ChipRuling(
        "call",
        call_to,
        rule,
        f"A call: {why}; the excess is returned.",
        returned=max(0, pushed - (call_to - s.player_bet)),
    )


def _raise_or_complete(
    s: BettingSituation, total: int, all_in_to: int, rule: str, why: str
) -> ChipRuling:
    if total >= s.min_raise_to or total == all_in_to:
        return ChipRuling("raise", total, rule, f"A raise to {total}: {why}.")
    return ChipRuling(
        "raise",
        min(s.min_raise_to, all_in_to),
        rule,
        f"A raise ({why}), completed to the minimum.",
        completed=True,
    )


def _announced_raise(
    s: BettingSituation, chips: list[int], total: int, all_in_to: int
) -> ChipRuling:
    """BET-18 c / BET-21: "raise" announced, then the chips in one move."""
    if s.current_bet == 0:
        short = total < s.min_raise_to and total < all_in_to
        return ChipRuling(
            "bet",
            min(s.min_raise_to, all_in_to) if short else total,
            "BET-18",
            "A bet (announced), at least the minimum bet.",
            completed=short,
        )
    rule = "BET-21" if len(chips) == 1 else "BET-18"
    if s.pot_limit and s.max_raise_to is not None and total > s.max_raise_to:
        return ChipRuling(
            "raise",
            s.max_raise_to,
            rule,
            "Pot limit: the largest raise allowed, up to the chip's value.",
            returned=total - s.max_raise_to,
        )
    return _raise_or_complete(s, total, all_in_to, rule, '"raise" announced')


def _single_chip(
    s: BettingSituation, chip: int, total: int, all_in_to: int, policy: ChipReadingPolicy
) -> ChipRuling:
    """BET-20 / BET-21: one chip, nothing announced."""
    if s.bb_option:  # the big blind preflop, nobody raised
        if policy.bb_single_chip_unraised_is_raise:
            return _raise_or_complete(s, total, all_in_to, "BET-20", "the big blind's chip")
        return ChipRuling("check", s.current_bet, "BET-21", "The big blind's chip is a check.",
                          returned=chip)  # fmt: skip
    if s.current_bet:
        rule = "BET-21" if chip > s.to_call else "BET-20"
        if total < s.current_bet:
            if total == all_in_to:
                return ChipRuling("call", total, rule, "All-in for less than the call.")
            return ChipRuling(
                "insufficient_call",
                s.current_bet,
                "BET-27",
                "Short of the call: complete the call or forfeit the chips and fold.",
            )
        return _call(s, chip, rule=rule, why="a single chip without announcing a raise")
    if total >= s.min_raise_to or total == all_in_to:
        return ChipRuling("bet", total, "BET-21", "A single chip opening: a bet of its value.")
    return ChipRuling(
        "bet",
        min(s.min_raise_to, all_in_to),
        "BET-20",
        "A single chip below the minimum bet: a minimum bet, to be completed.",
        completed=True,
    )


def _incomplete_raise(
    s: BettingSituation, total: int, all_in_to: int, policy: ChipReadingPolicy
) -> ChipRuling:
    """BET-10..13: a wager between a call and a full raise, nothing announced."""
    base = policy.incomplete_raise_base
    rule = INCOMPLETE_RAISE_RULE[base]
    pct = policy.incomplete_raise_threshold_pct
    raise_by = total - s.current_bet
    if base == "last_bet":
        is_raise = raise_by * 100 >= pct * s.last_bet
    elif base == "bet_faced_1_5x":
        is_raise = total * 100 >= policy.overbet_raise_multiple_pct * s.current_bet
    elif base == "min_raise":
        is_raise = raise_by * 100 >= pct * (s.min_raise_to - s.current_bet)
    else:
        is_raise = raise_by * 100 >= pct * s.previous_raise
    if is_raise:
        return ChipRuling(
            "raise",
            min(s.min_raise_to, all_in_to),
            rule,
            "An incomplete raise over the threshold: completed to the minimum raise.",
            completed=True,
        )
    return ChipRuling(
        "call",
        s.current_bet,
        rule,
        "Below the raise threshold: a call; the excess is returned.",
        returned=total - s.current_bet,
    )
