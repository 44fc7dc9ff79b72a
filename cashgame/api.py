"""Floor, cage and tablet endpoints of the cash game: thin views, one service each."""

from datetime import date
from typing import Any

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from cashgame import cage, selectors, services
from cashgame import serializers as s
from casino import clock, gaming_day
from casino.api.errors import ErrorSerializer
from casino.api.serializers import NoBody
from casino.api.views import write_view
from casino.errors import BadRequest
from casino.models import require_player
from tables.selectors import table_payload
from tables.serializers import TableSerializer


def _today() -> date:
    return gaming_day.day_of(clock.now())  # the cut-off, not midnight


def _at_seat(service: Any) -> Any:
    """Run a seat service, answer with the table."""

    def perform(data: dict[str, Any], table_id: int, seat: int, if_match: int | None) -> Any:
        service(table_id=table_id, seat=seat, if_match=if_match, **data)
        return table_payload(table_id)

    return perform


def _change_limits(data: dict[str, Any], table_id: int, if_match: int | None) -> Any:
    services.change_limits(table_id=table_id, if_match=if_match, **data)
    return table_payload(table_id)


def _transfer(data: dict[str, Any], table_id: int, seat: int, if_match: int | None) -> Any:
    services.transfer_player(table_id=table_id, seat=seat, if_match=if_match, **data)
    return {"from_table": table_payload(table_id), "to_table": table_payload(data["to_table_id"])}


def _close(data: dict[str, Any], table_id: int, if_match: int | None) -> Any:
    moves = [(m["seat"], m["to_table_id"], m["to_seat"]) for m in data["moves"]]
    services.close_table(table_id=table_id, reason=data["reason"], moves=moves, if_match=if_match)
    return table_payload(table_id)


def _record_sidebet(data: dict[str, Any], table_id: int, if_match: int | None) -> Any:
    sidebet_id = services.record_sidebet(table_id=table_id, if_match=if_match, **data)
    return {"sidebet_id": sidebet_id, "table": table_payload(table_id)}


def _settle_sidebet(
    data: dict[str, Any], table_id: int, sidebet_id: Any, if_match: int | None
) -> Any:
    services.settle_sidebet(
        table_id=table_id, sidebet_id=str(sidebet_id), if_match=if_match, **data
    )
    return table_payload(table_id)


def _call_off_sidebet(
    data: dict[str, Any], table_id: int, sidebet_id: Any, if_match: int | None
) -> Any:
    services.call_off_sidebet(table_id=table_id, sidebet_id=str(sidebet_id), if_match=if_match)
    return table_payload(table_id)


def _give_chips(data: dict[str, Any], table_id: int, if_match: int | None) -> Any:
    return {
        "status": services.give_chips(table_id=table_id, if_match=if_match, **data),
        "table": table_payload(table_id),
    }


def _keep_apart(data: dict[str, Any], player_id: int, if_match: int | None) -> Any:
    services.keep_apart(player_id=player_id, **data)
    return {"player_id": player_id, "other_player_id": data["other_player_id"]}


def _at_cage(service: Any) -> Any:
    """Run a cage service, answer with today's cage balance."""

    def perform(data: dict[str, Any], if_match: int | None) -> Any:
        service(**data)
        return dict(s.CageBalanceSerializer(cage.balance(_today())).data)

    return perform


TopUpView = write_view(
    operation_id="top_up",
    request=s.TopUpRequest,
    response=TableSerializer,
    perform=_at_seat(services.top_up),
    doc="Add chips, never above the table maximum (BI-3/4/5); a player owing a re-buy "
    "after a sidebet must reach the minimum (BI-7). Between hands they go on the stack at "
    "once; declared during the player's hand, they are paid now and added when the hand "
    "ends (BI-6, the seat's ``top_up_after_hand``).",
)
RefreshmentView = write_view(
    operation_id="pay_refreshment",
    request=s.AmountRequest,
    response=TableSerializer,
    perform=_at_seat(services.pay_refreshment),
    doc="Pay refreshments with chips: not during the player's hand, up to the limit (RAKE-6).",
)
PartialCashOutView = write_view(
    operation_id="partial_cash_out",
    request=s.PartialCashOutRequest,
    response=TableSerializer,
    perform=_at_seat(services.partial_cash_out),
    doc="Chips off the stack without leaving: only as a floor exception with a reason "
    "(SES-5, SES-6).",
)
LimitsView = write_view(
    operation_id="change_table_limits",
    request=s.LimitsRequest,
    response=TableSerializer,
    perform=_change_limits,
    doc="Floor override of one table's buy-in limits, with the reason (BI-5).",
)
TransferView = write_view(
    operation_id="transfer_player",
    request=s.TransferRequest,
    response=s.TransferResponse,
    perform=_transfer,
    doc="Move a player with his whole stack to a table of the same game (SES-2..SES-4).",
)
CloseTableView = write_view(
    operation_id="close_table",
    request=s.CloseTableRequest,
    response=TableSerializer,
    perform=_close,
    doc="Close a table, moving its players to tables of the same game (SES-3).",
)
SidebetView = write_view(
    operation_id="record_sidebet",
    request=s.SidebetRequest,
    response=s.SidebetResponse,
    perform=_record_sidebet,
    doc="Record a sidebet between two seated players (RAKE-5).",
    status_code=201,
)
SettleSidebetView = write_view(
    operation_id="settle_sidebet",
    request=s.SettleSidebetRequest,
    response=TableSerializer,
    perform=_settle_sidebet,
    doc="Settle a sidebet between hands: chips move between the two stacks (RAKE-5).",
)
CallOffSidebetView = write_view(
    operation_id="call_off_sidebet",
    request=NoBody,
    response=TableSerializer,
    perform=_call_off_sidebet,
    doc="The two players call off an open sidebet: it ends and no chips move (RAKE-5). A "
    "player's open sidebets are called off by themselves when he cashes out or moves to "
    "another table.",
)
ChipGiftView = write_view(
    operation_id="give_chips",
    request=s.ChipGiftRequest,
    response=s.ChipGiftResponse,
    perform=_give_chips,
    doc="A chip loan or gift between players, blocked if anyone objects (BI-9).",
)
RestrictionCreateView = write_view(
    operation_id="keep_players_apart",
    request=s.RestrictionRequest,
    response=None,
    perform=_keep_apart,
    doc="Management marks two players who may not sit at the same table (BI-11).",
    status_code=201,
    takes_if_match=False,  # checks no stream version: If-Match is refused
)


