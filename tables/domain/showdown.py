"""After the betting: the board (BET-2, MIS-12/13/17), shows and mucks (SD-3, SD-7,
SD-16), settling the pots by the hands shown or by the dealer's award (SD-1, SD-2, SD-20,
SD-21), running the board more than once (RAKE-10), misdeals and voided hands (MIS-1..3,
MIS-11) and the rabbit hunt (RAKE-7, RAKE-8). Refusal codes: the docstring of
:mod:`tables.domain.hand`.
"""

from __future__ import annotations

from phevaluator import evaluate_cards, evaluate_omaha_cards

from casino.domain_events import DomainEvent
from tables.domain import engine
from tables.domain.cards import check_no_duplicates, parse_cards
from tables.domain.commands import (
    AwardPots,
    DealBoard,
    DeclareMisdeal,
    MuckCards,
    RecordRabbitHunt,
    RunItTimes,
    ShowCards,
)
from tables.domain.errors import HandRuleViolation
from tables.domain.hand_state import (
    CARDS_PER_STREET,
    PASSIVE_ACTIONS,
    RUN_TIMES,
    HandState,
    SeatState,
    evolve,
    pot_inputs,
    seat_in_hand,
    street_after,
)
from tables.domain.pots import (
    Pot,
    PotDecider,
    PotDecision,
    Settlement,
    settle_pots,
)
from tables.domain.showdown_procedure import face_up_rule
from tables.events import (
    ActionTaken,
    BoardDealt,
    CardsMucked,
    CardsShown,
    HandSettled,
    HandVoided,
    RabbitHunted,
    RunItTimesAgreed,
    SeatAmount,
    SeatStack,
    SettleMethod,
    VoidKind,
)
from tables.ruling_events import BurnRecorded, CardsExposed, RabbitHuntConsented


def decide_board(state: HandState, cmd: DealBoard) -> list[DomainEvent]:
    if state.phase == "betting":
        raise HandRuleViolation(
            "betting_round_not_complete",
            "BET-1",
            f"Seat {state.to_act} is still to act.",
            to_act=state.to_act,
        )
    if not 1 <= cmd.run <= state.run_count:
        raise HandRuleViolation(
            "invalid_run",
            "RAKE-10",
            f"The board is run {state.run_count} time(s): there is no run {cmd.run}.",
            run=cmd.run,
            run_count=state.run_count,
        )
    if state.run_boards:
        size = len(state.board) + len(state.run_boards[cmd.run - 1])
        expected = None if size >= 5 else street_after(size)
    else:
        expected = state.next_street
    if cmd.street != expected:
        raise HandRuleViolation(
            "wrong_board_street",
            "BET-2",
            f"The next street is {expected}, not {cmd.street}.",
            street=cmd.street,
            expected_street=expected,
            run=cmd.run,
        )
    cards = parse_cards(cmd.cards)
    if len(cards) != CARDS_PER_STREET[cmd.street]:
        # four cards on the flop is MIS-17's irregularity, ruled by the floor; any other
        # count is a miskeyed board, refused by the board's own rule (QA: a two-card flop
        # cited MIS-17)
        four_card_flop = cmd.street == "flop" and len(cards) == 4
        raise HandRuleViolation(
            "wrong_card_count",
            "MIS-17" if four_card_flop else "BET-2",
            f"The {cmd.street} is {CARDS_PER_STREET[cmd.street]} card(s)."
            + (
                " A four-card flop is the floor's: record the irregularity"
                " (four_card_flop), which picks the burn at random."
                if four_card_flop
                else ""
            ),
            street=cmd.street,
            card_count=len(cards),
        )
    check_no_duplicates(cards, cards_in_play(state))
    event = BoardDealt(street=cmd.street, cards="".join(cards), run=cmd.run)
    if state.phase != "showdown":
        return [event]
    return [event, *_settle_if_ready(evolve(state, event))]


def cards_in_play(state: HandState, *, except_seat: int | None = None) -> list[str]:
    """Every card the hand has seen (MIS-12: a card can be in one place only): the boards,
    the cards shown, the burns and the hole cards a player exposed (``except_seat``'s own
    exposures left out: his showdown shows them again)."""
    cards = list(state.board)
    for extra in state.run_boards:
        cards.extend(extra)
    for s in state.seats:
        if s.shown:
            cards.extend(parse_cards(s.shown))
    for e in state.history:
        if isinstance(e, BurnRecorded) or (isinstance(e, CardsExposed) and e.seat != except_seat):
            cards.extend(parse_cards(e.card if isinstance(e, BurnRecorded) else e.cards))
    return cards


