"""The cage's refusals in the console's language.

Each template says exactly what the raise site's English ``detail`` says, its placeholders
naming the error's context keys (:mod:`casino.api.error_texts` explains when it is used).
Registered by :meth:`cashgame.apps.CashgameConfig.ready`.
"""

from django.utils.translation import gettext_lazy as _

from casino.api.error_texts import register_details

register_details(
    {
        "csv_too_large": _("More than %(row_limit)s rows: download a shorter range of days."),
        "redemption_exceeds_holdings": _(
            "The records show %(held)s CZK of chips held by the player away from the tables; "
            "the floor may approve more, with a reason (floor console)."
        ),
        "buy_in_exceeds_holdings": _(
            "The records show %(held)s CZK of chips held by the player away from the tables; "
            "nobody plays another player's chips: the rest is paid in cash."
        ),
        "chips_in_circulation_exceeded": _(
            "Only %(chips_with_players)s CZK of chips are in players' hands."
        ),
        "buy_in_below_returning_minimum": (
            _(
                "The player left %(game)s %(small_blind)s/%(big_blind)s within the return "
                "window with %(amount_required)s; his buy-in must be at least that."
            ),
            _(
                "The player left %(game)s %(small_blind)s/%(big_blind)s within the return "
                "window with %(amount_required)s; with the %(held)s in chips he holds, he "
                "must buy at least %(to_buy)s."
            ),
        ),
        "invalid_restriction": _("Name two different players and a reason."),
    }
)
