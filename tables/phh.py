"""PHH hand histories as dealer-tablet input (pure; the acceptance corpus is shared/phh/).

:func:`load_phh` reads a PHH file (TOML) into a :class:`PhhHand`: the table stakes, the
players with their seats and starting stacks, the button, and the ordered tablet requests
(actions, board deals, shows and mucks). Hole-card deals (``d dh``) are not requests: the
dealer does not know the hole cards until showdown.

Seating: PHH player ``p1`` is the first seat after the button (the small blind) and the last
player is the button, so ``p<i>`` sits at seat ``i`` and the button is seat ``n``.

Straddles: ``blinds_or_straddles`` beyond the two blinds are straddles in the same player
order (``p3`` the seat left of the big blind). The house chain is supported (SEAT-18/19:
``p3`` posts 2x the big blind, each next player 2x the previous straddle); any other
pattern (a Mississippi straddle, other amounts, heads-up) is :class:`UnsupportedHand`.

Action kinds: PHH ``cc`` is a check when the player's street bet already matches the
highest bet, else a call; ``cbr`` is a bet when there is no bet on the street, else a raise
(preflop the big blind counts as a bet). ``sm`` with cards is a show; ``sm`` without cards
(or with unknown ``??`` cards) is a muck; ``sm -`` shows the cards dealt to the player. A
comment after ``#`` is dropped, and a line that holds only a comment is no request.

Fixed-limit hold'em (``FT``) is read with its ``small_bet`` / ``big_bet`` (the big blind and
twice it) and replayed under the cap of a bet and three raises (BET-5).

Amounts in a currency with cents (online histories: ``581.70``, ``cbr 71.5``) are replayed
in cents (:attr:`PhhHand.unit`). A player's action the file leaves out (the next recorded
request is another seat's, or the board, while the betting is open) is played as pokerkit,
which wrote the corpus, reads such a file: a check when the seat to act owes nothing, else
a fold (:func:`left_out`). A file missing a field, or one the tablet cannot record, raises
:class:`UnsupportedHand` with a one-line reason.

Finishing stacks: split pots with an odd chip are recorded as half chips in some files; a
casino gives the whole chip by its odd-chip rule, so :func:`check_finishing_stacks` accepts
each stack rounded up or down, with the total unchanged. Given the server's split pots, it
also accepts a file that gave the odd chips of those pots by another convention (pokerkit,
which wrote the files, first merges the pots that the same winners share).
"""

from __future__ import annotations

import math
import tomllib
import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from fractions import Fraction
from functools import reduce
from pathlib import Path
from typing import Any, Literal

from tables.domain.commands import (
    DealBoard,
    MuckCards,
    ShowCards,
    StartHand,
    TakeAction,
)
from tables.domain.hand import HandState, decide, evolve
from tables.domain.seating import forced_bets, straddle_amounts
from tables.events import AnteType, Game, SeatInHand, Street

VARIANTS: dict[str, Game] = {"NT": "NLH", "PO": "PLO", "FT": "FLH"}
RequestKind = Literal["fold", "check", "call", "bet", "raise"]


class UnsupportedHand(ValueError):
    """The PHH file uses something the tablet does not record (variant, odd straddles ...)."""


@dataclass(frozen=True, slots=True)
class PhhPlayer:
    seat: int
    name: str
    stack: int


@dataclass(frozen=True, slots=True)
class ActionRequest:
    """A player's action as the tablet sends it (``amount_to``: street total for bet/raise)."""

    seat: int
    kind: RequestKind
    amount_to: int | None = None


@dataclass(frozen=True, slots=True)
class BoardRequest:
    street: Street
    cards: str


@dataclass(frozen=True, slots=True)
class ShowRequest:
    """A show at showdown; ``cards`` is ``None`` for a muck."""

    seat: int
    cards: str | None


TabletRequest = ActionRequest | BoardRequest | ShowRequest


