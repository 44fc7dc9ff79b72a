"""The tournament director's refusals in the console's language.

Each template says exactly what the raise site's English ``detail`` says, its placeholders
naming the error's context keys (:mod:`casino.api.error_texts` explains when it is used).
Registered by :meth:`tournaments.apps.TournamentsConfig.ready`.
"""

from django.utils.translation import gettext_lazy as _

from casino.api.error_texts import register_details

register_details(
    {
        # --- registration, re-entry (tournaments/domain/tournament_entries.py) ---
        "registration_closed": _("The tournament has started: use late registration."),
        "late_registration_closed": _("Late registration is closed."),
        "already_registered": _("One entry per player."),
        "player_not_registered": _("This player has no entry."),
        "player_not_playing": _("This player is not in play."),
        "unregistration_closed": (
            _("Only a registered player may withdraw before the start."),
            _("Unregistration is closed for this event."),
        ),
        "tournament_started": _("The tournament has already started."),
        "tournament_finished": _("The tournament is over."),
        "field_too_small": _("%(minimum)s entries are needed to start."),
        "use_reentry": _("An eliminated player may only re-enter."),
        "reentry_not_allowed": _("This event has no re-entry."),
        "not_eliminated": _("Only an eliminated player may re-enter."),
        "reentry_closed": _("The re-entry period is over."),
        "reentry_limit": _("No re-entries left for this player."),
        "insufficient_t_money": _("The player has not enough T-Money for this entry."),
        # --- rebuys and add-ons (tournament_rules.py, tournament_entries.py) ---
        "rebuy_not_allowed": _("This event has no rebuys."),
        "rebuy_closed": _("The rebuy period is over."),
        "rebuy_limit": _("No rebuys left for this player."),
        "rebuy_not_busted": _("Only a busted player rebuys after a hand."),
        "stack_above_rebuy_threshold": _("Rebuys only at or below the threshold."),
        "add_on_not_allowed": _("This event has no add-on."),
        "add_on_limit": _("No add-ons left for this player."),
        "hand_in_progress": (
            _("Chips are added between hands only."),
            _("Correct the seat between hands."),
            _("Roll back the hands in progress first (CXL-1)."),
        ),
        # --- seats and the clock ---
        "seat_taken": _("That seat is taken: move its player first."),
        "table_not_in_play": _("That table is not in play."),
        "tournament_not_running": (
            _("Deals are made while the event runs."),
            _("Seats are corrected while the event runs."),
            _("Start the tournament first."),
        ),
        "break_due": _("A break is due; it starts when the hands end."),
        # --- deals (tournaments/domain/deals.py) ---
        "deals_not_allowed": _("This event does not allow deals."),
        "deal_not_at_final_table": _("Deals are possible only at the final table."),
        "deal_already_agreed": (
            _("A deal has already been agreed."),
            _("The deal was agreed: it stands."),
        ),
        "no_deal_discussion": (
            _("Every remaining player must first ask for a deal."),
            _("No deal is being discussed."),
        ),
        "deal_hand_in_progress": _("Propose once the hand in progress ends."),
        "prize_pool_provisional": _("Entries, rebuys or add-ons can still change the pool."),
        "deal_must_include_everyone": _("A deal must include every remaining player."),
        "not_in_deal": (
            _("Only a remaining player may ask."),
            _("This player is not part of the deal."),
        ),
        "deal_in_discussion": _("A deal is already being discussed."),
        "no_deal_proposed": _("There is no proposal to confirm."),
        # --- payouts (tournaments/services.py, domain/payments.py) ---
        "winnings_held": _("Winnings are held for a game-integrity review."),
        "nothing_owed": _("Nothing is owed to this player now."),
        "no_prize": _(
            "This entry has no prize to pay (the tournament has not ended, or it finished "
            "out of the money)."
        ),
        "prize_already_paid": (
            _("This prize was paid at %(paid_at_room_time)s."),
            _("The tournament owes this player nothing now: his winnings were paid."),
        ),
        # --- what a request names and is not there (404) ---
        "tournament_not_found": (
            _("There is no tournament %(tournament_id)s."),
            _("No such tournament."),
        ),
        "entry_not_found": _("Tournament %(tournament_id)s has no entry %(entry_number)s."),
    }
)
