"""Tournament endpoints: the director's console, the cashier's registrations, the public
clock and chip counts, and the results report. Thin views, one service call each; hands are
played through the dealer API of the tables (``/api/v1/tables/{table_id}/hands/``)."""

from __future__ import annotations

from typing import Any

from django_filters.utils import translate_validation
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from cashgame import serializers as cs
from cashgame.models import PrizePayment
from casino.api.errors import WRITE_ERRORS, ErrorSerializer
from casino.api.filters import IdFilter, StrictFilterSet
from casino.api.serializers import MAX_ID
from casino.api.views import (
    IDEMPOTENCY_KEY,
    refuse_if_match,
    run_write,
    write_view,
)
from tournaments import selectors, services
from tournaments import serializers as s
from tournaments.models import TournamentView


class TournamentListView(APIView):
    @extend_schema(
        operation_id="list_tournaments", responses={200: s.TournamentSerializer(many=True)}
    )
    def get(self, request: Request) -> Response:
        """Every tournament with its clock, newest last."""
        ids = TournamentView.objects.values_list("tournament_id", flat=True)
        return Response([selectors.tournament_payload(tid) for tid in ids])

    @extend_schema(
        operation_id="create_tournament",
        request=s.TournamentConfigSerializer,
        responses={201: s.TournamentSerializer, **WRITE_ERRORS},
        parameters=[IDEMPOTENCY_KEY],  # a new stream: no version to match
    )
    def post(self, request: Request) -> Response:
        """Publish a tournament: buy-in and fee, starting stack, structure, breaks, late
        registration, re-entry, rebuys and add-ons, guarantee, payouts (TREG-6)."""
        incoming = s.TournamentConfigSerializer(data=request.data)
        refuse_if_match(request)
        incoming.is_valid(raise_exception=True)
        return run_write(
            request,
            lambda: selectors.tournament_payload(
                services.create_tournament(config=dict(incoming.validated_data))
            ),
            status_code=status.HTTP_201_CREATED,
        )


class TournamentDetailView(APIView):
    @extend_schema(
        operation_id="get_tournament",
        responses={200: s.TournamentSerializer, 404: ErrorSerializer},
    )
    def get(self, request: Request, tournament_id: int) -> Response:
        """A tournament: configuration, totals, tables in play and the live clock."""
        return Response(selectors.tournament_payload(tournament_id))


class TournamentClockView(APIView):
    @extend_schema(
        operation_id="tournament_clock",
        responses={200: s.ClockSerializer, 404: ErrorSerializer},
    )
    def get(self, request: Request, tournament_id: int) -> Response:
        """The public clock (TV boards, tablets): level, blinds, time left, next break,
        players left, average stack, prize pool. No names."""
        return Response(selectors.clock_payload(tournament_id))


class ChipCountsView(APIView):
    @extend_schema(
        operation_id="tournament_chip_counts",
        responses={200: s.ChipCountsSerializer, 404: ErrorSerializer},
    )
    def get(self, request: Request, tournament_id: int) -> Response:
        """The public chip-count board (TV boards): the players still in ranked by chips
        with their table and seat, players left, average stack and chip leader, the payout
        ladder (CZK) and the places taken so far with their prizes. Names are nicknames or
        initials only; no player ids.

        Raises:
            NotFound: 404 ``tournament_not_found``.
        """
        return Response(selectors.chip_counts_payload(tournament_id))


class EntryListView(APIView):
    @extend_schema(
        operation_id="list_tournament_entries",
        responses={200: s.TournamentEntrySerializer(many=True), 404: ErrorSerializer},
    )
    def get(self, request: Request, tournament_id: int) -> Response:
        """Every entry: status, table and seat, chips, finishing place and prize (CZK) --
        what the cashier pays out."""
        selectors.clock_payload(tournament_id)  # 404 for an unknown tournament
        return Response(selectors.entries_payload(tournament_id))


def _answer(tournament_id: int) -> dict[str, Any]:
    return selectors.tournament_payload(tournament_id)


def _tournament_write(
    operation_id: str, service: Any, doc: str, request: type = s.PlayerRequest
) -> type[APIView]:
    """A write that calls one service and answers with the tournament."""

    def perform(data: dict[str, Any], *, tournament_id: int, if_match: int | None) -> Any:
        service(tournament_id=tournament_id, if_match=if_match, **data)
        return _answer(tournament_id)

    return write_view(
        operation_id=operation_id,
        request=request,
        response=s.TournamentSerializer,
        perform=perform,
        doc=doc,
    )


