"""Player registry endpoints (reference data, not events)."""

from typing import Any

import django_filters
from django.db.models import QuerySet
from drf_spectacular.utils import extend_schema, extend_schema_field
from rest_framework import serializers, status
from rest_framework.generics import GenericAPIView
from rest_framework.request import Request
from rest_framework.response import Response

from casino import contacts
from casino.api.errors import ErrorSerializer
from casino.api.filters import Pagination, StrictFilterSet
from casino.api.serializers import NoBody, RequestSerializer, SafeCharField
from casino.api.views import IDEMPOTENCY_KEY, refuse_if_match, run_write, write_view
from casino.models import Player, require_player, search_key


class PlayerSerializer(RequestSerializer):
    """A player as registered; ``nickname`` is what the public boards show, so neither it
    nor the name may carry control characters or bidi overrides."""

    id = serializers.IntegerField(read_only=True)
    name = SafeCharField(max_length=200)
    nickname = SafeCharField(max_length=100, required=False, allow_blank=True, default="")


class PlayerFilter(StrictFilterSet):
    """``q``: part of the name or the nickname, as the player search compares them (any
    case, with or without accents, :func:`casino.models.search_key`), at most 100
    characters (a 60,000-character pattern was a server error on SQLite)."""

    q = django_filters.CharFilter(
        method="_search", max_length=100, help_text="Part of the name or nickname."
    )

    class Meta:
        model = Player
        fields: list[str] = []

    @extend_schema_field({"type": "string", "maxLength": 100})
    def _search(self, queryset: QuerySet[Player], name: str, value: str) -> QuerySet[Player]:
        return queryset.filter(search_text__contains=search_key(value))


class PlayersView(GenericAPIView):
    """``GET``: the players, searched by name or nickname, by name, paginated;
    ``POST``: register one."""

    queryset = Player.objects.order_by("name", "id")
    serializer_class = PlayerSerializer
    filterset_class = PlayerFilter
    pagination_class = Pagination

    @extend_schema(operation_id="list_players", responses={200: PlayerSerializer(many=True)})
    def get(self, request: Request) -> Response:
        """List players (``?q=`` searches the name and the nickname)."""
        page = self.paginate_queryset(self.filter_queryset(self.get_queryset()))
        return self.get_paginated_response(PlayerSerializer(page, many=True).data)

    @extend_schema(
        operation_id="create_player",
        request=PlayerSerializer,
        responses={201: PlayerSerializer, 400: ErrorSerializer},
        parameters=[IDEMPOTENCY_KEY],
    )
    def post(self, request: Request) -> Response:
        """Register a player (reference data, no event stream: no ``If-Match``)."""
        refuse_if_match(request)
        incoming = PlayerSerializer(data=request.data)
        incoming.is_valid(raise_exception=True)

        def body() -> dict:
            player = Player.objects.create(**incoming.validated_data)
            return dict(PlayerSerializer(player).data)

        return run_write(request, body, status_code=status.HTTP_201_CREATED)


class ErasedContactsSerializer(serializers.Serializer):
    player_id = serializers.IntegerField()
    erased = serializers.IntegerField(help_text="Contact numbers erased now.")


def _erase_contacts(data: dict[str, Any], *, player_id: int, if_match: int | None) -> Any:
    require_player(player_id)
    return {"player_id": player_id, "erased": contacts.erase(player_id=player_id)}


EraseContactsView = write_view(
    operation_id="erase_player_contacts",
    request=NoBody,
    response=ErasedContactsSerializer,
    perform=_erase_contacts,
    doc="Erase the player's contact numbers on his request (personal data): the contact "
    "store blanks them; the events that named them keep only a key, so the log stays "
    "whole and every screen shows no number from now on. 404 ``player_not_found``.",
    takes_if_match=False,  # checks no stream version: If-Match is refused
)
