"""What seating and opening a cash table ask the cash game: a port that the ``cashgame`` app
fills at start-up (``AppConfig.ready``), so that tables stay below the cash game.

The rules themselves live in the cash game (:mod:`cashgame.selectors`, :mod:`cashgame.cage`):
the configured buy-in limits of stakes (BI-3, BI-4), the rake schedule (RAKE-1..4), the
returning-player minimum (SES-7), players kept apart (BI-11), and the chips in players'
hands a chip-paid buy-in needs.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol


@dataclass(frozen=True, slots=True)
class Limits:
    """Configured buy-in limits of some stakes, CZK."""

    buy_in_min: int
    buy_in_max: int


@dataclass(frozen=True, slots=True)
class Rake:
    """The rake step for a table: ``percent_bp`` (basis points), ``cap`` CZK, and the rule
    that sets the cap (``cap_rule``: RAKE-2..4, or RAKE-1 for a step the catalogue does not
    name)."""

    percent_bp: int
    cap: int
    no_flop_no_drop: bool
    cap_rule: str = "RAKE-1"


class CashRules(Protocol):
    def default_limits(self, game: str, small_blind: int, big_blind: int) -> Limits | None:
        """The room's buy-in limits for these stakes, if it set them (BI-3, BI-4)."""
        ...

    def rake_for(self, game: str, small_blind: int) -> Rake | None:
        """The rake step for a table of this game and small blind (RAKE-1..4)."""
        ...

    def returning_minimum(self, player_id: int, game: str, small_blind: int, big_blind: int) -> int:
        """The minimum buy-in SES-7 imposes on this player in this game now (0: none)."""
        ...

    def restricted_partner_at(self, table_id: int, player_id: int) -> int | None:
        """A player at ``table_id`` management keeps apart from ``player_id`` (BI-11)."""
        ...

    def require_own_chips(self, player_id: int, amount: int) -> None:
        """Refuse a buy-in or top-up paid with more chips (CZK) than the player holds away
        from the tables, or than players hold at all (BI-8).

        Raises:
            DomainError ``buy_in_exceeds_holdings``, ``chips_in_circulation_exceeded``.
        """
        ...


_installed: CashRules | None = None


def install(rules: CashRules) -> None:
    """Called once by the cashgame app at start-up."""
    global _installed
    _installed = rules


def rules() -> CashRules:
    """The installed cash-game rules.

    Raises:
        RuntimeError: the cashgame app is not installed.
    """
    if _installed is None:
        raise RuntimeError("no cash-game rules installed: is cashgame in INSTALLED_APPS?")
    return _installed
