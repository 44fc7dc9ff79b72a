"""Dealer-tablet endpoints of Show poker tables (SHOW-1..27): thin views over
:mod:`tables.show_services`; rules in :mod:`tables.domain.show_poker.game`. Every write
answers with the hand as the tablet shows it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from casino import clock
from casino.api.errors import WRITE_ERRORS, ErrorSerializer
from casino.api.serializers import (
    BoundedListField,
    NoBody,
    RequestSerializer,
    SafeCharField,
    StrictBooleanField,
    StrictIntegerField,
)
from casino.api.views import WRITE_PARAMETERS, expected_version, run_write, write_view
from tables import show_services
from tables.domain.show_poker import game as show
from tables.domain.show_poker.events import ShowPotAwarded


class ShowSeatSerializer(serializers.Serializer):
    seat = serializers.IntegerField()
    player_id = serializers.IntegerField()
    stack = serializers.IntegerField()
    contributed = serializers.IntegerField()
    folded = StrictBooleanField()
    dead = StrictBooleanField()
    standing_buy = StrictBooleanField()
    shown = serializers.ListField(child=serializers.CharField())


class ShowDeclarationSerializer(serializers.Serializer):
    seat = serializers.IntegerField()
    text = serializers.CharField()
    hand = serializers.CharField()
    ranks = serializers.ListField(child=serializers.IntegerField())
    leading = StrictBooleanField()
    false = StrictBooleanField()


class ShowAwardSerializer(serializers.Serializer):
    amount = serializers.IntegerField(help_text="Chips (tournament) or CZK.")
    winner = serializers.IntegerField(help_text="The seat that won this pot.")
    eligible = serializers.ListField(child=serializers.IntegerField())


class ShowHandSerializer(serializers.Serializer):
    hand_id = serializers.CharField()
    table_id = serializers.IntegerField()
    version = serializers.IntegerField()
    phase = serializers.CharField()
    blind = serializers.IntegerField()
    button_seat = serializers.IntegerField()
    board = serializers.ListField(child=serializers.CharField())
    to_act = serializers.IntegerField(allow_null=True)
    pending = serializers.ListField(child=serializers.IntegerField())
    next_card_price = serializers.IntegerField(allow_null=True)
    pot = serializers.IntegerField()
    leader = ShowDeclarationSerializer(allow_null=True)
    declarations = ShowDeclarationSerializer(many=True)
    clock_expires_at = serializers.CharField(allow_null=True)
    awards = ShowAwardSerializer(many=True, help_text="The pots awarded, once settled (SHOW-25).")
    misdealt = StrictBooleanField(help_text="Abandoned as a misdeal (SHOW-5).")
    seats = ShowSeatSerializer(many=True)


def _declaration(d: show.RoundDeclaration) -> dict[str, Any]:
    return {"seat": d.seat, "text": d.declaration.text, "hand": d.declaration.name,
            "ranks": list(d.declaration.ranks), "leading": d.leading, "false": d.false}  # fmt: skip


def show_payload(state: show.ShowState, version: int) -> dict[str, Any]:
    leader = state.leader
    return {
        "hand_id": state.started.hand_id,
        "table_id": state.started.table_id,
        "version": version,
        "phase": state.phase,
        "blind": state.started.blind,
        "button_seat": state.started.button_seat,
        "board": list(state.board),
        "to_act": state.to_act,
        "pending": list(state.pending),
        "next_card_price": show.card_price(state.started.blind, state.purchases)
        if state.purchases < show.PURCHASABLE
        else None,
        "pot": state.pot,
        "leader": _declaration(leader) if leader else None,
        "declarations": [_declaration(d) for d in state.round],
        "clock_expires_at": state.clock_expires_at,
        "misdealt": state.misdealt,
        "awards": [
            {"amount": e.amount, "winner": e.winner, "eligible": list(e.eligible)}
            for e in state.history
            if isinstance(e, ShowPotAwarded)
        ],
        "seats": [
            {
                "seat": s.seat,
                "player_id": s.player_id,
                "stack": s.stack,
                "contributed": s.contributed,
                "folded": s.folded,
                "dead": s.dead,
                "standing_buy": s.standing_buy,
                "shown": list(s.shown),
            }
            for s in state.seats
        ],
    }


class StartShowHandRequest(RequestSerializer):
    button_seat = StrictIntegerField(min_value=1, max_value=10, required=False)
    sitting_out_paying = BoundedListField(
        max_length=100, child=StrictIntegerField(min_value=1, max_value=10), default=list
    )


class StartShowHandView(APIView):
    @extend_schema(
        operation_id="start_show_hand",
        request=StartShowHandRequest,
        responses={201: ShowHandSerializer, **WRITE_ERRORS},
        parameters=WRITE_PARAMETERS,
    )
    def post(self, request: Request, table_id: int) -> Response:
        """Deal a Show poker hand: one blind from every player (SHOW-2), four hole cards."""
        parsed = StartShowHandRequest(data=request.data)
        parsed.is_valid(raise_exception=True)
        if_match = expected_version(request)

        def body() -> dict[str, Any]:
            loaded = show_services.start_show_hand(
                table_id=table_id, if_match=if_match, **parsed.validated_data
            )
            return show_payload(loaded.state, loaded.version)

        return run_write(request, body, status_code=status.HTTP_201_CREATED)


class ShowHandDetailView(APIView):
    @extend_schema(
        operation_id="get_show_hand",
        responses={200: ShowHandSerializer, 404: ErrorSerializer},
    )
    def get(self, request: Request, hand_id: str) -> Response:
        """A Show poker hand as it stands: phase, whose turn, declarations, board, seats."""
        loaded = show_services.load_show_hand(str(hand_id))
        return Response(show_payload(loaded.state, loaded.version))


class _Seat(RequestSerializer):
    seat = StrictIntegerField(min_value=1, max_value=10)


class _Flop(RequestSerializer):
    cards = SafeCharField(max_length=12)
    absent_seats = BoundedListField(
        max_length=100, child=StrictIntegerField(min_value=1, max_value=10), default=list
    )
    exposed_seat = StrictIntegerField(required=False, allow_null=True, min_value=1, max_value=10)
    exposed_card = SafeCharField(max_length=500, required=False, allow_blank=True, default="")


class _Declare(_Seat):
    text = SafeCharField(max_length=100)
    shown = SafeCharField(max_length=12, required=False, allow_blank=True, default="")


class _Challenge(RequestSerializer):
    challenger = StrictIntegerField(min_value=1, max_value=10)
    seat = StrictIntegerField(min_value=1, max_value=10)
    cards = SafeCharField(max_length=12)


class _Card(RequestSerializer):
    card = SafeCharField(max_length=4)


class _DealReport(RequestSerializer):
    wrong_count_seats = BoundedListField(
        max_length=100, child=StrictIntegerField(min_value=1, max_value=10), default=list
    )
    exposed_seats = BoundedListField(
        max_length=100, child=StrictIntegerField(min_value=1, max_value=10), default=list
    )


class _CardCount(_Seat):
    count = StrictIntegerField(min_value=0, max_value=10)


class _Clock(RequestSerializer):
    idle_since = serializers.DateTimeField()


def _flop(d: dict[str, Any]) -> show.ShowCommand:
    exposed = (d["exposed_seat"], d["exposed_card"]) if d.get("exposed_seat") else None
    return show.DealFlop(d["cards"], tuple(d["absent_seats"]), exposed)


COMMANDS: dict[str, tuple[type[serializers.Serializer], Callable[[dict[str, Any]], Any], str]] = {
    "show_deal_report": (_DealReport, lambda d: show.ReportDeal(
        tuple(d["wrong_count_seats"]), tuple((s, "") for s in d["exposed_seats"])),
        "Hole-card counts and cards exposed at the end of the deal (SHOW-5)."),
    "show_flop": (_Flop, _flop, "The three-card flop; absent players' hands die (SHOW-3/4/7)."),
    "show_declare": (_Declare, lambda d: show.Declare(d["seat"], d["text"], d["shown"]),
                     "A declaration in turn (SHOW-9..16); at showdown with the cards shown."),
    "show_check": (_Seat, lambda d: show.Check(d["seat"]), "Check (SHOW-11, SHOW-14)."),
    "show_fold": (_Seat, lambda d: show.Fold(d["seat"]), "Fold (SHOW-11)."),
    "show_challenge": (_Challenge, lambda d: show.Challenge(d["challenger"], d["seat"], d["cards"]),
                       "Challenge a declaration; the challenged cards are shown (SHOW-10)."),
    "show_push_over_line": (_Seat, lambda d: show.PushOverLine(d["seat"]),
                            "Chips over the line: check and buy every card (SHOW-12)."),
    "show_buy": (_Seat, lambda d: show.Buy(d["seat"]), "Buy the next card (SHOW-18/19)."),
    "show_turn_card": (_Card, lambda d: show.TurnCard(d["card"]),
                       "Burn one and turn the next card (SHOW-19)."),
    "show_card_count": (_CardCount, lambda d: show.ReportCardCount(d["seat"], d["count"]),
                        "Cards found after a declaration or purchase (SHOW-6)."),
    "show_start_clock": (_Clock, lambda d: show.StartShowdownClock(clock.now(), d["idle_since"]),
                         "No better hand for 10 s: the 30 s showdown clock (SHOW-26)."),
    "show_expire_clock": (NoBody, lambda d: show.ExpireShowdownClock(clock.now()),
                          "The showdown clock ran out: worse hands die, pots awarded (SHOW-26)."),
}  # fmt: skip


def _view(operation_id: str) -> type[APIView]:
    incoming, build, doc = COMMANDS[operation_id]

    def perform(data: dict[str, Any], *, hand_id: Any, if_match: int | None) -> dict[str, Any]:
        loaded = show_services.play(hand_id=str(hand_id), command=build(data), if_match=if_match)
        return show_payload(loaded.state, loaded.version)

    return write_view(
        operation_id=operation_id,
        request=incoming,
        response=ShowHandSerializer,
        perform=perform,
        doc=doc,
    )


VIEWS = {operation_id: _view(operation_id) for operation_id in COMMANDS}
PATHS = {
    operation_id: operation_id.removeprefix("show_").replace("_", "-") for operation_id in COMMANDS
}


class ShowPenaltyRequest(RequestSerializer):
    offence = serializers.ChoiceField(choices=["declare_other_hand", "speech_play", "out_of_turn"])
    players_in_pot = StrictIntegerField(min_value=2, max_value=10, default=3)
    oot_increment = serializers.ChoiceField(choices=["repeat", "escalating"], default="repeat")


class ShowPenaltySerializer(serializers.Serializer):
    player_id = serializers.IntegerField()
    offence = serializers.CharField()
    occurrence = serializers.IntegerField()
    hands = serializers.IntegerField(help_text="Hands to sit out, blinds paid.")
    warning = StrictBooleanField()
    rule = serializers.CharField()


def _penalty(data: dict[str, Any], *, player_id: int, if_match: int | None) -> dict[str, Any]:
    event = show_services.record_show_penalty(player_id=player_id, **data)
    return {"player_id": event.player_id, "offence": event.offence,
            "occurrence": event.occurrence, "hands": event.hands, "warning": event.warning,
            "rule": event.rule}  # fmt: skip


RecordShowPenaltyView = write_view(
    operation_id="record_show_penalty",
    request=ShowPenaltyRequest,
    response=ShowPenaltySerializer,
    perform=_penalty,
    doc="A Show poker penalty recorded on the player (SHOW-20..22): a sit-out of N hands "
    "with blinds paid, counted from his earlier penalties for the same offence.",
    status_code=status.HTTP_201_CREATED,
    takes_if_match=False,  # checks no stream version: If-Match is refused
)
