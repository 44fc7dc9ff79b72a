"""A table's hands, newest first, filtered and paginated (``GET /api/v1/tables/<id>/hands/``).

Filters (django-filter, unknown ones answer 400 ``unknown_filter``): ``date_from`` /
``date_to`` (UTC times, on ``started_at``), ``hand_number`` / ``hand_number_from`` /
``hand_number_to``, ``player`` (a player id dealt in: read from the table stream's
``HandBegan`` events, which name the seats dealt in).
"""

from __future__ import annotations

from typing import Any

import django_filters
from django.db.models import QuerySet
from django.http import HttpResponse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework.generics import GenericAPIView
from rest_framework.request import Request
from rest_framework.response import Response

from casino.api.errors import ErrorSerializer
from casino.api.filters import IdFilter, Pagination, StrictFilterSet, UtcDateTimeFilter
from casino.errors import BadRequest, Conflict, NotFound
from casino.eventstore.models import StoredEvent
from tables.models import HandView, TableView


class HandRowSerializer(serializers.ModelSerializer):
    class Meta:
        model = HandView
        fields = ["hand_id", "hand_number", "button_seat", "players", "status", "pot", "rake",
                  "started_at", "ended_at"]  # fmt: skip
        extra_kwargs = {
            "pot": {"help_text": "CZK: every pot's chips once settled, rake included; 0 while "
                    "running or voided."},
            "rake": {"help_text": "CZK taken from the pot (RAKE-1..3); 0 while running."},
        }  # fmt: skip


def hands_dealt_to(table_id: int, player_id: int) -> list[str]:
    """Ids of the hands of ``table_id`` that dealt ``player_id`` in (from ``HandBegan``)."""
    began = StoredEvent.objects.filter(stream=f"table-{table_id}", type="tables.HandBegan")
    return [
        data["hand_id"]
        for data in began.values_list("data", flat=True)
        if any(seat.get("player_id") == player_id for seat in data.get("seats", ()))
    ]


class HandFilter(StrictFilterSet):
    date_from = UtcDateTimeFilter(field_name="started_at", lookup_expr="gte")
    date_to = UtcDateTimeFilter(field_name="started_at", lookup_expr="lt")
    hand_number = IdFilter()
    hand_number_from = IdFilter(field_name="hand_number", lookup_expr="gte")
    hand_number_to = IdFilter(field_name="hand_number", lookup_expr="lte")
    player = IdFilter(method="_player", help_text="A player id dealt in.")
    ranges = (("date_from", "date_to"), ("hand_number_from", "hand_number_to"))

    class Meta:
        model = HandView
        fields: list[str] = []

    def _player(self, queryset: QuerySet[HandView], name: str, value: Any) -> QuerySet[HandView]:
        table_ids = set(queryset.values_list("table_id", flat=True).distinct())
        ids = [h for t in table_ids for h in hands_dealt_to(t, int(value))]
        return queryset.filter(hand_id__in=ids)


class HandListMixin(GenericAPIView):
    """The ``GET`` of ``/tables/<id>/hands/`` (the ``POST`` there starts a hand)."""

    serializer_class = HandRowSerializer
    filterset_class = HandFilter
    pagination_class = Pagination

    queryset = HandView.objects.none()  # the schema's model; get_queryset narrows to the table

    def get_queryset(self) -> QuerySet[HandView]:
        return HandView.objects.filter(table_id=self.kwargs["table_id"]).order_by("-hand_number")

    @extend_schema(operation_id="list_hands", responses={200: HandRowSerializer(many=True)})
    def get(self, request: Request, table_id: int) -> Response:
        """The table's hands, newest first; filters by date, hand number and player."""
        if not TableView.objects.filter(table_id=table_id).exists():
            raise NotFound("table_not_found", f"There is no table {table_id}.", table_id=table_id)
        page = self.paginate_queryset(self.filter_queryset(self.get_queryset()))
        return self.get_paginated_response(HandRowSerializer(page, many=True).data)


class HandPhhView(GenericAPIView):
    """``GET /hands/<id>/phh/``: the hand as a PHH file (:mod:`tables.phh_export`)."""

    @extend_schema(
        operation_id="export_hand_phh",
        responses={(200, "text/plain"): str, 404: ErrorSerializer, 409: ErrorSerializer},
    )
    def get(self, request: Request, hand_id: Any) -> HttpResponse:
        """The hand in PHH (players named by id; replays through ``replay_phh``)."""
        return _export(hand_id, "phh")


class HandPokerStarsView(GenericAPIView):
    """``GET /hands/<id>/pokerstars/``: the hand in the PokerStars text layout."""

    @extend_schema(
        operation_id="export_hand_pokerstars",
        responses={(200, "text/plain"): str, 404: ErrorSerializer, 409: ErrorSerializer},
    )
    def get(self, request: Request, hand_id: Any) -> HttpResponse:
        """The hand as PokerStars-style text (amounts in the room's currency)."""
        return _export(hand_id, "txt")