@dataclass(frozen=True, slots=True)
class PhhHand:
    """One hand of a PHH file, as a dealer tablet would enter it."""

    source: str
    game: Game
    small_blind: int
    big_blind: int
    ante: int
    ante_type: AnteType
    players: tuple[PhhPlayer, ...]
    button_seat: int
    requests: tuple[TabletRequest, ...]
    finishing_stacks: tuple[float, ...]
    straddles: tuple[int, ...] = ()
    limit_cap_lifted_heads_up: bool = True
    """Fixed limit: replays are cash games, whose default is BET-6 (lifted heads-up)."""
    unit: int = 1
    """Every amount of the file times this is the replay's (100: a file in dollars and
    cents is replayed in cents); the finishing stacks are multiplied too."""

    @property
    def expected_stacks(self) -> dict[int, float]:
        """The file's finishing stack per seat."""
        return {p.seat: s for p, s in zip(self.players, self.finishing_stacks, strict=True)}


def load_phh(path: str | Path) -> PhhHand:
    """Read a PHH file. Raises :class:`UnsupportedHand` for what the tablet cannot record."""
    with open(path, "rb") as file:
        data = tomllib.load(file)
    return parse_phh(data, source=str(path))


def read_sections(path: str | Path) -> list[tuple[str, Mapping[str, Any]]]:
    """The hands in one file as ``(source, TOML data)`` pairs, not yet parsed.

    A ``.phh`` file holds one hand. A ``.phhs`` file (PHH's several-hands form, as
    pokerkit's ``HandHistory.dump_all`` writes it) holds one hand per top-level TOML table,
    ``[1]``, ``[2]`` ...; each is named ``<file>[<table>]``. Raises ``OSError`` or
    ``tomllib.TOMLDecodeError`` for a file that cannot be read.
    """
    with open(path, "rb") as file:
        data = tomllib.load(file)
    if Path(path).suffix != ".phhs":
        return [(str(path), data)]
    return [(f"{path}[{key}]", hand) for key, hand in data.items() if isinstance(hand, dict)]


REQUIRED_FIELDS = ("variant", "starting_stacks", "blinds_or_straddles", "actions")
MAX_DECIMALS = 4
"""Amounts with more decimal places than this are not chips or money (``UnsupportedHand``)."""


