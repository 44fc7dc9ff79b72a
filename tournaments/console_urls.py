"""Console pages of tournaments (issue #13): the director's console (login, director), the
public clock board (no login: ``/ws/tournaments/<id>/clock/`` carries no names) and the
public chip-count board (no login: ``tournament_chip_counts``, nicknames or initials only)."""

from django.urls import path
from django.utils.translation import gettext_lazy as _

from casino.consoles import console_page
from casino.models import Role

BOARD_STRINGS = {
    "clock": _("Tournament clock"),
    "level": _("Level"),
    "break": _("Break"),
    "breakDue": _("Break after this hand"),
    "paused": _("Paused"),
    "handForHand": _("Hand for hand"),
    "handsLeft": _("Hands left"),
    "ante": _("ante"),
    "bbAnte": _("BB ante"),
    "open": _("open"),
    "closed": _("closed"),
    "untilLevel": _("until the end of level"),
    "until": _("until"),
    "nextBreak": _("Next break at"),
    "registering": _("Registration open"),
    "finished": _("Finished"),
    "cancelled": _("Cancelled"),
    "notFound": _("No such tournament"),
}
"""Words the clock board's script writes (translated on each render, sent as JSON)."""

CHIP_BOARD_STRINGS = {
    "chipCounts": _("Chip counts"),
    "registering": _("Registration open"),
    "finished": _("Finished"),
    "cancelled": _("Cancelled"),
    "notFound": _("No such tournament"),
    "provisional": _("provisional"),
    "table": _("Table"),
    "seat": _("seat"),
    "deal": _("Deal"),
    "playedFor": _("Left to play for"),
}
"""Words the chip-count board's script writes (the rest is in its template)."""

DIRECTOR_STRINGS = {
    **BOARD_STRINGS,
    "colourUp": _("colour-up of"),
    "addOnBreak": _("Add-on break"),
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
    "balancing": _("balancing"),
    "table_broken": _("table broken"),
    "wrong_seat": _("wrong seat"),
    "final_table": _("final table draw"),
    "provisional": _("provisional"),
    "registrationOpen": _("Registration open"),
    "reEntry": _("Re-entry"),
    "rebuy": _("Rebuy"),
    "addOn": _("Add-on"),
    "perPlayer": _("per player"),
    "unlimited": _("unlimited"),
    "toLevel": _("to level"),
    "atLevel": _("at level"),
    "bounty_knockout": _("Knockout bounty"),
    "bounty_progressive": _("Progressive bounty"),
    "bounty_fixed": _("Fixed bounty"),
    "inCash": _("in cash"),
    "guarantee": _("Guarantee"),
    "created": _("Tournament published."),
    "done": _("Done."),
    "retry": _("Retry"),
    "discard": _("Discard"),
    "discardHint": _(
        "Check the tournament's entries first: a write whose answer was lost may be recorded."
    ),
    "confirmStart": _("Start the tournament now? Seats are drawn."),
    "confirmCloseLate": _("Close late registration now? It cannot be opened again."),
    "clockCorrected": _("Clock corrected."),
    "moves": _("Move"),
    "seat": _("seat"),
    "table": _("Table"),
    "noTables": _("The tables are drawn at the start."),
    "noMoves": _("No moves to make."),
    "alsoSeated": _("also seated at table %(table)s, seat %(seat)s (BI-10: one seat at a time)"),
    "noEliminations": _("Nobody eliminated yet."),
    "noPayouts": _("Prizes are fixed when the tournament ends."),
    "choose": _("Choose a tournament or publish a new one."),
    "on": _("on"),
    "off": _("off"),
    "player": _("Player"),
    "none": _("No players found."),
    "registerSelected": _("Register"),
    "unregister": _("Unregister"),
    "moved": _("moved"),
    "eliminatedEvent": _("eliminated in place"),
    "levelStarted": _("Level started"),
    "registerTMoney": _("Register (T-Money)"),
    "round": _("Round"),
    "byes": _("Byes to round 2"),
    "inactivity": _("inactivity"),
    "champion": _("Champion"),
    "waiting": _("waiting"),
    "dealDiscussion": _("Deal discussion: the final table is paused"),
    "dealAgreed": _("Deal agreed"),
    "dealAsked": _("asked for a deal"),
    "asksForDeal": _("Asks for a deal"),
    "confirms": _("Confirms"),
    "declines": _("Declines"),
    "confirmed": _("confirmed"),
    "icm": _("ICM"),
    "chip_count": _("Chip count"),
    "even_split": _("Even split"),
    "custom": _("Custom amounts"),
    "moneyOnTable": _("Left to play for"),
    "remainingPrizes": _("Prizes left"),
    "confirmDealOff": _("Call the deal off? Play resumes with the published payouts."),
    "warning": _("Warning"),
    "sit_out": _("Sit-out"),
    "disqualification": _("Disqualification"),
    "hands": _("hands"),
    "override": _("off the ladder"),
    "afterHand": _("after the hand in progress"),
    "flagged": _("Flagged"),
    "nextStep": _("The ladder's next step"),
    "earlier": _("penalties so far"),
    "flaggedBySystem": _("Flagged by the system"),
    "noPenalties": _("No penalties or flags."),
    "confirmDisqualify": _("Disqualify this player? His chips are removed from play."),
    # offence codes as the console lists them (the datalist) and the system flags them
    "offence_out_of_turn": _("out of turn"),
    "offence_showing_cards": _("showing cards"),
    "offence_talking_about_a_hand": _("talking about a hand"),
    "offence_abusive_conduct": _("abusive conduct"),
    "offence_stalling": _("stalling"),
    "offence_soft_play": _("soft play"),
    "offence_chip_dumping": _("chip dumping"),
    "offence_checking_the_nuts": _("checking the nuts"),
    "offence_miscalling_a_hand": _("miscalling a hand"),
    "offence_chips_not_visible": _("chips not visible"),
    "offence_avoiding_blinds": _("avoiding blinds"),
    "offence_checked_nuts_on_river": _("checked nuts on river"),
    "held": _("held"),
    "noneOwed": _("The cage owes nobody from this tournament."),
    "rollback": _("Rolled back: buy-ins refunded"),
    "roll_forward": _("Rolled forward: by the chips in play"),
    "policy": _("policy"),
    "tMoney": _("as T-Money"),
    "confirmRollback": _("Put every hand in progress back to its start?"),
    "confirmCancel": _("Cancel the tournament and settle every player? This cannot be undone."),
}