def _showdown_seat(state: HandState, seat_number: int) -> SeatState:
    seat = seat_in_hand(state, seat_number)
    if seat.folded:
        raise HandRuleViolation(
            "seat_folded", "SD-16", f"Seat {seat.seat} has folded.", seat=seat.seat
        )
    if state.phase != "showdown":
        raise HandRuleViolation(
            "not_at_showdown",
            "BET-31",
            "Hands are shown or mucked only once the betting is over.",
            seat=seat.seat,
            phase=state.phase,
        )
    if seat.shown is not None:
        raise HandRuleViolation(
            "cards_already_shown", "SD-3", f"Seat {seat.seat} has shown.", seat=seat.seat
        )
    if seat.mucked:
        raise HandRuleViolation(
            "cards_already_mucked", "SD-7", f"Seat {seat.seat} has mucked.", seat=seat.seat
        )
    return seat


def decide_show(state: HandState, cmd: ShowCards) -> list[DomainEvent]:
    seat = _showdown_seat(state, cmd.seat)
    cards = parse_cards(cmd.cards)
    needed = engine.HOLE_CARD_COUNT[state.game]
    if len(cards) != needed:
        raise HandRuleViolation(
            "wrong_card_count",
            "SD-3",
            f"Show all {needed} hole cards.",
            seat=seat.seat,
            card_count=len(cards),
            expected=needed,
        )
    check_no_duplicates(cards, cards_in_play(state, except_seat=seat.seat))
    exposed = [
        card
        for e in state.history
        if isinstance(e, CardsExposed) and e.seat == seat.seat
        for card in parse_cards(e.cards)
    ]
    missing = [card for card in exposed if card not in cards]
    if missing:  # his exposed cards are his: a show without them contradicts the record
        raise HandRuleViolation(
            "exposed_cards_not_shown",
            "MIS-12",
            f"Seat {seat.seat} exposed {''.join(missing)} in this hand: his hand shows it.",
            seat=seat.seat,
            exposed="".join(exposed),
        )
    event = CardsShown(seat=seat.seat, cards="".join(cards))
    return [event, *_settle_if_ready(evolve(state, event))]


def decide_muck(state: HandState, cmd: MuckCards) -> list[DomainEvent]:
    seat = _showdown_seat(state, cmd.seat)
    rule = face_up_rule(face_up=state.started.all_in_face_up, mode=state.started.mode)
    if rule and any(s.all_in for s in state.seats if s.live):
        raise HandRuleViolation(
            "all_in_hands_face_up",
            "SD-12" if seat.all_in else rule,
            "A player is all-in: every live hand is turned face up; none is mucked unseen.",
            seat=seat.seat,
        )
    for pot in state.pots():
        if pot.eligible_seats == (seat.seat,) and len(state.live_seats) > 1:
            raise HandRuleViolation(
                "last_live_hand",
                "SD-16",
                f"Seat {seat.seat} is the last live hand in pot {pot.index}: show, or award"
                " the pots.",
                seat=seat.seat,
                pot_index=pot.index,
            )
    if seat.all_in and not cmd.deliberate:
        raise HandRuleViolation(
            "all_in_hand_not_mucked",
            "SD-12",
            "An all-in hand is never mucked unseen: table it, or record that the player "
            "threw it away on purpose.",
            seat=seat.seat,
        )
    event = CardsMucked(seat=seat.seat)
    return [event, *_settle_if_ready(evolve(state, event))]


def _settle_if_ready(state: HandState) -> list[DomainEvent]:
    """``HandSettled`` when the showdown is decided, else nothing."""
    live = [s for s in state.seats if s.live]
    if len(live) == 1:
        winner = live[0].seat
        return [settle(state, state.seats, "uncontested", lambda pot: PotDecision((winner,)))]
    boards = state.boards
    if any(len(board) < 5 for board in boards) or any(s.shown is None for s in live):
        return []
    ranks_by_run = [
        {s.seat: _rank(state.game, board, s.shown) for s in live if s.shown} for board in boards
    ]

    def best_on(ranks: dict[int, int], pot: Pot) -> PotDecision:
        best = min(ranks[seat] for seat in pot.eligible_seats)
        return PotDecision(
            winners=tuple(seat for seat in pot.eligible_seats if ranks[seat] == best),
            hand_rank=best,
        )

    def by_cards(pot: Pot) -> PotDecision | tuple[PotDecision, ...]:
        decisions = tuple(best_on(ranks, pot) for ranks in ranks_by_run)
        return decisions[0] if len(decisions) == 1 else decisions

    return [settle(state, state.seats, "showdown", by_cards)]