def parse_phh(data: Mapping[str, Any], source: str = "") -> PhhHand:
    """Turn parsed PHH (TOML) data into a :class:`PhhHand`.

    Amounts in a currency with cents (online histories: ``581.70``, ``cbr 71.5``) are
    replayed in cents: every amount of the hand is multiplied by the same power of ten
    (:attr:`PhhHand.unit`), finishing stacks included. Missing ``antes`` are none.

    Raises:
        UnsupportedHand: a field is missing or malformed, or the hand uses something the
            tablet does not record (variant, blinds, straddles, antes, limits, actions).
    """
    variant = data.get("variant")
    if variant not in VARIANTS:  # first: a stud file has no blinds, and that is not why
        raise UnsupportedHand(f"variant {variant!r}")
    missing = [key for key in (*REQUIRED_FIELDS, "finishing_stacks") if key not in data]
    if missing:
        raise UnsupportedHand(
            f"no {', '.join(missing)} in the file"
            + (": nothing to check the replay against" if missing == ["finishing_stacks"] else "")
        )
    game = VARIANTS[variant]
    raw_blinds = _list(data, "blinds_or_straddles")
    if any(isinstance(b, int | float) and b < 0 for b in raw_blinds):
        raise UnsupportedHand(f"blinds_or_straddles {raw_blinds}: a negative blind (a posted "
                              "blind of a new player) is not recorded")  # fmt: skip
    unit = _unit(data)
    stacks = [_chips(stack, unit) for stack in _list(data, "starting_stacks")]
    count = len(stacks)
    blinds = [_chips(b, unit) for b in raw_blinds] + [0] * count
    small_blind, big_blind = blinds[0], blinds[1]
    if count < 2 or not 0 < small_blind <= big_blind:
        raise UnsupportedHand(
            f"blinds_or_straddles {list(data['blinds_or_straddles'])}: the tablet deals a "
            "small and a big blind (a hand with one blind posted is not recorded)"
        )
    straddles = _straddles(blinds[2:], big_blind, count)
    raw_antes = data.get("antes", 0)
    antes = (
        [_chips(a, unit) for a in raw_antes]
        if isinstance(raw_antes, list)
        else _chips(raw_antes, unit)
    )
    ante, ante_type = _antes(antes, count)
    if game == "FLH":
        _check_limit_bets(data, big_blind, unit)
    players = tuple(
        PhhPlayer(seat=i + 1, name=str(name), stack=stack)
        for i, (name, stack) in enumerate(zip(_names(data, count), stacks, strict=True))
    )
    button_seat = count
    posts = forced_bets(
        button_seat,
        [SeatInHand(p.seat, p.name, p.stack) for p in players],
        small_blind=small_blind,
        big_blind=big_blind,
        ante=ante,
        ante_type=ante_type,
        straddles=straddles,
    )
    requests = _requests(_list(data, "actions"), players, posts, unit)
    finishing = [_amount(stack, unit) for stack in _list(data, "finishing_stacks")]
    if len(finishing) != count:
        raise UnsupportedHand(f"{len(finishing)} finishing stacks for {count} players")
    return PhhHand(
        source=source,
        game=game,
        small_blind=small_blind,
        big_blind=big_blind,
        ante=ante,
        ante_type=ante_type,
        players=players,
        button_seat=button_seat,
        requests=requests,
        finishing_stacks=tuple(float(s) for s in finishing),
        straddles=straddles,
        unit=unit,
    )


def _list(data: Mapping[str, Any], key: str) -> list[Any]:
    value = data[key]
    if not isinstance(value, list):
        raise UnsupportedHand(f"{key} is not a list")
    return value


def _decimal(value: Any) -> Decimal:
    """An amount of the file as an exact decimal (a TOML float as written: ``581.7``)."""
    if isinstance(value, bool) or not isinstance(value, int | float | str):
        raise UnsupportedHand(f"amount {value!r}")
    try:
        amount = Decimal(str(value))
    except InvalidOperation:
        raise UnsupportedHand(f"amount {value!r}") from None
    if not amount.is_finite() or amount < 0:
        raise UnsupportedHand(f"amount {value!r} is not a number of chips")
    return amount


def _places(value: Any) -> int:
    exponent = _decimal(value).normalize().as_tuple().exponent
    return max(0, -int(exponent))


def _words(action: Any) -> list[str]:
    """An action line's words without its comment: ``"p3 f # tanked"`` -> ``["p3", "f"]``."""
    return str(action).split("#", 1)[0].split()


def _unit(data: Mapping[str, Any]) -> int:
    """The power of ten that makes every amount the players put in a whole number: 1 for
    chips, 100 for a file in dollars and cents. The finishing stacks do not count: a split
    pot's odd chip is a half chip there."""
    amounts: list[Any] = [*_list(data, "starting_stacks"), *_list(data, "blinds_or_straddles")]
    antes = data.get("antes", 0)
    amounts += antes if isinstance(antes, list) else [antes]
    amounts += [data[key] for key in ("small_bet", "big_bet") if key in data]
    for raw in _list(data, "actions"):
        parts = _words(raw)
        if len(parts) == 3 and parts[1] == "cbr":
            amounts.append(parts[2])
    places = max(map(_places, amounts), default=0)
    if places > MAX_DECIMALS:
        raise UnsupportedHand(f"amounts with {places} decimal places")
    return int(10**places)


def _amount(value: Any, unit: int) -> Fraction:
    return Fraction(_decimal(value) * unit)