RegisterView = _tournament_write(
    "register_tournament_player",
    services.register_player,
    "Register a player (buy-in + fee paid in cash or T-Money; TREG-1, TREG-9, TREG-11). "
    "After the start this is a late registration while it is open (TREG-7, TREG-8), seated "
    "by draw.",
    request=s.RegistrationRequest,
)
ReEntryView = _tournament_write(
    "re_enter_tournament",
    services.re_enter,
    "A new entry for an eliminated player when the event allows re-entry (TREG-9).",
)
RebuyView = _tournament_write(
    "tournament_rebuy", services.rebuy, "A rebuy within the rebuy rule (TREG-14)."
)
AddOnView = _tournament_write(
    "tournament_add_on", services.add_on, "The add-on at its level or break (CLK-5)."
)


def _unregister(data: dict[str, Any], *, tournament_id: int, if_match: int | None) -> Any:
    refund = services.unregister_player(tournament_id=tournament_id, if_match=if_match, **data)
    return {"refund": refund, "tournament": _answer(tournament_id)}


UnregisterView = write_view(
    operation_id="unregister_tournament_player",
    request=s.PlayerRequest,
    response=s.RefundSerializer,
    perform=_unregister,
    doc="Withdraw before the start and the deadline; buy-in and fee are refunded (TREG-10).",
)
StartView = _tournament_write(
    "start_tournament",
    services.start_tournament,
    "Open the tables, draw seats and buttons (TSEAT-1, SEAT-1/2), seat every entrant "
    "(absent ones too, TREG-2) and start level 1 (TREG-3: a full table is needed).",
    s.StartRequest,
)
PauseView = _tournament_write("pause_clock", services.pause_clock, "Stop the clock.", s.NoBody)
ResumeView = _tournament_write(
    "resume_clock", services.resume_clock, "Restart the clock.", s.NoBody
)
AdjustClockView = _tournament_write(
    "adjust_clock",
    services.adjust_clock,
    "Give the level or break in progress more time, or take some off, running or stopped "
    "(e.g. the minutes a room outage took); the level then ends that much later or sooner.",
    s.ClockAdjustmentRequest,
)
AmendLevelsView = _tournament_write(
    "amend_tournament_levels",
    services.amend_levels,
    "Change the structure from a level after the one in progress, or add levels after the "
    "last (TREG-6: published parameters may change; the event is the change log). Levels "
    "played stay as played; the new structure is checked as publishing checks it.",
    s.AmendLevelsRequest,
)
StartBreakView = _tournament_write(
    "start_break",
    services.start_break,
    "Call a break; it starts when the hands in progress end (CLK-7).",
    s.BreakRequest,
)
EndBreakView = _tournament_write("end_break", services.end_break, "End the break now.", s.NoBody)
HandForHandView = _tournament_write(
    "set_hand_for_hand",
    services.set_hand_for_hand,
    "Switch hand-for-hand on or off (TSEAT-9, ELIM-5).",
    s.HandForHandRequest,
)
CloseLateView = _tournament_write(
    "close_late_registration",
    services.close_late_registration,
    "Close late registration now (TREG-7).",
    s.NoBody,
)


# --- deals (DEAL-1..11) ---------------------------------------------------------------------


class DealView(APIView):
    @extend_schema(
        operation_id="get_tournament_deal",
        responses={200: s.DealSerializer, 404: ErrorSerializer},
    )
    def get(self, request: Request, tournament_id: int) -> Response:
        """The deal: who asked, whether the final table is paused for it (DEAL-4), the
        proposal with each share (CZK) and the confirmations (DEAL-5), the agreed deal."""
        return Response(selectors.deal_payload(tournament_id))


def _deal_write(
    operation_id: str, service: Any, doc: str, request: type = s.PlayerRequest
) -> type[APIView]:
    def perform(data: dict[str, Any], *, tournament_id: int, if_match: int | None) -> Any:
        service(tournament_id=tournament_id, if_match=if_match, **data)
        return selectors.deal_payload(tournament_id)

    return write_view(
        operation_id=operation_id, request=request, response=s.DealSerializer,
        perform=perform, doc=doc,
    )  # fmt: skip


