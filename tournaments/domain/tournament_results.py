"""What a hand's result leads to in a tournament: the hand recorded (TSEAT-8/9 may a table
deal), eliminations and their finishing order (ELIM-1..6, ties ranked together in
hand-for-hand), bounties collected, balancing, breaking and the final-table redraw
(TSEAT-1..7), heads-up brackets, disqualification, and the finish with its prizes.

Pure Python, no Django; reached through :func:`tournaments.domain.tournament.decide`.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from datetime import datetime

from casino.errors import DomainError
from tournaments.domain import (
    bounties,
    deals,
    headsup,
    payouts,
    satellites,
    seating,
    standings,
)  # fmt: skip
from tournaments.domain.events import (
    BracketWon,
    ButtonDraw,
    ConductFlagged,
    DrawnCard,
    FinalTableRedrawn,
    HandForHandEnded,
    HandForHandRoundCompleted,
    HandResultRecorded,
    Knockout,
    MatchEnded,
    MatchSeated,
    MatchStarted,
    PenaltyStarted,
    PlayerDisqualified,
    PlayerEliminated,
    PlayerMoved,
    PlayerStack,
    RebuyRequestLapsed,
    RebuyTaken,
    Result,
    SatelliteSeatWon,
    SeatAssignment,
    TableBroken,
    TableHandStarted,
    TournamentFinished,
    TournamentStarted,
    iso,
)
from tournaments.domain.tournament_clock import (
    close_late_registration_if,
    credit_early_payout_if_due,
    end_level_by_hands,
    start_break_if_idle,
)
from tournaments.domain.tournament_commands import (
    EndHandForHand,
    RecordHandResult,
    StartTableHand,
    StartTournament,
)
from tournaments.domain.tournament_queries import (
    HAND_REFUSAL_DETAILS,
    final_table_due,
    hand_permission,
    hand_refusal,
    is_headsup,
    tables_due_to_break,
)
from tournaments.domain.tournament_rules import (
    Builder,
    busted_players,
    check_rebuy,
    level_now,
    rule_error,
)
from tournaments.domain.tournament_state import (
    PLAYING,
    RUNNING,
    PlayerState,
    TournamentState,
)


def check_may_deal(s: TournamentState, table_id: int) -> None:
    """The tournament lets ``table_id`` deal its next hand now (TSEAT-4/8/9, CLK-7).

    Raises:
        DomainError: the code :func:`hand_refusal` gives (``table_not_in_play`` for a table
            broken or in the reserve, ``on_break``, ``hand_for_hand_waiting`` ...)."""
    refusal = hand_refusal(s, table_id)
    if refusal is not None:
        detail = HAND_REFUSAL_DETAILS.get(refusal[0], "This table may not deal now.")
        raise rule_error(refusal[0], detail, rule=refusal[1], table_id=table_id)


def start_table_hand(b: Builder, cmd: StartTableHand, now: datetime) -> None:
    """``StartTableHand``: the table may deal now (TSEAT-8/9, hand-for-hand, breaks);
    records it.

    Raises:
        DomainError: the code :func:`hand_refusal` gives."""
    s = b.state
    check_may_deal(s, cmd.table_id)
    perm = hand_permission(s, cmd.table_id)
    b.emit(TableHandStarted(
        cmd.table_id, cmd.hand_number, perm.level, perm.small_blind, perm.big_blind, perm.ante,
        s.config.level(perm.level).ante_type, cmd.button_seat, cmd.small_blind_seat,
        cmd.big_blind_seat, perm.hand_for_hand_round,
    ))  # fmt: skip


def record_hand_result(b: Builder, cmd: RecordHandResult, now: datetime) -> None:
    """``RecordHandResult``: a settled hand's stacks are recorded (chips conserved,
    TREG-1), rebuys at once, then eliminations, balancing, breaking and the finish
    (:func:`settle_after_hand`).

    Raises:
        DomainError: unknown or unseated players, chips not conserved, refused rebuys."""
    s = b.state
    table = s.tables.get(cmd.table_id)
    if table is None or table.hand_number != cmd.hand_number:
        raise rule_error(
            "no_hand_in_progress", "This table is not playing that hand.",
            table_id=cmd.table_id, hand_number=cmd.hand_number,
        )  # fmt: skip
    start, final = dict(cmd.starting_stacks), dict(cmd.final_stacks)
    if set(start) != set(final) or len(start) < 2:
        raise rule_error("invalid_hand_result", "Give both stacks for every player dealt in.")
    seated = set(table.seats.values())
    for pid, chips in start.items():
        if pid not in seated:
            raise rule_error("player_not_at_table", "This player is not at this table.",
                         rule="TSEAT-2", player_id=pid)  # fmt: skip
        if chips != s.players[pid].stack:
            raise rule_error(
                "stack_mismatch", "The starting stack differs from the tournament's record.",
                player_id=pid, recorded=s.players[pid].stack, reported=chips,
            )  # fmt: skip
        if final[pid] < 0:
            raise rule_error("invalid_hand_result", "Stacks cannot be negative.", player_id=pid)
    if sum(start.values()) != sum(final.values()):
        raise rule_error(
            "chips_not_conserved", "Tournament hands have no rake: chips in = chips out.",
            rule="TREG-1", before=sum(start.values()), after=sum(final.values()),
        )  # fmt: skip
    if cmd.voided:  # MIS-1..12: every chip back, redealt; the table is free for it
        if start != final:
            raise rule_error("invalid_hand_result", "A voided hand gives every chip back.",
                             rule="MIS-11")  # fmt: skip
        b.emit(HandResultRecorded(
            cmd.table_id, cmd.hand_number,
            tuple(PlayerStack(pid, start[pid], final[pid]) for pid in sorted(start)),
            voided=True,
        ))  # fmt: skip
        start_break_if_idle(b, now)
        return
    for pid in cmd.rebuys:
        if final.get(pid, 1) != 0:
            raise rule_error("rebuy_not_busted", "Only a busted player rebuys after a hand.",
                         rule="TREG-14", player_id=pid)  # fmt: skip
        check_rebuy(s, s.players[pid], busted=True)
    rebuys = list(cmd.rebuys)
    lapsed: dict[int, str] = {}
    for pid in sorted(s.pending_rebuys & set(start)):  # asked during the hand (TREG-14)
        if final[pid] != 0:
            lapsed[pid] = "not_busted"
        elif pid not in rebuys:
            try:
                check_rebuy(s, s.players[pid], busted=True)
            except DomainError as refused:  # the period or his limit ran out: he is out
                lapsed[pid] = refused.code
                continue
            rebuys.append(pid)
    knockouts = tuple(
        Knockout(pid, tuple(cmd.knockouts.get(pid) or _biggest_winners(start, final)))
        for pid in sorted(start) if final[pid] == 0 and pid not in rebuys
    )  # fmt: skip
    b.emit(HandResultRecorded(
        cmd.table_id, cmd.hand_number,
        tuple(PlayerStack(pid, start[pid], final[pid]) for pid in sorted(start)),
        tuple(cmd.best_hands), knockouts, tuple(sorted(set(cmd.absent) & set(start))),
    ))  # fmt: skip
    r = s.config.rebuy
    for pid in rebuys:
        b.emit(RebuyTaken(pid, r.price, r.fee, s.config.rebuy_stack, True))
    _lapse_rebuy_requests(b, cmd.table_id, lapsed)
    for pid, offence, detail in cmd.conduct_flags:  # PEN-10: seen by the system
        if pid in start:
            b.emit(ConductFlagged(pid, offence, detail, True, iso(now)))
    _apply_pending_penalties(b, set(start))
    settle_after_hand(b, random.Random(cmd.seed))
    if b.state.status != RUNNING:  # the last match of a bracket ended it (HU-1)
        return
    end_level_by_hands(b, now)
    start_break_if_idle(b, now)
    if b.state.players_left == 1 and not busted_players(b.state):
        finish_tournament(b, now)
    elif not is_headsup(s) and _equal_prizes_left(b.state):
        ranked = chip_counts(b.state)  # ELIM-1: nothing left to play for
        finish_tournament(b, now, tuple((pid, 1, len(ranked)) for pid, _, _ in ranked))


def _lapse_rebuy_requests(b: Builder, table_id: int, reasons: Mapping[int, str]) -> None:
    """Record each rebuy asked during the hand that was not taken, and why (TREG-14)."""
    for pid in sorted(reasons):
        b.emit(RebuyRequestLapsed(pid, table_id, reasons[pid]))


def _biggest_winners(start: Mapping[int, int], final: Mapping[int, int]) -> list[int]:
    """Who won the most chips in the hand (when the dealer did not say who won the pot a
    busted player was all-in in, BNTY-2)."""
    gains = {pid: final[pid] - start[pid] for pid in start}
    best = max(gains.values())
    return sorted(pid for pid, g in gains.items() if g == best and g > 0)


def _round_complete(s: TournamentState) -> bool:
    if any(t.in_hand for t in s.tables.values()):
        return False
    if not s.hfh_played:
        return False
    for t in s.tables.values():
        if t.table_id in s.hfh_played:
            continue
        if sum(1 for p in t.seats.values() if s.players[p].stack > 0) >= 2:
            return False
    return True


def _tie_key(s: TournamentState, p: PlayerState) -> tuple[int, int, int]:
    """Order inside a tie for the remainder (ELIM-3: the better hand; else the first seat
    left of the button)."""
    rank = p.hand_rank if p.hand_rank is not None else 99
    if s.config.tie_remainder != "better_hand":
        rank = 0
    distance = 0
    table = s.tables.get(p.hand_table) if p.hand_table is not None else None
    if table is not None and table.button_seat is not None and p.seat is not None:
        distance = (p.seat - table.button_seat - 1) % 10
    return rank, distance, p.player_id


def _eliminate(b: Builder, round_: int | None, *, dealt_before_round: bool = False) -> None:
    """Eliminate every seated player with no chips as one group (same hand or same
    hand-for-hand round), ranked by starting stack (ELIM-2, ELIM-5), equal stacks tied
    (ELIM-3/4). ``dealt_before_round``: only those whose hand was dealt before hand-for-hand
    began, who go out at once and below the round's busts."""
    s = b.state
    busted = busted_players(s)
    if dealt_before_round:
        busted = [p for p in busted if p.hand_round is None]
    if not busted:
        return
    left = s.players_left
    group = s.eliminations[-1].group + 1 if s.eliminations else 1
    # places move while an entry may still come in (TREG-7) or a busted player may still
    # rebuy into his seat (TREG-14, PlayerReinstated)
    rebuy = s.config.rebuy
    provisional = s.late_reg_open or (rebuy.allowed and level_now(s) <= rebuy.until_level)
    ranked = sorted(busted, key=lambda p: (-p.hand_start_stack, _tie_key(s, p)))
    place = left + 1
    i = 0
    events = []
    while i < len(ranked):
        j = i
        while j < len(ranked) and ranked[j].hand_start_stack == ranked[i].hand_start_stack:
            j += 1
        for rank, p in enumerate(ranked[i:j]):
            assert p.hand_table is not None and p.hand_number is not None
            events.append(PlayerEliminated(
                p.player_id, p.entry_number, p.hand_table, p.hand_number, p.hand_start_stack,
                place, place + (j - i) - 1, provisional, group, rank, round_,
            ))  # fmt: skip
        place += j - i
        i = j
    for event in events:
        b.emit(event)
        _collect_bounty(b, event.player_id)


