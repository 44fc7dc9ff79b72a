"""The cage journal: every movement of money through the cage, one row each, with who
recorded it -- chip sales and redemptions, and the tournament money (entries, fees,
bounties, re-entries, rebuys, add-ons; refunds and prizes). It is the server's record of a
shift, the same for every desk and console: the day's cage balance
(:func:`cashgame.cage.balance`) is its sum.

Rows come from the read models :class:`cashgame.models.CageTransaction` and
:class:`cashgame.models.TournamentCageTransaction`, in log order; who recorded each is the
event's metadata (:mod:`casino.actors`). Amounts in CZK; times UTC; days are business days
in the room's time zone (``date_from`` / ``date_to``, as the reports).
"""

from __future__ import annotations

from typing import Any

from django.db.models import BooleanField, Case, F, IntegerField, QuerySet, Value, When
from drf_spectacular.utils import extend_schema, extend_schema_view
from rest_framework import serializers
from rest_framework.exceptions import ValidationError

from cashgame.models import CageTransaction, TournamentCageTransaction
from cashgame.reports import DayRange, Report
from casino.actors import actor_names
from casino.eventstore.models import StoredEvent

COLUMNS = ("position", "at", "kind", "direction", "cash", "amount", "player_id", "j_tournament")
"""The columns of both halves of the union, in the same order."""

_NOT_CASH = (TournamentCageTransaction.Kind.TICKET, TournamentCageTransaction.Kind.TICKET_FEE)


class JournalDays(DayRange):
    """``date_from`` / ``date_to``: business days (inclusive) of the movements."""

    game = None

    class Meta:
        model = CageTransaction
        fields: list[str] = []


def journal_rows(params: Any) -> QuerySet[Any]:
    """The cage's movements in the days ``params`` names (``date_from`` / ``date_to``; all
    of them without), oldest first: dicts of :data:`COLUMNS`. ``direction`` is ``in`` (to
    the cage) or ``out``; ``cash`` is false for a satellite seat or T-Money (TREG-11),
    which moves no cash.

    Raises:
        ValidationError: 400 when a day is not YYYY-MM-DD or the range runs backwards.
    """
    chips = JournalDays(params, queryset=CageTransaction.objects.all())
    tournament = JournalDays(params, queryset=TournamentCageTransaction.objects.all())
    if not chips.is_valid():
        raise ValidationError(chips.errors)
    sold = CageTransaction.Kind.SOLD
    sales = (
        chips.qs.annotate(
            direction=Case(When(kind=sold, then=Value("in")), default=Value("out")),
            cash=Value(True, output_field=BooleanField()),
            j_tournament=Value(None, output_field=IntegerField()),
        )
        .values(*COLUMNS)
        .order_by()
    )  # SQLite takes no ORDER BY inside a UNION
    money = (
        tournament.qs.annotate(
            cash=Case(When(kind__in=_NOT_CASH, then=Value(False)), default=Value(True)),
            j_tournament=F("tournament_id"),
        )
        .values(*COLUMNS)
        .order_by()
    )
    return sales.union(money, all=True).order_by("position", "kind")


def with_actors(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """``rows`` with ``actor`` (``user:<id>``, ``device:<id>``, ``system:<name>``),
    ``actor_name`` (the username or device name, ``None`` when unknown) and ``request_id``
    (one per operation: an entry's buy-in, fee and bounty share it) from their events'
    metadata; two or three queries for the page."""
    metadata = dict(
        StoredEvent.objects.filter(position__in={r["position"] for r in rows}).values_list(
            "position", "metadata"
        )
    )
    actors = {p: (m or {}).get("actor", "unknown") for p, m in metadata.items()}
    names = actor_names(actors.values())
    for row in rows:
        row["tournament_id"] = row.pop("j_tournament")
        row["actor"] = actors.get(row["position"], "unknown")
        row["actor_name"] = names.get(row["actor"])
        row["request_id"] = (metadata.get(row["position"]) or {}).get("request_id")
    return rows


class JournalRow(serializers.Serializer):
    position = serializers.IntegerField(help_text="The event's position in the log.")
    at = serializers.DateTimeField(help_text="UTC")
    kind = serializers.CharField(
        help_text="sold, redeemed (chips); buy_in, fee, bounty_in, re_entry, rebuy, add_on, "
        "refund, prize, bounty_paid, ticket, ticket_fee (tournaments)"
    )
    direction = serializers.ChoiceField(choices=["in", "out"], help_text="To or from the cage.")
    cash = serializers.BooleanField(help_text="False: a satellite seat or T-Money (TREG-11).")
    amount = serializers.IntegerField(help_text="CZK, positive")
    player_id = serializers.IntegerField()
    tournament_id = serializers.IntegerField(allow_null=True)
    actor = serializers.CharField(help_text="user:<id>, device:<id> or system:<name>")
    actor_name = serializers.CharField(allow_null=True, help_text="Username or device name.")
    request_id = serializers.CharField(
        allow_null=True,
        help_text="The request that recorded it: rows of one operation share it (an entry's "
        "buy-in, fee and bounty); null for a system event.",
    )


@extend_schema_view(get=extend_schema(operation_id="cage_journal"))
class CageJournal(Report):
    """Every movement of money through the cage in the days asked, with who recorded it:
    JSON pages or every row as CSV (``?format=csv``). Its cash rows of a day add up to that
    day's ``cage_balance`` (``cash_in`` + ``tournament_cash_in``, ``cash_out`` +
    ``tournament_cash_out``)."""

    serializer_class = JournalRow
    filterset_class = JournalDays
    csv_name = "cage_journal"

    def get_queryset(self) -> QuerySet[Any]:
        return journal_rows(self.request.query_params)

    def filter_queryset(self, queryset: QuerySet[Any]) -> QuerySet[Any]:
        return queryset  # the days are applied to each half before the union

    def paginate_queryset(self, queryset: Any) -> list[Any] | None:
        page = super().paginate_queryset(queryset)
        return None if page is None else with_actors([dict(r) for r in page])
