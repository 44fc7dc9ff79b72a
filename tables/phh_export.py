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


_STARS_GAME = {"NLH": "Hold'em No Limit", "PLO": "Omaha Pot Limit"}
_STREETS = {3: "FLOP", 4: "TURN", 5: "RIVER"}


def _cards(cards: str) -> str:
    return " ".join(cards[i : i + 2] for i in range(0, len(cards), 2))


def to_pokerstars(
    events: Sequence[DomainEvent],
    *,
    started_at: str = "",
    currency: str = "CZK",
    names: dict[str, str] | None = None,
) -> str:
    """A hand history in the PokerStars text layout (for players' tracking tools).

    ``started_at`` is printed as given (e.g. ``2026/11/23 20:00:00 UTC``); the stakes are
    in ``currency`` at a cash table, in chips (no currency) at a tournament table. Raises
    :class:`NotExportable` like :func:`to_phh`.
    """
    started = next((e for e in events if isinstance(e, HandStarted)), None)
    settled = next((e for e in events if isinstance(e, HandSettled)), None)
    if started is None or settled is None:
        raise NotExportable("the hand is not settled")
    labels = names or {}
    name = {s.seat: labels.get(s.player_id, f"player {s.player_id}") for s in started.seats}
    stakes = f"{started.small_blind}/{started.big_blind}"
    if started.mode == "cash":  # tournament chips are not money (found by QA)
        stakes += f" {currency}"
    lines = [
        f"PokerStars Hand #{started.hand_number}: {_STARS_GAME.get(started.game, started.game)}"
        f" ({stakes}) - {started_at}".rstrip(" -"),
        f"Table '{started.table_id}' Seat #{started.button_seat} is the button",
    ]
    lines += [f"Seat {s.seat}: {name[s.seat]} ({s.stack} in chips)" for s in started.seats]
    bets = {s.seat: 0 for s in started.seats}
    posts_text = {"ante": "the ante", "small_blind": "small blind", "big_blind": "big blind",
                  "straddle": "straddle", "dead_sb": "dead small blind",
                  "posted_bb": "big blind", "posted_sb": "small blind"}  # fmt: skip
    for post in started.posts:
        lines.append(f"{name[post.seat]}: posts {posts_text[post.kind]} {post.amount}")
        if post.kind != "ante":
            bets[post.seat] += post.amount
    lines.append("*** HOLE CARDS ***")
    board = ""
    for event in events:
        if isinstance(event, ActionTaken):
            who, highest = name[event.seat], max(bets.values())
            text = {
                "fold": "folds",
                "check": "checks",
                "call": f"calls {event.added}",
                "bet": f"bets {event.amount_to}",
                "raise": f"raises {event.amount_to - highest} to {event.amount_to}",
            }[event.action]
            lines.append(f"{who}: {text}" + (" and is all-in" if event.all_in else ""))
            bets[event.seat] = event.amount_to if event.action != "fold" else bets[event.seat]
        elif isinstance(event, BoardDealt):
            before, board = board, board + event.cards
            street = _STREETS.get(len(board) // 2, "BOARD")
            shown = (
                f"[{_cards(before)}] [{_cards(event.cards)}]" if before else f"[{_cards(board)}]"
            )
            lines.append(f"*** {street} *** {shown}")
            bets = dict.fromkeys(bets, 0)
        elif isinstance(event, CardsShown):
            lines.append(f"{name[event.seat]}: shows [{_cards(event.cards)}]")
        elif isinstance(event, CardsMucked):
            lines.append(f"{name[event.seat]}: mucks hand")
    for returned in settled.uncalled:
        lines.append(f"Uncalled bet ({returned.amount}) returned to {name[returned.seat]}")
    for pot in settled.pots:
        label = "main pot" if pot.index == 0 and len(settled.pots) > 1 else "pot"
        if pot.index:
            label = f"side pot-{pot.index}"
        lines += [f"{name[w.seat]} collected {w.amount} from {label}" for w in pot.winners]
    total = sum(p.amount for p in settled.pots)
    lines += ["*** SUMMARY ***", f"Total pot {total} | Rake {settled.rake}"]
    if board:
        lines.append(f"Board [{_cards(board)}]")
    return "\n".join(lines) + "\n"
