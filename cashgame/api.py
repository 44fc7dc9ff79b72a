"""Floor, cage and tablet endpoints of the cash game: thin views, one service each."""

from collections.abc import Callable
from dataclasses import asdict
from datetime import date
from typing import Any

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from cashgame import cage, selectors, services
from cashgame import serializers as s
from cashgame.models import CashSession
from casino import clock
from casino.api.errors import ErrorSerializer
from casino.api.views import WRITE_PARAMETERS, expected_version, run_write
from casino.errors import DomainError
from tables.selectors import table_payload
from tables.serializers import TableSerializer

ERRORS = {400: ErrorSerializer, 404: ErrorSerializer, 409: ErrorSerializer, 422: ErrorSerializer}


def _parse(serializer: type[serializers.Serializer], request: Request) -> dict[str, Any]:
    parsed = serializer(data=request.data)
    parsed.is_valid(raise_exception=True)
    return dict(parsed.validated_data)


def _seat_write(
    operation_id: str,
    incoming: type[serializers.Serializer],
    service: Callable[..., None],
    doc: str,
) -> type[APIView]:
    """A view for a write on one seat that answers with the table."""

    @extend_schema(
        operation_id=operation_id,
        request=incoming,
        responses={200: TableSerializer, **ERRORS},
        parameters=WRITE_PARAMETERS,
        description=doc,
    )
    def post(self: APIView, request: Request, table_id: int, seat: int) -> Response:
        data, if_match = _parse(incoming, request), expected_version(request)

        def body() -> dict[str, Any]:
            service(table_id=table_id, seat=seat, if_match=if_match, **data)
            return table_payload(table_id)

        return run_write(request, body)

    return type(f"{operation_id.title().replace('_', '')}View", (APIView,), {"post": post})


TopUpView = _seat_write(
    "top_up",
    s.TopUpRequest,
    services.top_up,
    "Add chips between hands, never above the table maximum (BI-6); a player owing a "
    "re-buy after a sidebet must reach the minimum (BI-7).",
)
RefreshmentView = _seat_write(
    "pay_refreshment",
    s.AmountRequest,
    services.pay_refreshment,
    "Pay refreshments with chips: not during the player's hand, up to the limit (RAKE-6).",
)


class LimitsView(APIView):
    @extend_schema(
        operation_id="change_table_limits",
        request=s.LimitsRequest,
        responses={200: TableSerializer, **ERRORS},
        parameters=WRITE_PARAMETERS,
    )
    def post(self, request: Request, table_id: int) -> Response:
        """Floor override of one table's buy-in limits, with the reason (BI-5)."""
        data, if_match = _parse(s.LimitsRequest, request), expected_version(request)

        def body() -> dict[str, Any]:
            services.change_limits(table_id=table_id, if_match=if_match, **data)
            return table_payload(table_id)

        return run_write(request, body)


class TransferView(APIView):
    @extend_schema(
        operation_id="transfer_player",
        request=s.TransferRequest,
        responses={200: s.TransferResponse, **ERRORS},
        parameters=WRITE_PARAMETERS,
    )
    def post(self, request: Request, table_id: int, seat: int) -> Response:
        """Move a player with his whole stack to a table of the same game (SES-2..SES-4)."""
        data = _parse(s.TransferRequest, request)

        def body() -> dict[str, Any]:
            services.transfer_player(table_id=table_id, seat=seat, **data)
            return {
                "from_table": table_payload(table_id),
                "to_table": table_payload(data["to_table_id"]),
            }

        return run_write(request, body)


class CloseTableView(APIView):
    @extend_schema(
        operation_id="close_table",
        request=s.CloseTableRequest,
        responses={200: TableSerializer, **ERRORS},
        parameters=WRITE_PARAMETERS,
    )
    def post(self, request: Request, table_id: int) -> Response:
        """Close a table, moving its players to tables of the same game (SES-3)."""
        data = _parse(s.CloseTableRequest, request)
        moves = [(m["seat"], m["to_table_id"], m["to_seat"]) for m in data["moves"]]

        def body() -> dict[str, Any]:
            services.close_table(table_id=table_id, reason=data["reason"], moves=moves)
            return table_payload(table_id)

        return run_write(request, body)


class SidebetView(APIView):
    @extend_schema(
        operation_id="record_sidebet",
        request=s.SidebetRequest,
        responses={201: s.SidebetResponse, **ERRORS},
        parameters=WRITE_PARAMETERS,
    )
    def post(self, request: Request, table_id: int) -> Response:
        """Record a sidebet between two seated players (RAKE-5)."""
        data = _parse(s.SidebetRequest, request)

        def body() -> dict[str, Any]:
            sidebet_id = services.record_sidebet(table_id=table_id, **data)
            return {"sidebet_id": sidebet_id, "table": table_payload(table_id)}

        return run_write(request, body, status_code=201)


