"""Console pages of the cash game (issue #13): the cashier's cage and the manager's
reports. Both are shells over the public API (``/api/v1/cage/...``, ``/api/v1/players/
...``, ``/api/v1/tournaments/...``, ``/api/v1/reports/...``); found by
:mod:`casino.console_urls`."""

from django.urls import path
from django.utils.translation import gettext_lazy as _

from casino.consoles import console_page
from casino.models import Role

COMMON_STRINGS = {
    "working": _("Working…"),
    "done": _("Done."),
    "retry": _("Retry"),
    "discard": _("Discard"),
    "discardHint": _(
        "Check the cage's journal first: a write whose answer was lost may be recorded."
    ),
}

CASHIER_STRINGS = {
    **COMMON_STRINGS,
    "none": _("No players found."),
    "cut": _("%(shown)s of %(total)s players shown: type more of the name, or the number."),
    "nameNeeded": _("Enter the player's full name."),
    "searchNeeded": _("Type a name, nickname or player number."),
    "newPlayerNumber": _("Registered: player number %(id)s."),
    "sameName": _(
        "%(count)s player(s) named %(name)s are registered already (listed under the search)."
        " Register another one?"
    ),
    "returning": _(
        "Returning player (SES-7): a buy-in for a game left within the return window must be "
        "at least the stack taken from it."
    ),
    "leftWith": _("left with"),
    "at": _("at"),
    "minimumUntil": _("minimum until"),
    "noRestriction": _("No returning-player minimum."),
    "chipsOnly": _("Chips only (no game)"),
    "min": _("min."),
    "minimumIs": _("Returning-player minimum for this game:"),
    "belowMinimum": _("this amount is below it; the sale will be refused."),
    "heHolds": _("He holds chips for"),
    "toBuy": _("so he buys at least"),
    "seated": _("Seated:"),
    "table": _("table"),
    "seat": _("seat"),
    "notSeated": _("Not seated"),
    "sessions": _("cash sessions"),
    "yes": _("yes"),
    "no": _("NO — count the tables"),
    "tournament": _("tournament"),
    "notCash": _("not cash: a satellite seat or T-Money"),
    "nothingYet": _("Nothing yet."),
    "cashTotal": _("Cash in and out"),
    "kinds": {  # the cage journal's movements
        "sold": _("Chip sale"),
        "redeemed": _("Redemption"),
        "buy_in": _("Tournament buy-in"),
        "fee": _("Tournament fee"),
        "bounty_in": _("Bounty paid in"),
        "re_entry": _("Re-entry"),
        "rebuy": _("Rebuy"),
        "add_on": _("Add-on"),
        "refund": _("Refund"),
        "prize": _("Prize"),
        "bounty_paid": _("Bounty paid out"),
        "ticket": _("Satellite seat or T-Money"),
        "ticket_fee": _("Fee paid with a seat or T-Money"),
    },
    "noTournaments": _("No tournaments"),
    "registering": _("registering"),
    "running": _("running"),
    "finished": _("finished"),
    "registered": _("registered"),
    "playing": _("playing"),
    "eliminated": _("eliminated"),
    "unregistered": _("unregistered"),
    "winner": _("winner"),
    "placed": _("placed by the deal"),
    "cancelled": _("cancelled"),
    "bounty": _("bounty"),
    "buyInFee": _("Buy-in + fee"),
    "entries": _("Entries"),
    "prizePool": _("Prize pool"),
    "placesPaid": _("Places paid"),
    "noEntries": _("No entries yet."),
    "noPrizes": _("No prizes yet: they are fixed when the tournament ends."),
    "pickPlayer": _("Select a player first."),
    "rebuyPending": _(
        "Asked during his hand: the rebuy is taken only if this hand busts him (TREG-14)."
        " Take no money yet; it shows in the entries once taken."
    ),
    "pay": _("Pay"),
    "paid": _("paid"),
    "held": _("held (ELIM-9)"),
    "seatWon": _("satellite seat"),
}
"""Words the cashier's script writes (translated on each render, sent as JSON)."""

REPORT_STRINGS = {
    **COMMON_STRINGS,
    "rake": _("Rake"),
    "drop": _("Drop"),
    "rakeByDay": _("Rake by day"),
    "dropByTable": _("Drop by table"),
    "table": _("Table"),
    "noData": _("No data in this range."),
    "backwards": _("The range ends before it starts: pick a From day on or before the To day."),
    "hours": _("hours"),
    "handsPerHour": _("hands per hour"),
    "total": _("Total"),
}
"""Words the reports' script writes."""

urlpatterns = [
    path(
        "cashier/",
        console_page(
            "cashgame/cashier.html",
            roles=[Role.CASHIER],
            extra=lambda request: {"strings": CASHIER_STRINGS},
        ),
        name="console-cashier",
    ),
    path(
        "reports/",
        console_page(
            "cashgame/reports.html",
            roles=[Role.MANAGER],
            extra=lambda request: {"strings": REPORT_STRINGS},
        ),
        name="console-reports",
    ),
]
