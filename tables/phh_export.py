"""Export recorded hands as PHH (the inverse of :mod:`tables.phh`; pure, from the events).

:func:`to_phh` turns one hand's events (``HandStarted`` ... ``HandSettled``) into PHH text
that :func:`tables.phh.load_phh` reads back and ``manage.py replay_phh`` replays to the same
finishing stacks (tested on the shared hands). Player order follows :mod:`tables.phh`: ``p1``
is the first seat dealt in after the button, the button is the last player. Hole cards the
dealer never saw are ``????``; a mucked hand is ``sm ????``. Finishing stacks are after rake
(chips, or CZK in cash games). A voided hand or one not yet settled is not exported.
"""

from __future__ import annotations

from collections.abc import Sequence

from casino.domain_events import DomainEvent
from tables.events import (
    ActionTaken,
    BoardDealt,
    CardsMucked,
    CardsShown,
    HandSettled,
    HandStarted,
)

_VARIANT = {"NLH": "NT", "PLO": "PO"}
_HOLE = {"NLH": 2, "PLO": 4}


class NotExportable(ValueError):
    """The hand cannot be written as PHH (not settled, voided, or an unknown game)."""


def _toml_list(values: Sequence[object]) -> str:
    return "[" + ", ".join(repr(v) if isinstance(v, str) else str(v) for v in values) + "]"


def to_phh(events: Sequence[DomainEvent], *, names: dict[str, str] | None = None) -> str:
    """PHH text of one hand from its events, in stream order.

    ``names`` maps a seat's ``player_id`` to the name written (default ``player <id>``).

    Raises:
        NotExportable: no ``HandStarted``, no ``HandSettled``, or a game PHH cannot name.
    """
    started = next((e for e in events if isinstance(e, HandStarted)), None)
    settled = next((e for e in events if isinstance(e, HandSettled)), None)
    if started is None or settled is None:
        raise NotExportable("the hand is not settled")
    if started.game not in _VARIANT:
        raise NotExportable(f"game {started.game!r}")
    seats = sorted(started.seats, key=lambda s: s.seat)
    after = [s for s in seats if s.seat > started.button_seat]
    before = [s for s in seats if s.seat <= started.button_seat]
    order = after + before  # p1 first after the button ... the button (or last seat) last
    p_of = {s.seat: i + 1 for i, s in enumerate(order)}
    count = len(order)

    blinds = [0] * count
    antes = [0] * count
    for post in started.posts:
        index = p_of[post.seat] - 1
        if post.kind == "ante":
            antes[index] = started.ante
        elif post.kind in ("small_blind", "big_blind", "straddle"):
            blinds[index] = post.amount
    if started.ante_type == "per_player":
        antes = [started.ante] * count
    elif started.ante_type == "big_blind":
        antes = [0] * count
        antes[1 if count > 1 else 0] = started.ante
    if not any(blinds):  # posts named otherwise: blinds by position
        blinds[0], blinds[min(1, count - 1)] = started.small_blind, started.big_blind

    hole = "??" * _HOLE[started.game]
    actions = [f"d dh p{p_of[s.seat]} {hole}" for s in order]
    for event in events:
        if isinstance(event, ActionTaken):
            verb = {"fold": "f", "check": "cc", "call": "cc"}.get(event.action)
            line = f"p{p_of[event.seat]} " + (verb or f"cbr {event.amount_to}")
            actions.append(line)
        elif isinstance(event, BoardDealt):
            actions.append(f"d db {event.cards}")
        elif isinstance(event, CardsShown):
            actions.append(f"p{p_of[event.seat]} sm {event.cards}")
        elif isinstance(event, CardsMucked):
            actions.append(f"p{p_of[event.seat]} sm {hole}")
    final = {s.seat: s.stack for s in settled.final_stacks}
    labels = names or {}
    named = [labels.get(s.player_id, f"player {s.player_id}") for s in order]
    lines = [
        f"variant = {_VARIANT[started.game]!r}",
        "ante_trimming_status = true",
        f"antes = {_toml_list(antes)}",
        f"blinds_or_straddles = {_toml_list(blinds)}",
        f"min_bet = {started.big_blind}",
        f"starting_stacks = {_toml_list([s.stack for s in order])}",
        f"actions = {_toml_list(actions)}",
        f"hand = {started.hand_number}",
        f"players = {_toml_list(named)}",
        f"finishing_stacks = {_toml_list([final.get(s.seat, s.stack) for s in order])}",
        f"table = {started.table_id}",
    ]
    return "\n".join(lines) + "\n"
