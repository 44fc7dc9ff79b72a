"""The hand aggregate: ``decide(state, command) -> events`` and ``evolve(state, event)``.

``decide`` never changes ``state``: it returns the events a command leads to, or raises
:class:`HandRuleViolation`. ``evolve`` returns a new :class:`HandState`; a hand is loaded by
folding its events from ``None``::

    state = functools.reduce(evolve, events, None)

Betting legality comes from pokerkit (:mod:`tables.domain.engine`), with the house's
"double the last bet" minimum raise (BET-9) as an extra check. Pots, rake and odd chips are
ours (:mod:`tables.domain.pots`); hands are evaluated with phevaluator.

Refusal codes (:class:`HandRuleViolation` ``code`` / ``rule``):

* start: ``hand_already_started``, ``wrong_player_count`` / ``invalid_seat`` /
  ``duplicate_player`` (SEAT-3), ``seat_has_no_chips`` (SEAT-8), ``invalid_button``
  (SEAT-4), ``unsupported_game`` (BET-4), ``invalid_stakes`` (SEAT-7), ``invalid_config``
  (BET-8; MIS-1 for the misdeal window), ``invalid_rake`` (RAKE-1);
* placed blinds (start): ``invalid_blind_seat`` (SEAT-5: a blind not dealt in, both blinds on
  one seat, a small blind without the big blind's seat; SEAT-10: heads-up the button must
  post the small blind), ``blinds_out_of_order`` (SEAT-7: the small blind is the seat dealt
  in just before the big blind, neither blind on the button);
* owed blinds (start): ``seat_not_in_hand`` (SEAT-12), ``invalid_post`` (SEAT-16: posted
  twice, by a blind, or heads-up);
* straddles (start): ``straddle_not_allowed`` (SEAT-18: tournament, heads-up, or a seat
  posting an owed blind live),
  ``seat_not_in_hand`` (SEAT-12), ``mississippi_straddle_not_allowed`` (SEAT-20: not the
  seat left of the big blind, or not the next seat of the chain), ``straddle_past_button``
  (SEAT-19), ``straddle_exceeds_stack`` (SEAT-18: a straddle is posted in full);
* any command: ``hand_not_started``, ``hand_already_complete`` (SD-25), ``seat_not_in_hand``
  (SEAT-12), ``seat_folded``;
* actions: ``unknown_action`` (BET-16), ``no_betting_now`` (BET-1), ``not_your_turn``
  (BET-25), ``fold_not_allowed`` (tournament, nothing to call), ``check_not_allowed``,
  ``nothing_to_call``, ``bet_not_allowed``, ``nothing_to_raise`` (BET-1), ``amount_required``
  (BET-18), ``amount_exceeds_stack`` (BET-24), ``bet_below_minimum`` (BET-3),
  ``raise_below_minimum`` (BET-8, BET-9 under ``double_last``, SEAT-18 below twice the
  straddle preflop), ``bet_above_pot_limit`` /
  ``raise_above_pot_limit`` (BET-4), ``raise_not_reopened`` (BET-14), ``opponents_all_in``
  (BET-1);
* board: ``betting_round_not_complete`` (BET-1), ``wrong_board_street`` (BET-2),
  ``wrong_card_count`` (BET-2; MIS-17 for a four-card flop), ``invalid_cards`` (MIS-13),
  ``duplicate_card`` (MIS-12),
  ``invalid_run`` (RAKE-10: no such run);
* run it more than once: ``run_it_not_allowed`` (RAKE-10: tournament),
  ``invalid_run_count`` (RAKE-10: 2 or 3), ``run_count_already_set`` (RAKE-10),
  ``run_it_not_available`` (RAKE-10: not an all-in with the board to come);
* showdown: ``not_at_showdown`` (BET-31), ``wrong_card_count`` (SD-3),
  ``cards_already_shown`` (SD-3), ``cards_already_mucked`` (SD-7), ``last_live_hand``
  (SD-16), ``invalid_cards``, ``duplicate_card``;
* manual award: ``not_at_showdown`` (SD-1), ``board_not_complete`` (SD-2),
  ``wrong_pot_count`` / ``pot_without_winner`` / ``seat_not_eligible`` (SD-20),
  ``duplicate_winner`` (SD-21), ``wrong_run_count`` (RAKE-10: winners per run);
* misdeal / void: ``reason_required`` (MIS-1 / MIS-11), ``misdeal_too_late`` (MIS-1 when
  any action counts, MIS-2 for a threshold of 3 or more, MIS-3 when only active actions
  count or the flop is out);
* rabbit hunt: ``rabbit_hunt_not_allowed`` (RAKE-7: tournament), ``hand_not_complete``,
  ``hand_voided``, ``rabbit_hunt_already_recorded``, ``invalid_fee``,
  ``fee_exceeds_stack``, ``nothing_to_hunt``, ``wrong_card_count``, ``consent_missing``
  (RAKE-8: every other player dealt in consents), ``invalid_cards``, ``duplicate_card``.

Straddles (SEAT-18..20) are live blinds posted with the blinds (``HandStarted.posts``, kind
``straddle``); pokerkit gets them as ``blinds_or_straddles`` (``(sb, bb, 2bb, 4bb, ...)`` in
its player order, index 2 being the seat left of the big blind), so it opens the preflop
action left of the largest forced bet and gives the last straddler the option. pokerkit's
minimum raise over a straddle is one big blind; the house minimum preflop is a raise by
the last straddle (to twice the straddle), an extra check like BET-9. pokerkit ignores
straddles heads-up (it keeps only the two blinds), so heads-up straddles are refused.

Placed and owed blinds (SEAT-5, SEAT-10/11, SEAT-15, SEAT-16; the table decides them, see
:mod:`tables.domain.blinds`): :class:`StartHand` may name the big blind's seat and the small
blind's (``None``: a dead small blind) instead of leaving them to position, with the button
on a seat not dealt in (a dead button), and seats posting owed blinds. pokerkit takes all of
it per player (``raw_blinds_or_straddles`` / ``raw_antes`` in its player order, see
:func:`tables.domain.engine.create_state`): a dead small blind is a 0 in that player's
place; a live owed blind (``posted_bb``, ``posted_sb``) is a negative value, pokerkit's
"post", which is the player's bet (toward his call, with the option when the action comes
back) but never decides who opens; a dead owed small blind (``dead_sb``) is added to the
player's ante, so it is in pokerkit's pot (pot limit counts it) without being a bet. Our
pots treat a ``dead_sb`` like a big-blind ante: dead money in the main pot, never part of a
seat's level nor returned as uncalled. pokerkit swaps the blinds of a heads-up hand itself,
so it can only express the button posting the small blind heads-up: a heads-up dead small
blind, or owed blinds heads-up, are refused (the table never asks for them, SEAT-10).

Run it more than once (RAKE-10): pokerkit decides betting only. Once the betting is over
it is not touched, so the runs are ours: after :class:`RunItTimesAgreed`, ``board`` keeps
the cards common to every run and ``run_boards`` each run's own cards; the showdown ranks
every live hand on each run's board and :mod:`tables.domain.pots` splits each pot across the
runs (rules there). pokerkit's own runout selection (``select_runout_count``) is automated
to one board.

A misdeal (:class:`DeclareMisdeal`) counts the recorded actions against the window in
``HandStarted``; a void (:class:`VoidHand`) has no window. Both end the hand with
:class:`HandVoided` (state complete, ``result`` ``None``, stacks back to the start). A rabbit
hunt after a settled cash hand takes the fee from the requester's stack (``stacks``), never
from ``result``.

A short big blind (SEAT-8) posts all he has and is all-in; the others play as if the full
blind were posted: preflop the bet to match is at least the full big blind
(:func:`facing`), so the call is the full blind and the minimum raise is from there
(pokerkit is given the blind in full, see :func:`tables.domain.engine.create_state`).

On ``double_last`` tables (BET-9) an all-in raise below the house minimum (twice the bet it
raises) is incomplete: it does not reopen the betting for a player who already acted on the
street (BET-14), even when it is a full raise by pokerkit's previous-increment measure
(:func:`house_reopen_refusal`).

Implementation note: the pokerkit state is mutable and costly to copy, so a
:class:`HandState` does not copy it. ``evolve`` moves it to the new state; an older state
whose pokerkit state was moved on rebuilds its own (by folding its events again) the first
time it needs it. Observable behaviour is that of an immutable value; a state object is not
meant to be shared between threads.
"""

