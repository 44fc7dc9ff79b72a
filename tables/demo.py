"""The demo card room that ``manage.py up`` creates: the tables the house rules describe.

Stakes, buy-in limits (BI-3, BI-4; PLO limits by agreement, BI-5) and the rake schedule
(RAKE-1 5 %, RAKE-2 NLH cap 300 CZK, RAKE-3 PLO below 50/50 cap 200 CZK, RAKE-4 PLO from
50/50 cap 300 CZK) as data. Amounts in CZK. Cash tables use the house minimum raise of
000 (BET-9: at least double the last bet or raise), the catalogue's cash default.
"""

from typing import Any

from django.db import transaction

from casino.eventstore import context
from casino.models import Device
from tables import services
from tables.models import TableView

DEMO_DEALER = "demo-dealer"
DEMO_ADMIN = "demo-admin"

DEMO_TABLES: list[dict[str, Any]] = [
    # NLH limits and every rake come from configuration (cashgame StakesLimits, RakeSchedule)
    {"name": "NLH 10/20", "game": "NLH", "small_blind": 10, "big_blind": 20},
    {"name": "NLH 25/50", "game": "NLH", "small_blind": 25, "big_blind": 50},
    {"name": "PLO 25/50", "game": "PLO", "small_blind": 25, "big_blind": 50,
     "buy_in_min": 2_000, "buy_in_max": 10_000},
    {"name": "PLO 50/50", "game": "PLO", "small_blind": 50, "big_blind": 50,
     "buy_in_min": 2_500, "buy_in_max": 15_000},
]  # fmt: skip


REPLAY_DEVICE = "replay-phh"


def ensure_demo_room(*, issue_tokens: bool = True) -> tuple[Device, Device]:
    """Open the demo tables (once); return the demo dealer tablet (bound to the first
    table) and a demo admin device (everything, e.g. for ``replay_phh``), each with a
    fresh token in ``.token`` (only hashes are stored, so each call mints new ones and the
    previous demo tokens stop working).

    A demo device that staff revoked is reinstated with its fresh token (``.reinstated``
    is then true), so the tokens ``up`` prints always work: the revoked token stays dead,
    since only the new one's hash is stored."""
    with transaction.atomic(), context.command_context(context.CommandContext(actor="system:up")):
        if not TableView.objects.exists():
            for table in DEMO_TABLES:
                services.open_table(**table, min_raise_rule="double_last")
        first = TableView.objects.order_by("table_id").values_list("table_id", flat=True)[0]
        dealer, _ = Device.objects.get_or_create(
            name=DEMO_DEALER, defaults={"role": Device.Role.DEALER, "table_id": first}
        )
        admin, _ = Device.objects.get_or_create(
            name=DEMO_ADMIN, defaults={"role": Device.Role.ADMIN}
        )
        if issue_tokens:
            for device in (dealer, admin):
                device.reinstated = device.revoked
                if device.revoked:
                    device.revoked, device.revoked_at, device.revoked_by = False, None, None
                    device.save(update_fields=["revoked", "revoked_at", "revoked_by"])
                device.issue_token()
    return dealer, admin


def replay_token() -> str:
    """A fresh token of the admin device ``replay_phh`` uses when given none (the demo
    room is made if missing); ``up``'s printed demo tokens keep working."""
    ensure_demo_room(issue_tokens=False)
    device, _ = Device.objects.get_or_create(
        name=REPLAY_DEVICE, defaults={"role": Device.Role.ADMIN}
    )
    return device.issue_token()