def _rank(game: str, board: tuple[str, ...], shown: str) -> int:
    hole = parse_cards(shown)
    if game == "PLO":
        return int(evaluate_omaha_cards(*board, *hole))
    return int(evaluate_cards(*board, *hole))


def decide_award(state: HandState, cmd: AwardPots) -> list[DomainEvent]:
    if state.phase != "showdown":
        raise HandRuleViolation(
            "not_at_showdown",
            "SD-1",
            "Pots are awarded once the betting is over.",
            phase=state.phase,
        )
    if any(len(board) < 5 for board in state.boards):
        raise HandRuleViolation(
            "board_not_complete",
            "SD-2",
            "Deal the rest of the board before awarding the pots.",
            next_street=state.next_street,
            next_run=state.next_run,
        )
    runs = state.run_count
    by_run = cmd.winners_by_run if runs > 1 else (cmd.winners_by_pot,)
    if (runs > 1 and cmd.winners_by_pot) or (runs == 1 and cmd.winners_by_run):
        raise HandRuleViolation(
            "wrong_run_count",
            "RAKE-10",
            "Name the winners by run (winners_by_run) when the board was run more than once,"
            " by pot (winners_by_pot) otherwise.",
            run_count=runs,
        )
    if len(by_run) != runs:
        raise HandRuleViolation(
            "wrong_run_count",
            "RAKE-10",
            f"The board was run {runs} times: name the winners of each run.",
            run_count=runs,
            given=len(by_run),
        )
    pots = state.pots()
    shown = frozenset(seat.seat for seat in state.seats if seat.shown)
    for run, winners_by_pot in enumerate(by_run, 1):
        _check_manual_winners(pots, winners_by_pot, run if runs > 1 else None, shown)
    chosen = [
        {pot.index: tuple(w) for pot, w in zip(pots, winners_by_pot, strict=True)}
        for winners_by_pot in by_run
    ]

    def decide_pot(pot: Pot) -> PotDecision | tuple[PotDecision, ...]:
        decisions = tuple(PotDecision(run[pot.index]) for run in chosen)
        return decisions[0] if len(decisions) == 1 else decisions

    return [settle(state, state.seats, "manual", decide_pot)]


def _check_manual_winners(
    pots: tuple[Pot, ...],
    winners_by_pot: tuple[tuple[int, ...], ...],
    run: int | None,
    shown: frozenset[int] = frozenset(),
) -> None:
    """SD-20/SD-21 checks of one run's manual award (``run`` is ``None`` for one board).

    SD-3: to win any share of a pot a player tables his cards. A manual award is the
    dealer's reading of the cards on the table, so where no player of a pot had his cards
    recorded the dealer's word stands; once one of them did (``shown``), a seat that
    never showed cannot take any of that pot over him (``cards_not_tabled``, QA: a pot went
    to a seat that never showed over one that did). The dealer records the winner's cards
    first (show), or the floor rules on a hand mucked by mistake afterwards (SD-5, a
    correction)."""
    where = {} if run is None else {"run": run}
    if len(winners_by_pot) != len(pots):
        raise HandRuleViolation(
            "wrong_pot_count",
            "SD-20",
            f"There are {len(pots)} pots.",
            pot_count=len(pots),
            given=len(winners_by_pot),
            **where,
        )
    for pot, winners in zip(pots, winners_by_pot, strict=True):
        if not winners:
            raise HandRuleViolation(
                "pot_without_winner",
                "SD-20",
                f"Name the winner of pot {pot.index}.",
                pot_index=pot.index,
                **where,
            )
        if len(set(winners)) != len(winners):
            raise HandRuleViolation(
                "duplicate_winner",
                "SD-21",
                "A winner is named twice.",
                pot_index=pot.index,
                **where,
            )
        for seat in winners:
            if seat not in pot.eligible_seats:
                raise HandRuleViolation(
                    "seat_not_eligible",
                    "SD-20",
                    f"Seat {seat} cannot win pot {pot.index}.",
                    pot_index=pot.index,
                    seat=seat,
                    eligible_seats=list(pot.eligible_seats),
                    **where,
                )
            if seat not in shown and shown.intersection(pot.eligible_seats):
                raise HandRuleViolation(
                    "cards_not_tabled",
                    "SD-3",
                    f"Seat {seat} has not tabled his cards: a player who did contests pot "
                    f"{pot.index}. Record the winner's cards first.",
                    pot_index=pot.index,
                    seat=seat,
                    shown_seats=sorted(shown.intersection(pot.eligible_seats)),
                    **where,
                )


