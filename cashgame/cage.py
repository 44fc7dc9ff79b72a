"""The cage: chips sold for cash and redeemed for cash, and the day's balance.

Every sale or redemption is an event on the ``cage`` stream, tied to the player and, when
he is seated, to his open cash session. Chips enter play two ways: sold at the cage, or
bought at a table with cash (the table's drop). The balance of a business day (in
``CASINO_TIME_ZONE``) is computed from the read models, all rebuilt from the log:

* ``chips_issued`` = cage sales + buy-ins and top-ups paid in cash at tables - cage
  redemptions (cumulative),
* ``chips_at_tables`` = buy-ins + top-ups + transfers in + sidebets won - cash-outs -
  refreshments - transfers out - sidebets lost - rake (cumulative, from the ledger),
* ``house_chips`` = rake + refreshments + dealer fees (cumulative),
* ``chips_with_players`` = issued - at tables - house: chips in players' pockets.

``reconciled`` says that ``chips_at_tables`` from the ledger equals the sum of the stacks
the tables report (stacks change at the end of each hand, like the ledger's rake); it is
``None`` for a day that is over, whose stacks are no longer there to count.

A buy-in or top-up says how it was paid: ``cash`` at the table (new chips: drop) or
``chips`` the player brought from the cage (already issued, counted once).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import Any
from zoneinfo import ZoneInfo

from django.conf import settings
from django.db.models import Q, Sum

from cashgame.events import ChipsRedeemed, ChipsSold
from cashgame.models import CageTransaction, CashSession, ChipMovement
from casino import clock, gaming_day
from casino.errors import DomainError, NotFound
from casino.eventstore import store
from casino.models import Player
from tables.models import HandView, SeatView

CAGE_STREAM = "cage"


def _session_of(player_id: int) -> int | None:
    open_session = CashSession.objects.filter(player_id=player_id, left_at__isnull=True).first()
    return open_session.pk if open_session else None


def _cage_event(event_class: type[ChipsSold | ChipsRedeemed], player_id: int, amount: int) -> None:
    if not Player.objects.filter(pk=player_id).exists():
        raise NotFound("player_not_found", f"There is no player {player_id}.", player_id=player_id)
    if amount <= 0:
        raise DomainError("invalid_amount", "The amount must be positive.", amount=amount)
    event = event_class(player_id=player_id, amount=amount, session_id=_session_of(player_id))
    store.append(CAGE_STREAM, [event], expected_version=store.stream_version(CAGE_STREAM))


def sell_chips(*, player_id: int, amount: int) -> None:
    """The cage sells ``amount`` CZK of chips to a player for cash (cash in)."""
    _cage_event(ChipsSold, player_id, amount)


def redeem_chips(*, player_id: int, amount: int) -> None:
    """The cage pays ``amount`` CZK in cash for a player's chips (cash out)."""
    _cage_event(ChipsRedeemed, player_id, amount)


@dataclass(frozen=True, slots=True)
class CageBalance:
    """The cage and the tables at the end of a business day (or now, for today), CZK."""

    day: date
    cash_in: int
    cash_out: int
    table_drop: int
    chips_issued: int
    chips_at_tables: int
    house_chips: int
    chips_with_players: int
    reconciled: bool | None


def _sum(queryset: Any, condition: Q | None = None) -> int:
    rows = queryset.filter(condition) if condition is not None else queryset
    return int(rows.aggregate(s=Sum("amount"))["s"] or 0)


def room_zone() -> ZoneInfo:
    """The room's time zone: business days are counted in it."""
    return ZoneInfo(settings.CASINO_TIME_ZONE)


def balance(day: date) -> CageBalance:
    """The balance of ``day`` (business day in ``CASINO_TIME_ZONE``)."""
    start, end = gaming_day.bounds(day)  # from the cut-off (CASINO_GAMING_DAY_STARTS)
    cage_all = CageTransaction.objects.filter(at__lt=end)
    cage_day = cage_all.filter(at__gte=start)
    ledger = ChipMovement.objects.filter(at__lt=end)
    kinds = ChipMovement.Kind
    drop_q = Q(kind__in=[kinds.BUY_IN, kinds.TOP_UP])
    into_tables = _sum(
        ledger,
        drop_q | Q(kind__in=[kinds.TRANSFER_IN, kinds.SIDEBET_WON, kinds.GIFT_RECEIVED]),
    )
    out_of_tables = _sum(
        ledger,
        Q(
            kind__in=[
                kinds.CASH_OUT,
                kinds.PARTIAL_CASH_OUT,
                kinds.REFRESHMENT,
                kinds.TRANSFER_OUT,
                kinds.SIDEBET_LOST,
                kinds.GIFT_GIVEN,
                kinds.DEALER_FEE,
            ]
        ),
    )
    rake = int(HandView.objects.filter(ended_at__lt=end).aggregate(s=Sum("rake"))["s"] or 0)
    at_tables = into_tables - out_of_tables - rake
    house = rake + _sum(ledger, Q(kind__in=[kinds.REFRESHMENT, kinds.DEALER_FEE]))
    issued = (
        _sum(cage_all, Q(kind=CageTransaction.Kind.SOLD))
        + _sum(ledger, drop_q & Q(paid_with="cash"))
        - _sum(cage_all, Q(kind=CageTransaction.Kind.REDEEMED))
    )
    reconciled: bool | None = None
    if end > clock.now():  # the day is not over: count the stacks on the tables
        stacks = int(SeatView.objects.aggregate(s=Sum("stack"))["s"] or 0)
        reconciled = stacks == at_tables
    return CageBalance(
        day=day,
        cash_in=_sum(cage_day, Q(kind=CageTransaction.Kind.SOLD)),
        cash_out=_sum(cage_day, Q(kind=CageTransaction.Kind.REDEEMED)),
        table_drop=_sum(ledger.filter(at__gte=start), drop_q & Q(paid_with="cash")),
        chips_issued=issued,
        chips_at_tables=at_tables,
        house_chips=house,
        chips_with_players=issued - at_tables - house,
        reconciled=reconciled,
    )
