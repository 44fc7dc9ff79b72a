"""The management report of finished tournaments (issue #14; a report like the cash game's,
:mod:`cashgame.reports`): one row per tournament finished in the range of business days,
JSON pages or every row as CSV (``?format=csv``)."""

from __future__ import annotations

from typing import Any

from django.db.models import F, QuerySet
from drf_spectacular.utils import extend_schema, extend_schema_view
from rest_framework import serializers

from cashgame.reports import DayRange, Report
from tournaments.models import TournamentView


class TournamentReportFilter(DayRange):
    """``date_from`` / ``date_to``: business days (inclusive) the tournaments finished on."""

    time_field = "finished_at"
    game = None  # a tournament's tables may deal more than one game

    class Meta:
        model = TournamentView
        fields: list[str] = []


class TournamentReportRow(serializers.Serializer):
    tournament_id = serializers.IntegerField()
    name = serializers.CharField()
    started_at = serializers.DateTimeField(help_text="UTC")
    finished_at = serializers.DateTimeField(help_text="UTC")
    buy_in = serializers.IntegerField(help_text="CZK per entry to the prize pool")
    fee = serializers.IntegerField(help_text="CZK per entry to the house")
    entries = serializers.IntegerField(help_text="Entries and re-entries")
    contributions = serializers.IntegerField(help_text="CZK paid into the prize pool")
    fees = serializers.IntegerField(help_text="CZK kept by the house")
    guarantee = serializers.IntegerField(help_text="CZK")
    prize_pool = serializers.IntegerField(help_text="CZK paid out in prizes")
    overlay = serializers.IntegerField(help_text="CZK the house added to reach the guarantee")
    winner_player_id = serializers.IntegerField(allow_null=True)


@extend_schema_view(get=extend_schema(operation_id="report_tournaments"))
class TournamentReport(Report):
    """Finished tournaments with their money: entries, prize pool, fees, overlay and the
    winner (the places and prizes are ``list_tournament_entries``)."""

    serializer_class = TournamentReportRow
    filterset_class = TournamentReportFilter
    csv_name = "tournaments"

    def get_queryset(self) -> QuerySet[Any]:
        return (
            TournamentView.objects.filter(status="finished")
            .order_by("finished_at", "tournament_id")
            .values(
                "tournament_id", "name", "started_at", "finished_at", "buy_in", "fee",
                "entries", "contributions", "fees", "guarantee", "overlay", "winner_player_id",
                prize_pool=F("prize_pool_final"),
            )
        )  # fmt: skip
