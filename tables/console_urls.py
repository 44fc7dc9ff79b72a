"""Console pages of tables (issue #13): the dealer tablet and the floor console.

The floor console lives here because what it shows first is the tables (live seats and
stacks, hand replays, open/close, limits, transfers); its waiting-list panel is the
waitlist app's template and its devices/staff panel casino's, included by the page.
"""

from django.conf import settings
from django.http import HttpRequest
from django.urls import path
from django.utils.translation import gettext_lazy as _

from casino.consoles import console_page
from casino.models import Role
from tables.domain.table_state import TABLE_GAMES
from tables.rulings_api import CAUSES

CAUSE_LABELS = {
    "button_misplaced": _("Button in the wrong place (MIS-6)"),
    "card_face_up_in_deck": _("A card face up in the deck"),
    "card_out_of_order": _("A card dealt out of order"),
    "cards_to_empty_or_ineligible_seat": _("Cards to an empty or ineligible seat"),
    "deck_changed": _("Deck changed"),
    "eligible_player_skipped": _("An eligible player skipped"),
    "extra_cards_dealt": _("Too many cards dealt"),
    "first_card_wrong_seat": _("First card to the wrong seat"),
    "first_or_second_card_exposed": _("First or second card exposed by the dealer"),
    "flop_dealt_early": _("Flop dealt before the betting ended"),
    "folded_by_contact": _("Hand folded by touching the muck"),
    "four_card_flop": _("Four cards on the flop"),
    "missed_or_double_burn": _("Burn missed or doubled"),
    "river_dealt_early": _("River dealt before the betting ended"),
    "several_cards_exposed_by_dealer": _("Several cards exposed by the dealer"),
    "several_cards_face_up_in_deck": _("Several cards face up in the deck"),
    "several_cards_off_table": _("Several cards off the table"),
    "single_hole_card_exposed": _("One hole card exposed"),
    "stub_damaged": _("The stub damaged"),
    "turn_dealt_early": _("Turn dealt before the betting ended"),
    "unprotected_hand_collected": _("Unprotected hand collected by the dealer"),
    "wrong_card_count_found_later": _("Wrong number of cards, found later"),
}
"""The irregularities a dealer may name (MIS-4..21, ``tables.rulings_api.CAUSES``), in words."""


def _tablet(request: HttpRequest) -> dict[str, object]:
    return {
        "causes": [(c, CAUSE_LABELS.get(c, c.replace("_", " "))) for c in CAUSES],
        "chip_set": settings.CASINO_CHIP_SET,
    }


def _floor(request: HttpRequest) -> dict[str, object]:
    return {"games": TABLE_GAMES}


urlpatterns = [
    # No login: the tablet is paired once with its device token (localStorage).
    path(
        "tablet/",
        console_page("tables/tablet.html", roles=None, extra=_tablet),
        name="console-tablet",
    ),
    path(
        "floor/",
        console_page("tables/floor.html", roles=[Role.FLOOR], extra=_floor),
        name="console-floor",
    ),
]
