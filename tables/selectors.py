"""Read-side helpers of tables: the table as the API shows it."""

from datetime import UTC, datetime
from typing import Any

from casino.models import Player, short_name
from tables import serializers as s
from tables.models import HandView, SeatView, TableView

FROM_AGGREGATE = ("seats", "hand_closed_by", "sidebets")
"""Fields of the table payload that come from the table aggregate, not its read model."""
TABLE_FIELDS: list[str] = [
    str(name) for name in s.TableSerializer().fields if name not in FROM_AGGREGATE
]
SEAT_FIELDS: list[str] = [str(name) for name in s.SeatSerializer().fields]


def table_payload(table_id: int) -> dict[str, Any]:
    """A table as :class:`tables.serializers.TableSerializer` documents it (every seat,
    cash-out and cage write answers with it): two plain queries on the read models, and
    each seat's status and owed blinds (SEAT-15, SEAT-16) from the table aggregate, where
    the rules that set them live (the per-process cache makes that one indexed query).

    Raises:
        TableView.DoesNotExist: no such table.
    """
    from tables.services import load_table

    table = TableView.objects.values(*TABLE_FIELDS).get(table_id=table_id)
    state = load_table(table_id).state
    assert state is not None
    statuses = {s.seat: s for s in state.seats}
    seats = []
    for seat in SeatView.objects.filter(table_id=table_id).order_by("seat").values(*SEAT_FIELDS):
        status = statuses.get(seat["seat"])
        seats.append(
            {
                **seat,
                "seated_at": _utc_iso(seat["seated_at"]),
                "status": status.status if status else "active",
                "missed_small_blind": bool(status and status.missed_small_blind),
                "missed_big_blind": bool(status and status.missed_big_blind),
                "posts_next_hand": bool(status and status.post),
                "busted": bool(status and status.busted and table["mode"] != "tournament"),
                "top_up_after_hand": state.top_up_after_hand(seat["seat"]),
            }
        )
    table["seats"] = seats
    table["hand_closed_by"] = state.config.hand_closed_by
    table["sidebets"] = [
        {"sidebet_id": b.sidebet_id, "player_a": b.player_a, "player_b": b.player_b,
         "amount": b.amount}
        for b in state.sidebets
    ]  # fmt: skip
    return table


def seated_players(table_id: int) -> list[dict[str, Any]]:
    """Who sits at a table, by seat, with what the dealer calls them.

    ``[{"seat": int, "player_id": int, "nickname": str, "short_name": str}]`` in seat
    order; ``short_name`` is :func:`casino.models.short_name`, never the full name (that
    stays with the cashier and the floor, ``casino.permissions.NAME_OPERATIONS``). Kept apart from
    :func:`table_payload` on purpose: table payloads go out on the table feeds, which carry
    ids only (issue #12); this is read by the staff of that table (``list_table_players``:
    the dealer's device for its own table, floor, director).

    Raises:
        TableView.DoesNotExist: no such table.
    """
    TableView.objects.only("table_id").get(table_id=table_id)
    seats = list(SeatView.objects.filter(table_id=table_id).order_by("seat"))
    people = Player.objects.in_bulk([seat.player_id for seat in seats])
    out = []
    for seat in seats:
        person = people.get(seat.player_id)
        out.append(
            {
                "seat": seat.seat,
                "player_id": seat.player_id,
                "nickname": person.nickname if person else "",
                "short_name": short_name(person.name) if person else "",
            }
        )
    return out


def hand_summaries(*, table_id: int, limit: int = 50, before: int | None = None) -> list[Any]:
    """A table's hands, newest first (:class:`tables.serializers.HandSummarySerializer`)."""
    from tables.models import HandView

    hands = HandView.objects.filter(table_id=table_id).order_by("-hand_number")
    if before is not None:
        hands = hands.filter(hand_number__lt=before)
    return [
        {
            "hand_id": h.hand_id,
            "hand_number": h.hand_number,
            "button_seat": h.button_seat,
            "players": h.players,
            "status": h.status,
            "rake": h.rake,
            "started_at": _utc_iso(h.started_at),
            "ended_at": _utc_iso(h.ended_at) if h.ended_at else None,
        }
        for h in hands[:limit]
    ]


def hand_log(hand_id: str) -> list[dict[str, Any]]:
    """Every event of a hand with who recorded it and when
    (:class:`tables.serializers.HandLogEntrySerializer`); empty for an unknown hand.

    ``actor`` comes from the event's stored metadata (``device:<id>``, ``user:<id>``,
    ``system:<name>``); ``actor_name`` is the device's name or the username, looked up now.
    """
    from casino.actors import actor_names
    from casino.eventstore import codec, store

    recorded = store.read_stream(f"hand-{hand_id}")
    names = actor_names(r.metadata.get("actor", "") for r in recorded)
    return [
        {
            "version": r.version,
            "event_type": r.type,
            "data": codec.encode(r.event),
            "recorded_at": _utc_iso(r.recorded_at),
            "actor": r.metadata.get("actor", "unknown"),
            "actor_name": names.get(r.metadata.get("actor", "")),
            "device": r.metadata.get("device"),
        }
        for r in recorded
    ]


def _utc_iso(moment: datetime) -> str:
    """ISO 8601 in UTC with ``Z``, as every stored time is UTC."""
    return moment.astimezone(UTC).isoformat().replace("+00:00", "Z")


class TablesLookup:
    """:class:`casino.table_lookup.TableLookup` on the tables' read models (installed by
    ``TablesConfig.ready``)."""

    def table_of_hand(self, hand_id: str) -> int | None:
        found = HandView.objects.filter(hand_id=hand_id).values_list("table_id", flat=True)
        table_id = found.first()
        return None if table_id is None else int(table_id)

    def table_status(self, table_id: int) -> str | None:
        status = TableView.objects.filter(table_id=table_id).values_list("status", flat=True)
        return status.first()

    def table_of_player(self, player_id: int) -> int | None:
        found = SeatView.objects.filter(player_id=player_id).values_list("table_id", flat=True)
        table_id = found.first()
        return None if table_id is None else int(table_id)
