"""Read-side helpers: a tournament, its clock and its entries as the API shows them."""

from __future__ import annotations

import dataclasses
from typing import Any

from casino import clock
from tournaments.domain import tournament as domain
from tournaments.domain.bounties import cage_prices
from tournaments.domain.events import iso
from tournaments.models import EntryView, TournamentView
from tournaments.serializers import TournamentEntrySerializer, TournamentSerializer

ENTRY_FIELDS = [str(name) for name in TournamentEntrySerializer().fields]
VIEW_FIELDS = [
    str(name)
    for name in TournamentSerializer().fields
    if name not in {"tables", "clock", "config", "prices", "scheduled_start", "start_missed"}
]


def clock_payload(tournament_id: int) -> dict[str, Any]:
    """The live clock (:class:`tournaments.serializers.ClockSerializer`) at this moment.

    Raises:
        NotFound ``tournament_not_found``.
    """
    from tournaments.services import load_tournament

    state = load_tournament(tournament_id).state
    return dataclasses.asdict(domain.clock_view(state, clock.now()))


def tournament_payload(tournament_id: int) -> dict[str, Any]:
    """A tournament as :class:`tournaments.serializers.TournamentSerializer` documents it.

    Raises:
        NotFound ``tournament_not_found``.
    """
    from tournaments.services import load_tournament

    loaded = load_tournament(tournament_id)
    view = TournamentView.objects.values(*VIEW_FIELDS, "config").get(tournament_id=tournament_id)
    view["version"] = loaded.version
    view["tables"] = sorted(loaded.state.tables)
    view["clock"] = dataclasses.asdict(domain.clock_view(loaded.state, clock.now()))
    view["prices"] = dataclasses.asdict(cage_prices(loaded.state.config))
    start = loaded.state.scheduled_start
    view["scheduled_start"] = None if start is None else iso(start)
    view["start_missed"] = loaded.state.start_missed
    return view


def entries_payload(tournament_id: int) -> list[dict[str, Any]]:
    """Every entry with its status, seat, stack, place and prize, in entry order."""
    return list(
        EntryView.objects.filter(tournament_id=tournament_id)
        .order_by("entry_number")
        .values(*ENTRY_FIELDS)
    )


def deal_payload(tournament_id: int) -> dict[str, Any]:
    """The deal (:class:`tournaments.serializers.DealSerializer`): who asked, whether the
    table is paused for it, the proposal and its confirmations, the agreed deal.

    Raises:
        NotFound ``tournament_not_found``.
    """
    from tournaments.services import load_tournament

    loaded = load_tournament(tournament_id)
    deal = loaded.state.deal
    return {
        "requests": sorted(deal.requests),
        "discussing": deal.discussing,
        "proposal": None if deal.proposal is None else dataclasses.asdict(deal.proposal),
        "confirmations": sorted(deal.confirmations),
        "agreed": None if deal.agreed is None else dataclasses.asdict(deal.agreed),
        "version": loaded.version,
    }


def penalties_payload(tournament_id: int) -> dict[str, Any]:
    """Every ruling and flag per player, and who is sitting out now (PEN-1..16).

    Raises:
        NotFound ``tournament_not_found``.
    """
    from tournaments.services import load_tournament

    loaded = load_tournament(tournament_id)
    pen = loaded.state.penalties
    return {
        "rulings": [dataclasses.asdict(r) for rs in pen.record.values() for r in rs],
        "flags": [dataclasses.asdict(f) for fs in pen.flags.values() for f in fs],
        "sitting_out": [{"player_id": p, "hands_left": h} for p, h in pen.sitting_out.items()],
        "version": loaded.version,
    }


def t_money_payload(player_id: int) -> dict[str, Any]:
    """A player's T-Money account (TREG-11): ``balance`` (CZK) and its ``moves``, oldest
    first.

    Raises:
        NotFound ``player_not_found``.
    """
    from casino.eventstore import store
    from casino.models import require_player
    from tournaments.domain.events import TMoneyCredited, TMoneySpent
    from tournaments.services import load_t_money, t_money_stream

    require_player(player_id)
    moves = []
    for recorded in store.read_stream(t_money_stream(player_id)):
        e = recorded.event
        if isinstance(e, TMoneyCredited | TMoneySpent):
            credit = isinstance(e, TMoneyCredited)
            moves.append({
                "kind": "credit" if credit else "spend", "amount": e.amount,
                "balance": e.balance, "at": e.at,
                "reason": e.source if isinstance(e, TMoneyCredited) else None,
                "tournament_id": e.tournament_id if isinstance(e, TMoneySpent) else None,
            })  # fmt: skip
    loaded = load_t_money(player_id)
    return {"player_id": player_id, "balance": loaded.state.balance, "moves": moves,
            "version": loaded.version}  # fmt: skip


def bracket_payload(tournament_id: int) -> dict[str, Any]:
    """A heads-up event's bracket (HU-1..4): ``rounds``, the ``byes`` drawn (HU-2), every
    match known so far by round and slot (players ``a``/``b``, ``None`` while unknown; its
    ``table_id``; ``winner`` and ``ended_by`` ``result``/``inactivity`` once over; the
    places its loser shares) and the ``champion``. ``headsup`` false for other events.

    Raises:
        NotFound ``tournament_not_found``.
    """
    from tournaments.domain import headsup
    from tournaments.services import load_tournament

    loaded = load_tournament(tournament_id)
    state = loaded.state
    bracket = state.bracket
    matches = []
    for m in sorted(bracket.matches.values(), key=lambda m: (m.round, m.slot)):
        place, place_to = headsup.places(bracket, m.round)
        matches.append({
            "match_id": m.match_id, "round": m.round, "slot": m.slot, "a": m.a, "b": m.b,
            "table_id": state.match_tables.get(m.match_id), "winner": m.winner,
            "ended_by": m.ended_by, "loser_places": [place, place_to],
        })  # fmt: skip
    return {
        "headsup": state.config.format == "headsup",
        "rounds": bracket.rounds,
        "entrants": bracket.entrants,
        "byes": list(bracket.byes),
        "matches": matches,
        "champion": bracket.champion,
        "version": loaded.version,
    }


def settlement_payload(tournament_id: int) -> dict[str, Any]:
    """The cancellation settlement (CXL-2..9), or ``cancelled: false``.

    Raises:
        NotFound ``tournament_not_found``.
    """
    from tournaments.services import load_tournament

    c = load_tournament(tournament_id).state.cancellation
    if c is None:
        return {"cancelled": False, "method": None, "policy": None, "policy_version": None,
                "in_the_money": None, "shares": []}  # fmt: skip
    return {
        "cancelled": True, "method": c.method, "policy": c.policy,
        "policy_version": c.policy_version, "in_the_money": c.in_the_money,
        "shares": [dataclasses.asdict(x) for x in c.shares],
    }  # fmt: skip


def owed_payload(tournament_id: int) -> list[dict[str, Any]]:
    """What the cage still owes each player in cash, and the satellite seats taken instead
    (:class:`tournaments.serializers.OwedSerializer`, ``payments.owed_to_all``).

    Raises:
        NotFound ``tournament_not_found``.
    """
    from tournaments.domain.payments import owed_to_all
    from tournaments.services import load_tournament

    return [dataclasses.asdict(o) for o in owed_to_all(load_tournament(tournament_id).state)]
