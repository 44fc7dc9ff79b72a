"""Read-side helpers of tables: the table as the API shows it."""

from datetime import UTC, datetime
from typing import Any

from tables import serializers as s
from tables.models import SeatView, TableView

TABLE_FIELDS: list[str] = [str(name) for name in s.TableSerializer().fields if name != "seats"]
SEAT_FIELDS: list[str] = [str(name) for name in s.SeatSerializer().fields]


def table_payload(table_id: int) -> dict[str, Any]:
    """A table as :class:`tables.serializers.TableSerializer` documents it, read with two
    plain queries (every seat, cash-out and cage write answers with it).

    Raises:
        TableView.DoesNotExist: no such table.
    """
    table = TableView.objects.values(*TABLE_FIELDS).get(table_id=table_id)
    table["seats"] = [
        {**seat, "seated_at": _utc_iso(seat["seated_at"])}
        for seat in SeatView.objects.filter(table_id=table_id).order_by("seat").values(*SEAT_FIELDS)
    ]
    return table


def _utc_iso(moment: datetime) -> str:
    """ISO 8601 in UTC with ``Z``, as every stored time is UTC."""
    return moment.astimezone(UTC).isoformat().replace("+00:00", "Z")