def _collect_bounty(b: Builder, player_id: int) -> None:
    """The bounty on a busted player goes to the winners of his all-in pot (BNTY-2/4)."""
    s = b.state
    rule = s.config.bounty
    winners = [w for w in s.players[player_id].knocked_out_by if w != player_id]
    collected = bounties.collect(s.bounty, rule.kind, rule.progressive_cash_bp, player_id, winners)
    if collected is not None:
        b.emit(collected)


def settle_after_hand(b: Builder, rng: random.Random | None) -> None:
    """After a hand (or an entry): eliminations, hand-for-hand rounds, late registration
    closing (TREG-8, TREG-4), then the table plan: final table (TSEAT-8), breaking tables
    (TSEAT-4/7), balancing (TSEAT-3/5/6)."""
    s = b.state
    if s.status != RUNNING:
        return
    if is_headsup(s):
        _settle_bracket(b, rng)
        return
    if s.hand_for_hand:
        # ELIM-5 groups the busts of one synchronised hand: a hand dealt before hand-for-hand
        # began is not one, and its bust was ranked with the first round (found by QA)
        _eliminate(b, None, dealt_before_round=True)
        s = b.state
        if not _round_complete(s):
            return
        b.emit(HandForHandRoundCompleted(s.hfh_round))
        _eliminate(b, s.hfh_round)
    else:
        _eliminate(b, None)
    s = b.state
    cfg = s.config
    if s.late_reg_open:  # closing it credits the early payout if the money is reached
        if cfg.late_reg_close_at_money and payouts.event_in_the_money(
            s.players_left, s.prize_pool, cfg, s.entries
        ):
            close_late_registration_if(b, "in_the_money")
        elif cfg.late_reg_close_below_full_table and s.players_left < cfg.table_size <= s.entries:
            # TREG-4: the field *falls* below one full table; one that never filled a table
            # (a small event) keeps its late entry to the published level
            close_late_registration_if(b, "below_full_table")
    # ELIM-7 at once, on the hand that reaches the money (it came a hand late when that
    # hand also closed late registration: found by the mutation audit)
    credit_early_payout_if_due(b)
    s = b.state
    if s.players_left <= 1:
        return
    if final_table_due(s):
        if rng is not None and not any(t.in_hand for t in s.tables.values()):
            _final_table(b, rng)
        return
    if rng is not None:
        idle = [t for t in tables_due_to_break(s) if not s.tables[t].in_hand]
        if idle:
            layouts = {t: info.layout(s.config.button_rule) for t, info in s.tables.items()}
            moves = seating.break_tables(
                layouts, idle, rng, seat_filter=cfg.broken_table_seat_filter
            )
            for table_id in idle:
                b.emit(TableBroken(table_id, "balancing"))
            for m in moves:
                b.emit(_moved(m))
    s = b.state
    due = set(tables_due_to_break(s))
    layouts = {t: info.layout(s.config.button_rule) for t, info in s.tables.items() if t not in due}
    for m in seating.balance(
        layouts, policy=cfg.balance_placement, seat_filter=cfg.broken_table_seat_filter
    ):
        b.emit(_moved(m))


