"""The seat check (``GET /tables/{id}/seat-check/?player_id=``): before the dealer counts a
player's cash, the tablet names the player whose number was typed and the buy-in he may
bring, or the refusal the seat would get. It runs the seat's own checks and writes nothing.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
import time_machine

from casino.eventstore.models import StoredEvent
from casino.models import Device, Player
from tests.cashgame.test_cash_api import T0, open_table, seat
from tests.conftest import TabletClient


def check(client: TabletClient, table_id: int, player_id: Any) -> Any:
    return client.get(f"/api/v1/tables/{table_id}/seat-check/?player_id={player_id}")


@pytest.fixture
def jan(db: None) -> Player:
    return Player.objects.create(name="Jan Novák", nickname="Honza")


@pytest.mark.rule("BI-3")
def test_the_check_names_the_player_and_the_table_s_buy_in(
    tablet: TabletClient, jan: Player
) -> None:
    table_id = open_table(tablet)  # NLH 10/20: BI-3's 1,000 to 5,000 CZK
    events = StoredEvent.objects.count()
    answer = check(tablet, table_id, jan.pk)
    assert answer.status_code == 200, answer.content
    assert answer.json() == {
        "player_id": jan.pk, "nickname": "Honza", "short_name": "Jan N.",
        "buy_in_min": 1000, "buy_in_max": 5000, "rule": "BI-3", "refusal": None,
    }  # fmt: skip
    assert "Novák" not in answer.content.decode()  # never the full name
    assert StoredEvent.objects.count() == events  # nothing written


@pytest.mark.rule("SES-7")
def test_a_returning_player_is_told_the_stack_he_left_with(
    tablet: TabletClient, jan: Player
) -> None:
    table_id = open_table(tablet)
    other = open_table(tablet, name="second 10/20")
    with time_machine.travel(T0, tick=False):
        seat(tablet, table_id, jan, 1, 3853)
        tablet.post(f"/api/v1/tables/{table_id}/seats/1/cash-out/")
    with time_machine.travel(T0 + timedelta(minutes=30), tick=False):
        answer = check(tablet, other, jan.pk).json()
        assert (answer["buy_in_min"], answer["buy_in_max"], answer["rule"]) == (3853, 5000, "SES-7")
        # and the seat agrees: one chip less is refused, the minimum is taken
        assert seat(tablet, other, jan, 3, 3852).json()["code"] == "buy_in_below_returning_minimum"
        assert seat(tablet, other, jan, 3, 3853).status_code == 201


@pytest.mark.rule("BI-10")
@pytest.mark.rule("BI-11")
def test_the_check_gives_the_refusal_the_seat_would_get(
    tablet: TabletClient, jan: Player, players: list[Player]
) -> None:
    here, there = open_table(tablet), open_table(tablet, name="there")
    assert seat(tablet, there, jan, 2, 1000).status_code == 201
    refusal = check(tablet, here, jan.pk).json()["refusal"]
    assert (refusal["code"], refusal["rule"], refusal["table_id"]) == (
        "player_seated_elsewhere", "BI-10", there)  # fmt: skip
    assert seat(tablet, here, jan, 1, 1000).json()["code"] == refusal["code"]
    refusal = check(tablet, there, jan.pk).json()["refusal"]
    assert (refusal["code"], refusal["rule"]) == ("player_already_seated", "BI-10")

    kept_apart = players[0]
    tablet.post(f"/api/v1/players/{kept_apart.pk}/seating-restrictions/",
                {"other_player_id": jan.pk, "reason": "married couple"})  # fmt: skip
    refusal = check(tablet, there, kept_apart.pk).json()["refusal"]
    assert (refusal["code"], refusal["rule"]) == ("restricted_pair_at_table", "BI-11")
    assert check(tablet, here, kept_apart.pk).json()["refusal"] is None


def test_a_czech_tablet_reads_the_refusal_in_czech(tablet: TabletClient, jan: Player) -> None:
    here, there = open_table(tablet), open_table(tablet, name="there")
    seat(tablet, there, jan, 2, 1000)
    answer = tablet.http.get(
        f"/api/v1/tables/{here}/seat-check/?player_id={jan.pk}", HTTP_ACCEPT_LANGUAGE="cs"
    )
    detail = answer.json()["refusal"]["detail"]
    assert detail != f"The player already has a seat at table {there}."
    assert str(there) in detail


@pytest.mark.parametrize(
    ("query", "status", "code"),
    [
        ("player_id=9999999", 404, "player_not_found"),
        ("player_id=abc", 400, "invalid_request"),
        ("player_id=0", 400, "invalid_request"),
        ("", 400, "invalid_request"),
        ("player_id=1&buy_in=500", 400, "unknown_query_parameter"),
    ],
)
def test_a_bad_check_is_refused(
    tablet: TabletClient, jan: Player, query: str, status: int, code: str
) -> None:
    table_id = open_table(tablet)
    answer = tablet.get(f"/api/v1/tables/{table_id}/seat-check/?{query}")
    assert (answer.status_code, answer.json()["code"]) == (status, code)
    if not query:  # it said "This field may not be null." (QA)
        assert answer.json()["errors"] == {"player_id": ["This field is required."]}
    assert check(tablet, 9999999, jan.pk).json()["code"] == "table_not_found"


def test_a_dealer_checks_seats_at_his_own_table_only(tablet: TabletClient, jan: Player) -> None:
    mine, other = open_table(tablet), open_table(tablet, name="other")
    dealer = TabletClient(
        Device.objects.create(name="dealer", role=Device.Role.DEALER, table_id=mine)
    )
    assert check(dealer, mine, jan.pk).status_code == 200
    assert check(dealer, other, jan.pk).status_code == 403