def _hand_text(hand_id: Any, kind: str) -> str:
    """One hand as PHH (``kind`` ``phh``) or PokerStars text (``txt``).

    Raises:
        NotFound ``hand_not_found``; tables.phh_export.NotExportable (a voided hand ...).
    """
    from django.conf import settings

    from casino.eventstore import store
    from tables.phh_export import to_phh, to_pokerstars

    recorded = store.read_stream(f"hand-{hand_id}")
    if not recorded:
        raise NotFound("hand_not_found", f"There is no hand {hand_id}.", hand_id=str(hand_id))
    events = [r.event for r in recorded]
    if kind == "phh":
        return to_phh(events)
    at = recorded[0].recorded_at.strftime("%Y/%m/%d %H:%M:%S UTC")
    return to_pokerstars(events, started_at=at, currency=settings.CASINO_CURRENCY)


def _export(hand_id: Any, kind: str) -> HttpResponse:
    from tables.phh_export import NotExportable

    try:
        text = _hand_text(hand_id, kind)
    except NotExportable as exc:
        raise Conflict("hand_not_exportable", str(exc), hand_id=str(hand_id)) from None
    response = HttpResponse(text, content_type="text/plain; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="hand-{hand_id}.{kind}"'
    return response


EXPORT_MAX_HANDS = 2000
"""Most hands one range export answers (bounded memory); narrow the filters for more."""


class ExportFilter(HandFilter):
    """The list's filters, plus ``export_format``: ``phh`` (a ZIP of one ``.phh`` file per
    hand, each replayable by ``replay_phh``) or ``pokerstars`` (one text file, the hands
    oldest first, separated by blank lines as PokerStars writes them)."""

    export_format = django_filters.ChoiceFilter(
        choices=[("phh", "phh"), ("pokerstars", "pokerstars")],
        method="_format",
        required=True,
    )

    def _format(self, queryset: QuerySet[HandView], name: str, value: Any) -> QuerySet[HandView]:
        return queryset


class HandExportView(GenericAPIView):
    """``GET /tables/<id>/hands/export/``: a range of the table's hands in one download."""

    filterset_class = ExportFilter
    queryset = HandView.objects.none()

    def get_queryset(self) -> QuerySet[HandView]:
        return HandView.objects.filter(table_id=self.kwargs["table_id"]).order_by("hand_number")

    @extend_schema(
        operation_id="export_hands",
        # a download is not a list: drf-spectacular leaves the filters out unless named
        parameters=[
            OpenApiParameter("export_format", str, required=True, enum=["phh", "pokerstars"]),
            OpenApiParameter("date_from", OpenApiTypes.DATETIME, description="UTC, inclusive"),
            OpenApiParameter("date_to", OpenApiTypes.DATETIME, description="UTC, exclusive"),
            OpenApiParameter("hand_number", int),
            OpenApiParameter("hand_number_from", int),
            OpenApiParameter("hand_number_to", int),
            OpenApiParameter("player", int, description="A player id dealt in."),
        ],
        responses={
            (200, "application/zip"): bytes,
            (200, "text/plain"): str,
            400: ErrorSerializer,
            404: ErrorSerializer,
        },
    )
    def get(self, request: Request, table_id: int) -> HttpResponse:
        """The table's hands chosen by the list's filters (date, hand number, player), as
        a ZIP of PHH files or one PokerStars text file, oldest first. Hands that cannot be
        exported (voided) are left out and named in ``X-Skipped-Hands``. 400
        ``export_range_too_large`` above ``EXPORT_MAX_HANDS`` hands."""
        import io
        import zipfile

        from tables.phh_export import NotExportable

        if not TableView.objects.filter(table_id=table_id).exists():
            raise NotFound("table_not_found", f"There is no table {table_id}.", table_id=table_id)
        hands = self.filter_queryset(self.get_queryset())
        kind = "phh" if request.query_params.get("export_format") == "phh" else "txt"
        ids = list(hands.values_list("hand_id", "hand_number")[: EXPORT_MAX_HANDS + 1])
        if len(ids) > EXPORT_MAX_HANDS:
            raise BadRequest(
                "export_range_too_large",
                f"At most {EXPORT_MAX_HANDS} hands in one export: narrow the range.",
                limit=EXPORT_MAX_HANDS,
            )
        texts: list[tuple[int, str, str]] = []
        skipped: list[int] = []
        for hand_id, number in ids:
            try:
                texts.append((number, str(hand_id), _hand_text(hand_id, kind)))
            except NotExportable:
                skipped.append(number)
        name = f"table-{table_id}-hands"
        if kind == "phh":
            buffer = io.BytesIO()
            with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
                for number, hand_id, text in texts:
                    archive.writestr(f"{name}/{number:06d}-{hand_id}.phh", text)
            response = HttpResponse(buffer.getvalue(), content_type="application/zip")
            response["Content-Disposition"] = f'attachment; filename="{name}.zip"'
        else:
            body = "\n\n\n".join(text.rstrip("\n") for _, _, text in texts) + "\n"
            response = HttpResponse(body, content_type="text/plain; charset=utf-8")
            response["Content-Disposition"] = f'attachment; filename="{name}.txt"'
        response["X-Hands"] = str(len(texts))
        response["X-Skipped-Hands"] = ",".join(map(str, skipped))
        return response
