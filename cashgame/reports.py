"""Management reports: every figure is an aggregate of read models rebuilt from the log.

Days are the room's business days in ``CASINO_TIME_ZONE``; amounts in CZK; durations in
seconds (and hours for reading). Each endpoint is read-only, filterable by a date range
(django-filter), paginated, and documented in the OpenAPI schema. ``?format=csv`` (or
``Accept: text/csv``) answers every row of the range, unpaginated, as a CSV download
whose columns are the row serializer's fields (the reports console's "CSV" links).
"""

from __future__ import annotations

from datetime import date, datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

import django_filters
from django.conf import settings
from django.db.models import Count, DurationField, ExpressionWrapper, F, Max, Min, Q, QuerySet, Sum
from django.db.models.functions import Coalesce
from drf_spectacular.utils import extend_schema, extend_schema_view
from rest_framework import generics, serializers
from rest_framework.renderers import JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response

from cashgame import cage
from cashgame.csv_renderer import CSV_ROW_LIMIT, ReportCSVRenderer
from cashgame.models import CashSession, ChipMovement
from casino import clock, gaming_day
from casino.api.filters import IdFilter, Pagination
from casino.errors import BadRequest
from tables.domain.table_state import TABLE_GAMES
from tables.models import HandView

GAME_CHOICES = [(game, game) for game in TABLE_GAMES]
"""``?game=``: one of the games a table deals; a misspelt game is a 400, not an empty
report."""


def room_tz() -> ZoneInfo:
    return ZoneInfo(settings.CASINO_TIME_ZONE)


def _wants_csv(request: Request) -> bool:
    renderer = getattr(request, "accepted_renderer", None)
    return getattr(renderer, "format", None) == ReportCSVRenderer.format


class ReportPagination(Pagination):
    """Pages of 100 rows (``page``, ``page_size`` up to 1000, checked as every list's,
    :class:`casino.api.filters.Pagination`); a CSV download is one unpaginated list of every
    row, refused (400 ``csv_too_large``) rather than cut short above ``CSV_ROW_LIMIT``."""

    page_size = 100
    page_size_query_param = "page_size"
    max_page_size = 1000

    def paginate_queryset(
        self, queryset: Any, request: Request, view: Any = None
    ) -> list[Any] | None:
        self.csv = _wants_csv(request)
        if self.csv:
            rows = list(queryset[: CSV_ROW_LIMIT + 1])
            if len(rows) > CSV_ROW_LIMIT:  # never a download that silently stops short
                raise BadRequest(
                    "csv_too_large",
                    f"More than {CSV_ROW_LIMIT} rows: download a shorter range of days.",
                    row_limit=CSV_ROW_LIMIT,
                )
            return rows
        return super().paginate_queryset(queryset, request, view)

    def get_paginated_response(self, data: Any) -> Response:
        if self.csv:
            return Response(data)
        return super().get_paginated_response(data)


class Report(generics.ListAPIView):
    """A report: JSON pages, or every row as CSV (``?format=csv``) named after the report
    and the date range."""

    pagination_class = ReportPagination
    renderer_classes = [JSONRenderer, ReportCSVRenderer]
    csv_name = "report"

    def get_renderer_context(self) -> dict[str, Any]:
        context = super().get_renderer_context()
        params = self.request.query_params
        days = (params.get("date_from", "").strip(), params.get("date_to", "").strip())
        span = "_".join(day for day in days if day)  # valid ISO days by now
        row = self.get_serializer_class()()
        context["csv_header"] = list(getattr(row, "fields", {}))
        context["csv_filename"] = f"{self.csv_name}{'_' + span if span else ''}.csv"
        return context


