"""The floor's replay of a past hand (issue #13): the table's hands, then every step of
one hand with who recorded it (device or staff user) and when."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from rest_framework.test import APIClient

from casino.models import Device, Role, StaffProfile
from tests.conftest import NLH_10_20, TabletClient
from tests.tables.test_hand_api import act, seat_all, start


def test_the_floor_replays_a_hand_with_who_recorded_each_step_and_when(
    tablet: TabletClient, players: list, nlh_table: int
) -> None:
    dealer = TabletClient(Device.objects.create(name="dealer-7", table_id=nlh_table))
    seat_all(tablet, nlh_table, players, {1: 1000, 2: 1000})
    hand = start(dealer, nlh_table, button=1)
    act(dealer, hand, hand["to_act"], "fold")

    floor_user = get_user_model().objects.create_user("flo", password="x")
    StaffProfile.objects.create(user=floor_user, role=Role.FLOOR)
    floor = APIClient()
    floor.force_authenticate(floor_user)

    listed = floor.get(f"/api/v1/tables/{nlh_table}/hands/").json()["results"]
    assert [(h["hand_id"], h["hand_number"], h["status"]) for h in listed] == [
        (hand["hand_id"], 1, "complete")
    ]
    log = floor.get(f"/api/v1/hands/{hand['hand_id']}/log/").json()
    assert [e["event_type"] for e in log] == [
        "tables.HandStarted",
        "tables.ActionTaken",
        "tables.HandSettled",
    ]
    assert [e["version"] for e in log] == [1, 2, 3]
    step = log[1]
    assert step["data"]["action"] == "fold" and step["data"]["seat"] == hand["to_act"]
    assert (step["actor"], step["actor_name"], step["device"]) == (
        f"device:{dealer.device.pk}",
        "dealer-7",
        "dealer-7",
    )
    assert step["recorded_at"].endswith("Z")


def test_a_dealer_tablet_may_not_read_the_log_and_an_unknown_hand_is_404(
    tablet: TabletClient, players: list, nlh_table: int
) -> None:
    dealer = TabletClient(Device.objects.create(name="dealer-8", table_id=nlh_table))
    seat_all(tablet, nlh_table, players, {1: 1000, 2: 1000})
    hand = start(dealer, nlh_table, button=1)
    assert dealer.get(f"/api/v1/hands/{hand['hand_id']}/log/").status_code == 403
    # his own table's list of hands, yes: a reloaded tablet shows the last result (QA);
    # another table's, no
    assert dealer.get(f"/api/v1/tables/{nlh_table}/hands/").status_code == 200
    other = tablet.post("/api/v1/tables/", {**NLH_10_20, "name": "Other"}).json()["table_id"]
    assert dealer.get(f"/api/v1/tables/{other}/hands/").status_code == 403
    missing = tablet.get("/api/v1/hands/00000000-0000-0000-0000-000000000000/log/")
    assert (missing.status_code, missing.json()["code"]) == (404, "hand_not_found")
