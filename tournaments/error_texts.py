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
        "tournament_cancelled": _("The tournament was cancelled."),
        "tournament_exists": _("This tournament already exists."),
        "invalid_payment": _("Pay with cash, a satellite seat or T-Money."),
        "invalid_amount": _("T-Money amounts are positive CZK."),
        "invalid_satellite_target": _("A satellite's target must be an event still to play."),
        "not_started": (
            _("Register normally before the start."),
            _(
                "Before the start there are no chips in play to roll forward: every buy-in is "
                "rolled back."
            ),
        ),
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
        "rebuy_window_closed": (
            _(
                "His bounty was paid at the knockout: a rebuy in a bounty event is asked during "
                "the hand."
            ),
            _("He finished in the money: his prize is fixed."),
            _("His seat was given to another player."),
        ),
        "rebuy_not_busted": _("Only a busted player rebuys after a hand."),
        "stack_above_rebuy_threshold": _("Rebuys only at or below the threshold."),
        "add_on_not_allowed": _("This event has no add-on."),
        "add_on_limit": _("No add-ons left for this player."),
        "add_on_closed": _("Add-ons are taken during level %(at_level)s and its break."),
        "no_hand_in_progress": (
            _("Between hands a rebuy is taken at once."),
            _("No hand is in progress."),
            _("This table is not playing that hand."),
        ),
        "hand_in_progress": (
            _("Chips are added between hands only."),
            _("Correct the seat between hands."),
            _("Roll back the hands in progress first (CXL-1)."),
            _("A hand is in progress at this table."),
        ),
        # --- seats and the clock ---
        "seat_taken": _("That seat is taken: move its player first."),
        "table_not_in_play": (
            _("That table is not in play."),
            _("This table is not in play in the tournament."),
        ),
        "invalid_seat": _("Table %(table_id)s has seats 1 to %(max_seats)s."),
        "already_in_that_seat": _("The player is in that seat already."),
        "not_enough_tables": (
            _("%(entries)s players need %(needed)s distinct tables."),
            _("The draw starts %(needed)s matches: %(needed)s distinct tables."),
        ),
        "invalid_break_order": _("The break order must list every table once."),
        "no_table_available": (
            _("Every table is full and no table is reserved."),
            _("No table is left for this match."),
        ),
        "tournament_not_running": (
            _("Deals are made while the event runs."),
            _("Seats are corrected while the event runs."),
            _("Start the tournament first."),
            _("The tournament is not running."),
        ),
        "break_due": (
            _("A break is due; it starts when the hands end."),
            _("A break is due: it starts when the hands in progress end."),
        ),
        # the other refusals of a table's next deal (HAND_REFUSAL_DETAILS in
        # domain/tournament_queries.py)
        "clock_not_started": _("The clock has not started."),
        "on_break": _("The tournament is on a break."),
        "final_table_due": _("The final table is drawn when the other hands end: wait for it."),
        "table_breaking": _("This table is breaking: its players are moved first."),
        "not_enough_players": _("Fewer than two players with chips sit at this table."),
        "hand_for_hand_waiting": _("Hand-for-hand: the other tables finish this round first."),
        "clock_started": _("The clock is already running."),
        "clock_not_running": _("The clock is not running."),
        "clock_counts_hands": _("This level ends after its hands, not by the clock."),
        "invalid_clock_adjustment": _("Add or take off 1 to %(max_seconds)s seconds."),
        "clock_adjustment_too_large": _(
            "Only %(remaining_seconds)s seconds are left: at least one must stay."
        ),
        "clock_not_paused": _("The clock is not paused."),
        "level_already_played": _(
            "Level %(from_level)s is in progress or played: change level %(first_level)s or later."
        ),
        "invalid_structure": _(
            "Give 1 to %(max_levels)s levels in all, from level %(latest_level)s at the "
            "latest, and the reason for the change."
        ),
        "break_not_possible": _("The clock must be running, with no break due."),
        "not_on_break": _("There is no break to end."),
        "hand_for_hand_not_possible": (
            _("Hand-for-hand is on or play has not begun."),
            _("A heads-up bracket has no bubble."),
        ),
        "hand_for_hand_one_table": _("Hand-for-hand needs more than one table."),
        "hand_for_hand_off": _("Hand-for-hand is not on."),
        "hand_for_hand_round_in_progress": _("Wait until every table has finished its hand."),
        # --- the lobby time, a crash, a cancellation (tournaments/domain/tournament.py) ---
        "invalid_time": _("start_at must be ISO-8601 with a UTC offset."),
        "start_in_past": _("The lobby time has passed: give a later one."),
        "not_a_delay": _("A delay moves the lobby time later."),
        "delay_required": _("Moving the lobby time later is a delay: log it with its reason."),
        "reason_required": (
            _("A delay is logged with its reason."),
            _("Bringing the lobby time forward is logged with its reason."),
            _("A cancellation is recorded with its reason."),
            _("Every ruling is recorded with its reason."),
        ),
        "invalid_cancellation": _("method must be one of %(methods)s"),
        # --- a table's hand result (tournaments/domain/tournament_results.py) ---
        "invalid_hand_result": (
            _("Give both stacks for every player dealt in."),
            _("Stacks cannot be negative."),
            _("A voided hand gives every chip back."),
        ),
        "player_not_at_table": (
            _("This player is not at this table."),
            _("The tournament places this player at a table where he does not sit."),
        ),
        "correction_busts_player": _(
            "A correction cannot leave a player without chips: his elimination is the "
            "director's ruling."
        ),
        "stack_mismatch": _("The starting stack differs from the tournament's record."),
        "chips_not_conserved": _("Tournament hands have no rake: chips in = chips out."),
        # --- penalties (tournaments/domain/penalties.py) ---
        "invalid_penalty": (
            _("kind must be one of %(kinds)s"),
            _("A sit-out is given in hands or in orbits, not both."),
            _("Only a sit-out is given in hands or orbits."),
            _("A sit-out lasts at least one hand."),
        ),
        "penalty_off_the_ladder": _(
            "The ladder says '%(suggested)s' after %(earlier)s penalties; record an override."
        ),
        "disqualification_in_bracket": _(
            "A heads-up bracket cannot forfeit a match yet: give a warning or a sit-out."
        ),
        # --- heads-up brackets (tournaments/domain/headsup.py) ---
        "bracket_drawn": _("The bracket is already drawn."),
        "bracket_size": _("a heads-up bracket takes 2 to %(max_players)s players"),
        "no_such_match": _("No such match in play."),
        "match_over": _("This match is over."),
        "not_in_match": _("The winner must be one of the two players."),
        "match_active": _("A match ends for inactivity after %(threshold)s hands."),
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
        "deal_in_discussion": (
            _("A deal is already being discussed."),
            _("A deal is being discussed: the table waits."),
        ),
        "invalid_deal": (
            _("method must be one of %(methods)s"),
            _(
                "The money on the table must be at least the event's requirement and at most "
                "1st place's prize."
            ),
            _(
                "Custom amounts must be >= 0 and sum to the remaining prizes less the money on "
                "the table."
            ),
            _("Amounts are given only with method 'custom'."),
        ),
        "no_deal_proposed": _("There is no proposal to confirm."),
        # --- payouts (tournaments/services.py, domain/payments.py) ---
        "winnings_held": _("Winnings are held for a game-integrity review."),
        "nothing_owed": _("Nothing is owed to this player now."),
        "not_held": _("This player's winnings are not held."),
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
