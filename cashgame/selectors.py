"""Read-side questions of the cash game, answered from its read models and configuration."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.db.models import Max, Sum

from cashgame.models import (
    CashSession,
    ChipMovement,
    Departure,
    RakeSchedule,
    SeatingRestriction,
    StakesLimits,
)
from casino import clock


@dataclass(frozen=True, slots=True)
class ReturnRestriction:
    """SES-7: until ``until`` (UTC) the player buys into this game for at least
    ``amount_required`` CZK (the stack he left with)."""

    game: str
    small_blind: int
    big_blind: int
    amount_required: int
    left_at: datetime
    until: datetime


def return_window() -> timedelta:
    """The returning-player window (``CASH_RETURN_WINDOW_SECONDS``, default 2 hours)."""
    return timedelta(seconds=settings.CASH_RETURN_WINDOW_SECONDS)


def return_restrictions(player_id: int) -> list[ReturnRestriction]:
    """Every game the player left less than the window ago with chips, with the amount
    required (leaving with nothing requires nothing: no restriction to show). A game he
    sits in again has none: he came back and bought in (QA: the cashier was still told a
    sale for his seated game would be refused)."""
    from tables.models import SeatView, TableView

    since = clock.now() - return_window()
    rows = Departure.objects.filter(player_id=player_id, left_at__gt=since, amount__gt=0).order_by(
        "left_at"
    )
    seated_at = SeatView.objects.filter(player_id=player_id).values("table_id")
    playing = set(
        TableView.objects.filter(table_id__in=seated_at, mode="cash").values_list(
            "game", "small_blind", "big_blind"
        )
    )
    return [
        ReturnRestriction(
            d.game,
            d.small_blind,
            d.big_blind,
            d.amount + _taken_off_before(d),
            d.left_at,
            d.left_at + return_window(),
        )
        for d in rows
        if (d.game, d.small_blind, d.big_blind) not in playing
    ]


def _taken_off_before(departure: Departure) -> int:
    """CZK the player took off the table in floor-approved partial cash-outs (SES-6) during
    the visit that ended with ``departure`` (since his last buy-in at those stakes): they
    left the game with him, so they count in "the stack he left with" (SES-7). QA took all
    but one chip off and came back for 1 CZK."""
    stakes = {
        "player_id": departure.player_id,
        "game": departure.game,
        "small_blind": departure.small_blind,
        "big_blind": departure.big_blind,
    }
    moves = ChipMovement.objects.filter(**stakes, at__lte=departure.left_at)
    arrived = moves.filter(kind=ChipMovement.Kind.BUY_IN).aggregate(at=Max("at"))["at"]
    partial = moves.filter(kind=ChipMovement.Kind.PARTIAL_CASH_OUT)
    if arrived is not None:
        partial = partial.filter(at__gte=arrived)
    return int(partial.aggregate(total=Sum("amount"))["total"] or 0)


def returning_minimum(player_id: int, game: str, small_blind: int, big_blind: int) -> int:
    """The minimum buy-in SES-7 imposes on this player in this game now (0: none)."""
    return next(
        (
            r.amount_required
            for r in return_restrictions(player_id)
            if (r.game, r.small_blind, r.big_blind) == (game, small_blind, big_blind)
        ),
        0,
    )


def default_limits(game: str, small_blind: int, big_blind: int) -> StakesLimits | None:
    """The configured buy-in limits of these stakes, if the room set them (BI-3, BI-4)."""
    return StakesLimits.objects.filter(
        game=game, small_blind=small_blind, big_blind=big_blind
    ).first()


def rake_for(game: str, small_blind: int) -> RakeSchedule | None:
    """The rake step that applies to a table of this game and small blind (RAKE-1..4)."""
    return (
        RakeSchedule.objects.filter(game=game, from_small_blind__lte=small_blind)
        .order_by("-from_small_blind")
        .first()
    )


def restricted_partner_at(table_id: int, player_id: int) -> int | None:
    """A player seated at ``table_id`` whom management keeps apart from ``player_id``
    (BI-11), or ``None``."""
    from tables.models import SeatView

    partners = set(
        SeatingRestriction.objects.filter(player_a=player_id).values_list("player_b", flat=True)
    ) | set(
        SeatingRestriction.objects.filter(player_b=player_id).values_list("player_a", flat=True)
    )
    if not partners:
        return None
    return (
        SeatView.objects.filter(table_id=table_id, player_id__in=partners)
        .values_list("player_id", flat=True)
        .first()
    )


def cash_sessions(player_id: int) -> list[dict[str, object]]:
    """A player's cash sessions (``CashSessionSerializer`` rows): the session's figures,
    ``seconds_played`` so far, ``result`` (CZK, once he left) and the moves at the table
    that were not play, each already inside ``result``: ``gifts`` received less given
    (BI-9), ``sidebets`` won less lost (RAKE-5) and ``dealer_fees`` paid (RAKE-8). QA read
    a +2,175 result that was mostly a 4,500 gift, with nothing to say so."""
    now = clock.now()
    kind = ChipMovement.Kind
    inside = (kind.GIFT_RECEIVED, kind.GIFT_GIVEN, kind.SIDEBET_WON, kind.SIDEBET_LOST,
              kind.DEALER_FEE)  # fmt: skip
    moves_at: dict[int, list[tuple[datetime, str, int]]] = {}  # by table: few, and one query
    for table_id, at, move, amount in ChipMovement.objects.filter(
        player_id=player_id, kind__in=inside
    ).values_list("table_id", "at", "kind", "amount"):
        moves_at.setdefault(table_id, []).append((at, move, amount))
    rows: list[dict[str, object]] = []
    for session in CashSession.objects.filter(player_id=player_id).order_by("pk"):
        until = session.left_at or now
        moves: dict[str, int] = dict.fromkeys(inside, 0)
        for at, move, amount in moves_at.get(session.table_id, ()):
            if session.seated_at <= at <= until:
                moves[move] += amount
        rows.append({
            **vars(session),
            "seconds_played": int((until - session.seated_at).total_seconds()),
            "result": None if session.chips_out is None
            else session.chips_out + session.partial_cash_outs - session.chips_in,
            "gifts": moves[kind.GIFT_RECEIVED] - moves[kind.GIFT_GIVEN],
            "sidebets": moves[kind.SIDEBET_WON] - moves[kind.SIDEBET_LOST],
            "dealer_fees": moves[kind.DEALER_FEE],
        })  # fmt: skip
    return rows
