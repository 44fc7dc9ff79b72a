"""Management reports: every figure is an aggregate of read models rebuilt from the log.

Days are the room's business days in ``CASINO_TIME_ZONE``; amounts in CZK; durations in
seconds (and hours for reading). Each endpoint is read-only, filterable by a date range
(django-filter), paginated, and documented in the OpenAPI schema.
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
from rest_framework.pagination import PageNumberPagination

from cashgame.models import CashSession, ChipMovement
from casino import clock, gaming_day
from tables.models import HandView


def room_tz() -> ZoneInfo:
    return ZoneInfo(settings.CASINO_TIME_ZONE)


class ReportPagination(PageNumberPagination):
    page_size = 100
    page_size_query_param = "page_size"
    max_page_size = 1000


class _DayRange(django_filters.FilterSet):
    """``date_from`` / ``date_to``: business days (inclusive) in the room's time zone."""

    date_from = django_filters.DateFilter(method="_from")
    date_to = django_filters.DateFilter(method="_to")
    game = django_filters.CharFilter(field_name="game")
    time_field = "at"

    def _from(self, queryset: QuerySet[Any], name: str, value: date) -> QuerySet[Any]:
        return queryset.filter(**{f"{self.time_field}__gte": _midnight(value)})

    def _to(self, queryset: QuerySet[Any], name: str, value: date) -> QuerySet[Any]:
        return queryset.filter(**{f"{self.time_field}__lt": _midnight(value + timedelta(days=1))})


def _midnight(day: date) -> datetime:
    """The start of a gaming day (the cut-off, ``CASINO_GAMING_DAY_STARTS``, local time)."""
    return gaming_day.start_of(day)


# --- rake --------------------------------------------------------------------------------


class RakeFilter(_DayRange):
    time_field = "ended_at"
    game = django_filters.CharFilter(field_name="table__game")
    table_id = django_filters.NumberFilter(field_name="table_id")

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
class RakeReport(generics.ListAPIView):
    """Rake by business day and table, with the table's game and stakes."""

    serializer_class = RakeRow
    filterset_class = RakeFilter
    pagination_class = ReportPagination

    def get_queryset(self) -> QuerySet[Any]:
        with_tz = gaming_day.truncate("ended_at")
        return (
            HandView.objects.filter(status="complete")
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


class MovementFilter(_DayRange):
    class Meta:
        model = ChipMovement
        fields: list[str] = []


class DropRow(serializers.Serializer):
    day = serializers.DateField()
    drop = serializers.IntegerField(help_text="Buy-ins plus top-ups, CZK.")
    buy_ins = serializers.IntegerField()
    top_ups = serializers.IntegerField()
    cash_outs = serializers.IntegerField(help_text="CZK")
    refreshments = serializers.IntegerField(help_text="Paid with chips, CZK.")


def _sum(kind: str) -> Coalesce:
    return Coalesce(Sum("amount", filter=Q(kind=kind)), 0)


@extend_schema_view(get=extend_schema(operation_id="report_drop"))
class DropReport(generics.ListAPIView):
    """Drop (buy-ins and top-ups) and cash-outs by business day."""

    serializer_class = DropRow
    filterset_class = MovementFilter
    pagination_class = ReportPagination

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
            )
            .annotate(drop=F("buy_ins") + F("top_ups"))
            .order_by("day")
        )


# --- hours played ----------------------------------------------------------------------------


class SessionFilter(_DayRange):
    time_field = "seated_at"
    player_id = django_filters.NumberFilter(field_name="player_id")

    class Meta:
        model = CashSession
        fields: list[str] = []


class HoursRow(serializers.Serializer):
    player_id = serializers.IntegerField(allow_null=True)
    game = serializers.CharField()
    sessions = serializers.IntegerField()
    seconds = serializers.IntegerField()
    hours = serializers.FloatField(help_text="seconds / 3600, for reading")


class _HoursReport(generics.ListAPIView):
    serializer_class = HoursRow
    filterset_class = SessionFilter
    pagination_class = ReportPagination
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
            row.update(seconds=seconds, hours=round(seconds / 3600, 2))
            row.setdefault("player_id", None)
            row.setdefault("game", "all")
        return rows


@extend_schema_view(get=extend_schema(operation_id="report_hours_by_player"))
class HoursByPlayerReport(_HoursReport):
    """Hours played per player and game (cash sessions; open sessions count until now)."""

    group_by = ("player_id", "game")


@extend_schema_view(get=extend_schema(operation_id="report_hours_by_game"))
class HoursByGameReport(_HoursReport):
    """Hours played per game, all players together."""

    group_by = ("game",)


# --- hands per hour -------------------------------------------------------------------------


class HandsPerHourRow(serializers.Serializer):
    day = serializers.DateField()
    table_id = serializers.IntegerField()
    hands = serializers.IntegerField()
    seconds = serializers.IntegerField(help_text="From the first deal to the last settlement.")
    hands_per_hour = serializers.FloatField()


@extend_schema_view(get=extend_schema(operation_id="report_hands_per_hour"))
class HandsPerHourReport(generics.ListAPIView):
    """Hands dealt per hour at each table and business day."""

    serializer_class = HandsPerHourRow
    filterset_class = RakeFilter
    pagination_class = ReportPagination

    def get_queryset(self) -> QuerySet[Any]:
        return (
            HandView.objects.filter(status="complete")
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
            row.update(seconds=seconds, hands_per_hour=round(row["hands"] * 3600 / seconds, 1))
        return rows