def _sell(*, buy_in_for: dict[str, Any] | None = None, **data: Any) -> None:
    cage.sell_chips(**data, buy_in_for=cage.BuyInFor(**buy_in_for) if buy_in_for else None)


SellChipsView = write_view(
    operation_id="sell_chips",
    request=s.SaleRequest,
    response=s.CageBalanceSerializer,
    perform=_at_cage(_sell),
    takes_if_match=False,  # the room's one cage stream: no version to check
    doc="The cage sells chips to a player for cash (cash in). With ``buy_in_for`` the "
    "chips are a buy-in for that game: a returning player is refused a buy-in below the "
    "stack he left with (SES-7).",
    status_code=201,
)
RedeemChipsView = write_view(
    operation_id="redeem_chips",
    request=s.CageRequest,
    response=s.CageBalanceSerializer,
    perform=_at_cage(cage.redeem_chips),
    takes_if_match=False,  # the room's one cage stream: no version to check
    doc="The cage pays cash for a player's chips (cash out), at most the chips the records "
    "show he holds away from the tables (redemption_exceeds_holdings) and never more than the "
    "chips in players' hands (chips_in_circulation_exceeded).",
    status_code=201,
)
RedeemChipsOverrideView = write_view(
    operation_id="redeem_chips_override",
    request=s.CageOverrideRequest,
    response=s.CageBalanceSerializer,
    perform=_at_cage(cage.redeem_chips),
    takes_if_match=False,  # the room's one cage stream: no version to check
    doc="Floor only: a redemption above the chips the records show the player holding, with "
    "a reason kept in the event (never above the chips in players' hands).",
    status_code=201,
)


class RestrictionsView(APIView):
    @extend_schema(
        operation_id="buy_in_restrictions",
        responses={200: s.RestrictionSerializer(many=True), 404: ErrorSerializer},
    )
    def get(self, request: Request, player_id: int) -> Response:
        """Games the player left less than the return window ago and the buy-in each now
        requires (SES-7), for the cashier and the tablet before a buy-in. 404
        ``player_not_found``."""
        require_player(player_id)
        rows = cage.buy_in_restrictions(player_id)
        return Response(s.RestrictionSerializer(rows, many=True).data)


class SessionsView(APIView):
    @extend_schema(
        operation_id="list_cash_sessions",
        responses={200: s.CashSessionSerializer(many=True), 404: ErrorSerializer},
    )
    def get(self, request: Request, player_id: int) -> Response:
        """A player's cash sessions with the time seated (hours played), once he left his
        result at the table (CZK), and the gifts, sidebets and dealer fees inside it. 404
        ``player_not_found``."""
        require_player(player_id)
        rows = selectors.cash_sessions(player_id)
        return Response(s.CashSessionSerializer(rows, many=True).data)


class CageBalanceView(APIView):
    @extend_schema(
        operation_id="cage_balance",
        parameters=[OpenApiParameter("day", date, description="Business day; default today.")],
        responses={200: s.CageBalanceSerializer, 400: ErrorSerializer},
    )
    def get(self, request: Request) -> Response:
        """Cash in and out, chips issued, at tables, with the house and with players, of a
        business day up to today. 400 ``invalid_day`` for a day that is not YYYY-MM-DD or
        has not begun (a future day read "ledger matches: yes" for books that do not exist
        yet, found by QA)."""
        raw = request.query_params.get("day")
        today = _today()
        try:
            day = date.fromisoformat(raw) if raw else today
        except ValueError:
            day = None
        if day is None or day > today:
            raise BadRequest(
                "invalid_day", "day must be a business day up to today, YYYY-MM-DD.", day=raw
            )
        return Response(s.CageBalanceSerializer(cage.balance(day)).data)
