"""Dealer-tablet and floor endpoints for tables: thin views, one service call each."""

import dataclasses
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from casino.api.errors import WRITE_ERRORS, ErrorSerializer, refusal_body
from casino.api.serializers import MAX_ID, NoBody
from casino.api.views import (
    IDEMPOTENCY_KEY,
    WRITE_PARAMETERS,
    expected_version,
    refuse_if_match,
    run_write,
    write_view,
)
from casino.errors import NotFound
from casino.eventstore.aggregates import Loaded
from tables import selectors, services
from tables import serializers as s
from tables.domain import hand_rulings
from tables.domain.hand import HandState
from tables.domain.hand_names import best_hand
from tables.events import Award, HandSettled
from tables.models import TableView
from tables.selectors import table_payload

ERRORS = WRITE_ERRORS


_table = table_payload


class TableListView(APIView):
    @extend_schema(operation_id="list_tables", responses={200: s.TableSerializer(many=True)})
    def get(self, request: Request) -> Response:
        """Every table with its seats and stacks."""
        ids = TableView.objects.values_list("table_id", flat=True)
        return Response([_table(table_id) for table_id in ids])

    @extend_schema(
        operation_id="open_table",
        request=s.OpenTableRequest,
        responses={201: s.TableSerializer, **ERRORS},
        parameters=[IDEMPOTENCY_KEY],  # a new stream: no version to match
    )
    def post(self, request: Request) -> Response:
        """Open a table with its game, stakes, buy-in limits and rake schedule."""
        incoming = s.OpenTableRequest(data=request.data)
        refuse_if_match(request)
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
        try:
            return Response(_table(table_id))
        except TableView.DoesNotExist:
            raise NotFound("table_not_found", f"There is no table {table_id}.") from None


class TablePlayersView(APIView):
    @extend_schema(
        operation_id="list_table_players",
        responses={200: s.TablePlayerSerializer(many=True), 404: ErrorSerializer},
    )
    def get(self, request: Request, table_id: int) -> Response:
        """The players seated at this table by seat, with their nicknames and short names
        ("Jan N.", never the full name), for the dealer's tablet and the floor (the table
        feed itself carries player ids only). 404 ``table_not_found``."""
        try:
            return Response(selectors.seated_players(table_id))
        except TableView.DoesNotExist:
            raise NotFound("table_not_found", f"There is no table {table_id}.") from None


class SeatCheckView(APIView):
    @extend_schema(
        operation_id="check_seat",
        parameters=[
            OpenApiParameter(
                "player_id",
                {"type": "integer", "minimum": 1, "maximum": MAX_ID},  # SeatCheckQuery's bounds
                required=True,
                description="The number on the player's card.",
            )
        ],
        responses={200: s.SeatCheckSerializer, 400: ErrorSerializer, 404: ErrorSerializer},
    )
    def get(self, request: Request, table_id: int) -> Response:
        """Before a seat: the player's nickname and short name (never the full name), the
        buy-in he may bring here (BI-3..5; SES-7 for a returning player), and the refusal a
        seat would get (BI-10, BI-11), or none. The tablet names the player whose number
        the dealer typed, so a wrong number is seen before the cash is counted; nothing is
        written. 404 ``table_not_found``, ``player_not_found``."""
        given = request.query_params.get("player_id")  # absent: "required", not "null"
        query = s.SeatCheckQuery(data={} if given is None else {"player_id": given})
        query.is_valid(raise_exception=True)
        check = services.seat_check(table_id=table_id, **query.validated_data)
        if isinstance(check["refusal"], dict):  # said in the console's language
            refusal_body(check["refusal"])
        return Response(check)


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


def _sit_out(data: dict[str, Any], *, table_id: int, seat: int, if_match: int | None) -> Any:
    services.sit_out(table_id=table_id, seat=seat, if_match=if_match)
    return _table(table_id)


def _sit_in(data: dict[str, Any], *, table_id: int, seat: int, if_match: int | None) -> Any:
    services.sit_in(table_id=table_id, seat=seat, if_match=if_match, **data)
    return _table(table_id)


