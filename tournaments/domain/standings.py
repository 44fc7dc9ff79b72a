"""Where the entries already out stand: their places and, once fixed, their prizes
(ELIM-2..6). Pure rules, no Django.

Below :mod:`tournaments.domain.tournament_results` (the finish places everyone with
:func:`busted_finishers`) and :mod:`tournaments.domain.payments` (the cage pays a player
out in the money as he leaves, :func:`busted_results`), so that neither imports the other.
Like :mod:`tournaments.domain.early_payouts`, it reads the state's status by its value.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from tournaments.domain import deals, payouts
from tournaments.domain.events import EliminationPlace, Result

if TYPE_CHECKING:
    from tournaments.domain.tournament import TournamentState
    from tournaments.domain.tournament_state import Elimination


def busted_finishers(
    s: TournamentState, first_place: int
) -> tuple[list[payouts.Finisher], dict[int, int]]:
    """The entries out of the event as finishers, the last elimination group placed at
    ``first_place`` and each earlier group below it, ties sharing their places (ELIM-2..5);
    and each entry's player."""
    groups: dict[int, list[Elimination]] = {}
    for e in s.eliminations:
        groups.setdefault(e.group, []).append(e)
    finishers = []
    players = {}
    place = first_place
    for group_id in sorted(groups, reverse=True):
        members = sorted(groups[group_id], key=lambda e: (e.place, e.tie_rank))
        base = members[0].place
        for e in members:
            offset_from, offset_to = e.place - base, e.place_to - base
            finishers.append(payouts.Finisher(
                e.entry_number, place + offset_from, place + offset_to, e.tie_rank
            ))  # fmt: skip
            players[e.entry_number] = e.player_id
        place += len(members)
    return finishers, players


def places_without(
    s: TournamentState, back: Elimination, first_place: int
) -> tuple[EliminationPlace, ...]:
    """The entries out whose provisional places change when ``back`` (an elimination)
    is undone and ``first_place`` is the best place of those out (ELIM-2): those tied with
    him share one place fewer, those of his group below him move up one, and every place
    is counted again from ``first_place`` (TREG-14, a rebuy after the bust)."""
    kept = []
    for e in s.eliminations:
        if e.entry_number == back.entry_number:
            continue
        if e.group == back.group and e.place > back.place_to:
            e = replace(e, place=e.place - 1, place_to=e.place_to - 1)
        elif e.group == back.group and (e.place, e.place_to) == (back.place, back.place_to):
            e = replace(e, place_to=e.place_to - 1)
        kept.append(e)
    finishers, _ = busted_finishers(replace(s, eliminations=tuple(kept)), first_place)
    now = {e.entry_number: (e.place, e.place_to) for e in s.eliminations}
    return tuple(
        EliminationPlace(f.key, f.place, f.place_to)
        for f in sorted(finishers, key=lambda f: f.key)
        if now.get(f.key) != (f.place, f.place_to)
    )


def busted_results(s: TournamentState) -> tuple[Result, ...]:
    """While the event runs: the place and prize (CZK) of every entry already out, once
    they can no longer change, so that the cage pays a player as he leaves (ELIM-6) rather
    than at the end of the night. They are fixed when the prize pool is (late registration
    closed, no rebuy or add-on left, TREG-15) and no new entry can finish below them; the
    players still in hold the places above. After a deal, a dealt player who goes out later
    gets his agreed share (DEAL-5). Empty while the pool may still change, once the event is
    over (its results then say it all:
    :func:`tournaments.domain.tournament_results.final_results`), and in a heads-up event,
    whose losers of a round share its places only once the round is over (HU-1)."""
    headsup = s.config.format == "headsup"
    if s.status != "running" or s.late_reg_open or deals.rebuys_open(s) or headsup:
        return ()
    finishers, players = busted_finishers(s, s.players_left + 1)
    cfg = s.config
    prizes = payouts.event_prizes(s.prize_pool, cfg, s.entries)
    amounts = payouts.award(prizes, finishers, cfg.payout_rounding_unit)
    agreed = s.deal.agreed
    if agreed is not None:
        for share in agreed.shares:
            if share.entry_number in amounts:
                amounts[share.entry_number] = share.amount
    return tuple(
        Result(f.key, players[f.key], f.place, f.place_to, amounts[f.key])
        for f in sorted(finishers, key=lambda f: (f.place, f.tie_rank, f.key))
    )
