"""The waiting-list TV board (issue #13): no login; it reads only the public board feed
(``/ws/board/waitlists/``: nicknames or initials, never names or phone numbers)."""

from django.urls import path
from django.utils.translation import gettext_lazy as _

from casino.consoles import console_page

BOARD_STRINGS = {
    "wait": _("est. wait"),
    "unknown": _("unknown"),
    "now": _("seat now"),
    "min": _("min"),
    "called": _("called"),
    "away": _("away"),
    "interest": _("interest list"),
    "empty": _("Nobody waiting"),
}
"""Words the board's script writes (translated on each render, sent as JSON)."""

urlpatterns = [
    path(
        "board/waitlist/",
        console_page(
            "waitlist/board.html", roles=None, extra=lambda request: {"strings": BOARD_STRINGS}
        ),
        name="board-waitlist",
    ),
]
