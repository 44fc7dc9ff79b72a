"""Tables over the REST API: seating, buy-in limits, cash-out, errors, idempotency."""

import pytest

from casino.eventstore import store
from casino.eventstore.models import StoredEvent
from casino.models import Device
from tests.conftest import TabletClient


def _events(table_id: int) -> list[str]:
    return [e.type for e in store.read_stream(f"table-{table_id}")]


@pytest.mark.django_db
def test_anonymous_cannot_write_or_read(nlh_table: int) -> None:
    from rest_framework.test import APIClient

    anon = APIClient()
    r = anon.post("/api/v1/tables/", {}, format="json", HTTP_IDEMPOTENCY_KEY="k")
    assert r.status_code == 401
    assert r.json()["code"] == "not_authenticated"
    assert anon.get(f"/api/v1/tables/{nlh_table}/").status_code == 401


@pytest.mark.rule("BI-3")
@pytest.mark.parametrize(
    ("buy_in", "code"),
    [(999, "buy_in_below_minimum"), (5001, "buy_in_above_maximum")],
)
def test_buy_in_outside_nlh_10_20_limits_is_refused_and_appends_nothing(
    tablet: TabletClient, players: list, nlh_table: int, buy_in: int, code: str
) -> None:
    before = StoredEvent.objects.count()
    r = tablet.post(
        f"/api/v1/tables/{nlh_table}/seats/",
        {"player_id": players[0].id, "seat": 1, "buy_in": buy_in},
    )
    assert r.status_code == 422
    body = r.json()
    assert body == {
        "code": code,
        "rule": "BI-3",
        "detail": body["detail"],
        "buy_in": buy_in,
        "buy_in_min": 1000,
        "buy_in_max": 5000,
    }
    assert StoredEvent.objects.count() == before


@pytest.mark.rule("BI-3")
@pytest.mark.parametrize("buy_in", [1000, 5000])
def test_buy_in_at_the_limits_is_seated(
    tablet: TabletClient, players: list, nlh_table: int, buy_in: int
) -> None:
    r = tablet.post(
        f"/api/v1/tables/{nlh_table}/seats/",
        {"player_id": players[0].id, "seat": 3, "buy_in": buy_in},
    )
    assert r.status_code == 201, r.json()
    assert r.json()["seats"] == [
        {
            "seat": 3,
            "player_id": players[0].id,
            "stack": buy_in,
            "seated_at": r.json()["seats"][0]["seated_at"],
            "status": "active",  # the first player of a new game plays at once
            "missed_small_blind": False,
            "missed_big_blind": False,
            "posts_next_hand": False,
            "busted": False,
            "top_up_after_hand": 0,
        }
    ]


@pytest.mark.rule("BI-4")
def test_nlh_25_50_limits_cite_bi_4(tablet: TabletClient, players: list) -> None:
    r = tablet.post(
        "/api/v1/tables/",
        {"name": "NLH 25/50", "game": "NLH", "small_blind": 25, "big_blind": 50,
         "buy_in_min": 2000, "buy_in_max": 10000},
    )  # fmt: skip
    table_id = r.json()["table_id"]
    r = tablet.post(
        f"/api/v1/tables/{table_id}/seats/", {"player_id": players[0].id, "seat": 1, "buy_in": 1999}
    )
    assert (r.status_code, r.json()["code"], r.json()["rule"]) == (
        422,
        "buy_in_below_minimum",
        "BI-4",
    )


@pytest.mark.rule("BI-3")
@pytest.mark.rule("BI-5")
def test_a_table_opened_outside_the_stakes_limits_needs_the_floors_reason(
    tablet: TabletClient,
) -> None:
    """NLH 10/20 opened with limits 100-1,000 and 1-10^12 without a word (found by QA):
    limits other than the house's for these stakes are the floor's change (BI-5), refused
    without a reason and recorded with it; the house's limits, or stakes the house set no
    limits for, need none."""
    body = {"name": "NLH 10/20", "game": "NLH", "small_blind": 10, "big_blind": 20}
    before = StoredEvent.objects.count()
    for limits in ({"buy_in_min": 100, "buy_in_max": 1000}, {"buy_in_max": 10**12},
                   {"buy_in_min": 100, "buy_in_max": 1000, "limits_reason": "  "}):  # fmt: skip
        r = tablet.post("/api/v1/tables/", {**body, **limits})
        assert (r.status_code, r.json()["code"], r.json()["rule"]) == (
            422, "limit_change_needs_reason", "BI-5")  # fmt: skip
        assert (r.json()["house_buy_in_min"], r.json()["house_buy_in_max"]) == (1000, 5000)
    assert StoredEvent.objects.count() == before  # a refused command appends nothing
    agreed = {"buy_in_min": 100, "buy_in_max": 1000, "limits_reason": "players agreed a short game"}
    r = tablet.post("/api/v1/tables/", {**body, **agreed})
    assert r.status_code == 201, r.json()
    opened = store.read_stream(f"table-{r.json()['table_id']}")[0].event
    assert (opened.buy_in_min, opened.buy_in_max, opened.limits_reason) == (
        100, 1000, "players agreed a short game")  # fmt: skip
    for same in ({}, {"buy_in_min": 1000, "buy_in_max": 5000}):
        r = tablet.post("/api/v1/tables/", {**body, **same})
        assert r.status_code == 201, r.json()
    five_ten = {"name": "NLH 5/10", "game": "NLH", "small_blind": 5, "big_blind": 10}
    r = tablet.post("/api/v1/tables/", {**five_ten, "buy_in_min": 100, "buy_in_max": 1000})
    assert r.status_code == 201, r.json()  # no house limits for 5/10: agreed ones (BI-5)


