"""Dealer-tablet and floor endpoints for tables: thin views, one service call each."""

from typing import Any

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from casino.api.errors import ErrorSerializer
from casino.api.views import WRITE_PARAMETERS, expected_version, run_write
from tables import serializers as s
from tables import services
from tables.models import TableView

ERRORS = {400: ErrorSerializer, 404: ErrorSerializer, 409: ErrorSerializer, 422: ErrorSerializer}


def _table(table_id: int) -> dict[str, Any]:
    table = TableView.objects.prefetch_related("seats").get(table_id=table_id)
    return dict(s.TableSerializer(table).data)


class TableListView(APIView):
    @extend_schema(operation_id="list_tables", responses={200: s.TableSerializer(many=True)})
    def get(self, request: Request) -> Response:
        """Every table with its seats and stacks."""
        tables = TableView.objects.prefetch_related("seats")
        return Response(s.TableSerializer(tables, many=True).data)

    @extend_schema(
        operation_id="open_table",
        request=s.OpenTableRequest,
        responses={201: s.TableSerializer, **ERRORS},
        parameters=WRITE_PARAMETERS,
    )
    def post(self, request: Request) -> Response:
        """Open a table with its game, stakes, buy-in limits and rake schedule."""
        incoming = s.OpenTableRequest(data=request.data)
        incoming.is_valid(raise_exception=True)
        return run_write(
            request,
            lambda: _table(services.open_table(**incoming.validated_data)),
            status_code=status.HTTP_201_CREATED,
        )


class TableDetailView(APIView):
    @extend_schema(
        operation_id="get_table", responses={200: s.TableSerializer, 404: ErrorSerializer}
    )
    def get(self, request: Request, table_id: int) -> Response:
        """A table: stakes, button, running hand, seats and stacks, stream version."""
        table = get_object_or_404(TableView.objects.prefetch_related("seats"), table_id=table_id)
        return Response(s.TableSerializer(table).data)


class SeatPlayerView(APIView):
    @extend_schema(
        operation_id="seat_player",
        request=s.SeatPlayerRequest,
        responses={201: s.TableSerializer, **ERRORS},
        parameters=WRITE_PARAMETERS,
    )
    def post(self, request: Request, table_id: int) -> Response:
        """Seat a player with a buy-in inside the table's limits (BI-1..BI-5, BI-10)."""
        incoming = s.SeatPlayerRequest(data=request.data)
        incoming.is_valid(raise_exception=True)
        if_match = expected_version(request)

        def body() -> dict[str, Any]:
            services.seat_player(table_id=table_id, if_match=if_match, **incoming.validated_data)
            return _table(table_id)

        return run_write(request, body, status_code=status.HTTP_201_CREATED)


class CashOutView(APIView):
    @extend_schema(
        operation_id="cash_out",
        request=None,
        responses={200: s.CashOutResponse, **ERRORS},
        parameters=WRITE_PARAMETERS,
    )
    def post(self, request: Request, table_id: int, seat: int) -> Response:
        """The player at the seat leaves, cashing out his whole stack (SES-5, BI-6)."""
        if_match = expected_version(request)

        def body() -> dict[str, Any]:
            amount = services.cash_out(table_id=table_id, seat=seat, if_match=if_match)
            return {"seat": seat, "amount": amount, "table": _table(table_id)}

        return run_write(request, body)