class DayRange(django_filters.FilterSet):
    """``date_from`` / ``date_to``: business days (inclusive) in the room's time zone."""

    # ISO only, as the schema says: Django's default formats read 01/02/2026 as 2 January,
    # which a Czech manager means as 1 February (found by QA)
    date_from = django_filters.DateFilter(method="_from", input_formats=["%Y-%m-%d"])
    date_to = django_filters.DateFilter(method="_to", input_formats=["%Y-%m-%d"])
    game = django_filters.ChoiceFilter(field_name="game", choices=GAME_CHOICES)
    time_field = "at"

    def is_valid(self) -> bool:
        """Valid filters, and a range that runs forwards: ``date_to`` before ``date_from``
        is a mistake (400 ``invalid_request``), not an empty report."""
        if not super().is_valid():
            return False
        data = self.form.cleaned_data
        if data.get("date_from") and data.get("date_to") and data["date_from"] > data["date_to"]:
            self.form.add_error("date_to", "The range ends before it starts (date_from).")
            return False
        return True

    def _from(self, queryset: QuerySet[Any], name: str, value: date) -> QuerySet[Any]:
        return queryset.filter(**{f"{self.time_field}__gte": _midnight(value)})

    def _to(self, queryset: QuerySet[Any], name: str, value: date) -> QuerySet[Any]:
        return queryset.filter(**{f"{self.time_field}__lt": gaming_day.end_of(value)})


def _midnight(day: date) -> datetime:
    """The start of a gaming day (the cut-off, ``CASINO_GAMING_DAY_STARTS``, local time)."""
    return gaming_day.start_of(day)


# --- rake --------------------------------------------------------------------------------


class RakeFilter(DayRange):
    time_field = "ended_at"
    game = django_filters.ChoiceFilter(field_name="table__game", choices=GAME_CHOICES)
    table_id = IdFilter(field_name="table_id")

    class Meta:
        model = HandView
        fields: list[str] = []


class RakeRow(serializers.Serializer):
    day = serializers.DateField()
    table_id = serializers.IntegerField()
    game = serializers.CharField()
    small_blind = serializers.IntegerField()
    big_blind = serializers.IntegerField()
    hands = serializers.IntegerField()
    rake = serializers.IntegerField(help_text="CZK")


@extend_schema_view(get=extend_schema(operation_id="report_rake"))
class RakeReport(Report):
    """Rake by business day and cash table, with the table's game and stakes (tournament
    tables take no rake: their hands are not in it)."""

    serializer_class = RakeRow
    filterset_class = RakeFilter
    csv_name = "rake"

    def get_queryset(self) -> QuerySet[Any]:
        with_tz = gaming_day.truncate("ended_at")
        return (
            HandView.objects.filter(status="complete", table__mode="cash")
            .annotate(day=with_tz)
            .values("day", "table_id")
            .annotate(
                game=F("table__game"),
                small_blind=F("table__small_blind"),
                big_blind=F("table__big_blind"),
                hands=Count("hand_id"),
                rake=Sum("rake"),
            )
            .order_by("day", "table_id")
        )


# --- drop and cash-outs --------------------------------------------------------------------


class MovementFilter(DayRange):
    class Meta:
        model = ChipMovement
        fields: list[str] = []


class DropRow(serializers.Serializer):
    day = serializers.DateField()
    drop = serializers.IntegerField(
        help_text="Buy-ins and top-ups paid in cash at tables, CZK (docs/rules-coverage.md, "
        "'Drop'; the cage balance's table_drop)."
    )
    buy_ins = serializers.IntegerField(help_text="All buy-ins, however paid, CZK.")
    top_ups = serializers.IntegerField(help_text="All top-ups, however paid, CZK.")
    paid_with_chips = serializers.IntegerField(
        help_text="Buy-ins and top-ups paid with chips bought at the cage (not drop), CZK."
    )
    cash_outs = serializers.IntegerField(help_text="CZK")
    refreshments = serializers.IntegerField(help_text="Paid with chips, CZK (RAKE-6).")
    dealer_fees = serializers.IntegerField(
        help_text="Rabbit-hunt fees paid to the dealers from the stacks, CZK (RAKE-8)."
    )