def _change_seat(data: dict[str, Any], *, table_id: int, seat: int, if_match: int | None) -> Any:
    services.change_seat(table_id=table_id, seat=seat, if_match=if_match, **data)
    return _table(table_id)


SeatChangeView = write_view(
    operation_id="change_seat",
    request=s.SeatChangeRequest,
    response=s.TableSerializer,
    perform=_change_seat,
    doc="Between his hands the player moves to an empty seat of the same game, stack and "
    "all; moving further from the big blind he waits for it unless he posts (SEAT-17).",
)


def _shuffle(data: dict[str, Any], *, table_id: int, if_match: int | None) -> Any:
    services.record_shuffle(table_id=table_id, if_match=if_match, **data)
    return _table(table_id)


ShuffleView = write_view(
    operation_id="record_shuffle",
    request=s.ShuffleRequest,
    response=s.TableSerializer,
    perform=_shuffle,
    doc="Between hands the dealer reports the first riffle (SD-25) or the cut (SD-26) of "
    "the next shuffle: at a table whose hand_closed_by names it, the last hand is closed to "
    "disputes of its reading from then on.",
)
SitOutView = write_view(
    operation_id="sit_out",
    request=NoBody,
    response=s.TableSerializer,
    perform=_sit_out,
    doc="The player sits out from the next hand on, keeping his seat and stack; each blind "
    "that passes him is owed (SEAT-16).",
)
SitInView = write_view(
    operation_id="sit_in",
    request=s.SitInRequest,
    response=s.TableSerializer,
    perform=_sit_in,
    doc="The player comes back, or a new player says how he enters: post what he owes and "
    "play the next hand, or wait for the big blind (SEAT-15, SEAT-16).",
)


class NextHandView(APIView):
    @extend_schema(
        operation_id="next_hand",
        parameters=[
            OpenApiParameter(
                "button_seat",
                int,
                required=False,
                description="The button draw's outcome when a game starts (SEAT-1).",
            )
        ],
        responses={200: s.NextHandSerializer, 404: ErrorSerializer, 422: ErrorSerializer},
    )
    def get(self, request: Request, table_id: int) -> Response:
        """The next hand as it would be dealt now: button, blinds (dead or not), owed posts,
        players waiting for the big blind and blinds that would be missed (SEAT-5, SEAT-15,
        SEAT-16). The tablet shows it before dealing; nothing is written."""
        raw = request.query_params.get("button_seat")
        button = s.NextHandQuery(data={"button_seat": raw} if raw else {})
        button.is_valid(raise_exception=True)
        plan = services.next_hand(table_id=table_id, **button.validated_data)
        return Response(
            {
                "button_seat": plan.button_seat,
                "small_blind_seat": plan.small_blind_seat,
                "dead_small_blind_seat": plan.dead_small_blind_seat,
                "big_blind_seat": plan.big_blind_seat,
                "dealt_in": list(plan.dealt_in),
                "posts": [{"seat": seat, "kind": kind} for seat, kind in plan.posts],
                "waiting": list(plan.waiting),
                "became_waiting": list(plan.became_waiting),
                "missed": [{"seat": seat, "kind": kind} for seat, kind in plan.missed],
                "new_game": plan.new_game,
                "heads_up": plan.heads_up,
            }
        )


# --- hands ---------------------------------------------------------------------------------


def _show_order(state: HandState) -> dict[str, Any] | None:
    order = hand_rulings.show_order(state)
    return None if order is None else {"seats": list(order.seats), "rule": order.rule}


_FIELD_NAMES: dict[type, tuple[str, ...]] = {}


def _scalars(obj: Any) -> dict[str, Any]:
    """The fields of a dataclass of scalars (a seat, the legal actions) as a dict:
    ``dataclasses.asdict`` without its recursive deep copy, which was a tenth of the hand's
    answer, rebuilt after every action."""
    names = _FIELD_NAMES.get(type(obj))
    if names is None:
        names = _FIELD_NAMES[type(obj)] = tuple(f.name for f in dataclasses.fields(obj))
    return {name: getattr(obj, name) for name in names}