def draw_bracket(b: Builder, cmd: StartTournament, players: list[int], now: datetime) -> None:
    """HU-1/HU-2: the bracket is drawn (play-in and random byes) and every match it starts
    gets a table of its own from ``table_ids``; the players with a bye wait for round 2."""
    try:
        drawn = headsup.decide(headsup.Bracket(), headsup.DrawBracket(tuple(players), cmd.seed))
    except DomainError as error:
        raise rule_error(
            error.code, error.detail, rule="HU-2", entries=len(players), **error.context
        ) from None
    table_ids = tuple(cmd.table_ids)
    needed = sum(1 for e in drawn if isinstance(e, MatchStarted))
    if len(set(table_ids)) != len(table_ids) or len(table_ids) < needed:
        raise rule_error(
            "not_enough_tables", f"The draw starts {needed} matches: {needed} distinct tables.",
            rule="HU-1", needed=needed,
        )  # fmt: skip
    order = tuple(cmd.break_order) if cmd.break_order is not None else table_ids[::-1]
    b.emit(TournamentStarted(iso(now), (), table_ids, order, (), ()))
    rng = random.Random(cmd.seed ^ 0x5EA7)  # the buttons: a stream apart from the draw
    for event in drawn:
        b.emit(event)
        if isinstance(event, MatchStarted):
            _seat_match(b, event, rng)


