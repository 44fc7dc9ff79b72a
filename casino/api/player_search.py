"""Player search for the consoles (cashier, floor, director): find a player by name,
nickname or id before a sale, a buy-in or a registration. Reference data, not events."""

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from casino.api.errors import ErrorSerializer
from casino.api.players import PlayerSerializer
from casino.api.serializers import MAX_ID, SafeCharField
from casino.errors import BadRequest
from casino.models import Player, search_key
from casino.numbers import whole_number

SEARCH_LIMIT = 20
MAX_IDS = 500


class _SearchText(serializers.Serializer):
    q = SafeCharField(max_length=100, allow_blank=True)


class _WholeName(serializers.Serializer):
    name = SafeCharField(max_length=200, allow_blank=True)  # Player.name's length


class PlayerSearchView(APIView):
    @extend_schema(
        operation_id="search_players",
        parameters=[
            OpenApiParameter(
                "q",
                {"type": "string", "maxLength": 100},
                description="Part of the name or nickname, or the player id.",
            ),
            OpenApiParameter(
                "name",
                {"type": "string", "maxLength": 200},
                description="A whole name: the players registered under it, in any case, "
                "with or without accents (the cashier's check before a new player).",
            ),
            OpenApiParameter(
                "ids",
                str,
                description="Comma-separated player ids (up to 500): these players, by id "
                "(a console naming the entries of a tournament or a table).",
            ),
            OpenApiParameter(
                "X-Total-Count",
                int,
                location=OpenApiParameter.HEADER,
                response=True,
                description="With ``q`` or ``name``: how many players match in all; more "
                "than the list holds when it was cut at 20 (up to 500 for ``name``).",
            ),
        ],
        responses={200: PlayerSerializer(many=True), 400: ErrorSerializer},
    )
    def get(self, request: Request) -> Response:
        """Up to 20 players whose name or nickname contains ``q`` (in any case, with or
        without accents: "novak" finds "Novák"), by name; the player whose number ``q`` is
        comes first and is never cut off (he was listed below "nick20" for "20"). An empty
        ``q`` finds nobody (no browsing the registry). With ``ids`` (comma-separated, up to
        500): those players, by id. With ``name``: the
        players whose whole name is that name as the search compares it (up to 20), so a
        console never folds names itself. The ``X-Total-Count`` header says how many match
        in all, so a console can say that the list was cut and ask for more of the name.

        Raises:
            ValidationError: 400 ``forbidden_characters`` when ``q`` holds a control
                character (``SafeCharField``; a NUL byte reached PostgreSQL as a server
                error before).
            BadRequest: 400 ``conflicting_query_parameters`` when more than one of ``q``,
                ``name`` and ``ids`` is given; 400 ``invalid_ids``: ``ids`` holds something
                other than player ids (1 to ``MAX_ID``) or more than 500 of them (they were
                skipped or cut off in silence: found by fuzzing).
        """
        given = [key for key in ("q", "name", "ids") if key in request.query_params]
        if len(given) > 1:  # one was dropped in silence (found by QA)
            raise BadRequest(
                "conflicting_query_parameters",
                "Search by one of q, name or ids, not by several.",
                parameters=given,
            )
        ids = _ids(request)
        if ids:
            by_id = Player.objects.filter(pk__in=ids).order_by("id")
            return Response(PlayerSerializer(by_id, many=True).data)
        if "name" in request.query_params:
            same, total = _same_name(request)
            return _listed(same, total)
        text = _SearchText(data={"q": request.query_params.get("q", "").strip()[:100]})
        text.is_valid(raise_exception=True)
        q = text.validated_data["q"]
        if not q:
            return _listed([], 0)
        matching = Player.objects.filter(search_text__contains=search_key(q))  # any case, accents
        players = list(matching.order_by("name", "id")[:SEARCH_LIMIT])
        total = len(players) if len(players) < SEARCH_LIMIT else matching.count()
        if (player_id := whole_number(q)) is not None:  # his number: him first, always
            exact = Player.objects.filter(pk=player_id).first()
            others = [p for p in players if p.pk != player_id]
            players = ([exact] if exact else []) + others[: SEARCH_LIMIT - (1 if exact else 0)]
            if exact is not None and not matching.filter(pk=player_id).exists():
                total += 1  # found by his number, not by his name
        return _listed(players, total)


def _ids(request: Request) -> list[int]:
    """The ``ids`` parameter's player ids (none when it is absent).

    Raises:
        BadRequest ``invalid_ids`` (400).
    """
    raw = request.query_params.get("ids")
    if raw is None:
        return []
    parts = raw.split(",", MAX_IDS)
    if len(parts) > MAX_IDS:
        raise BadRequest("invalid_ids", f"At most {MAX_IDS} ids at a time.", limit=MAX_IDS)
    ids = [whole_number(part.strip()) for part in parts]
    if any(n is None or not 0 < n <= MAX_ID for n in ids):
        raise BadRequest("invalid_ids", "ids is a comma-separated list of player ids.")
    return [n for n in ids if n is not None]


def _listed(players: list[Player], total: int) -> Response:
    response = Response(PlayerSerializer(players, many=True).data)
    response["X-Total-Count"] = str(max(total, len(players)))
    return response


def _same_name(request: Request) -> tuple[list[Player], int]:
    """The players registered under ``?name=`` exactly (:func:`search_key` of the name;
    ``search_text`` begins with it and a space, then the nickname), up to 20, by id, and
    how many there are in all (counted up to 500)."""
    text = _WholeName(data={"name": request.query_params.get("name", "").strip()[:200]})
    text.is_valid(raise_exception=True)
    key = search_key(text.validated_data["name"])
    if not key:
        return [], 0
    candidates = Player.objects.filter(search_text__startswith=key + " ").order_by("id")
    same = [p for p in candidates[:MAX_IDS] if search_key(p.name) == key]
    return same[:SEARCH_LIMIT], len(same)