def _floor(state: HandState) -> dict[str, Any] | None:
    view = hand_rulings.floor_view(state)
    if view is None:
        return None
    clock = view.clock
    return {
        "clock": None if clock is None else {
            "seat": clock.seat, "called_by": clock.called_by, "called_at": clock.called_at,
            "final_countdown_at": clock.final_countdown_at, "expires_at": clock.expires_at,
            "expiry": clock.expiry,
        },
        "passive_seats": list(view.passive_seats),
        "exposures": [
            {"seat": e.seat, "cards": e.cards, "passive": e.passive, "folded": e.folded,
             "rule": e.rule} for e in view.exposures
        ],
        "burns": [{"street": b.street, "card": b.card} for b in view.burns],
        "out_of_turn": [
            {"seat": o.seat, "action": o.action, "amount_to": o.amount_to}
            for o in view.out_of_turn
        ],
    }  # fmt: skip


def _result(state: HandState, result: HandSettled) -> dict[str, Any]:
    """The settled hand for the tablet: each pot's winners with the hand each one won with
    (SD-1: the dealer announces it; ``None`` when it was not shown or the board is short),
    and, for a board run more than once (RAKE-10), what each run paid and to whom."""
    shown = {seat.seat: seat.shown for seat in state.seats if seat.shown}
    boards = state.boards

    def winners(awards: Iterable[Award], board: Sequence[str] | None) -> list[dict[str, Any]]:
        return [
            {
                "seat": w.seat,
                "amount": w.amount,
                "hand": _best_hand(state.game, board, shown.get(w.seat)),
            }
            for w in awards
        ]

    return {
        "method": result.method,
        "rake": result.rake,
        "uncalled": [dataclasses.asdict(u) for u in result.uncalled],
        "pots": [
            {
                "index": p.index,
                "amount": p.amount,
                "rake": p.rake,
                "eligible_seats": list(p.eligible_seats),
                "winners": winners(p.winners, None if p.runs else boards[0]),
                "runs": [
                    {"run": r.run, "amount": r.amount,
                     "winners": winners(r.winners, boards[r.run - 1])}
                    for r in p.runs
                ],
            }
            for p in result.pots
        ],
    }  # fmt: skip


def _best_hand(game: str, board: Sequence[str] | None, hole: str | None) -> dict[str, str] | None:
    hand = best_hand(game, board, hole) if board is not None and hole else None
    return None if hand is None else {"category": hand.category, "cards": hand.cards}


def hand_payload(state: HandState, version: int) -> dict[str, Any]:
    """The JSON the tablet reads for a hand (shape: :class:`serializers.HandSerializer`)."""
    legal = hand_rulings.legal_actions(state)
    result = state.result
    return {
        "hand_id": state.hand_id,
        "table_id": state.started.table_id,
        "hand_number": state.started.hand_number,
        "version": version,
        "game": state.game,
        "button_seat": state.button_seat,
        "small_blind_seat": state.small_blind_seat,
        "big_blind_seat": state.big_blind_seat,
        "posts": [
            {"seat": p.seat, "kind": p.kind, "amount": p.amount} for p in state.started.posts
        ],
        "phase": state.phase,
        "street": state.street,
        "next_street": state.next_street,
        "board": list(state.board),
        "to_act": state.to_act,
        "legal": _scalars(legal) if legal else None,
        "pot": state.pot,
        "pots": []
        if state.is_complete
        else [
            {"index": p.index, "amount": p.amount, "eligible_seats": list(p.eligible_seats)}
            for p in state.pots_on_screen()
        ],
        "boards": [list(board) for board in state.boards],
        "run_count": state.run_count,
        "next_run": state.next_run,
        "straddles": list(state.straddles),
        "show_order": _show_order(state),
        "voided": dataclasses.asdict(state.voided) if state.voided else None,
        "rabbit": dataclasses.asdict(state.rabbit) if state.rabbit else None,
        "floor": _floor(state),
        "seats": [{**_scalars(seat), "all_in": seat.all_in} for seat in state.seats],
        "result": None if result is None else _result(state, result),
    }