def decide_run_it(state: HandState, cmd: RunItTimes) -> list[DomainEvent]:
    if state.started.mode == "tournament":
        raise HandRuleViolation(
            "run_it_not_allowed",
            "RAKE-10",
            "The board is run once in tournaments.",
            mode=state.started.mode,
        )
    if cmd.times not in RUN_TIMES:
        raise HandRuleViolation(
            "invalid_run_count",
            "RAKE-10",
            "The rest of the board may be run 2 or 3 times.",
            times=cmd.times,
            max_times=max(RUN_TIMES),
        )
    if state.run_boards:
        raise HandRuleViolation(
            "run_count_already_set",
            "RAKE-10",
            f"The players already agreed to run it {state.run_count} times.",
            run_count=state.run_count,
        )
    live = sum(1 for s in state.seats if s.live)
    if state.phase != "showdown" or live < 2 or len(state.board) >= 5:
        raise HandRuleViolation(
            "run_it_not_available",
            "RAKE-10",
            "The board may be run more than once only when the players left are all-in"
            " (all but one at most) with the betting over and the board not complete.",
            phase=state.phase,
            board_size=len(state.board),
            live_count=live,
        )
    return [RunItTimesAgreed(times=cmd.times)]


def required_reason(reason: str, rule: str) -> str:
    cleaned = reason.strip()
    if not cleaned:
        raise HandRuleViolation("reason_required", rule, "Say why the hand is void.")
    return cleaned


def decide_misdeal(state: HandState, cmd: DeclareMisdeal) -> list[DomainEvent]:
    started = state.started
    reason = required_reason(cmd.reason, "MIS-1")
    threshold = started.misdeal_action_threshold
    passive = started.misdeal_counts_passive_actions
    if any(state.boards) and not started.misdeal_allowed_after_flop:
        raise HandRuleViolation(
            "misdeal_too_late",
            "MIS-3",
            "The flop is out: there is no misdeal any more; play the hand as dealt.",
            street=state.street,
            misdeal_allowed_after_flop=False,
        )
    counted = sum(
        1
        for event in state.history
        if isinstance(event, ActionTaken) and (passive or event.action not in PASSIVE_ACTIONS)
    )
    if counted >= threshold:
        rule = ("MIS-2" if threshold >= 3 else "MIS-1") if passive else "MIS-3"
        raise HandRuleViolation(
            "misdeal_too_late",
            rule,
            f"{counted} action(s) taken, the misdeal limit is {threshold}: play the hand as dealt.",
            actions_counted=counted,
            misdeal_action_threshold=threshold,
            misdeal_counts_passive_actions=passive,
        )
    return [void_event(state, "misdeal", reason)]


def void_event(state: HandState, kind: VoidKind, reason: str) -> HandVoided:
    """Every ante, blind, straddle and bet back to its owner (MIS-1..3, MIS-11, MIS-12)."""
    return HandVoided(
        kind=kind,
        reason=reason,
        returned=tuple(
            SeatAmount(seat=s.seat, amount=s.contributed) for s in state.seats if s.contributed
        ),
        final_stacks=tuple(SeatStack(seat=s.seat, stack=s.starting_stack) for s in state.seats),
    )


def _no_rabbit_hunt_yet(state: HandState) -> None:
    """A cash hand whose undealt cards were not shown yet (RAKE-7, RAKE-8).

    Raises:
        HandRuleViolation: ``rabbit_hunt_not_allowed`` (RAKE-7: a tournament),
        ``rabbit_hunt_already_recorded`` (RAKE-8).
    """
    if state.started.mode == "tournament":
        raise HandRuleViolation(
            "rabbit_hunt_not_allowed",
            "RAKE-7",
            "No rabbit hunting in tournaments.",
            mode=state.started.mode,
        )
    if state.rabbit is not None:
        raise HandRuleViolation(
            "rabbit_hunt_already_recorded",
            "RAKE-8",
            "The undealt cards of this hand were already shown.",
            seat=state.rabbit.seat,
        )


