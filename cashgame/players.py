"""A player's file for the cashier and the floor: where he sits, his cash sessions and the
restrictions on his seating (``GET /api/v1/players/<id>/``). Amounts in CZK, times UTC."""

from __future__ import annotations

from typing import Any

from django.db.models import Q
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from cashgame.models import CashSession, SeatingRestriction
from casino.api.errors import ErrorSerializer
from casino.errors import NotFound
from casino.models import Player
from tables.models import SeatView

RECENT_SESSIONS = 20


class CurrentSeatSerializer(serializers.Serializer):
    table_id = serializers.IntegerField()
    seat = serializers.IntegerField()
    stack = serializers.IntegerField(help_text="Chips in front of him after the last hand.")


class PlayerSessionSerializer(serializers.ModelSerializer):
    class Meta:
        model = CashSession
        fields = ["id", "table_id", "game", "small_blind", "big_blind", "seat", "seated_at",
                  "left_at", "chips_in", "chips_out"]  # fmt: skip


class SeatingRestrictionSerializer(serializers.Serializer):
    other_player_id = serializers.IntegerField(help_text="Not to be seated with him (BI-11).")
    reason = serializers.CharField()
    created_at = serializers.DateTimeField()


class PlayerDetailSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    nickname = serializers.CharField()
    current_seats = CurrentSeatSerializer(many=True)
    sessions = PlayerSessionSerializer(
        many=True, help_text=f"The last {RECENT_SESSIONS}, newest first."
    )
    seating_restrictions = SeatingRestrictionSerializer(many=True)


def player_detail(player_id: int) -> dict[str, Any]:
    """The player's file.

    Raises:
        NotFound ``player_not_found``.
    """
    player = Player.objects.filter(pk=player_id).first()
    if player is None:
        raise NotFound("player_not_found", f"There is no player {player_id}.", player_id=player_id)
    seats = SeatView.objects.filter(player_id=player_id).order_by("table_id", "seat")
    sessions = CashSession.objects.filter(player_id=player_id).order_by("-seated_at", "-id")
    restrictions = SeatingRestriction.objects.filter(
        Q(player_a=player_id) | Q(player_b=player_id)
    ).order_by("created_at")
    return {
        "id": player.pk,
        "name": player.name,
        "nickname": player.nickname,
        "current_seats": [
            {"table_id": s.table_id, "seat": s.seat, "stack": s.stack} for s in seats
        ],
        "sessions": PlayerSessionSerializer(sessions[:RECENT_SESSIONS], many=True).data,
        "seating_restrictions": [
            {
                "other_player_id": r.player_b if r.player_a == player_id else r.player_a,
                "reason": r.reason,
                "created_at": r.created_at,
            }
            for r in restrictions
        ],
    }


class PlayerDetailView(APIView):
    @extend_schema(
        operation_id="player_detail",
        responses={200: PlayerDetailSerializer, 404: ErrorSerializer},
    )
    def get(self, request: Request, player_id: int) -> Response:
        """A player's current seat(s), recent cash sessions and seating restrictions."""
        return Response(PlayerDetailSerializer(player_detail(player_id)).data)
