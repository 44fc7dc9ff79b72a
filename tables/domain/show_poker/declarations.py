"""Show poker declarations: the parser of the house shorthand, hand values, and whether the
cards a player holds make what he declared. Pure.

A declaration names a standard poker hand of *up to* five cards (SHOW-10: a true hand of
fewer than five cards stands). :func:`parse_declaration` reads the document's shorthand
(SHOW-15, 001 §2.3.14-2.3.16, §3.2):

* ``"a X"`` / ``"X"`` / ``"X high"``: X-high, plus any kickers stated (``"a K with 9 4"``);
* ``"Xs"`` / ``"Xes"`` / ``"pair of Xs"``: a pair of X, plus kickers;
* ``"... with the board"``: the kickers are the board's cards (board 2-5-7, ``"2 with the
  board"`` is 2-high with a 7 and a 5);
* ``"Xs and Ys"`` / ``"Xs up"`` / ``"two pair"``; ``"trip Xs"`` / ``"three Xs"`` / ``"set
  of Xs"`` / ``"trips"``; ``"wheel"`` (5-high straight), ``"broadway"`` (ace-high), ``"X
  high straight"``, ``"straight"``; ``"X high flush"``, ``"flush"``, ``"nut flush"``;
  ``"X full of Y"``, ``"Xs full"``, ``"boat"`` / ``"full house"``; ``"four Xs"`` /
  ``"quad Xs"`` / ``"quads"``; ``"X high straight flush"``, ``"straight flush"``,
  ``"royal flush"``.

An ambiguous declaration is the lowest hand it could mean (SHOW-13): ``"straight"`` is a
wheel, ``"two pair"`` threes and twos, ``"boat"`` twos full of threes. A six-card hand and
``"the nuts"`` are always misdeclarations (SHOW-16): they parse, but fail any challenge and
never win. ``"nut flush"`` is read as an ace-high flush (the best flush that is not a
straight flush; the lowest it can mean without knowing the other players' cards).

Values compare as tuples ``(category, ranks...)``, ranks 2..14 (ace high; 5 for a wheel),
unstated kickers counted lowest.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations

from tables.domain.errors import HandRuleViolation

HIGH, PAIR, TWO_PAIR, TRIPS, STRAIGHT, FLUSH, FULL_HOUSE, QUADS, STRAIGHT_FLUSH = range(9)
CATEGORY_NAMES = (
    "high card", "pair", "two pair", "three of a kind", "straight", "flush", "full house",
    "four of a kind", "straight flush",
)  # fmt: skip
CATEGORY_CARDS = {HIGH: 1, PAIR: 2, TWO_PAIR: 4, TRIPS: 3, STRAIGHT: 5, FLUSH: 5,
                  FULL_HOUSE: 5, QUADS: 4, STRAIGHT_FLUSH: 5}  # fmt: skip

_RANK_WORDS = {
    "2": 2, "two": 2, "deuce": 2, "3": 3, "three": 3, "trey": 3, "4": 4, "four": 4,
    "5": 5, "five": 5, "6": 6, "six": 6, "7": 7, "seven": 7, "8": 8, "eight": 8,
    "9": 9, "nine": 9, "10": 10, "t": 10, "ten": 10, "j": 11, "jack": 11, "q": 12,
    "queen": 12, "k": 13, "king": 13, "a": 14, "ace": 14,
}  # fmt: skip
_PLURALS = {
    "2s": 2, "twos": 2, "deuces": 2, "3s": 3, "threes": 3, "treys": 3, "4s": 4, "fours": 4,
    "5s": 5, "fives": 5, "6s": 6, "sixes": 6, "6es": 6, "7s": 7, "sevens": 7, "8s": 8,
    "eights": 8, "9s": 9, "nines": 9, "10s": 10, "tens": 10, "ts": 10, "js": 11,
    "jacks": 11, "qs": 12, "queens": 12, "ks": 13, "kings": 13, "as": 14, "aces": 14,
    "aes": 14,
}  # fmt: skip
_CARD_RANK = {r: i + 2 for i, r in enumerate("23456789TJQKA")}


@dataclass(frozen=True, slots=True)
class Declaration:
    """A parsed declaration.

    ``category`` (0 high card .. 8 straight flush), ``ranks`` the ranks that define it in
    comparison order (the pair rank before its kickers; a straight's top card), ``cards``
    how many cards the declared hand has (up to 5), ``misdeclared``: a six-card hand or
    "the nuts" (SHOW-16), never true.
    """

    text: str
    category: int
    ranks: tuple[int, ...]
    cards: int
    misdeclared: bool = False

    @property
    def value(self) -> tuple[int, ...]:
        """Comparable strength: category, then ranks, unstated kickers lowest."""
        if self.misdeclared:
            return (-1,)
        return (self.category, *self.ranks, *([0] * (5 - len(self.ranks))))

    @property
    def name(self) -> str:
        return CATEGORY_NAMES[self.category] if self.category >= 0 else "misdeclaration"


def _rank(word: str) -> int | None:
    return _RANK_WORDS.get(word)


def _plural(word: str) -> int | None:
    return _PLURALS.get(word)


def parse_declaration(text: str, board: Sequence[str] = ()) -> Declaration:
    """Parse a declaration (SHOW-13, SHOW-15, SHOW-16); ``board`` gives "with the board"
    kickers. Raises :class:`HandRuleViolation` ``unreadable_declaration`` (SHOW-11: only a
    complete sentence naming a valid hand binds)."""
    raw = text.strip()
    words = re.sub(r"[-,./!]", " ", raw.lower()).split()
    if not words:
        raise _unreadable(raw)
    joined = " ".join(words)
    if "nuts" in words and "flush" not in words:
        return Declaration(raw, -1, (), 0, misdeclared=True)
    with_board = joined.endswith("with the board") or joined.endswith("with board")
    if with_board:
        words = words[: -(3 if joined.endswith("with the board") else 2)]
    kickers: list[int] = []
    if "with" in words:  # "... with K 9" / "... with a K"
        at = words.index("with")
        tail = words[at + 1 :]
        if len(tail) == 2 and tail[0] in ("a", "an"):  # "with a K": the article
            tail = tail[1:]
        kickers = [r for w in tail if (r := _rank(w)) is not None]
        if not kickers or len(kickers) != len(tail):
            raise _unreadable(raw)
        words = words[:at]
    if len(words) >= 2 and words[-1] == "kicker" and _rank(words[-2]) is not None:
        kickers = [*kickers, _rank(words[-2])]  # type: ignore[list-item]
        words = words[:-2]
    core = _parse_core(words, raw)
    if core is None:
        raise _unreadable(raw)
    category, ranks = core
    if with_board:
        used = Counter(_composition(category, ranks))
        pool = sorted((_CARD_RANK[c[0].upper()] for c in board), reverse=True)
        for r in pool:
            if used[r]:
                used[r] -= 1
                continue
            kickers.append(r)
    if category in (HIGH, PAIR, TWO_PAIR, TRIPS, QUADS):
        kickers = sorted(kickers, reverse=True)
        if category == HIGH:  # "2 with the board": the hand is its cards, highest first
            ranks = tuple(sorted((*ranks, *kickers), reverse=True))
            kickers = []
    elif kickers:
        raise _unreadable(raw)
    cards = CATEGORY_CARDS[category] + len(kickers) if category != HIGH else len(ranks)
    if cards > 5:
        return Declaration(raw, -1, (), cards, misdeclared=True)  # SHOW-16: a 6-card hand
    return Declaration(raw, category, (*ranks, *kickers), cards)


def _unreadable(text: str) -> HandRuleViolation:
    return HandRuleViolation(
        "unreadable_declaration",
        "SHOW-11",
        f"{text!r} does not name a valid hand: only a complete declaration binds.",
    )


def _parse_core(w: list[str], raw: str) -> tuple[int, tuple[int, ...]] | None:
    s = " ".join(w)
    n = len(w)
    if s == "royal flush":
        return STRAIGHT_FLUSH, (14,)
    if s.endswith("straight flush"):
        top = _high(w[:-2])
        return (STRAIGHT_FLUSH, (top or 5,)) if top is not None and (top or 5) >= 5 else None
    if s in ("quads", "four of a kind"):
        return QUADS, (2,)
    if n == 2 and w[0] in ("four", "quad", "quads") and _plural(w[1]):
        return QUADS, (_plural(w[1]),)  # type: ignore[return-value]
    if n == 2 and w[1] == "quads" and _plural(w[0]):
        return QUADS, (_plural(w[0]),)  # type: ignore[return-value]
    if s in ("boat", "full house", "a boat", "a full house"):
        return FULL_HOUSE, (2, 3)
    if "full" in w:
        at = w.index("full")
        three = _plural(w[at - 1]) or _rank(w[at - 1]) if at == 1 else None
        rest = [x for x in w[at + 1 :] if x not in ("of", "house")]
        if three is None:
            return None
        if not rest:
            return FULL_HOUSE, (three, 3 if three == 2 else 2)
        two = _plural(rest[0]) or _rank(rest[0])
        return (FULL_HOUSE, (three, two)) if two and two != three and len(rest) == 1 else None
    if s == "nut flush":
        return FLUSH, (14,)
    if w[-1] == "flush":
        top = _high(w[:-1])
        return (FLUSH, (top or 7,)) if top is not None else None
    if s == "wheel":
        return STRAIGHT, (5,)
    if s == "broadway":
        return STRAIGHT, (14,)
    if w[-1] == "straight":
        top = _high(w[:-1])
        return (STRAIGHT, (top or 5,)) if top is not None and (top or 5) >= 5 else None
    if s in ("trips", "a set", "set", "three of a kind"):
        return TRIPS, (2,)
    if n == 2 and w[0] in ("trip", "trips", "three") and _plural(w[1]):
        return TRIPS, (_plural(w[1]),)  # type: ignore[return-value]
    if n == 3 and w[:2] == ["set", "of"] and _plural(w[2]):
        return TRIPS, (_plural(w[2]),)  # type: ignore[return-value]
    if s == "two pair":
        return TWO_PAIR, (3, 2)
    if n == 3 and w[1] == "and" and _plural(w[0]) and _plural(w[2]):
        a, b = _plural(w[0]), _plural(w[2])
        assert a and b
        return (TWO_PAIR, (max(a, b), min(a, b))) if a != b else None
    if n == 2 and w[1] == "up" and _plural(w[0]):
        top = _plural(w[0])
        assert top
        return (TWO_PAIR, (top, 2 if top > 2 else 0)) if top > 2 else None
    if s in ("pair", "a pair"):
        return PAIR, (2,)
    if n == 3 and w[:2] in (["pair", "of"],) and _plural(w[2]):
        return PAIR, (_plural(w[2]),)  # type: ignore[return-value]
    if n == 4 and w[:3] == ["a", "pair", "of"] and _plural(w[3]):
        return PAIR, (_plural(w[3]),)  # type: ignore[return-value]
    if n == 1 and _plural(w[0]):
        return PAIR, (_plural(w[0]),)  # type: ignore[return-value]
    # high card: "a X", "X", "X high", or several ranks "A K 9"
    ws = w[:-1] if w[-1] == "high" else w
    if len(ws) == 2 and ws[0] in ("a", "an"):  # "a K": the article (and the lower reading)
        ws = ws[1:]
    ranks = [_rank(x) for x in ws]
    if ws and all(r is not None for r in ranks):
        return HIGH, tuple(sorted((r for r in ranks if r is not None), reverse=True))
    return None


def _high(w: list[str]) -> int | None:
    """The top card of "X high ..." (0: nothing stated; ``None``: unreadable)."""
    words = w[1:] if len(w) == 3 and w[0] in ("a", "an") else w  # "a K high flush"
    if not words or words in (["a"], ["an"]):
        return 0
    if words[-1] == "high" and len(words) == 2:
        return _rank(words[0])
    if words == ["nut"]:
        return 14
    return None


def _composition(category: int, ranks: Sequence[int]) -> list[int]:
    """The ranks of the cards that make the declared hand (flush: only its stated cards)."""
    if category == HIGH:
        return list(ranks)
    if category == PAIR:
        return [ranks[0]] * 2 + list(ranks[1:])
    if category == TWO_PAIR:
        return [ranks[0]] * 2 + [ranks[1]] * 2 + list(ranks[2:])
    if category == TRIPS:
        return [ranks[0]] * 3 + list(ranks[1:])
    if category == QUADS:
        return [ranks[0]] * 4 + list(ranks[1:])
    if category == FULL_HOUSE:
        return [ranks[0]] * 3 + [ranks[1]] * 2
    if category in (STRAIGHT, STRAIGHT_FLUSH):
        top = ranks[0]
        return [14 if r == 1 else r for r in range(top, top - 5, -1)]
    return list(ranks)


def holds(declaration: Declaration, hole: Sequence[str], board: Sequence[str]) -> bool:
    """Whether ``hole`` + ``board`` make the declared hand (a *true* declaration, SHOW-10).

    Any number of hole and board cards may be used (SHOW-8), but the board alone may be
    declared only once it has five cards. A misdeclaration is never true (SHOW-16).
    """
    if declaration.misdeclared:
        return False
    cards = [
        (_CARD_RANK[c[0].upper()], c[1].lower(), i < len(hole))
        for i, c in enumerate([*hole, *board])
    ]
    need = declaration.cards
    for chosen in combinations(cards, need):
        if len(board) < 5 and not any(from_hole for _, _, from_hole in chosen):
            continue
        if _makes(declaration, [(r, s) for r, s, _ in chosen]):
            return True
    return False


def _makes(d: Declaration, chosen: list[tuple[int, str]]) -> bool:
    ranks = sorted((r for r, _ in chosen), reverse=True)
    if d.category in (FLUSH, STRAIGHT_FLUSH) and len({s for _, s in chosen}) != 1:
        return False
    if d.category == FLUSH:
        return (
            ranks[0] == d.ranks[0] and Counter(d.ranks) <= Counter(ranks) and len(set(ranks)) == 5
        )
    if d.category in (STRAIGHT, STRAIGHT_FLUSH):
        want = sorted(_composition(d.category, d.ranks), reverse=True)
        return sorted(ranks, reverse=True) == want
    return Counter(ranks) == Counter(_composition(d.category, d.ranks))


def beats(new: Declaration, old: Declaration | None) -> bool:
    """Whether ``new`` is a stronger hand than ``old`` (SHOW-10: a declaration that does
    not beat the last one of the round counts as false)."""
    return not new.misdeclared and (old is None or new.value > old.value)
