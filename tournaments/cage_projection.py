"""The cage's book of tournament money (issue #14, TREG-11): every payment in or out of a
tournament stream is a :class:`cashgame.models.TournamentCageTransaction` row, and each prize
paid a :class:`cashgame.models.PrizePayment`; :func:`cashgame.cage.tournament_money` sums
them into the day's balance.

The tournaments app keeps this projection (it is above the cash game: it writes the cage's
rows, the cage never reads the tournament streams itself).
"""

from __future__ import annotations

from cashgame.models import PrizePayment, TournamentCageTransaction
from casino.eventstore.projections import Projection
from casino.eventstore.store import RecordedEvent
from tournaments.domain import events as tev
from tournaments.models import TournamentView

projection = Projection("tournament_cage", models=[TournamentCageTransaction])


_IN = "in"
_OUT = "out"


def _tournament_money(
    recorded: RecordedEvent, player_id: int, *moves: tuple[str, str, int]
) -> None:
    tournament_id = int(recorded.stream.removeprefix("tournament-"))
    TournamentCageTransaction.objects.bulk_create(
        TournamentCageTransaction(
            position=recorded.position,
            at=recorded.recorded_at,
            tournament_id=tournament_id,
            player_id=player_id,
            kind=kind,
            direction=direction,
            amount=amount,
        )
        for kind, direction, amount in moves
        if amount > 0
    )


K = TournamentCageTransaction.Kind


@projection.on(tev.PlayerRegistered)
def _t_registered(recorded: RecordedEvent) -> None:
    e = recorded.event
    assert isinstance(e, tev.PlayerRegistered)
    if e.paid_with != "cash":  # a satellite seat or T-Money: no cash moves (TREG-11)
        _tournament_money(recorded, e.player_id, (K.TICKET, _IN, e.buy_in),
                          (K.TICKET_FEE, _IN, e.fee))  # fmt: skip
        return
    _tournament_money(recorded, e.player_id, (K.BUY_IN, _IN, e.buy_in), (K.FEE, _IN, e.fee))


@projection.on(tev.PlayerReEntered)
def _t_reentered(recorded: RecordedEvent) -> None:
    e = recorded.event
    assert isinstance(e, tev.PlayerReEntered)
    _tournament_money(recorded, e.player_id, (K.RE_ENTRY, _IN, e.price), (K.FEE, _IN, e.fee))


@projection.on(tev.RebuyTaken, tev.AddOnTaken)
def _t_chips_bought(recorded: RecordedEvent) -> None:
    e = recorded.event
    assert isinstance(e, tev.RebuyTaken | tev.AddOnTaken)
    kind = K.REBUY if isinstance(e, tev.RebuyTaken) else K.ADD_ON
    _tournament_money(recorded, e.player_id, (kind, _IN, e.price), (K.FEE, _IN, e.fee))


@projection.on(tev.BountyPlaced)
def _t_bounty_placed(recorded: RecordedEvent) -> None:
    e = recorded.event
    assert isinstance(e, tev.BountyPlaced)
    if e.paid_by == "entrant":  # a fixed bounty is the house's money: no cash moves now
        entry = TournamentCageTransaction.objects.filter(  # the registration just before
            tournament_id=int(recorded.stream.removeprefix("tournament-")),
            player_id=e.player_id, position__lte=recorded.position,
        ).exclude(kind__in=(K.FEE, K.TICKET_FEE)).order_by("-position", "-id").first()  # fmt: skip
        kind = K.TICKET if entry is not None and entry.kind == K.TICKET else K.BOUNTY_IN
        _tournament_money(recorded, e.player_id, (kind, _IN, e.amount))


@projection.on(tev.PlayerUnregistered)
def _t_refunded(recorded: RecordedEvent) -> None:
    e = recorded.event
    assert isinstance(e, tev.PlayerUnregistered)
    tournament_id = int(recorded.stream.removeprefix("tournament-"))
    fee = TournamentView.objects.values_list("fee", flat=True).get(tournament_id=tournament_id)
    fee = min(fee, e.refund)  # the fee goes back too (TREG-10): the house gives it up
    if e.refund_as == "t_money":  # TREG-11: a seat won is given back as T-Money, not cash
        _tournament_money(recorded, e.player_id, (K.TICKET, _OUT, e.refund - fee),
                          (K.TICKET_FEE, _OUT, fee))  # fmt: skip
        return
    _tournament_money(recorded, e.player_id, (K.REFUND, _OUT, e.refund - fee), (K.FEE, _OUT, fee))


@projection.on(tev.SatelliteSeatWon)
def _t_seat_won(recorded: RecordedEvent) -> None:
    """The satellite's pool pays the seat (a transfer to the target, or T-Money)."""
    e = recorded.event
    assert isinstance(e, tev.SatelliteSeatWon)
    _tournament_money(recorded, e.player_id, (K.TICKET, _OUT, e.seats * e.seat_value))


@projection.on(tev.TournamentCancelled)
def _t_cancelled(recorded: RecordedEvent) -> None:
    """CXL-3: what was paid with a seat or T-Money goes back as T-Money (TREG-11)."""
    e = recorded.event
    assert isinstance(e, tev.TournamentCancelled)
    for x in e.shares:
        _tournament_money(recorded, x.player_id, (K.TICKET, _OUT, x.t_money - x.t_money_fees),
                          (K.TICKET_FEE, _OUT, x.t_money_fees))  # fmt: skip


@projection.on(tev.WinningsPaid)
def _t_paid(recorded: RecordedEvent) -> None:
    e = recorded.event
    assert isinstance(e, tev.WinningsPaid)
    kind = K.REFUND if e.kind == "cancellation" else K.PRIZE  # a settlement (CXL-2..9)
    _tournament_money(
        recorded, e.player_id, (kind, _OUT, e.prize), (K.BOUNTY_PAID, _OUT, e.bounties),
        (K.FEE, _OUT, e.fees_refunded),
    )  # fmt: skip
    tournament_id = int(recorded.stream.removeprefix("tournament-"))
    # the cage's list of prizes paid (v2 payments name their entries): each row its entry's
    # prize; the first also what the payment paid beyond them, so the rows add up to the
    # cash handed over (QA: 9,200 listed for 10,600 paid, bounties left out)
    beyond = e.prize + e.bounties + e.fees_refunded - sum(x.prize for x in e.entries)
    for i, entry in enumerate(e.entries):
        PrizePayment.objects.get_or_create(
            tournament_id=tournament_id,
            entry_number=entry.entry_number,
            defaults={
                "position": recorded.position,
                "at": recorded.recorded_at,
                "player_id": e.player_id,
                "place": entry.place,
                "prize": entry.prize,
                "bounties": e.bounties if i == 0 else 0,
                "amount": entry.prize + (max(beyond, 0) if i == 0 else 0),
            },
        )