RequestDealView = _deal_write(
    "request_deal",
    services.request_deal,
    "A remaining player asks to discuss a deal (DEAL-4); when all have, the final table "
    "pauses after the hand in progress and the director is alerted. Refused when the event "
    "has no deals (DEAL-1) or before the final table (DEAL-3).",
)
ProposeDealView = _deal_write(
    "propose_deal",
    services.propose_deal,
    "The director proposes a deal: ICM (DEAL-7), chip count (DEAL-8), even split (DEAL-9) "
    "or custom amounts (DEAL-5), leaving money on the table for 1st (DEAL-6). Every "
    "remaining player must have a share (DEAL-2). No leaderboard points (DEAL-11).",
    s.ProposeDealRequest,
)
ConfirmDealView = _deal_write(
    "confirm_deal",
    services.confirm_deal,
    "Record a player's confirmation of the numbers; the last one makes the deal final and "
    "it replaces the remaining payouts (DEAL-5).",
)
CancelDealView = _deal_write(
    "cancel_deal",
    services.cancel_deal,
    "A player declines, or the director calls the deal off: play resumes.",
    s.CancelDealRequest,
)


# --- winnings at the cage -------------------------------------------------------------------


def _pay(data: dict[str, Any], *, tournament_id: int, if_match: int | None) -> Any:
    paid = services.pay_winnings(tournament_id=tournament_id, if_match=if_match, **data)
    return {"paid": paid, "tournament": _answer(tournament_id)}


PayWinningsView = write_view(
    operation_id="pay_tournament_winnings",
    request=s.PlayerRequest,
    response=s.PaymentSerializer,
    perform=_pay,
    doc="The cage pays a player what he is owed now: his prize (or deal share, ELIM-6), the "
    "early payout (ELIM-7/8) and the bounties he won; refused while held (ELIM-9). The "
    "cage's day balance includes it.",
)


class WinningsView(PayWinningsView):  # type: ignore[misc,valid-type]
    """GET: what the cage still owes each player (``list_tournament_winnings``); POST: pay
    one player (``pay_tournament_winnings``)."""

    @extend_schema(
        operation_id="list_tournament_winnings",
        responses={200: s.OwedSerializer(many=True), 404: ErrorSerializer},
    )
    def get(self, request: Request, tournament_id: int) -> Response:
        """Every player the tournament still owes cash (prize, deal share, early payout,
        cancellation settlement, bounties), held or not (ELIM-9), and the satellite seats
        taken instead of cash (TREG-11), by player id.

        Raises:
            NotFound: 404 ``tournament_not_found``.
        """
        return Response(selectors.owed_payload(tournament_id))


HoldWinningsView = _tournament_write(
    "hold_tournament_winnings",
    services.hold_winnings,
    "Hold a player's winnings for a game-integrity review (ELIM-9).",
    s.HoldRequest,
)
ReleaseWinningsView = _tournament_write(
    "release_tournament_winnings",
    services.release_winnings,
    "Release held winnings after the review (ELIM-9).",
    s.HoldRequest,
)


# --- penalties ---------------------------------------------------------------------------------


class PenaltiesView(APIView):
    @extend_schema(
        operation_id="list_tournament_penalties",
        responses={200: s.PenaltiesSerializer, 404: ErrorSerializer},
    )
    def get(self, request: Request, tournament_id: int) -> Response:
        """Every ruling with its reason, the flags, and who sits out (PEN-1..16)."""
        return Response(selectors.penalties_payload(tournament_id))


class TMoneyView(APIView):
    @extend_schema(
        operation_id="get_player_t_money",
        responses={200: s.TMoneySerializer, 404: ErrorSerializer},
    )
    def get(self, request: Request, player_id: int) -> Response:
        """A player's T-Money: balance and every credit and spend (TREG-11)."""
        return Response(selectors.t_money_payload(player_id))


class BracketView(APIView):
    @extend_schema(
        operation_id="get_tournament_bracket",
        responses={200: s.BracketSerializer, 404: ErrorSerializer},
    )
    def get(self, request: Request, tournament_id: int) -> Response:
        """A heads-up event's bracket: byes, matches with their tables and winners (HU-1..4)."""
        return Response(selectors.bracket_payload(tournament_id))


