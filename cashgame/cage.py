"""The cage: chips sold for cash and redeemed for cash, and the day's balance.

Every sale or redemption is an event on the ``cage`` stream, tied to the player and, when
he is seated, to his open cash session. Chips enter play two ways: sold at the cage, or
bought at a table with cash (the table's drop). The balance of a business day (in
``CASINO_TIME_ZONE``) is computed from the read models, all rebuilt from the log:

* ``chips_issued`` = cage sales + buy-ins and top-ups paid in cash at tables - cage
  redemptions (cumulative),
* ``chips_at_tables`` = buy-ins + top-ups + transfers in + sidebets won - cash-outs -
  refreshments - transfers out - sidebets lost - rake (cumulative, from the ledger),
* ``house_chips`` = rake + refreshments (cumulative): the house's,
* ``dealer_fees`` = rabbit-hunt fees paid to the dealers (RAKE-8, cumulative): theirs,
  not the house's (house_chips counted them, found by QA),
* ``chips_with_players`` = issued - at tables - house - dealer fees: chips in players'
  pockets.

Tournament money (issue #14) is projected from the tournament streams into
``TournamentCageTransaction`` (:func:`tournament_money`): buy-ins, fees, bounties,
re-entries, rebuys and add-ons in; refunds, prizes and bounties out. Tournament chips are
not cash chips: they stay out of the chip balance and of ``reconciled``.

``reconciled`` says that ``chips_at_tables`` from the ledger equals the sum of the stacks
the tables report (stacks change at the end of each hand, like the ledger's rake); it is
``None`` for a day that is over, whose stacks are no longer there to count.

A buy-in or top-up says how it was paid: ``cash`` at the table (new chips: drop) or
``chips`` the player brought from the cage (already issued, counted once).

**Drop** is defined once, here (:data:`DROP`, docs/rules-coverage.md "Drop"): the cash that
entered the game at the tables, i.e. buy-ins and top-ups paid in cash at a table, CZK.
Chips bought at the cage and then used to buy in are not drop (that cash was counted at the
cage, ``cash_in``). The cage balance's ``table_drop`` and the drop report both use it.

Redemptions are checked against the records (issue 12): a player may redeem at most the
chips he is recorded as holding away from the tables (:func:`chips_held`: bought at the
cage + cashed out at tables - brought to tables - redeemed), and never more than the chips
in players' hands overall (``chips_with_players`` may not go negative, which also holds a
buy-in or top-up paid with chips to the chips in players' hands). The floor (only) may
override the first check with a reason, recorded in the event; never the second.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from datetime import date, datetime
from typing import Any
from zoneinfo import ZoneInfo

from django.conf import settings
from django.db.models import Q, Sum

from cashgame.events import ChipsRedeemed, ChipsSold
from cashgame.models import (
    CageTransaction,
    CashSession,
    ChipMovement,
    TournamentCageTransaction,
)
from cashgame.selectors import return_restrictions, returning_minimum
from casino import clock, gaming_day
from casino.errors import DomainError, NotFound
from casino.eventstore import store
from casino.models import Player
from tables.models import HandView, SeatView

CAGE_STREAM = "cage"


def _session_of(player_id: int) -> int | None:
    open_session = CashSession.objects.filter(player_id=player_id, left_at__isnull=True).first()
    return open_session.pk if open_session else None


DROP = Q(kind__in=[ChipMovement.Kind.BUY_IN, ChipMovement.Kind.TOP_UP], paid_with="cash")
"""The drop, defined once: ``ChipMovement`` rows of cash that entered the game at a table
(buy-ins and top-ups paid in cash), CZK. Used by :func:`balance` and the drop report."""

# Chips moving between a player's pocket and the tables, per player (ChipMovement kinds).
_FROM_TABLES = [ChipMovement.Kind.CASH_OUT, ChipMovement.Kind.PARTIAL_CASH_OUT]
PAID_WITH_CHIPS = Q(
    kind__in=[ChipMovement.Kind.BUY_IN, ChipMovement.Kind.TOP_UP], paid_with="chips"
)
"""Buy-ins and top-ups paid with chips the player brought from the cage (not drop)."""


def _check_amount(player_id: int, amount: int) -> None:
    if not Player.objects.filter(pk=player_id).exists():
        raise NotFound("player_not_found", f"There is no player {player_id}.", player_id=player_id)
    if amount <= 0:
        raise DomainError("invalid_amount", "The amount must be positive.", amount=amount)


def _append(event: ChipsSold | ChipsRedeemed) -> None:
    # The cage's lock: two redemptions for one player are checked one after the other.
    store.lock_stream(CAGE_STREAM)
    store.append(CAGE_STREAM, [event], expected_version=store.stream_version(CAGE_STREAM))


def chips_held(player_id: int) -> int:
    """Chips (CZK) the records say ``player_id`` holds away from the tables: bought at the
    cage + cashed out at tables - brought to a table as a buy-in or top-up - redeemed."""
    cage = CageTransaction.objects.filter(player_id=player_id)
    ledger = ChipMovement.objects.filter(player_id=player_id)
    return (
        _sum(cage, Q(kind=CageTransaction.Kind.SOLD))
        + _sum(ledger, Q(kind__in=_FROM_TABLES))
        - _sum(ledger, PAID_WITH_CHIPS)
        - _sum(cage, Q(kind=CageTransaction.Kind.REDEEMED))
    )


def require_chips_in_hand(amount: int) -> None:
    """Chips leaving players' hands (redeemed at the cage, or brought to a table as a buy-in
    or top-up paid with chips) must be there: chips in circulation never go negative.

    Raises:
        DomainError ``chips_in_circulation_exceeded``: ``amount`` (CZK) is more than the
            chips in players' hands (``chips_with_players`` of today's balance).
    """
    in_circulation = balance(clock.now().astimezone(room_zone()).date()).chips_with_players
    if amount > in_circulation:
        raise DomainError(
            "chips_in_circulation_exceeded",
            f"Only {in_circulation} CZK of chips are in players' hands.",
            amount=amount,
            chips_with_players=in_circulation,
        )


def require_own_chips(player_id: int, amount: int) -> None:
    """A buy-in or top-up of ``amount`` CZK paid with chips from the cage: the player brings
    his own chips (BI-8), at most what the records say he holds away from the tables
    (:func:`chips_held`), and never more than all chips in players' hands. The cage's lock
    keeps a redemption of the same chips from passing at the same moment.

    Raises:
        DomainError ``buy_in_exceeds_holdings`` (BI-8) with ``held`` (CZK);
            ``chips_in_circulation_exceeded``.
    """
    store.lock_stream(CAGE_STREAM)
    held = chips_held(player_id)
    if amount > held:
        raise DomainError(
            "buy_in_exceeds_holdings",
            f"The records show {held} CZK of chips held by the player away from the tables; "
            "nobody plays another player's chips: the rest is paid in cash.",
            rule="BI-8",
            player_id=player_id,
            amount=amount,
            held=held,
        )
    require_chips_in_hand(amount)


def buy_in_restrictions(player_id: int) -> list[dict[str, Any]]:
    """The games ``player_id`` left within the return window, each with the buy-in it now
    requires (SES-7, :func:`cashgame.selectors.return_restrictions`) and the chips he holds
    away from the tables (``chips_held``, CZK, the same on every row), which count toward it
    at the cage (:func:`sell_chips`); ``[]`` when none."""
    rows = [asdict(r) for r in return_restrictions(player_id)]
    held = chips_held(player_id) if rows else 0
    return [{**row, "chips_held": held} for row in rows]


@dataclass(frozen=True, slots=True)
class BuyInFor:
    """The game and stakes a cage sale is a buy-in for (the cashier asks the player)."""

    game: str
    small_blind: int
    big_blind: int


def sell_chips(*, player_id: int, amount: int, buy_in_for: BuyInFor | None = None) -> None:
    """The cage sells ``amount`` CZK of chips to a player for cash (cash in).

    With ``buy_in_for`` the chips are a buy-in for that game and stakes: a player who left
    it less than the return window ago must bring at least the stack he left with, the
    chips he already holds (:func:`chips_held`) and this sale together. He bought the
    missing part and was refused, since the sale alone was short (found by QA).

    Raises:
        DomainError ``buy_in_below_returning_minimum`` (SES-7, 422) with
        ``amount_required`` (CZK), the ``game``, ``small_blind``, ``big_blind`` asked, and
        (when he holds chips) ``held`` and ``to_buy`` (CZK); ``player_not_found`` (404);
        ``invalid_amount``.
    """
    _check_amount(player_id, amount)
    if buy_in_for is not None:
        required = returning_minimum(
            player_id, buy_in_for.game, buy_in_for.small_blind, buy_in_for.big_blind
        )
        held = chips_held(player_id) if amount < required else 0
        if amount + held < required:
            stakes = f"{buy_in_for.game} {buy_in_for.small_blind}/{buy_in_for.big_blind}"
            detail = f"The player left {stakes} within the return window with {required}; " + (
                f"with the {held} in chips he holds, he must buy at least {required - held}."
                if held > 0
                else "his buy-in must be at least that."
            )
            raise DomainError(
                "buy_in_below_returning_minimum",
                detail,
                rule="SES-7",
                amount_required=required,
                amount=amount,
                game=buy_in_for.game,
                small_blind=buy_in_for.small_blind,
                big_blind=buy_in_for.big_blind,
                **({"held": held, "to_buy": required - held} if held > 0 else {}),
            )
    _append(ChipsSold(player_id=player_id, amount=amount, session_id=_session_of(player_id)))


def redeem_chips(*, player_id: int, amount: int, override_reason: str | None = None) -> None:
    """The cage pays ``amount`` CZK in cash for a player's chips (cash out).

    ``override_reason`` (the floor's operation only, ``redeem_chips_override``): redeem more
    than the player is recorded as holding, e.g. chips another player handed him; the
    reason and the records' figure are kept in the event.

    Raises:
        NotFound ``player_not_found``; DomainError ``invalid_amount``,
        ``redemption_exceeds_holdings`` (more than :func:`chips_held`, no override),
        ``chips_in_circulation_exceeded`` (more than all chips in players' hands: never).
    """
    _check_amount(player_id, amount)
    store.lock_stream(CAGE_STREAM)
    held = chips_held(player_id)
    if amount > held and not override_reason:
        raise DomainError(
            "redemption_exceeds_holdings",
            f"The records show {held} CZK of chips held by the player away from the tables; "
            "the floor may approve more, with a reason (floor console).",
            player_id=player_id,
            amount=amount,
            held=held,
        )
    require_chips_in_hand(amount)
    _append(
        ChipsRedeemed(
            player_id=player_id,
            amount=amount,
            session_id=_session_of(player_id),
            held=held,
            override_reason=override_reason or None,
        )
    )


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
    dealer_fees: int = 0
    tournament_cash_in: int = 0
    tournament_cash_out: int = 0
    tournament_fees: int = 0
    tournament_money_held: int = 0
    tournament_t_money_outstanding: int = 0


def _sum(queryset: Any, condition: Q | None = None) -> int:
    rows = queryset.filter(condition) if condition is not None else queryset
    return int(rows.aggregate(s=Sum("amount"))["s"] or 0)


def room_zone() -> ZoneInfo:
    """The room's time zone: business days are counted in it."""
    return ZoneInfo(settings.CASINO_TIME_ZONE)


def balance(day: date) -> CageBalance:
    """The balance of ``day`` (business day in ``CASINO_TIME_ZONE``), every figure read at
    one moment (:func:`casino.eventstore.store.consistent_read`): read one query at a time
    during play, the chips issued came out below the cash in plus the drop, and a room in
    balance read "not reconciled" (found by QA)."""
    with store.consistent_read():
        return _balance(day)


def _balance(day: date) -> CageBalance:
    start, end = gaming_day.bounds(day)  # from the cut-off (CASINO_GAMING_DAY_STARTS)
    cage_all = CageTransaction.objects.filter(at__lt=end)
    cage_day = cage_all.filter(at__gte=start)
    ledger = ChipMovement.objects.filter(at__lt=end)
    kinds = ChipMovement.Kind
    into_tables = _sum(
        ledger,
        Q(
            kind__in=[
                kinds.BUY_IN,
                kinds.TOP_UP,
                kinds.TRANSFER_IN,
                kinds.SIDEBET_WON,
                kinds.GIFT_RECEIVED,
            ]
        ),
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
    house = rake + _sum(ledger, Q(kind=kinds.REFRESHMENT))
    dealer_fees = _sum(ledger, Q(kind=kinds.DEALER_FEE))
    issued = (
        _sum(cage_all, Q(kind=CageTransaction.Kind.SOLD))
        + _sum(ledger, DROP)
        - _sum(cage_all, Q(kind=CageTransaction.Kind.REDEEMED))
    )
    reconciled: bool | None = None
    if end > clock.now():  # the day is not over: count the stacks on the tables
        cash_seats = SeatView.objects.filter(tournament_id__isnull=True)  # not tournament chips
        stacks = int(cash_seats.aggregate(s=Sum("stack"))["s"] or 0)
        reconciled = stacks == at_tables
    return CageBalance(
        day=day,
        cash_in=_sum(cage_day, Q(kind=CageTransaction.Kind.SOLD)),
        cash_out=_sum(cage_day, Q(kind=CageTransaction.Kind.REDEEMED)),
        table_drop=_sum(ledger.filter(at__gte=start), DROP),
        chips_issued=issued,
        chips_at_tables=at_tables,
        house_chips=house,
        chips_with_players=issued - at_tables - house - dealer_fees,
        reconciled=reconciled,
        dealer_fees=dealer_fees,
        **tournament_money(start, end),
    )


def tournament_money(start: datetime, end: datetime) -> dict[str, int]:
    """Tournament money through the cage (issue #14), CZK: cash taken in and paid out
    between ``start`` and ``end`` (entries, fees, knockout bounties, re-entries, rebuys,
    add-ons; refunds, prizes, bounties), the fees kept (taken - refunded), and the money
    held for tournaments up to ``end`` (taken in - paid out, fees aside: prize pools and
    bounties not yet paid; negative when the house paid a guarantee's overlay or a fixed
    bounty).

    Satellite seats and T-Money (TREG-11) move no cash: a seat won leaves the satellite's
    pool, an entry paid with it joins the target's pool and fees; what was won and not yet
    spent is ``tournament_t_money_outstanding`` (so cash taken in = fees + cash paid out +
    money held + T-Money outstanding)."""
    k = TournamentCageTransaction.Kind
    rows = TournamentCageTransaction.objects.filter(at__lt=end)
    day = rows.filter(at__gte=start)
    ticket = Q(kind__in=(k.TICKET, k.TICKET_FEE))
    fee = Q(kind__in=(k.FEE, k.TICKET_FEE))
    into, out = Q(direction="in"), Q(direction="out")
    held = _sum(rows, into & ~fee) - _sum(rows, out & ~fee)
    return {
        "tournament_cash_in": _sum(day, into & ~ticket),
        "tournament_cash_out": _sum(day, out & ~ticket),
        "tournament_fees": _sum(day, into & fee) - _sum(day, out & fee),
        "tournament_money_held": held,
        "tournament_t_money_outstanding": _sum(rows, out & ticket) - _sum(rows, into & ticket),
    }