def _seat_match(b: Builder, match: MatchStarted, rng: random.Random) -> None:
    """The match is played at the table of a player who already sits at one (the winner of
    the match before), else at a reserve table; both start with the starting stack."""
    s, cfg = b.state, b.state.config
    held = [t for t in (s.players[match.a].table_id, s.players[match.b].table_id) if t]
    if held:
        table_id = held[0]
    elif s.reserve_tables:
        table_id = s.reserve_tables[0]
    else:
        raise rule_error("no_table_available", "No table is left for this match.", rule="HU-1")
    button, cards = seating.initial_button((1, 2), cfg.initial_button, rng)
    b.emit(MatchSeated(
        match.match_id, table_id,
        (SeatAssignment(match.a, table_id, 1), SeatAssignment(match.b, table_id, 2)),
        cfg.starting_stack,
        ButtonDraw(table_id, button, cfg.initial_button,
                   tuple(DrawnCard(st, c) for st, c in cards)),
        tuple(t for t in held[1:] if t != table_id),
    ))  # fmt: skip


def _settle_bracket(b: Builder, rng: random.Random | None) -> None:
    """After a hand in a heads-up event: a player with no chips loses his match (HU-1), and
    a match whose table has had a player ruled absent for ``headsup_inactive_hands`` hands
    in a row goes to the chip leader (HU-4). Winners advance at once."""
    rng = rng or random.Random(0)
    for p in sorted(busted_players(b.state), key=lambda p: p.player_id):
        match = headsup.match_of(b.state.bracket, p.player_id)
        if match is not None:
            winner = match.b if p.player_id == match.a else match.a
            assert winner is not None
            _end_match(b, headsup.RecordMatchResult(match.match_id, winner), rng)
    s = b.state
    threshold = s.config.headsup_inactive_hands
    for match_id, table_id in sorted(s.match_tables.items()):
        info = s.tables.get(table_id)
        match = s.bracket.matches.get(match_id)
        if info is None or match is None or match.winner is not None or info.in_hand:
            continue
        if info.idle_hands >= threshold:
            chips = {pid: s.players[pid].stack for pid in (match.a, match.b) if pid}
            command = headsup.EndInactiveMatch(match_id, chips, info.idle_hands, threshold)
            _end_match(b, command, rng)