def _chips(value: Any, unit: int) -> int:
    """An amount the players put in, in the replay's unit (whole chips or cents)."""
    amount = _amount(value, unit)
    if amount.denominator != 1:
        raise UnsupportedHand(f"amount {value!r} is not a whole number of chips")
    return int(amount)


def _check_limit_bets(data: Mapping[str, Any], big_blind: int, unit: int) -> None:
    """Fixed limit (``FT``): the house plays the big blind as the small bet and twice it as
    the big bet (:mod:`tables.domain.limit`); other structures are unsupported."""
    if "small_bet" not in data or "big_bet" not in data:
        raise UnsupportedHand("no small_bet and big_bet in a fixed-limit file")
    small_bet, big_bet = _chips(data["small_bet"], unit), _chips(data["big_bet"], unit)
    if (small_bet, big_bet) != (big_blind, 2 * big_blind):
        raise UnsupportedHand(f"limit bets {small_bet}/{big_bet} with big blind {big_blind}")


def _straddles(amounts: Sequence[int], big_blind: int, count: int) -> tuple[int, ...]:
    """The straddling seats (``p3``, ``p4`` ...) for the house chain, else unsupported."""
    posted = [a for a in amounts if a]
    if not posted:
        return ()
    chain = list(straddle_amounts(big_blind, len(posted)))
    if count == 2 or len(posted) > count - 2 or list(amounts[: len(posted)]) != chain:
        raise UnsupportedHand(f"straddles {list(amounts)}")
    return tuple(range(3, 3 + len(posted)))


def _names(data: Mapping[str, Any], count: int) -> list[str]:
    """Each seat's player name from ``players``. A missing or blank name is ``p<i>``, and a
    name given to two seats (an anonymised "Hero", say) gets its ``p<i>`` added: one person
    cannot sit in two seats, and the server would rightly refuse the second."""
    given = [str(name).strip() for name in data.get("players") or ()][:count]
    given += [""] * (count - len(given))
    names = []
    for i, name in enumerate(given):
        label = f"p{i + 1}"
        if not name:
            names.append(label)
        elif given.count(name) > 1:
            names.append(f"{name} ({label})")
        else:
            names.append(name)
    return names


def _antes(raw: list[int] | int, count: int) -> tuple[int, AnteType]:
    antes = list(raw) if isinstance(raw, list) else [raw] * count
    antes += [0] * (count - len(antes))
    nonzero = {a for a in antes if a}
    if not nonzero:
        return 0, "none"
    if len(nonzero) == 1 and all(antes):
        return antes[0], "per_player"
    # antes are in pokerkit's order, where index 1 is the big blind (heads-up too: pokerkit
    # swaps antes and blinds itself, so index 1 is still the big blind's ante)
    if [i for i, a in enumerate(antes) if a] == [1]:
        return antes[1], "big_blind"
    raise UnsupportedHand(f"antes {antes}")


