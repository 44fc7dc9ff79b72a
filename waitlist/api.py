"""Floor-console and board endpoints of the waiting lists: thin views, one service each.

Writes go through :func:`casino.api.views.write_view` / ``run_write`` (``Idempotency-Key``,
one transaction, retried on a concurrent append; ``If-Match`` is the list's stream
version). Every write answers with the list as the console shows it.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from casino.api.errors import WRITE_ERRORS, ErrorSerializer
from casino.api.views import (
    IDEMPOTENCY_KEY,
    refuse_if_match,
    run_write,
    write_view,
)
from casino.eventstore import store
from tables.selectors import table_payload
from waitlist import selectors, services
from waitlist import serializers as s


def _check_version(list_id: str, if_match: int | None) -> None:
    """``If-Match``: refuse (409) when the list changed since the console read it."""
    if if_match is None:
        return
    current = store.stream_version(services.list_stream(list_id))
    if current != if_match:
        raise store.StaleVersion(services.list_stream(list_id), if_match, current)


def _list(list_id: Any) -> dict[str, Any]:
    return selectors.waitlist_payload(str(list_id))


class WaitlistsView(APIView):
    @extend_schema(operation_id="list_waitlists", responses={200: s.FloorSerializer})
    def get(self, request: Request) -> Response:
        """The floor console: every list in order, calls in progress with their deadlines,
        open seats per table with whom to call (WL-2), estimated waits."""
        return Response(selectors.floor_payload())

    @extend_schema(
        operation_id="open_waitlist",
        request=s.OpenListRequest,
        responses={201: s.WaitlistSerializer, **WRITE_ERRORS},
        parameters=[IDEMPOTENCY_KEY],  # a new stream: no version to match
    )
    def post(self, request: Request) -> Response:
        """Open the waiting, interest or table-change list of a game and stakes."""
        incoming = s.OpenListRequest(data=request.data)
        refuse_if_match(request)
        incoming.is_valid(raise_exception=True)
        return run_write(
            request,
            lambda: _list(services.open_list(**incoming.validated_data)),
            status_code=status.HTTP_201_CREATED,
        )


class WaitlistDetailView(APIView):
    @extend_schema(
        operation_id="get_waitlist",
        responses={200: s.WaitlistSerializer, 404: ErrorSerializer},
    )
    def get(self, request: Request, list_id: str) -> Response:
        """One list as the floor console shows it."""
        return Response(_list(list_id))


class BoardView(APIView):
    @extend_schema(operation_id="waitlist_board", responses={200: s.BoardSerializer})
    def get(self, request: Request) -> Response:
        """The public TV board (no login): waiting and interest lists with nicknames or
        initials only, whether each is being called, and the estimated wait."""
        return Response(selectors.board_payload())


# --- writes ---------------------------------------------------------------------------------


def _join(data: dict[str, Any], list_id: str, if_match: int | None) -> Any:
    _check_version(list_id, if_match)
    entry_id = services.join_list(list_id=list_id, **data)
    return {"entry_id": entry_id, "waitlist": _list(list_id)}


def _leave(data: dict[str, Any], list_id: str, player_id: int, if_match: int | None) -> Any:
    _check_version(list_id, if_match)
    services.leave_list(list_id=list_id, player_id=player_id, **data)
    return _list(list_id)


def _close(data: dict[str, Any], list_id: str, if_match: int | None) -> Any:
    _check_version(list_id, if_match)
    removed = services.close_list(list_id=list_id, **data)
    return {"list_id": list_id, "removed_player_ids": removed}


def _away(data: dict[str, Any], list_id: str, player_id: int, if_match: int | None) -> Any:
    _check_version(list_id, if_match)
    services.mark_away(list_id=list_id, player_id=player_id, **data)
    return _list(list_id)


def _call(data: dict[str, Any], list_id: str, if_match: int | None) -> Any:
    _check_version(list_id, if_match)
    called = services.call_player(list_id=list_id, **data)
    return {
        "call_id": called.call_id,
        "player_id": called.player_id,
        "deadline": selectors.iso(datetime.fromisoformat(called.deadline)),
        "waitlist": _list(list_id),
    }


def _cancel(data: dict[str, Any], list_id: str, call_id: Any, if_match: int | None) -> Any:
    _check_version(list_id, if_match)
    services.cancel_call(list_id=list_id, call_id=str(call_id), **data)
    return _list(list_id)


def _no_show(data: dict[str, Any], list_id: str, call_id: Any, if_match: int | None) -> Any:
    _check_version(list_id, if_match)
    recorded = services.expire_call(list_id=list_id, call_id=str(call_id), by_floor=True)
    return {"recorded": recorded, "waitlist": _list(list_id)}


def _seat(data: dict[str, Any], list_id: str, if_match: int | None) -> Any:
    _check_version(list_id, if_match)
    seated = services.seat_from_list(list_id=list_id, **data)
    return {"waitlist": _list(list_id), "table": table_payload(seated.table_id)}


def _start(data: dict[str, Any], list_id: str, if_match: int | None) -> Any:
    _check_version(list_id, if_match)
    table_id = services.start_interest_game(list_id=list_id, **data)
    return {"waitlist": _list(list_id), "table": table_payload(table_id)}


def _link(data: dict[str, Any], list_id: str, if_match: int | None) -> Any:
    _check_version(list_id, if_match)
    services.link_must_move(list_id=list_id, **data)
    return _list(list_id)


def _must_move(data: dict[str, Any], list_id: str, if_match: int | None) -> Any:
    _check_version(list_id, if_match)
    moved = services.move_must_move_player(list_id=list_id, **data)
    return {**moved, "waitlist": _list(list_id)}


JoinView = write_view(
    operation_id="join_waitlist",
    request=s.JoinListRequest,
    response=s.JoinedSerializer,
    perform=_join,
    doc="Put a player at the bottom of the list: in person, by phone or from the console; "
    "he need not be in the room (WL-1). A second entry on one list is refused.",
    status_code=201,
)
LeaveView = write_view(
    operation_id="leave_waitlist",
    request=s.LeaveListRequest,
    response=s.WaitlistSerializer,
    perform=_leave,
    doc="Take a player off the list, at his request or the floor's (WL-3); a call in "
    "progress for him is cancelled.",
)
CloseView = write_view(
    operation_id="close_waitlist",
    request=s.CloseListRequest,
    response=s.ClosedListSerializer,
    perform=_close,
    doc="Close a list (a game the room no longer spreads, or opened by mistake): it leaves "
    "the console and the board, and the names still on it come off. Refused while a call is "
    "in progress (WL-2). The game may be opened again later.",
)
AwayView = write_view(
    operation_id="mark_waitlist_away",
    request=s.AwayRequest,
    response=s.WaitlistSerializer,
    perform=_away,
    doc="The player told staff he left the room for a while, or is back (WL-3): he keeps "
    "his place and is not called while away.",
)
CallView = write_view(
    operation_id="call_player",
    request=s.CallRequest,
    response=s.CalledSerializer,
    perform=_call,
    doc="Call the next eligible player for an open seat (WL-2) and start his response "
    "deadline (WAITLIST_CALL_SECONDS). One call per seat.",
    status_code=201,
)
CancelCallView = write_view(
    operation_id="cancel_call",
    request=s.CancelCallRequest,
    response=s.WaitlistSerializer,
    perform=_cancel,
    doc="Withdraw a call in progress; the player keeps his place.",
)
NoShowView = write_view(
    operation_id="record_no_show",
    request=s.NoShowRequest,
    response=s.NoShowSerializer,
    perform=_no_show,
    doc="The called player is not there: he keeps his name but moves down by the house "
    "rule, or comes off after the configured number of misses (WL-2).",
)
SeatView = write_view(
    operation_id="seat_from_waitlist",
    request=s.SeatFromListRequest,
    response=s.SeatedSerializer,
    perform=_seat,
    doc="Seat the called (or next eligible) player and take him off this list: a waiting "
    "list starts his cash session with a valid buy-in (BI-2..BI-5, SES-7); a table-change "
    "list moves him with his whole stack (SES-2, SES-4). Table and list change together.",
)
StartGameView = write_view(
    operation_id="start_interest_game",
    request=s.StartGameRequest,
    response=s.StartedSerializer,
    perform=_start,
    doc="Enough players are interested (WAITLIST_INTEREST_THRESHOLD): open a table for "
    "the game; the interest list becomes its waiting list.",
    status_code=201,
)
MustMoveLinkView = write_view(
    operation_id="link_must_move",
    request=s.MustMoveRequest,
    response=s.WaitlistSerializer,
    perform=_link,
    doc="Make a must-move table feed the game's main table (both null: unlink).",
)
MustMoveView = write_view(
    operation_id="move_must_move_player",
    request=s.MustMoveSeatRequest,
    response=s.MustMoveMoveSerializer,
    perform=_must_move,
    doc="A main-table seat opened: move the longest-seated must-move player there with his "
    "whole stack (SES-2, SES-4).",
)
