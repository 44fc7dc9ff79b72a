"""Read-side helpers of tables: the table as the API shows it."""

from datetime import UTC, datetime
from typing import Any

from tables import serializers as s
from tables.models import SeatView, TableView

TABLE_FIELDS: list[str] = [str(name) for name in s.TableSerializer().fields if name != "seats"]
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
            }
        )
    table["seats"] = seats
    return table


def _utc_iso(moment: datetime) -> str:
    """ISO 8601 in UTC with ``Z``, as every stored time is UTC."""
    return moment.astimezone(UTC).isoformat().replace("+00:00", "Z")
