"""Read-side helpers: a tournament, its clock and its entries as the API shows them."""

from __future__ import annotations

import dataclasses
from typing import Any

from casino import clock
from tables.models import SeatView
from tournaments.domain import tournament as domain
from tournaments.domain.bounties import cage_prices
from tournaments.domain.events import iso
from tournaments.models import EntryView, TournamentView
from tournaments.serializers import TournamentEntrySerializer, TournamentSerializer

ENTRY_FIELDS = [str(name) for name in TournamentEntrySerializer().fields if name != "also_seated"]
_FROM_THE_STREAM = {"tables", "clock", "config", "prices", "scheduled_start", "start_missed",
                   "pending_rebuys", "rebuy_after_bust"}  # fmt: skip
VIEW_FIELDS = [str(name) for name in TournamentSerializer().fields if name not in _FROM_THE_STREAM]


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
    view["pending_rebuys"] = sorted(loaded.state.pending_rebuys)
    view["rebuy_after_bust"] = sorted(loaded.state.rebuy_windows)
    return view


def entries_payload(tournament_id: int) -> list[dict[str, Any]]:
    """Every entry with its status, seat, stack, place and prize, in entry order. While the
    event runs, an entry out in the money shows its prize once it is fixed, as the cage
    pays it (:func:`tournaments.domain.standings.busted_results`, ELIM-6)."""
    rows = list(
        EntryView.objects.filter(tournament_id=tournament_id)
        .order_by("entry_number")
        .values(*ENTRY_FIELDS)
    )
    _flag_other_seats(rows)
    if any(row["prize"] is None and row["place"] is not None for row in rows):
        from tournaments.domain.standings import busted_results
        from tournaments.services import load_tournament

        state = load_tournament(tournament_id).state
        fixed = {r.entry_number: r.prize for r in busted_results(state)} if state else {}
        for row in rows:
            if row["prize"] is None and row["entry_number"] in fixed:
                row["prize"] = fixed[row["entry_number"]]
    return rows


def _flag_other_seats(rows: list[dict[str, Any]]) -> None:
    """Each entry's ``also_seated``: the seats its player holds at tables other than his
    entry's (BI-10: one active seat at a time), for entries registered or in play."""
    active = {row["player_id"] for row in rows if row["status"] in ("registered", "playing")}
    held: dict[int, list[dict[str, Any]]] = {}
    for seat in SeatView.objects.filter(player_id__in=active).values(
        "player_id", "table_id", "seat", "tournament_id"
    ):
        held.setdefault(seat["player_id"], []).append(dict(seat))
    for row in rows:
        row["also_seated"] = [
            {k: s[k] for k in ("table_id", "seat", "tournament_id")}
            for s in held.get(row["player_id"], ())
            if row["status"] in ("registered", "playing") and s["table_id"] != row["table_id"]
        ]


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