class StartHandView(APIView):
    @extend_schema(
        operation_id="start_hand",
        request=s.StartHandRequest,
        responses={201: s.HandSerializer, **ERRORS},
        parameters=WRITE_PARAMETERS,
    )
    def post(self, request: Request, table_id: int) -> Response:
        """Deal a new hand: button, blinds and antes by position (SEAT-4, SEAT-7, SEAT-10)."""
        parsed = s.StartHandRequest(data=request.data)
        parsed.is_valid(raise_exception=True)
        if_match = expected_version(request)

        def body() -> dict[str, Any]:
            loaded = services.start_hand(
                table_id=table_id, if_match=if_match, **parsed.validated_data
            )
            return hand_payload(loaded.state, loaded.version)

        return run_write(request, body, status_code=status.HTTP_201_CREATED)


class HandLogView(APIView):
    @extend_schema(
        operation_id="hand_log",
        responses={200: s.HandLogEntrySerializer(many=True), 404: ErrorSerializer},
    )
    def get(self, request: Request, hand_id: str) -> Response:
        """Every event of the hand in order, with who recorded it (device or staff user),
        from which device, and when (UTC): the floor replays a disputed hand step by step."""
        entries = selectors.hand_log(str(hand_id))
        if not entries:
            raise NotFound("hand_not_found", f"There is no hand {hand_id}.")
        return Response(entries)


class HandDetailView(APIView):
    @extend_schema(operation_id="get_hand", responses={200: s.HandSerializer, 404: ErrorSerializer})
    def get(self, request: Request, hand_id: str) -> Response:
        """A hand as it stands: whose turn, legal amounts, pot, board, seats, result."""
        loaded = services.load_hand(str(hand_id))
        return Response(hand_payload(loaded.state, loaded.version))


def _hand_view(
    operation_id: str,
    incoming: type[serializers.Serializer],
    service: Callable[..., Loaded[HandState]],
    doc: str,
) -> type[APIView]:
    """A write on one hand that answers with the hand as the tablet shows it."""

    def perform(data: dict[str, Any], hand_id: Any, if_match: int | None) -> dict[str, Any]:
        loaded = service(hand_id=str(hand_id), if_match=if_match, **data)
        return hand_payload(loaded.state, loaded.version)

    return write_view(
        operation_id=operation_id,
        request=incoming,
        response=s.HandSerializer,
        perform=perform,
        doc=doc,
    )


RecordActionView = _hand_view(
    "record_action",
    s.ActionRequest,
    services.record_action,
    "Record the action of the player to act. Illegal actions (out of turn, below the "
    "minimum, above the pot limit ...) answer 422 with the rule ID and append nothing.",
)
DealBoardView = _hand_view(
    "deal_board", s.BoardRequest, services.deal_board, "Record the flop, turn or river."
)
ShowCardsView = _hand_view(
    "show_cards",
    s.ShowRequest,
    services.show_cards,
    "A player tables his cards at showdown; the server ranks the hands and awards the pots "
    "once every live player has shown or mucked.",
)
MuckCardsView = _hand_view(
    "muck_cards",
    s.MuckRequest,
    services.muck_cards,
    "A player mucks at showdown; an all-in hand only when he threw it away on purpose "
    "(``deliberate``, SD-12).",
)
AwardPotsView = _hand_view(
    "award_pots",
    s.AwardRequest,
    services.award_pots,
    "Manual award: the dealer names the winning seats of each pot, main pot first.",
)

RunItView = _hand_view(
    "run_it",
    s.RunItRequest,
    services.run_it,
    "All-in players agreed to run the rest of the board 2 or 3 times (RAKE-10).",
)
MisdealView = _hand_view(
    "declare_misdeal",
    s.ReasonRequest,
    services.declare_misdeal,
    "Void the hand as a misdeal within the room's window (MIS-1..3); every chip goes back.",
)
VoidHandView = _hand_view(
    "void_hand",
    s.ReasonRequest,
    services.void_hand,
    "Void the hand for a foreign or duplicate card (MIS-11, MIS-12); every chip goes back.",
)
RabbitHuntView = _hand_view(
    "record_rabbit_hunt",
    s.RabbitHuntRequest,
    services.record_rabbit_hunt,
    "Record a rabbit hunt after a cash hand and the dealer's fee (RAKE-7, RAKE-8), with "
    "the other players' consent (``consenting_seats``, or recorded before by "
    "``record_rabbit_consent``): 422 ``consent_missing`` without it.",
)