def _requests(
    actions: Sequence[str], players: Sequence[PhhPlayer], posts: Sequence[Any], unit: int = 1
) -> tuple[TabletRequest, ...]:
    stacks = {p.seat: p.stack for p in players}
    bets = {p.seat: 0 for p in players}
    for post in posts:
        stacks[post.seat] -= post.amount
        if post.kind != "ante":
            bets[post.seat] += post.amount
    board_size = 0
    hole_cards: dict[int, str] = {}
    requests: list[TabletRequest] = []
    shown_later = _last_known_show(actions)
    unknown_shows = 0
    for index, raw in enumerate(actions):
        parts = _words(raw)
        if not parts:  # a no-operation, or a comment alone
            continue
        line = " ".join(parts)
        if parts[0] == "d":
            if len(parts) < 3:
                raise UnsupportedHand(f"action {line!r}")
            if parts[1] == "dh":
                dealt_to = parts[2].removeprefix("p")
                if len(parts) == 4 and "?" not in parts[3] and dealt_to.isdigit():
                    hole_cards[int(dealt_to)] = parts[3]
                continue
            if parts[1] != "db" or board_size not in (0, 3, 4):
                raise UnsupportedHand(f"action {line!r}")
            street: Street = {0: "flop", 3: "turn", 4: "river"}[board_size]  # type: ignore[assignment]
            cards = parts[2]
            board_size += len(cards) // 2
            bets = dict.fromkeys(bets, 0)
            requests.append(BoardRequest(street=street, cards=cards))
            continue
        player = parts[0].removeprefix("p")
        if len(parts) < 2 or not player.isdigit() or int(player) not in bets:
            raise UnsupportedHand(f"action {line!r}")
        seat, verb = int(player), parts[1]
        highest = max(bets.values())
        if verb == "f":
            requests.append(ActionRequest(seat, "fold"))
        elif verb == "cc":
            if bets[seat] >= highest:
                requests.append(ActionRequest(seat, "check"))
            else:
                added = min(stacks[seat], highest - bets[seat])
                stacks[seat] -= added
                bets[seat] += added
                requests.append(ActionRequest(seat, "call"))
        elif verb == "cbr":
            if len(parts) != 3:
                raise UnsupportedHand(f"action {line!r}")
            amount_to = _chips(parts[2], unit)
            stacks[seat] -= amount_to - bets[seat]
            bets[seat] = amount_to
            requests.append(ActionRequest(seat, "bet" if highest == 0 else "raise", amount_to))
        elif verb == "sm":
            shown = parts[2] if len(parts) > 2 and "?" not in parts[2] else None
            if shown is None and len(parts) > 2 and index < shown_later.get(seat, -1):
                # "shows cards we cannot see": a placeholder that some exports write for an
                # all-in player before each card of the run-out; his cards follow (found by
                # QA: read as a muck, it gave the pot to the wrong player)
                continue
            if shown == "-":  # "shows what he was dealt"
                if seat not in hole_cards:
                    raise UnsupportedHand(f"action {line!r} with the hole cards unknown")
                shown = hole_cards[seat]
            requests.append(ShowRequest(seat, shown))
            unknown_shows += shown is None and len(parts) > 2
        else:
            raise UnsupportedHand(f"action {line!r}")
    shows = [r for r in requests if isinstance(r, ShowRequest)]
    if unknown_shows > 1 and all(r.cards is None for r in shows):
        raise UnsupportedHand("every hand shown at showdown is unknown (sm ????): no winner")
    return tuple(requests)


def _last_known_show(actions: Sequence[str]) -> dict[int, int]:
    """The index of each seat's last ``sm`` that names its cards, by seat."""
    last: dict[int, int] = {}
    for index, raw in enumerate(actions):
        parts = _words(raw)
        if len(parts) > 2 and parts[1] == "sm" and "?" not in parts[2]:
            player = parts[0].removeprefix("p")
            if player.isdigit():
                last[int(player)] = index
    return last


def start_command(
    hand: PhhHand,
    *,
    hand_id: str | None = None,
    table_id: int = 0,
    hand_number: int = 0,
    rake_percent_bp: int = 0,
    rake_cap: int = 0,
) -> StartHand:
    """The :class:`StartHand` for ``hand`` (no rake by default, as the files assume)."""
    return StartHand(
        hand_id=hand_id or str(uuid.uuid5(uuid.NAMESPACE_URL, "phh:" + hand.source)),
        table_id=table_id,
        hand_number=hand_number,
        button_seat=hand.button_seat,
        seats=tuple(SeatInHand(p.seat, p.name, p.stack) for p in hand.players),
        small_blind=hand.small_blind,
        big_blind=hand.big_blind,
        game=hand.game,
        ante=hand.ante,
        ante_type=hand.ante_type,
        rake_percent_bp=rake_percent_bp,
        rake_cap=rake_cap,
        straddles=hand.straddles,
        limit_cap_lifted_heads_up=hand.limit_cap_lifted_heads_up,
    )