def _penalty_write(operation_id: str, service: Any, doc: str, request: type) -> type[APIView]:
    def perform(data: dict[str, Any], *, tournament_id: int, if_match: int | None) -> Any:
        service(tournament_id=tournament_id, if_match=if_match, **data)
        return selectors.penalties_payload(tournament_id)

    return write_view(
        operation_id=operation_id, request=request, response=s.PenaltiesSerializer,
        perform=perform, doc=doc,
    )  # fmt: skip


IssuePenaltyView = _penalty_write(
    "issue_tournament_penalty",
    services.issue_penalty,
    "A ruling: warning, sit-out (dealt in, blinds posted, hand killed) or disqualification "
    "(chips removed), the ladder's next step unless an override (PEN-1/2/9/16); conduct "
    "during a hand is penalised after the hand.",
    s.PenaltyRequest,
)
FlagConductView = _penalty_write(
    "flag_tournament_conduct",
    services.flag_conduct,
    "Record conduct for the floor to rule on (PEN-5..15).",
    s.FlagRequest,
)


# --- scheduling, crashes, cancellation ---------------------------------------------------------

SeatCorrectionView = _tournament_write(
    "correct_tournament_seat",
    services.correct_seat,
    "A player found in the wrong seat is moved, stack and all, to his right seat, between "
    "hands (TSEAT-2).",
    s.SeatCorrectionRequest,
)
ScheduleView = _tournament_write(
    "schedule_tournament_start",
    services.schedule_start,
    "Set the lobby start time, or delay it with a logged reason (TREG-5).",
    s.ScheduleRequest,
)
RollBackView = _tournament_write(
    "roll_back_tournament_hands",
    services.roll_back_hands,
    "After a server crash: every hand in progress back to its start stacks (CXL-1).",
    s.RollBackRequest,
)
CancelView = _tournament_write(
    "cancel_tournament",
    services.cancel_tournament,
    "Cancel and settle every player under the versioned policy (CXL-2..9): rollback, or "
    "roll forward (before the money: half equally, half by chips; in the money: the "
    "smallest unawarded prize each, the rest by chips). Fees and knockout bounties are "
    "refunded, not guarantees nor fixed bounties.",
    s.CancelRequest,
)


class CancellationView(APIView):
    @extend_schema(
        operation_id="get_tournament_settlement",
        responses={200: s.SettlementSerializer, 404: ErrorSerializer},
    )
    def get(self, request: Request, tournament_id: int) -> Response:
        """The cancellation settlement: method, policy and version, every share (CZK)."""
        return Response(selectors.settlement_payload(tournament_id))


# --- the cage pays one entry's prize (the cage console) ---------------------------


def _pay_prize(data: dict[str, Any], if_match: int | None) -> Any:
    return dict(cs.PrizePaymentSerializer(services.pay_entry_prize(**data)).data)


PayPrizeView = write_view(
    operation_id="pay_tournament_prize",
    request=cs.PrizePaymentRequest,
    response=cs.PrizePaymentSerializer,
    perform=_pay_prize,
    doc="The cage pays one entry's tournament prize in cash, once (the prize and place "
    "from the finished tournament's results).",
    status_code=201,
    takes_if_match=False,  # checks no stream version: If-Match is refused
)


class PrizePaymentFilter(StrictFilterSet):
    """``?tournament_id=``: a tournament's id (``IdFilter``: 400 ``invalid_request`` for
    anything else, rather than every payment as if no filter had been given)."""

    tournament_id = IdFilter()

    class Meta:
        model = PrizePayment
        fields = ["tournament_id"]


class PrizePaymentsView(PayPrizeView):  # type: ignore[misc,valid-type]
    """GET: the prizes paid; POST: pay one (``pay_tournament_prize``)."""

    @extend_schema(
        operation_id="list_prize_payments",
        parameters=[
            OpenApiParameter(
                "tournament_id",
                {"type": "integer", "minimum": 0, "maximum": MAX_ID},  # as IdFilter holds
                description="Only this tournament.",
            )
        ],
        responses={200: cs.PrizePaymentSerializer(many=True), 400: ErrorSerializer},
    )
    def get(self, request: Request) -> Response:
        """Tournament prizes the cage has paid (who, which entry, how much, when).

        Raises:
            ValidationError: 400 ``invalid_request`` when ``tournament_id`` is not an id.
        """
        payments = PrizePaymentFilter(request.query_params, queryset=PrizePayment.objects.all())
        if not payments.is_valid():
            raise translate_validation(payments.errors)
        return Response(cs.PrizePaymentSerializer(payments.qs, many=True).data)