def _sum(kind: str) -> Coalesce:
    return Coalesce(Sum("amount", filter=Q(kind=kind)), 0)


@extend_schema_view(get=extend_schema(operation_id="report_drop"))
class DropReport(Report):
    """Drop (buy-ins and top-ups paid in cash at tables, :data:`cashgame.cage.DROP`) and
    cash-outs by business day."""

    serializer_class = DropRow
    filterset_class = MovementFilter
    csv_name = "drop"

    def get_queryset(self) -> QuerySet[Any]:
        return (
            ChipMovement.objects.annotate(day=gaming_day.truncate("at"))
            .values("day")
            .annotate(
                buy_ins=_sum(ChipMovement.Kind.BUY_IN),
                top_ups=_sum(ChipMovement.Kind.TOP_UP),
                cash_outs=_sum(ChipMovement.Kind.CASH_OUT)
                + _sum(ChipMovement.Kind.PARTIAL_CASH_OUT),
                refreshments=_sum(ChipMovement.Kind.REFRESHMENT),
                dealer_fees=_sum(ChipMovement.Kind.DEALER_FEE),
                drop=Coalesce(Sum("amount", filter=cage.DROP), 0),
                paid_with_chips=Coalesce(Sum("amount", filter=cage.PAID_WITH_CHIPS), 0),
            )
            .order_by("day")
        )


class DropByTableFilter(MovementFilter):
    table_id = IdFilter(field_name="table_id")

    class Meta:
        model = ChipMovement
        fields: list[str] = []


class DropByTableRow(serializers.Serializer):
    table_id = serializers.IntegerField()
    game = serializers.CharField()
    small_blind = serializers.IntegerField()
    big_blind = serializers.IntegerField()
    drop = serializers.IntegerField(
        help_text="Buy-ins plus top-ups paid in cash at the table (cashgame.cage.DROP), CZK."
    )
    buy_ins = serializers.IntegerField(help_text="All buy-ins, cash or cage chips, CZK.")
    top_ups = serializers.IntegerField(help_text="All top-ups, cash or cage chips, CZK.")
    paid_with_chips = serializers.IntegerField(
        help_text="Buy-ins and top-ups paid with chips bought at the cage: not drop, CZK."
    )
    cash_outs = serializers.IntegerField(help_text="CZK")


@extend_schema_view(get=extend_schema(operation_id="report_drop_by_table"))
class DropByTableReport(Report):
    """Drop (buy-ins and top-ups paid in cash, :data:`cashgame.cage.DROP`, as the drop
    report and the cage balance count it) and cash-outs per table over the date range."""

    serializer_class = DropByTableRow
    filterset_class = DropByTableFilter
    csv_name = "drop-by-table"

    def get_queryset(self) -> QuerySet[Any]:
        return (
            ChipMovement.objects.values("table_id", "game", "small_blind", "big_blind")
            .annotate(
                buy_ins=_sum(ChipMovement.Kind.BUY_IN),
                top_ups=_sum(ChipMovement.Kind.TOP_UP),
                cash_outs=_sum(ChipMovement.Kind.CASH_OUT)
                + _sum(ChipMovement.Kind.PARTIAL_CASH_OUT),
                drop=Coalesce(Sum("amount", filter=cage.DROP), 0),
                paid_with_chips=Coalesce(Sum("amount", filter=cage.PAID_WITH_CHIPS), 0),
            )
            .order_by("table_id")
        )


# --- hours played ----------------------------------------------------------------------------


def hours_of(seconds: int) -> float:
    """``seconds`` as hours to two decimals, a half rounded up (882 s: 0.25 h), in integers:
    the float ``round(0.245, 2)`` gives 0.24, and the reports page, which rounds its total
    half up, showed 0.25 beside 0.24 for the same sessions (found by QA)."""
    return (seconds * 100 + 1800) // 3600 / 100


class SessionFilter(DayRange):
    time_field = "seated_at"
    player_id = IdFilter(field_name="player_id")

    class Meta:
        model = CashSession
        fields: list[str] = []