def _levels(minutes: int, *blinds: tuple[int, int, int]) -> list[dict[str, object]]:
    return [
        {
            "small_blind": sb,
            "big_blind": bb,
            "ante": ante,
            "ante_type": "big_blind_ante" if ante else "none",
            "minutes": minutes,
        }
        for sb, bb, ante in blinds
    ]


_BLINDS = [
    (25, 50, 0), (50, 100, 0), (75, 150, 0), (100, 200, 200), (150, 300, 300),
    (200, 400, 400), (300, 600, 600), (400, 800, 800), (500, 1000, 1000),
    (700, 1400, 1400), (1000, 2000, 2000), (1500, 3000, 3000),
]  # fmt: skip

STRUCTURES = [
    {
        "key": "standard",
        "label": _("Standard: 20-minute levels, break after level 4"),
        "starting_stack": 20000,
        "levels": _levels(20, *_BLINDS),
        "breaks": [{"after_level": 4, "minutes": 10}, {"after_level": 8, "minutes": 10}],
    },
    {
        "key": "turbo",
        "label": _("Turbo: 10-minute levels, break after level 6"),
        "starting_stack": 10000,
        "levels": _levels(10, *_BLINDS),
        "breaks": [{"after_level": 6, "minutes": 10}],
    },
    {
        "key": "deep",
        "label": _("Deep stack: 30-minute levels, break after level 3"),
        "starting_stack": 30000,
        "levels": _levels(30, *_BLINDS),
        "breaks": [{"after_level": 3, "minutes": 15}, {"after_level": 6, "minutes": 15}],
    },
]
"""The structures the director starts from (blinds, antes, level and break lengths); the
form may change the name, buy-in, fee, starting stack and the level length."""


def _director(request: object) -> dict[str, object]:
    return {"strings": DIRECTOR_STRINGS, "structures": STRUCTURES}


urlpatterns = [
    path(
        "director/",
        console_page(
            "tournaments/director.html",
            roles=[Role.DIRECTOR],
            extra=_director,
        ),
        name="console-director",
    ),
    path(
        "board/tournament/<id:tournament_id>/",
        console_page(
            "tournaments/board.html", roles=None, extra=lambda request: {"strings": BOARD_STRINGS}
        ),
        name="board-tournament",
    ),
    path(
        "board/tournament/<id:tournament_id>/chips/",
        console_page(
            "tournaments/chip_board.html",
            roles=None,
            extra=lambda request: {"strings": CHIP_BOARD_STRINGS},
        ),
        name="board-tournament-chips",
    ),
]