def _end_match(
    b: Builder, command: headsup.RecordMatchResult | headsup.EndInactiveMatch,
    rng: random.Random,
) -> None:  # fmt: skip
    """The match's end: the loser is out with the places of his round (tied with its
    other losers, HU-1), his bounty goes to the winner; the next match or the event's end."""
    for event in headsup.decide(b.state.bracket, command):
        if isinstance(event, MatchEnded):
            round_ = b.state.bracket.matches[event.match_id].round
            b.emit(event)
            loser = b.state.players[event.loser]
            place, place_to = headsup.places(b.state.bracket, round_)
            assert loser.hand_table is not None and loser.hand_number is not None
            b.emit(PlayerEliminated(
                loser.player_id, loser.entry_number, loser.hand_table, loser.hand_number,
                loser.hand_start_stack, place, place_to, False, round_,
            ))  # fmt: skip
            _collect_bounty(b, loser.player_id)
        elif isinstance(event, MatchStarted):
            b.emit(event)
            _seat_match(b, event, rng)
        elif isinstance(event, BracketWon):
            b.emit(event)
            assert b.now is not None
            finish_tournament(b, b.now, ((event.winner, 1, 1),))
        else:
            b.emit(event)


def _moved(m: seating.Move) -> PlayerMoved:
    return PlayerMoved(
        m.player_id, m.from_table, m.from_seat, m.to_table, m.to_seat,
        m.reason,  # type: ignore[arg-type]
        m.wait_for_big_blind,
    )  # fmt: skip


def _final_table(b: Builder, rng: random.Random) -> None:
    if b.state.late_reg_open:  # a late entry would make a second table of a drawn final
        close_late_registration_if(b, "final_table")  # table (TSEAT-8; found by QA)
    s = b.state
    cfg = s.config
    if s.hand_for_hand:
        b.emit(HandForHandEnded("final_table"))
    final_id = s.open_break_order()[-1]
    for table_id in s.open_break_order()[:-1]:
        b.emit(TableBroken(table_id, "final_table"))
    players = [p.player_id for p in s.players.values() if p.status == PLAYING and p.stack > 0]
    seat_count = max(cfg.table_size, cfg.final_table_players)
    draw = seating.final_table_draw(players, seat_count, rng)
    button, cards = seating.initial_button(draw.values(), cfg.initial_button, rng)
    b.emit(FinalTableRedrawn(
        final_id,
        tuple(SeatAssignment(pid, final_id, seat) for pid, seat in sorted(draw.items())),
        ButtonDraw(final_id, button, cfg.initial_button,
                   tuple(DrawnCard(st, c) for st, c in cards)),
    ))  # fmt: skip


def final_results(
    s: TournamentState, winner: int, top: tuple[tuple[int, int, int], ...] | None = None
) -> tuple[Result, ...]:
    """Every entry's final place and prize (ELIM-2..6): the winner 1st, then the
    elimination groups from the last one back, ties sharing their places' prizes.

    ``top``: the players still in when the event ends otherwise (a deal with nothing left
    to play for, or equal prizes, ELIM-1), as ``(player_id, place, place_to)``. After a deal
    its players get their agreed shares instead of their places' prizes, and the winner the
    money left on the table too (DEAL-5, ELIM-6)."""
    cfg = s.config
    top = top if top is not None else ((winner, 1, 1),)
    finishers = []
    players = {}
    for rank, (pid, first, last) in enumerate(top):
        entry = s.players[pid].entry_number
        finishers.append(payouts.Finisher(entry, first, last, rank))
        players[entry] = pid
    busted, busted_players = standings.busted_finishers(s, len(top) + 1)
    finishers += busted
    players |= busted_players
    prizes = payouts.event_prizes(s.prize_pool, cfg, s.entries)
    amounts = payouts.award(prizes, finishers, cfg.payout_rounding_unit)
    agreed = s.deal.agreed
    if agreed is not None:
        for share in agreed.shares:
            amounts[share.entry_number] = share.amount
        winner_entry = s.players[winner].entry_number
        amounts[winner_entry] += agreed.money_on_table
    return tuple(
        Result(f.key, players[f.key], f.place, f.place_to, amounts[f.key])
        for f in sorted(finishers, key=lambda f: (f.place, f.tie_rank, f.key))
    )


