"""Player registry endpoints (reference data, not events)."""

from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from casino.api.errors import ErrorSerializer
from casino.api.serializers import RequestSerializer, SafeCharField
from casino.api.views import WRITE_PARAMETERS, run_write
from casino.models import Player


class PlayerSerializer(RequestSerializer):
    """A player as registered; ``nickname`` is what the public boards show, so neither it
    nor the name may carry control characters or bidi overrides."""

    id = serializers.IntegerField(read_only=True)
    name = SafeCharField(max_length=200)
    nickname = SafeCharField(max_length=100, required=False, allow_blank=True, default="")


class CreatePlayerView(APIView):
    @extend_schema(
        operation_id="create_player",
        request=PlayerSerializer,
        responses={201: PlayerSerializer, 400: ErrorSerializer},
        parameters=WRITE_PARAMETERS,
    )
    def post(self, request: Request) -> Response:
        """Register a player."""
        incoming = PlayerSerializer(data=request.data)
        incoming.is_valid(raise_exception=True)

        def body() -> dict:
            player = Player.objects.create(**incoming.validated_data)
            return dict(PlayerSerializer(player).data)

        return run_write(request, body, status_code=status.HTTP_201_CREATED)