def to_command(request: TabletRequest) -> TakeAction | DealBoard | ShowCards | MuckCards:
    """The domain command for one tablet request."""
    if isinstance(request, ActionRequest):
        return TakeAction(seat=request.seat, action=request.kind, amount_to=request.amount_to)
    if isinstance(request, BoardRequest):
        return DealBoard(street=request.street, cards=request.cards)
    if request.cards is None:
        return MuckCards(seat=request.seat, deliberate=True)  # the file records the muck
    return ShowCards(seat=request.seat, cards=request.cards)


def left_out(
    phase: str | None, to_act: int | None, can_check: bool | None, request: TabletRequest
) -> ActionRequest | None:
    """The action of a player the file skipped, as pokerkit (which wrote the corpus) reads
    such a file: while the betting is open and the next recorded request is not the action
    of the seat to act (another seat's action, or the board), the seat to act checks if it
    may, else folds. ``None``: the request is the next one to send. (A WSOP file left out
    the button's fold before the blinds called; its finishing stacks assume that fold.)"""
    if phase != "betting" or to_act is None:
        return None
    if isinstance(request, ActionRequest) and request.seat == to_act:
        return None
    return ActionRequest(to_act, "check" if can_check else "fold")


def replay(hand: PhhHand) -> HandState:
    """Play ``hand`` through ``decide``/``evolve``; the final state.

    A show or muck that comes after the hand was already settled (the other players all
    mucked, so the last live hand won without showing, SD-16) is skipped.

    Raises:
        HandRuleViolation: a request was refused.
    """
    state = reduce(evolve, decide(None, start_command(hand)), None)
    assert state is not None
    for request in hand.requests:
        command = to_command(request)
        after_the_end = isinstance(command, ShowCards | MuckCards | DealBoard)
        if state.is_complete and after_the_end:
            continue  # the others mucked: a later show or board is no request
        while skipped := left_out(
            state.phase, state.to_act, state.legal.can_check if state.legal else None, request
        ):
            state = reduce(evolve, decide(state, to_command(skipped)), state)
        state = reduce(evolve, decide(state, command), state)
    return state


def check_finishing_stacks(
    expected: Mapping[int, float],
    actual: Mapping[int, int],
    split_pots: Sequence[Mapping[int, int]] = (),
) -> list[str]:
    """Differences between a result and the file (empty when they agree).

    ``expected`` is the file's finishing stack per seat (chips, possibly with half chips);
    ``actual`` the server's. The totals must be equal, and each stack must be the file's
    value rounded down or up, or else explained by odd chips: ``split_pots`` are the
    server's awards ``{seat: chips}`` of each pot it split between several winners. The
    house gives a split pot's odd chips by its rule (SD-21/SD-23); the file may have divided
    the pot exactly or given the odd chips otherwise, for example after merging every pot
    the same players split. So a seat's stack, with its shares of the split pots made exact,
    may differ from the file by at most the odd chips of the pots it shared, and not at all
    when it shared none.
    """
    exact = {seat: Fraction(chips) for seat, chips in actual.items()}
    odd_chips = dict.fromkeys(actual, 0)
    for awards in split_pots:
        winners = len(awards)
        if winners < 2:
            continue
        pot = sum(awards.values())
        for seat, chips in awards.items():
            if seat in exact:
                exact[seat] -= chips - Fraction(pot, winners)
                odd_chips[seat] += pot % winners
    problems = []
    for seat, value in sorted(expected.items()):
        got = actual.get(seat)
        if got in (math.floor(value), math.ceil(value)):
            continue
        if got is None or abs(Fraction(value) - exact[seat]) > odd_chips[seat]:
            problems.append(f"seat {seat}: expected {value}, got {got}")
    if sum(actual.values()) != round(sum(expected.values())):
        problems.append(f"total: expected {sum(expected.values())}, got {sum(actual.values())}")
    return problems