def finish_tournament(
    b: Builder, now: datetime, top: tuple[tuple[int, int, int], ...] | None = None
) -> None:
    """The tournament ends: ``TournamentFinished`` with every entry's place and
    prize (:func:`final_results`)."""
    s = b.state
    if top:
        winner = top[0][0]
    else:
        winner = next(p.player_id for p in s.players.values() if p.status == PLAYING and p.stack)
    rule = s.config.bounty
    if rule.kind in ("knockout", "progressive"):  # BNTY-5: the winner's own bounty
        for pid in (t[0] for t in top) if top else (winner,):
            own = bounties.collect(s.bounty, rule.kind, rule.progressive_cash_bp, pid, [pid])
            if own is not None:
                b.emit(own)
        s = b.state
    b.emit(TournamentFinished(
        iso(now), winner, s.entries, s.contributions, s.prize_pool,
        s.prize_pool - s.contributions, final_results(s, winner, top),
    ))  # fmt: skip
    cfg = s.config
    if cfg.satellite_target is not None:  # TREG-11: the seats won
        for r in b.state.results:
            seats, _ = satellites.split(r.prize, cfg.satellite_seat_value)
            if seats:
                b.emit(SatelliteSeatWon(r.player_id, r.entry_number, cfg.satellite_target,
                                        seats, cfg.satellite_seat_value))  # fmt: skip


def end_hand_for_hand(b: Builder, cmd: EndHandForHand, now: datetime) -> None:
    """``EndHandForHand`` (TSEAT-9): back to normal dealing; the round's busts are
    settled first."""
    s = b.state
    if not s.hand_for_hand:
        raise rule_error("hand_for_hand_off", "Hand-for-hand is not on.")
    if any(t.in_hand for t in s.tables.values()):
        raise rule_error(
            "hand_for_hand_round_in_progress", "Wait until every table has finished its hand.",
            rule="TSEAT-9",
        )  # fmt: skip
    _eliminate(b, round_=s.hfh_round)  # busts of a partly played round go out together
    b.emit(HandForHandEnded("director"))
    settle_after_hand(b, random.Random(cmd.seed))


def _apply_pending_penalties(b: Builder, players: set[int]) -> None:
    """Penalties for conduct during the hand just recorded take effect now (PEN-1)."""
    for pending in b.state.penalties.pending:
        if pending.player_id not in players:
            continue
        b.emit(PenaltyStarted(pending.player_id, pending.kind, pending.hands))
        if pending.kind == "disqualification":
            disqualify_player(b, pending.player_id, None)


def disqualify_player(b: Builder, player_id: int, now: datetime | None) -> None:
    """Out of the event, his chips removed from play (PEN-2); then the table plan and,
    with one player left, the end."""
    s = b.state
    p = s.players[player_id]
    if p.status != PLAYING:
        return
    # the worst place of everyone still in, busts of the hand just played not yet placed
    # included: he goes out before them (PEN-2 "the next elimination"; no place twice)
    left = sum(1 for q in s.players.values() if q.status == PLAYING)
    b.emit(PlayerDisqualified(player_id, p.entry_number, p.table_id, p.stack, left))
    if now is not None:
        settle_after_hand(b, random.Random(player_id))
        if b.state.status == RUNNING and b.state.players_left == 1 and not busted_players(b.state):
            finish_tournament(b, now)


def _equal_prizes_left(s: TournamentState) -> bool:
    """ELIM-1 (second half): every remaining player would get the same prize, with the pool
    final (no late entries or rebuys to come) and no deal (it has its own end)."""
    if s.players_left < 2 or busted_players(s) or s.late_reg_open or s.deal.agreed is not None:
        return False
    if deals.rebuys_open(s) or s.hand_for_hand:
        return False
    prizes = deals.remaining_prizes(s)
    return len(set(prizes)) == 1 and prizes[0] > 0


def chip_counts(s: TournamentState) -> tuple[tuple[int, int, int], ...]:
    """The remaining players ranked by chips (places 1, 2, ...; equal stacks ranked by
    seat), when the event ends with several players left."""
    left = sorted(
        (p for p in s.players.values() if p.status == PLAYING and p.stack > 0),
        key=lambda p: (-p.stack, p.seat or 0, p.player_id),
    )
    return tuple((p.player_id, i, i) for i, p in enumerate(left, 1))
