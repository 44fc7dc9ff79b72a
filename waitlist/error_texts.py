"""The waiting lists' refusals in the console's language.

Each template says exactly what the raise site's English ``detail`` says, its placeholders
naming the error's context keys (:mod:`casino.api.error_texts` explains when it is used).
Registered by :meth:`waitlist.apps.WaitlistConfig.ready`.
"""

from django.utils.translation import gettext_lazy as _

from casino.api.error_texts import register_details

register_details(
    {
        "already_listed": _("The player is already on this list."),
        "seated_in_game": _(
            "The player already sits in this game, at table %(table_id)s: put him on its "
            "table-change list instead."
        ),
        "not_seated_in_game": (
            _("Only a player seated in this game can ask for a table change."),
            _("The player no longer sits in this game."),
        ),
        "not_on_list": _("Player %(player_id)s is not on this list."),
        "list_exists": _("This list is already open."),
        "list_not_found": (_("There is no such list."), _("There is no list '%(list_id)s'.")),
        "player_away": _("The player told staff he is away."),
        "buy_in_not_taken": _("A table change moves the whole stack (SES-4): send no buy-in."),
        "calls_in_progress": _("Seat or cancel the calls in progress first."),
        "reason_required": _("Give the reason, 1 to %(max_length)s characters."),
        "player_not_eligible": _("The player already plays this game (or sits at that table)."),
        "not_next_on_list": _("Another player is next on the list."),
        "seat_already_called": (
            _("Someone is already called for this seat."),
            _("Someone on another list is already called for this seat."),
        ),
        "seat_called_for_other_player": _(
            "This seat is held for the player who was called for it."
        ),
        "no_eligible_player": _("Nobody on the list can take this seat."),
        "call_not_found": _("There is no call in progress with this id."),
        "player_called": _(
            "The player is being called; record the no-show or cancel the call first."
        ),
        "already_called": _("The player is already called."),
        "game_not_running": _("Nobody is called from an interest list; start the game first."),
        "not_enough_interest": _("%(waiting)s players wait; the game starts with %(threshold)s."),
        "must_move_first": _(
            "A main-table seat goes to the longest-seated must-move player first."
        ),
        "table_game_mismatch": _("The table does not run this list's game and stakes."),
        "game_running": _("A table runs this game: open its waiting list instead."),
        "table_not_empty": _("Players sit at that table: start the game at an empty one."),
        "table_settings_not_allowed": _(
            "The game starts at an existing table: its name and limits are its own."
        ),
        "table_name_required": _("Name the new table."),
        # --- opening, joining and leaving a list (waitlist/domain/lists.py) ---
        # the values allowed are the context's (``allowed``), said where the domain lists them
        "invalid_list_kind": _("A list is one of %(allowed)s."),
        "invalid_channel": _("A player joins %(allowed)s."),
        "invalid_reason": _("A player leaves by %(allowed)s."),
        "unknown_game": _(
            "A waiting or table-change list is for a game the tables deal: %(allowed)s (an "
            "interest list may name any)."
        ),
        "invalid_stakes": _("Stakes are a small and a big blind, SB <= BB."),
        # --- interest lists and must-move tables ---
        "not_an_interest_list": _("Only an interest list starts a game."),
        "not_a_waiting_list": _("Must-move tables belong to a waiting list."),
        "invalid_must_move": _("The main and must-move tables must differ."),
        "no_must_move_table": _("This game has no must-move table."),
        "no_must_move_player": _("Nobody sits at the must-move table."),
    }
)
