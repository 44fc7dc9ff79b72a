"""The cash game's side of :mod:`tables.cash_rules`: what seating and opening a table ask
(buy-in limits, rake, SES-7, BI-11, chips in players' hands), answered from the room's
configuration and read models. Installed by ``CashgameConfig.ready``."""

from __future__ import annotations

from cashgame import cage, selectors
from tables.cash_rules import Limits, Rake

CAP_RULES = {("NLH", 0): "RAKE-2", ("PLO", 0): "RAKE-3", ("PLO", 50): "RAKE-4"}
"""The catalogue's rule for each seeded rake step's cap, by (game, from small blind)."""


class RoomCashRules:
    """:class:`tables.cash_rules.CashRules` for this room."""

    def default_limits(self, game: str, small_blind: int, big_blind: int) -> Limits | None:
        found = selectors.default_limits(game, small_blind, big_blind)
        return None if found is None else Limits(found.buy_in_min, found.buy_in_max)

    def rake_for(self, game: str, small_blind: int) -> Rake | None:
        found = selectors.rake_for(game, small_blind)
        if found is None:
            return None
        cap_rule = CAP_RULES.get((found.game, found.from_small_blind), "RAKE-1")
        return Rake(found.percent_bp, found.cap, found.no_flop_no_drop, cap_rule)

    def returning_minimum(self, player_id: int, game: str, small_blind: int, big_blind: int) -> int:
        return selectors.returning_minimum(player_id, game, small_blind, big_blind)

    def restricted_partner_at(self, table_id: int, player_id: int) -> int | None:
        return selectors.restricted_partner_at(table_id, player_id)

    def require_own_chips(self, player_id: int, amount: int) -> None:
        cage.require_own_chips(player_id, amount)
