"""The dealer's and the seating refusals in the console's language.

Each template says exactly what the raise site's English ``detail`` says, its placeholders
naming the error's context keys (:mod:`casino.api.error_texts` explains when it is used).
Registered by :meth:`tables.apps.TablesConfig.ready`.
"""

from django.utils.translation import gettext_lazy as _

from casino.api.error_texts import register_details

register_details(
    {
        "rake_above_schedule": _(
            "The house rakes these stakes at most %(max_rake_percent_bp)s basis points of the "
            "pot, capped at %(max_rake_cap)s CZK a hand: a table may rake less, never more."
        ),
        # --- betting (tables/domain/betting.py, hand_state.py) ---
        "not_your_turn": _("Seat %(to_act)s is to act, not seat %(seat)s."),
        "seat_folded": (
            _("Seat %(seat)s has folded."),
            _("Seat %(seat)s has folded: his cards are dead."),
        ),
        "no_betting_now": (
            _("The betting round is closed: deal the next street or go to showdown."),
            _("Nobody is to act."),
        ),
        "bet_not_allowed": _("There is already a bet of %(current_bet)s: raise instead."),
        "nothing_to_raise": _("There is no bet to raise: bet instead."),
        "amount_required": (
            _("A bet needs an amount."),
            _("A raise needs an amount."),
            _("An out-of-turn bet or raise is recorded with its amount, so that it can bind."),
        ),
        "amount_exceeds_stack": (
            _("Seat %(seat)s can put in at most %(max_amount_to)s on this street."),
            _("The stack only covers a call (all-in)."),
            _("The stack is smaller than that."),
            _("A sidebet is settled in chips at the table: each player's stack must cover it."),
            _("The loser's stack does not cover the sidebet."),
        ),
        "bet_below_minimum": _("The minimum bet is to %(min_raise_to)s."),
        "raise_below_minimum": _("The minimum raise is to %(min_raise_to)s."),
        "not_the_limit_step": (
            _("Fixed limit: a bet is to %(max_raise_to)s exactly."),
            _("Fixed limit: a raise is to %(max_raise_to)s exactly."),
        ),
        "bet_above_pot_limit": _("Pot limit: the maximum bet is to %(max_raise_to)s."),
        "raise_above_pot_limit": _("Pot limit: the maximum raise is to %(max_raise_to)s."),
        "fold_not_allowed": _("Nothing to call: check instead of folding."),
        "check_not_allowed": _("Seat %(seat)s faces a bet: %(to_call)s to call."),
        "nothing_to_call": _("There is no bet to call: check."),
        "raise_not_reopened": (
            _(
                "An all-in below the house minimum raise (twice the bet, BET-9) did not reopen "
                "the betting: call or fold."
            ),
            _("A short all-in did not reopen the betting: call or fold."),
        ),
        "raise_cap_reached": _(
            "The betting is capped: a bet and three raises per round. Call or fold."
        ),
        "opponents_all_in": _("Every other player is all-in or folded: call or fold."),
        # --- the hand and its cards ---
        "hand_not_started": _("No hand is in progress."),
        "hand_already_complete": _("The hand is over."),
        "duplicate_card": _("%(card)s is already in play"),
        "seat_not_in_hand": _("Seat %(seat)s is not dealt in."),
        "misdeal_too_late": (
            _("The flop is out: there is no misdeal any more; play the hand as dealt."),
            _(
                "%(actions_counted)s action(s) taken, the misdeal limit is "
                "%(misdeal_action_threshold)s: play the hand as dealt."
            ),
        ),
        # --- showdown (tables/domain/showdown.py) ---
        "betting_round_not_complete": _("Seat %(to_act)s is still to act."),
        "not_at_showdown": (
            _("Hands are shown or mucked only once the betting is over."),
            _("Pots are awarded once the betting is over."),
            _("Hands are asked for at the showdown."),
        ),
        "cards_already_shown": _("Seat %(seat)s has shown."),
        "cards_already_mucked": _("Seat %(seat)s has mucked."),
        "wrong_card_count": (
            _("Show all %(expected)s hole cards."),
            _("One card is burned per street."),
        ),
        "all_in_hands_face_up": _(
            "A player is all-in: every live hand is turned face up; none is mucked unseen."
        ),
        "all_in_hand_not_mucked": _(
            "An all-in hand is never mucked unseen: table it, or record that the player threw "
            "it away on purpose."
        ),
        "last_live_hand": _(
            "Seat %(seat)s is the last live hand in pot %(pot_index)s: show, or award the pots."
        ),
        "board_not_complete": _("Deal the rest of the board before awarding the pots."),
        "pot_without_winner": _("Name the winner of pot %(pot_index)s."),
        "seat_not_eligible": _("Seat %(seat)s cannot win pot %(pot_index)s."),
        "fee_exceeds_stack": _("Seat %(seat)s has %(stack)s: the fee of %(fee)s is more."),
        # --- the table: seats, hands, blinds (tables/domain/table.py, table_state.py) ---
        "hand_in_progress": (
            _("Chips cannot reach or leave a seat during its hand; wait until it ends."),
            _("The previous hand is not finished."),
            _("Sidebet chips change hands only after the hand has ended."),
            _("The next shuffle starts after the hand."),
        ),
        "not_enough_players": _(
            "A hand needs at least two seated players with chips who are not sitting out or "
            "waiting for the big blind."
        ),
        "must_wait_for_big_blind": _(
            "The player waits for the big blind; to play before it he must post the small "
            "blind (dead) and the big blind."
        ),
        "seat_empty": _("Seat %(seat)s is empty."),
        "seat_out_of_range": _("Seats at this table are 1 to %(max_seats)s."),
        "seat_occupied": _("Seat %(seat)s is taken."),
        "table_not_open": _("The table is not open."),
        "table_closed": _("The table is closed."),
        "table_not_empty": _("Move or cash out every player before closing the table."),
        # --- seating and money (tables/domain/table_money.py, tables/services.py) ---
        "player_already_seated": (
            _("The player already has a seat at this table."),
            _("The player already sits here."),
        ),
        "button_drawn": _("The tournament's draw gave the button to seat %(button_seat)s."),
        "player_in_tournament": _(
            "The player in seat %(seat)s plays in a tournament at table %(table_id)s: "
            "cash out or sit out that player first."
        ),
        "player_seated_elsewhere": (
            _("The player already has a seat at table %(table_id)s."),
            _("The player already has a seat at another table."),
        ),
        "restricted_pair_at_table": _(
            "Management does not let these two players sit at the same table."
        ),
        "buy_in_below_minimum": _("The minimum buy-in at this table is %(buy_in_min)s."),
        "buy_in_above_maximum": _("The maximum buy-in at this table is %(buy_in_max)s."),
        "buy_in_below_returning_minimum": _(
            "The player left this game within the return window with %(amount_required)s; "
            "he must buy in for at least that."
        ),
        "rebuy_below_minimum": _(
            "A player with no table chips must re-buy at least %(buy_in_min)s; side-bet "
            "winnings are not table chips."
        ),
        "top_up_above_maximum": _("A top-up may bring the stack to at most %(buy_in_max)s."),
        "invalid_amount": (
            _("A top-up must be a positive amount."),
            _("The amount must be positive."),
        ),
        "refreshment_above_limit": _("Refreshments paid with chips are limited to %(limit)s."),
        "partial_cash_out_not_allowed": _(
            "A player cashes out his whole stack; only the floor may make an exception."
        ),
        "transfer_game_mismatch": (
            _(
                "A transfer keeps the stack only to a table of the same game and stakes; cash "
                "out and buy in instead."
            ),
            _("A transfer keeps the stack only to a table of the same game and stakes."),
        ),
        # --- buy-in limits (BI-3..BI-5) ---
        "limit_change_needs_reason": (
            _("The floor must say why the limits change."),
            _(
                "The house limits of these stakes are %(house_buy_in_min)s-%(house_buy_in_max)s "
                "CZK (BI-3, BI-4): the floor must say why this table's differ."
            ),
        ),
        "buy_in_limits_required": _(
            "These stakes have no configured buy-in limits; give the agreed ones."
        ),
        "invalid_table_config": (
            _("The buy-in minimum must be at least 1 and no more than the maximum."),
            _("The buy-in maximum must cover at least the big blind."),
        ),
        # --- what a request names and is not there (404) ---
        "table_not_found": _("There is no table %(table_id)s."),
        "hand_not_found": _("There is no hand %(hand_id)s."),
        "sidebet_not_found": _("No open sidebet with that id."),
        # --- the table's commands (tables/domain/table.py) ---
        "table_already_open": _("This table is already open."),
        "tournament_table": _(
            "Seats, stacks and blinds at a tournament table come from the tournament."
        ),
        "not_a_tournament_table": _("This is a cash table."),
        "invalid_tournament_seat": _("The player is already at this table, or has no chips."),
        "invalid_chips": _("Chips added must be positive."),
        "button_out_of_turn": _("The button moves by itself, to seat %(expected_button_seat)s."),
        "already_sitting_out": _("Seat %(seat)s is sitting out."),
        "not_sitting_out": _("Seat %(seat)s is not sitting out or waiting for the big blind."),
        "invalid_fee": (
            _("The fee must be positive and covered by the stack."),
            _("The requester pays a rabbit-hunt fee of at least 1."),
        ),
        "invalid_shuffle_step": _("first_riffle or cut."),
        "invalid_stakes": _(
            "Blinds must be 0 <= small <= big, big > 0; an ante needs an ante type."
        ),
        "correction_exceeds_stack": _("The correction takes more chips than the stack holds."),
        "player_left_table": _(
            "A player of the disputed hand has left this seat: settle the correction with him "
            "at the cage."
        ),
        # --- money between seats and tables (tables/domain/table_money.py) ---
        "transfer_to_same_table": _("Choose another table."),
        "invalid_sidebet": _("A sidebet is between two players for a positive amount."),
        "sidebet_exists": _("That sidebet is already recorded."),
        "invalid_winner": _("The winner must be one of the two players."),
        "chip_transfer_not_allowed": _("Chips may not change hands in this game."),
        "invalid_chip_transfer": _("Give a positive amount to another seat."),
        "objection_from_outside": _("Only the other players at the table can object."),
        "partial_cash_out_needs_reason": _("The floor must say why."),
        # --- Show poker, exports, the tournament side ---
        "not_show_poker": _("This table does not deal Show poker."),
        "hand_not_exportable": _("the hand is not settled"),
        "tournaments_unavailable": _("No tournament service is installed."),
    }
)
