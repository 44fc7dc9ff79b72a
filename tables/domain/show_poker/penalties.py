"""Show poker penalties (SHOW-20..22): sit-outs of N hands with the blinds still paid.
Pure. The sit-out is recorded on the player (:class:`SitOutPenalty`, stream
``player-<id>``); while serving it his blind is posted and he is not dealt in
(:class:`tables.domain.show_poker.game.StartShowHand` ``sitting_out_paying``)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Literal

from tables.domain.errors import HandRuleViolation
from tables.domain.show_poker.events import PenaltyHandServed, SitOutPenalty

Offence = Literal["declare_other_hand", "speech_play", "out_of_turn"]
OotIncrement = Literal["repeat", "escalating"]


def sit_out_hands(
    offence: Offence,
    occurrence: int,
    *,
    players_in_pot: int = 3,
    oot_increment: OotIncrement = "repeat",
) -> tuple[int, str]:
    """Minimum sit-out (hands) for the ``occurrence``-th offence (1 = first), and the rule.

    * declaring another player's hand: 2 hands the first time, 8 after (SHOW-20);
    * speech play, only in pots with more than 2 players still in: 1 hand the first time,
      4 after (SHOW-21); in a heads-up pot it is no offence (0);
    * declaring or buying out of turn: a warning (0), then 1 hand, then one more sit-out per
      offence (SHOW-22): ``repeat`` 1 hand each time (default), ``escalating`` one hand more
      each time (the catalogue's open question ``show_oot_penalty_increment``).

    Raises:
        HandRuleViolation: ``invalid_occurrence`` (occurrence < 1).
    """
    if occurrence < 1:
        raise HandRuleViolation("invalid_occurrence", "SHOW-20", "Occurrences count from 1.")
    if offence == "declare_other_hand":
        return (2 if occurrence == 1 else 8), "SHOW-20"
    if offence == "speech_play":
        if players_in_pot <= 2:
            return 0, "SHOW-21"
        return (1 if occurrence == 1 else 4), "SHOW-21"
    if occurrence == 1:
        return 0, "SHOW-22"
    return (1 if oot_increment == "repeat" else occurrence - 1), "SHOW-22"


def penalty_event(
    player_id: str, offence: Offence, occurrence: int, **options: object
) -> SitOutPenalty:
    """The :class:`SitOutPenalty` to record on the player.

    Raises:
        HandRuleViolation: ``not_an_offence`` (SHOW-21: speech play in a heads-up pot is
        allowed, so nothing goes on his record: it was recorded as a warning and counted
        towards his later offences, found by QA); ``invalid_occurrence``.
    """
    if offence == "speech_play" and int(options.get("players_in_pot", 3)) <= 2:  # type: ignore[call-overload]
        raise HandRuleViolation(
            "not_an_offence", "SHOW-21",
            "Speech play is allowed heads-up: only a pot with more than 2 players still in "
            "penalises it.",
        )  # fmt: skip
    hands, rule = sit_out_hands(offence, occurrence, **options)  # type: ignore[arg-type]
    return SitOutPenalty(player_id, offence, occurrence, hands, warning=hands == 0, rule=rule)


def hands_owed(record: Iterable[object]) -> int:
    """Sit-out hands the player still owes: every :class:`SitOutPenalty` on his record
    less the hands served (:class:`PenaltyHandServed`), never below 0 (SHOW-20..22)."""
    owed = served = 0
    for event in record:
        if isinstance(event, SitOutPenalty):
            owed += event.hands
        elif isinstance(event, PenaltyHandServed):
            served += 1
    return max(0, owed - served)