@pytest.mark.rule("BI-1")
def test_taken_seat_is_refused(tablet: TabletClient, players: list, nlh_table: int) -> None:
    url = f"/api/v1/tables/{nlh_table}/seats/"
    assert (
        tablet.post(url, {"player_id": players[0].id, "seat": 1, "buy_in": 1000}).status_code == 201
    )
    r = tablet.post(url, {"player_id": players[1].id, "seat": 1, "buy_in": 1000})
    assert (r.status_code, r.json()["code"]) == (422, "seat_occupied")


@pytest.mark.rule("BI-10")
def test_player_has_one_seat_in_the_room(
    tablet: TabletClient, players: list, nlh_table: int
) -> None:
    other = tablet.post("/api/v1/tables/", {**_cfg(), "name": "second"}).json()["table_id"]
    url = f"/api/v1/tables/{nlh_table}/seats/"
    assert (
        tablet.post(url, {"player_id": players[0].id, "seat": 1, "buy_in": 1000}).status_code == 201
    )
    same = tablet.post(url, {"player_id": players[0].id, "seat": 2, "buy_in": 1000})
    assert (same.json()["code"], same.json()["rule"]) == ("player_already_seated", "BI-10")
    elsewhere = tablet.post(
        f"/api/v1/tables/{other}/seats/", {"player_id": players[0].id, "seat": 1, "buy_in": 1000}
    )
    assert (elsewhere.status_code, elsewhere.json()["code"]) == (422, "player_seated_elsewhere")
    assert elsewhere.json()["table_id"] == nlh_table


@pytest.mark.rule("SEAT-3")
def test_seat_numbers_are_checked(tablet: TabletClient, players: list) -> None:
    table_id = tablet.post("/api/v1/tables/", {**_cfg(), "max_seats": 6}).json()["table_id"]
    r = tablet.post(
        f"/api/v1/tables/{table_id}/seats/", {"player_id": players[0].id, "seat": 7, "buy_in": 1000}
    )
    assert (r.status_code, r.json()["code"], r.json()["max_seats"]) == (422, "seat_out_of_range", 6)


@pytest.mark.rule("SES-5")
def test_cash_out_takes_the_whole_stack(
    tablet: TabletClient, players: list, nlh_table: int
) -> None:
    tablet.post(
        f"/api/v1/tables/{nlh_table}/seats/",
        {"player_id": players[0].id, "seat": 4, "buy_in": 2500},
    )
    r = tablet.post(f"/api/v1/tables/{nlh_table}/seats/4/cash-out/")
    assert r.status_code == 200, r.json()
    assert (r.json()["amount"], r.json()["table"]["seats"]) == (2500, [])
    assert _events(nlh_table)[-1] == "tables.PlayerCashedOut"
    r = tablet.post(f"/api/v1/tables/{nlh_table}/seats/4/cash-out/")
    assert (r.status_code, r.json()["code"]) == (422, "seat_empty")


def test_write_without_idempotency_key_is_refused(tablet: TabletClient) -> None:
    r = tablet.http.post("/api/v1/tables/", _cfg(), format="json")
    assert (r.status_code, r.json()["code"]) == (400, "idempotency_key_required")