class HoursByGameRow(serializers.Serializer):
    game = serializers.CharField()
    sessions = serializers.IntegerField()
    seconds = serializers.IntegerField()
    hours = serializers.FloatField(help_text="seconds / 3600, for reading")


class HoursRow(serializers.Serializer):
    player_id = serializers.IntegerField()
    game = serializers.CharField()
    sessions = serializers.IntegerField()
    seconds = serializers.IntegerField()
    hours = serializers.FloatField(help_text="seconds / 3600, for reading")


class _HoursReport(Report):
    serializer_class: type[serializers.Serializer] = HoursRow
    filterset_class = SessionFilter
    group_by: tuple[str, ...] = ()

    def get_queryset(self) -> QuerySet[Any]:
        played = ExpressionWrapper(
            Coalesce(F("left_at"), clock.now()) - F("seated_at"), output_field=DurationField()
        )
        return (
            CashSession.objects.values(*self.group_by)
            .annotate(sessions=Count("id"), played=Sum(played))
            .order_by(*self.group_by)
        )

    def paginate_queryset(self, queryset: Any) -> Any:
        page = super().paginate_queryset(queryset)
        rows = page if page is not None else list(queryset)
        for row in rows:
            seconds = int((row.pop("played") or timedelta()).total_seconds())
            row.update(seconds=seconds, hours=hours_of(seconds))
        return rows


@extend_schema_view(get=extend_schema(operation_id="report_hours_by_player"))
class HoursByPlayerReport(_HoursReport):
    """Hours played per player and game (cash sessions; open sessions count until now)."""

    group_by = ("player_id", "game")
    csv_name = "hours-by-player"


@extend_schema_view(get=extend_schema(operation_id="report_hours_by_game"))
class HoursByGameReport(_HoursReport):
    """Hours played per game, all players together."""

    serializer_class = HoursByGameRow  # no player_id column, always empty (found by QA)
    group_by = ("game",)
    csv_name = "hours-by-game"


# --- hands per hour -------------------------------------------------------------------------


RATED_SECONDS = 600
"""Seconds of dealing below which a table's day gets no hands-per-hour figure: one quick
hand read as 3,600 hands an hour (found by QA)."""


class HandsPerHourRow(serializers.Serializer):
    day = serializers.DateField()
    table_id = serializers.IntegerField()
    hands = serializers.IntegerField()
    seconds = serializers.IntegerField(help_text="From the first deal to the last settlement.")
    hands_per_hour = serializers.FloatField(
        allow_null=True,
        help_text=f"hands * 3600 / seconds; null under {RATED_SECONDS} seconds of dealing, "
        "too short to give a pace.",
    )


@extend_schema_view(get=extend_schema(operation_id="report_hands_per_hour"))
class HandsPerHourReport(Report):
    """Hands dealt per hour at each cash table and business day (a tournament table's
    blinds are not stakes, and its shoves are not a dealer's pace)."""

    serializer_class = HandsPerHourRow
    filterset_class = RakeFilter
    csv_name = "hands-per-hour"

    def get_queryset(self) -> QuerySet[Any]:
        return (
            HandView.objects.filter(status="complete", table__mode="cash")
            .annotate(day=gaming_day.truncate("ended_at"))
            .values("day", "table_id")
            .annotate(hands=Count("hand_id"), first=Min("started_at"), last=Max("ended_at"))
            .order_by("day", "table_id")
        )

    def paginate_queryset(self, queryset: Any) -> Any:
        page = super().paginate_queryset(queryset)
        rows = page if page is not None else list(queryset)
        for row in rows:
            seconds = max(int((row.pop("last") - row.pop("first")).total_seconds()), 1)
            rate = round(row["hands"] * 3600 / seconds, 1) if seconds >= RATED_SECONDS else None
            row.update(seconds=seconds, hands_per_hour=rate)
        return rows