def rabbit_consent(
    state: HandState, seat: int, consenting_seats: tuple[int, ...]
) -> RabbitHuntConsented:
    """The other players' consent to ``seat``'s rabbit hunt (RAKE-8): every other player
    dealt into the hand must consent; never in a tournament (RAKE-7).

    Raises:
        HandRuleViolation: ``rabbit_hunt_not_allowed`` (RAKE-7), ``consent_missing``,
        ``rabbit_hunt_already_recorded``, ``seat_listed_twice``, ``seat_not_in_hand``
        (RAKE-8).
    """
    _no_rabbit_hunt_yet(state)
    seat_in_hand(state, seat)
    if len(set(consenting_seats)) != len(consenting_seats):
        raise HandRuleViolation(
            "seat_listed_twice", "RAKE-8", "Give each consenting seat once.",
            seats=sorted({s for s in consenting_seats if consenting_seats.count(s) > 1}),
        )  # fmt: skip
    for consenting in consenting_seats:  # a seat not dealt in cannot consent (found by QA)
        seat_in_hand(state, consenting, rule="RAKE-8")
    others = {s.seat for s in state.seats if s.seat != seat}
    missing = others - set(consenting_seats)
    if missing:
        raise HandRuleViolation(
            "consent_missing",
            "RAKE-8",
            "Every other player dealt into the hand must consent.",
            missing=sorted(missing),
        )
    return RabbitHuntConsented(seat, tuple(sorted(set(consenting_seats) & others)))


def decide_rabbit(state: HandState, cmd: RecordRabbitHunt) -> list[DomainEvent]:
    """The rabbit hunt after a cash hand (RAKE-7, RAKE-8): with the other players' consent,
    given with the command (``consenting_seats``) or recorded before it for the same seat
    (``record_rabbit_consent``)."""
    _no_rabbit_hunt_yet(state)
    if not state.is_complete:
        raise HandRuleViolation(
            "hand_not_complete",
            "RAKE-8",
            "The undealt cards are shown only after the hand.",
            phase=state.phase,
        )
    if state.voided is not None:
        raise HandRuleViolation(
            "hand_voided", "RAKE-8", "The hand was void: there is nothing to hunt."
        )
    seat = seat_in_hand(state, cmd.seat)
    if cmd.fee < 1:  # RAKE-8: the requester pays a fee (QA recorded a hunt for 0)
        raise HandRuleViolation(
            "invalid_fee", "RAKE-8", "The requester pays a rabbit-hunt fee of at least 1.",
            fee=cmd.fee,
        )  # fmt: skip
    if cmd.fee > seat.stack:
        raise HandRuleViolation(
            "fee_exceeds_stack",
            "RAKE-8",
            f"Seat {seat.seat} has {seat.stack}: the fee of {cmd.fee} is more.",
            seat=seat.seat,
            fee=cmd.fee,
            stack=seat.stack,
        )
    undealt = 5 - max(len(board) for board in state.boards)
    if undealt == 0:
        raise HandRuleViolation(
            "nothing_to_hunt", "RAKE-8", "The whole board was dealt.", seat=seat.seat
        )
    cards = parse_cards(cmd.cards)
    if len(cards) > undealt:
        raise HandRuleViolation(
            "wrong_card_count",
            "RAKE-8",
            f"At most {undealt} card(s) of the board were not dealt.",
            card_count=len(cards),
            undealt=undealt,
        )
    check_no_duplicates(cards, cards_in_play(state))
    consent: list[DomainEvent] = []
    if cmd.consenting_seats is not None:
        consent = [rabbit_consent(state, cmd.seat, cmd.consenting_seats)]
    elif not any(isinstance(e, RabbitHuntConsented) and e.seat == cmd.seat for e in state.history):
        raise HandRuleViolation(
            "consent_missing",
            "RAKE-8",
            "The other players have not consented to this rabbit hunt.",
            seat=cmd.seat,
            missing=sorted(s.seat for s in state.seats if s.seat != cmd.seat),
        )
    return [*consent, RabbitHunted(seat=seat.seat, cards="".join(cards), fee=cmd.fee)]


def settle(
    state: HandState,
    seats: tuple[SeatState, ...],
    method: SettleMethod,
    decide_pot: PotDecider,
) -> HandSettled:
    started = state.started
    contributions, dead_money = pot_inputs(started, seats)
    settlement: Settlement = settle_pots(
        contributions,
        [s.seat for s in seats if s.live],
        decide_pot,
        button_seat=started.button_seat,
        rake_percent_bp=started.rake_percent_bp,
        rake_cap=started.rake_cap,
        take_rake=not (started.no_flop_no_drop and not any(state.boards)),
        dead_money=dead_money,
    )
    return HandSettled(
        method=method,
        uncalled=settlement.uncalled,
        pots=settlement.pots,
        rake=settlement.rake,
        final_stacks=tuple(
            SeatStack(seat=s.seat, stack=s.stack + settlement.payouts.get(s.seat, 0)) for s in seats
        ),
    )