def test_retry_with_same_key_returns_first_result_and_appends_nothing(
    tablet: TabletClient, players: list, nlh_table: int
) -> None:
    body = {"player_id": players[0].id, "seat": 2, "buy_in": 1500}
    first = tablet.post(f"/api/v1/tables/{nlh_table}/seats/", body, key="retry-1")
    count = StoredEvent.objects.count()
    again = tablet.post(f"/api/v1/tables/{nlh_table}/seats/", body, key="retry-1")
    assert (first.status_code, again.status_code) == (201, 201)
    assert again.json() == first.json()
    assert again["Idempotent-Replayed"] == "true"
    assert StoredEvent.objects.count() == count
    reused = tablet.post(f"/api/v1/tables/{nlh_table}/seats/", {**body, "seat": 3}, key="retry-1")
    assert (reused.status_code, reused.json()["code"]) == (422, "idempotency_key_reused")
    # found by fuzzing: another caller sending the same request with the same key got the
    # first caller's stored answer; the key is the first caller's
    other = TabletClient(Device.objects.create(name="tablet-2", role=Device.Role.ADMIN))
    stolen = other.post(f"/api/v1/tables/{nlh_table}/seats/", body, key="retry-1")
    assert (stolen.status_code, stolen.json()["code"]) == (422, "idempotency_key_reused")
    assert "Idempotent-Replayed" not in stolen and StoredEvent.objects.count() == count


def test_if_match_with_stale_version_answers_409(
    tablet: TabletClient, players: list, nlh_table: int
) -> None:
    url = f"/api/v1/tables/{nlh_table}/seats/"
    r = tablet.post(
        url, {"player_id": players[0].id, "seat": 1, "buy_in": 1000}, **{"If-Match": "1"}
    )
    assert r.status_code == 201
    stale = tablet.post(
        url, {"player_id": players[1].id, "seat": 2, "buy_in": 1000}, **{"If-Match": "1"}
    )
    assert stale.status_code == 409
    assert (stale.json()["code"], stale.json()["current_version"]) == ("version_conflict", 2)


@pytest.mark.parametrize(
    "if_match",
    ["1_0", "-1", "+1", "abc", "1.0", "9" * 40, "", "W/W/1", '1"', '"1', "/1", '"1", "2"', "*"],
)
def test_an_if_match_that_is_not_a_version_answers_400_and_seats_nobody(
    tablet: TabletClient, players: list, nlh_table: int, if_match: str
) -> None:
    url = f"/api/v1/tables/{nlh_table}/seats/"
    body = {"player_id": players[0].id, "seat": 1, "buy_in": 1000}
    r = tablet.post(url, body, **{"If-Match": if_match})
    assert (r.status_code, r.json()["code"]) == (400, "invalid_if_match"), r.json()
    assert tablet.get(f"/api/v1/tables/{nlh_table}/").json()["seats"] == []


@pytest.mark.parametrize("if_match", ["1", '"1"', 'W/"1"', " 1 "])
def test_an_if_match_is_a_version_bare_or_as_an_entity_tag(
    tablet: TabletClient, players: list, nlh_table: int, if_match: str
) -> None:
    url = f"/api/v1/tables/{nlh_table}/seats/"
    body = {"player_id": players[0].id, "seat": 1, "buy_in": 1000}
    stale = tablet.post(url, body, **{"If-Match": if_match.replace("1", "0")})
    assert (stale.status_code, stale.json()["code"]) == (409, "version_conflict"), stale.json()
    assert tablet.post(url, body, **{"If-Match": if_match}).status_code == 201


def test_invalid_request_has_the_one_error_shape(tablet: TabletClient, nlh_table: int) -> None:
    r = tablet.post(f"/api/v1/tables/{nlh_table}/seats/", {"seat": "x"})
    assert r.status_code == 400
    assert r.json()["code"] == "invalid_request"
    assert set(r.json()["errors"]) == {"player_id", "seat", "buy_in"}


def test_events_record_who_did_it(tablet: TabletClient, players: list, nlh_table: int) -> None:
    tablet.post(
        f"/api/v1/tables/{nlh_table}/seats/",
        {"player_id": players[0].id, "seat": 1, "buy_in": 1000},
        key="audit-1",
        **{"X-Request-ID": "req-42"},
    )
    row = StoredEvent.objects.get(stream=f"table-{nlh_table}", version=2)
    assert row.metadata["actor"] == f"device:{tablet.device.pk}"
    assert row.metadata["device"] == "tablet-1"
    assert row.metadata["request_id"] == "req-42"
    assert row.command_id == "audit-1"


def test_unknown_table_is_404(tablet: TabletClient) -> None:
    r = tablet.get("/api/v1/tables/999/")
    assert (r.status_code, r.json()["code"]) == (404, "table_not_found")


def _cfg() -> dict:
    from tests.conftest import NLH_10_20

    return dict(NLH_10_20)


def test_revoked_device_is_refused(tablet: TabletClient, settings: object) -> None:
    settings.DEVICE_TOKEN_CACHE_SECONDS = 0  # type: ignore[attr-defined]
    assert tablet.get("/api/v1/tables/").status_code == 200
    tablet.device.revoked = True
    tablet.device.save()
    r = tablet.get("/api/v1/tables/")
    assert (r.status_code, r.json()["code"]) == (401, "authentication_failed")