def chip_counts_payload(tournament_id: int) -> dict[str, Any]:
    """The public chip-count board (:class:`tournaments.serializers.ChipCountsSerializer`):
    the players still in ranked by chips, the payout ladder and the places taken so far.

    Names are :func:`casino.models.board_names` (nickname, else initials; namesakes told apart):
    the payload carries no player id and no full name. Chips are the entries' ``stack`` (the
    read model the entries endpoint shows): a seated player's chips as of the last hand finished
    at his table (``HandResultRecorded``), so blinds and bets of a hand in progress are not
    counted out yet. A player with no chips whose elimination waits for the end of a
    hand-for-hand round is no longer listed (as ``players_left`` does not count him). Equal
    stacks share a rank (1, 2, 2, 4) and are listed by table and seat.

    Prizes: the ladder is the event's prize per place for the current pool
    (``payouts.event_prizes``; provisional while entries, rebuys or add-ons may still come,
    TREG-15). A player out while the event runs is shown his place's prize from that ladder
    (tied places share, ELIM-3/4); once it ends, the result of ``TournamentFinished`` (an
    agreed deal's shares included). Once a deal is agreed (DEAL-5) its shares, with the money
    left to play for, replace the ladder's places that its players had left to take
    (``deal``). A cancelled event shows no players and no prizes (its settlement is the
    director's).

    Raises:
        NotFound ``tournament_not_found``.
    """
    from casino.models import Player, board_names
    from tournaments.domain import payouts
    from tournaments.domain.deals import rebuys_open
    from tournaments.services import load_tournament

    loaded = load_tournament(tournament_id)
    state = loaded.state
    name = (
        TournamentView.objects.filter(tournament_id=tournament_id)
        .values_list("name", flat=True)
        .first()
    ) or state.config.name
    rows: list[dict[str, Any]] = [
        dict(r)
        for r in EntryView.objects.filter(tournament_id=tournament_id)
        .exclude(status="unregistered")
        .values("entry_number", "player_id", "status", "stack", "table_id", "seat",
                "place", "place_to", "prize")
    ]  # fmt: skip
    bullets: dict[int, int] = {}  # each entry's number among its player's entries (TREG-9)
    for r in sorted(rows, key=lambda r: r["entry_number"]):
        r["player_entry"] = bullets[r["player_id"]] = bullets.get(r["player_id"], 0) + 1
    status = state.status
    cancelled = status == "cancelled"
    ladder = [] if cancelled else list(
        payouts.event_prizes(state.prize_pool, state.config, state.entries)
    )  # fmt: skip
    in_play = sorted(
        (r for r in rows if r["status"] == "playing" and r["stack"] > 0 and not cancelled),
        key=lambda r: (-r["stack"], r["table_id"] or 0, r["seat"] or 0, r["entry_number"]),
    )
    placed = sorted(
        (r for r in rows if r["place"] is not None and r["status"] != "playing" and not cancelled),
        key=lambda r: (r["place"], r["place_to"] or r["place"], r["entry_number"]),
    )
    ids = {r["player_id"] for r in (*in_play, *placed)}
    people = board_names(Player.objects.filter(pk__in=ids).only("name", "nickname"))

    players: list[dict[str, Any]] = []
    for i, r in enumerate(in_play):
        tied = i and r["stack"] == in_play[i - 1]["stack"]
        players.append({
            "rank": players[-1]["rank"] if tied else i + 1,
            "name": people.get(r["player_id"], "?"),
            "chips": r["stack"], "table_id": r["table_id"], "seat": r["seat"],
        })  # fmt: skip

    if status == "finished":
        prizes = {r["entry_number"]: r["prize"] or 0 for r in placed}
    else:  # the ladder's prize of each place taken so far (ties share, ELIM-3/4)
        ranks = {e.entry_number: e.tie_rank for e in state.eliminations}
        paid = [
            payouts.Finisher(r["entry_number"], r["place"], r["place_to"] or r["place"],
                             ranks.get(r["entry_number"], 0))
            for r in placed
            if r["place"] <= len(ladder)
        ]  # fmt: skip
        try:
            prizes = payouts.award(ladder, paid, state.config.payout_rounding_unit)
        except ValueError:  # places that do not add up: no prize rather than a wrong one
            prizes = {}
    finished = [
        {"place": r["place"], "place_to": r["place_to"] or r["place"],
         "name": people.get(r["player_id"], "?"), "player_entry": r["player_entry"],
         "prize": prizes.get(r["entry_number"], 0)}
        for r in placed
    ]  # fmt: skip

    # DEAL-5: an agreed deal replaces the prizes of the places its players had left to take;
    # the board kept showing the published ladder until the event ended (found by QA)
    agreed = state.deal.agreed if status == "running" else None
    deal = None
    if agreed is not None:
        named = board_names(Player.objects.filter(pk__in=[s.player_id for s in agreed.shares]))
        deal = {
            "shares": [
                {"name": named.get(s.player_id, "?"), "amount": s.amount}
                for s in sorted(agreed.shares, key=lambda s: -s.amount)
            ],
            "money_on_table": agreed.money_on_table,
        }
    dealt = len(agreed.shares) if agreed is not None else 0
    chips = sum(p["chips"] for p in players)
    provisional = status == "registering" or (
        status == "running" and (state.late_reg_open or rebuys_open(state))
    )
    return {
        "tournament_id": tournament_id,
        "name": name,
        "status": status,
        "entries": state.entries,
        "registered": sum(1 for r in rows if r["status"] == "registered"),
        "players_left": len(players),
        "chips_in_play": chips,
        "average_stack": chips // len(players) if players else 0,
        "chip_leader": players[0] if players else None,
        "players": players,
        "prize_pool": 0 if cancelled else state.prize_pool,
        "prize_pool_provisional": provisional,
        "places_paid": len(ladder),
        "payouts": [{"place": n, "prize": prize} for n, prize in enumerate(ladder, 1) if n > dealt],
        "deal": deal,
        "finished": finished,
        "version": loaded.version,
    }