class SettleSidebetView(APIView):
    @extend_schema(
        operation_id="settle_sidebet",
        request=s.SettleSidebetRequest,
        responses={200: TableSerializer, **ERRORS},
        parameters=WRITE_PARAMETERS,
    )
    def post(self, request: Request, table_id: int, sidebet_id: str) -> Response:
        """Settle a sidebet between hands: chips move between the two stacks (RAKE-5)."""
        data = _parse(s.SettleSidebetRequest, request)

        def body() -> dict[str, Any]:
            services.settle_sidebet(table_id=table_id, sidebet_id=str(sidebet_id), **data)
            return table_payload(table_id)

        return run_write(request, body)


class RestrictionsView(APIView):
    @extend_schema(
        operation_id="buy_in_restrictions", responses={200: s.RestrictionSerializer(many=True)}
    )
    def get(self, request: Request, player_id: int) -> Response:
        """Games the player left less than the return window ago and the buy-in each now
        requires (SES-7), for the cashier and the tablet before a buy-in."""
        rows = [asdict(r) for r in selectors.return_restrictions(player_id)]
        return Response(s.RestrictionSerializer(rows, many=True).data)


class SessionsView(APIView):
    @extend_schema(
        operation_id="list_cash_sessions", responses={200: s.CashSessionSerializer(many=True)}
    )
    def get(self, request: Request, player_id: int) -> Response:
        """A player's cash sessions with the time seated (hours played)."""
        now = clock.now()
        rows = [
            {
                **vars(session),
                "seconds_played": int(
                    ((session.left_at or now) - session.seated_at).total_seconds()
                ),
            }
            for session in CashSession.objects.filter(player_id=player_id)
        ]
        return Response(s.CashSessionSerializer(rows, many=True).data)


def _cage_write(operation_id: str, service: Callable[..., None], doc: str) -> type[APIView]:
    @extend_schema(
        operation_id=operation_id,
        request=s.CageRequest,
        responses={201: s.CageBalanceSerializer, **ERRORS},
        parameters=WRITE_PARAMETERS,
        description=doc,
    )
    def post(self: APIView, request: Request) -> Response:
        data = _parse(s.CageRequest, request)

        def body() -> dict[str, Any]:
            service(**data)
            today = clock.now().astimezone(cage.room_zone()).date()
            return dict(s.CageBalanceSerializer(cage.balance(today)).data)

        return run_write(request, body, status_code=201)

    return type(f"{operation_id.title().replace('_', '')}View", (APIView,), {"post": post})


SellChipsView = _cage_write(
    "sell_chips", cage.sell_chips, "The cage sells chips to a player for cash (cash in)."
)
RedeemChipsView = _cage_write(
    "redeem_chips", cage.redeem_chips, "The cage pays cash for a player's chips (cash out)."
)


class CageBalanceView(APIView):
    @extend_schema(
        operation_id="cage_balance",
        parameters=[OpenApiParameter("day", date, description="Business day; default today.")],
        responses={200: s.CageBalanceSerializer, 400: ErrorSerializer},
    )
    def get(self, request: Request) -> Response:
        """Cash in and out, chips issued, at tables, with the house and with players."""
        raw = request.query_params.get("day")
        today = clock.now().astimezone(cage.room_zone()).date()
        try:
            day = date.fromisoformat(raw) if raw else today
        except ValueError:
            error = DomainError("invalid_day", "day must be YYYY-MM-DD.", day=raw)
            error.status = 400
            raise error from None
        return Response(s.CageBalanceSerializer(cage.balance(day)).data)


class ChipGiftView(APIView):
    @extend_schema(
        operation_id="give_chips",
        request=s.ChipGiftRequest,
        responses={200: s.ChipGiftResponse, **ERRORS},
        parameters=WRITE_PARAMETERS,
    )
    def post(self, request: Request, table_id: int) -> Response:
        """A chip loan or gift between players, blocked if anyone objects (BI-9)."""
        data = _parse(s.ChipGiftRequest, request)

        def body() -> dict[str, Any]:
            status = services.give_chips(table_id=table_id, **data)
            return {"status": status, "table": table_payload(table_id)}

        return run_write(request, body)


PartialCashOutView = _seat_write(
    "partial_cash_out",
    s.PartialCashOutRequest,
    services.partial_cash_out,
    "Chips off the stack without leaving: only as a floor exception with a reason (SES-5, SES-6).",
)


class RestrictionCreateView(APIView):
    @extend_schema(
        operation_id="keep_players_apart",
        request=s.RestrictionRequest,
        responses={201: None, **ERRORS},
        parameters=WRITE_PARAMETERS,
    )
    def post(self, request: Request, player_id: int) -> Response:
        """Management marks two players who may not sit at the same table (BI-11)."""
        data = _parse(s.RestrictionRequest, request)

        def body() -> dict[str, Any]:
            services.keep_apart(player_id=player_id, **data)
            return {"player_id": player_id, "other_player_id": data["other_player_id"]}

        return run_write(request, body, status_code=201)