from __future__ import annotations

from casino.domain_events import DomainEvent
from tables.domain.betting import decide_action
from tables.domain.commands import (
    AwardPots,
    DealBoard,
    DeclareMisdeal,
    HandCommand,
    MuckCards,
    RecordRabbitHunt,
    RunItTimes,
    ShowCards,
    StartHand,
    TakeAction,
    VoidHand,
)
from tables.domain.errors import HandRuleViolation
from tables.domain.hand_start import decide_start
from tables.domain.hand_state import (
    HandState,
    LegalActions,
    Phase,
    SeatState,
    evolve,
    load,
    seat_in_hand,
)
from tables.domain.showdown import (
    decide_award,
    decide_board,
    decide_misdeal,
    decide_muck,
    decide_rabbit,
    decide_run_it,
    decide_show,
    required_reason,
    void_event,
)
from tables.events import (
    ActionKind,
)


def decide(state: HandState | None, command: HandCommand) -> list[DomainEvent]:
    """The events ``command`` leads to; ``state`` is not changed.

    Raises:
        HandRuleViolation: the command is refused (see the codes in this module).
    """
    if isinstance(command, StartHand):
        if state is not None:
            raise HandRuleViolation(
                "hand_already_started", "SEAT-4", "This hand has already started."
            )
        return [decide_start(command)]
    if state is None:
        raise HandRuleViolation("hand_not_started", "BET-1", "No hand is in progress.")
    if isinstance(command, RecordRabbitHunt):
        return decide_rabbit(state, command)
    if state.is_complete:
        raise HandRuleViolation(
            "hand_already_complete", "SD-25", "The hand is over.", hand_id=state.hand_id
        )
    if isinstance(command, TakeAction):
        return decide_action(state, command)
    if isinstance(command, DealBoard):
        return decide_board(state, command)
    if isinstance(command, ShowCards):
        return decide_show(state, command)
    if isinstance(command, MuckCards):
        return decide_muck(state, command)
    if isinstance(command, AwardPots):
        return decide_award(state, command)
    if isinstance(command, RunItTimes):
        return decide_run_it(state, command)
    if isinstance(command, DeclareMisdeal):
        return decide_misdeal(state, command)
    if isinstance(command, VoidHand):
        return [void_event(state, "void", required_reason(command.reason, "MIS-11"))]
    raise TypeError(f"not a hand command: {type(command).__name__}")


__all__ = [
    "ActionKind",
    "HandState",
    "LegalActions",
    "Phase",
    "SeatState",
    "decide",
    "evolve",
    "load",
    "seat_in_hand",
]
