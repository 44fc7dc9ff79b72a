"""Missed blinds, posting on entry and the dead button through the API (issue #3):
``sit-out`` / ``sit-in`` with ``post``, the ``next-hand`` preview, the blinds and owed posts
of a dealt hand, and the seat statuses the tablet shows. The planner's rules themselves
are tested without a database in tests/tables/domain/test_blind_plan.py."""

from __future__ import annotations

from typing import Any

import pytest

from casino.eventstore.models import StoredEvent
from tests.cashgame.test_cash_api import open_table, refused, seat
from tests.conftest import TabletClient

pytestmark = pytest.mark.django_db


def play_hand(tablet: TabletClient, table_id: int, **body: Any) -> dict[str, Any]:
    """Deal a hand and fold it to the big blind; return the hand as dealt."""
    r = tablet.post(f"/api/v1/tables/{table_id}/hands/", body)
    assert r.status_code == 201, r.json()
    dealt = hand = r.json()
    while hand["phase"] == "betting":
        hand = tablet.post(
            f"/api/v1/hands/{hand['hand_id']}/actions/", {"seat": hand["to_act"], "action": "fold"}
        ).json()
    assert hand["phase"] == "complete"
    return dict(dealt)


def preview(tablet: TabletClient, table_id: int) -> dict[str, Any]:
    r = tablet.get(f"/api/v1/tables/{table_id}/next-hand/")
    assert r.status_code == 200, r.json()
    return dict(r.json())


def seats(tablet: TabletClient, table_id: int) -> dict[int, dict[str, Any]]:
    return {s["seat"]: s for s in tablet.get(f"/api/v1/tables/{table_id}/").json()["seats"]}


def blinds(hand: dict[str, Any]) -> tuple[int, int | None, int]:
    return hand["button_seat"], hand["small_blind_seat"], hand["big_blind_seat"]


def four_handed(tablet: TabletClient, players: list, **config: Any) -> int:
    """Seats 1, 3, 5, 7 with 1,000 CZK; the first hand's button is drawn to seat 1."""
    table_id = open_table(tablet, **config)
    for n in (1, 3, 5, 7):
        assert seat(tablet, table_id, players[n], n, 1000).status_code == 201
    first = play_hand(tablet, table_id, button_seat=1)
    assert blinds(first) == (1, 3, 5)
    return table_id


def test_a_new_table_gets_the_live_defaults(tablet: TabletClient) -> None:
    table = tablet.get(f"/api/v1/tables/{open_table(tablet)}/").json()
    assert (
        table["button_rule"],
        table["cash_new_player_entry"],
        table["missed_blind_sb_dead"],
    ) == (
        "dead_button",
        "wait_or_post_both",
        True,
    )


@pytest.mark.rule("SEAT-5")
def test_dead_button_the_big_blind_moves_on_and_the_small_blind_is_dead(
    tablet: TabletClient, players: list
) -> None:
    """The big blind of the last hand (seat 5) leaves: the big blind moves to the next
    player due (7), the small blind falls on the empty seat 5 (dead: nobody posts it) and
    the button on seat 3."""
    table_id = four_handed(tablet, players)
    assert tablet.post(f"/api/v1/tables/{table_id}/seats/5/cash-out/").status_code == 200
    plan = preview(tablet, table_id)
    assert (plan["button_seat"], plan["small_blind_seat"], plan["dead_small_blind_seat"]) == (
        3,
        None,
        5,
    )
    assert (plan["big_blind_seat"], plan["dealt_in"]) == (7, [1, 3, 7])
    hand = play_hand(tablet, table_id)
    assert blinds(hand) == (3, None, 7)
    assert [(p["seat"], p["kind"], p["amount"]) for p in hand["posts"]] == [(7, "big_blind", 20)]


@pytest.mark.rule("SEAT-5")
def test_dead_button_stays_on_the_seat_of_a_player_who_left(
    tablet: TabletClient, players: list
) -> None:
    """The small blind of the last hand (seat 3) leaves: the button moves to his empty
    seat (a dead button) and the blinds go on to 5 and 7."""
    table_id = four_handed(tablet, players)
    tablet.post(f"/api/v1/tables/{table_id}/seats/3/cash-out/")
    hand = play_hand(tablet, table_id)
    assert blinds(hand) == (3, 5, 7)
    assert 3 not in {s["seat"] for s in hand["seats"]}


@pytest.mark.rule("SEAT-6")
def test_forward_moving_button_when_the_room_chooses_it(
    tablet: TabletClient, players: list
) -> None:
    table_id = four_handed(tablet, players, button_rule="forward")
    tablet.post(f"/api/v1/tables/{table_id}/seats/5/cash-out/")
    assert blinds(play_hand(tablet, table_id)) == (3, 7, 1)


@pytest.mark.rule("SEAT-16")
def test_a_player_sitting_out_owes_the_blinds_that_pass_and_posts_them_to_come_back(
    tablet: TabletClient, players: list
) -> None:
    table_id = four_handed(tablet, players)
    r = tablet.post(f"/api/v1/tables/{table_id}/seats/7/sit-out/")
    assert r.status_code == 200, r.json()
    assert seats(tablet, table_id)[7]["status"] == "sitting_out"
    plan = preview(tablet, table_id)
    assert plan["missed"] == [{"seat": 7, "kind": "big_blind"}]
    assert 7 not in plan["dealt_in"]

    hand = play_hand(tablet, table_id)  # the big blind passes seat 7
    assert 7 not in {s["seat"] for s in hand["seats"]}
    away = seats(tablet, table_id)[7]
    assert (away["missed_big_blind"], away["stack"]) == (True, 1000)

    # Back without posting: he owes a blind, so he waits for the big blind.
    r = tablet.post(f"/api/v1/tables/{table_id}/seats/7/sit-in/", {"post": False})
    assert r.status_code == 200, r.json()
    assert seats(tablet, table_id)[7]["status"] == "waiting"
    assert preview(tablet, table_id)["waiting"] == [7]

    # He chooses to post what he owes: dealt in at once with a live big blind.
    r = tablet.post(f"/api/v1/tables/{table_id}/seats/7/sit-in/", {"post": True})
    assert r.status_code == 200, r.json()
    assert seats(tablet, table_id)[7]["posts_next_hand"] is True
    assert preview(tablet, table_id)["posts"] == [{"seat": 7, "kind": "posted_bb"}]
    hand = play_hand(tablet, table_id)
    assert (7, "posted_bb", 20) in [(p["seat"], p["kind"], p["amount"]) for p in hand["posts"]]
    assert 7 in {s["seat"] for s in hand["seats"]}
    back = seats(tablet, table_id)[7]
    assert (back["status"], back["missed_big_blind"], back["posts_next_hand"]) == (
        "active",
        False,
        False,
    )


@pytest.mark.rule("SEAT-16")
def test_sit_in_refusals_append_nothing(tablet: TabletClient, players: list) -> None:
    table_id = four_handed(tablet, players)
    before = StoredEvent.objects.count()
    refused(
        tablet.post(f"/api/v1/tables/{table_id}/seats/3/sit-in/", {"post": False}),
        "not_sitting_out",
        "SEAT-16",
    )
    tablet.post(f"/api/v1/tables/{table_id}/seats/3/sit-out/")
    after_sit_out = StoredEvent.objects.count()
    assert after_sit_out == before + 1
    refused(
        tablet.post(f"/api/v1/tables/{table_id}/seats/3/sit-out/"), "already_sitting_out", "SEAT-16"
    )
    # No blind passed him yet: there is nothing to post.
    refused(
        tablet.post(f"/api/v1/tables/{table_id}/seats/3/sit-in/", {"post": True}),
        "nothing_owed",
        "SEAT-16",
    )
    assert StoredEvent.objects.count() == after_sit_out
    r = tablet.post(f"/api/v1/tables/{table_id}/seats/4/sit-out/")
    assert r.status_code == 422 and r.json()["code"] == "seat_empty"


@pytest.mark.rule("SEAT-15")
def test_a_new_player_between_the_button_and_the_big_blind_waits_or_posts_both(
    tablet: TabletClient, players: list
) -> None:
    """Next hand: button 3, small blind 5, big blind 7. A player sitting down in seat 4
    (between the button and the big blind) is not dealt in unless he posts both blinds."""
    table_id = four_handed(tablet, players)
    assert seat(tablet, table_id, players[4], 4, 1000).status_code == 201
    assert seats(tablet, table_id)[4]["status"] == "new"
    plan = preview(tablet, table_id)
    assert (plan["button_seat"], plan["big_blind_seat"]) == (3, 7)
    assert (plan["became_waiting"], plan["dealt_in"]) == ([4], [1, 3, 5, 7])

    r = tablet.post(f"/api/v1/tables/{table_id}/seats/4/sit-in/", {"post": True})
    assert r.status_code == 200, r.json()
    hand = play_hand(tablet, table_id)
    posts = [(p["seat"], p["kind"]) for p in hand["posts"]]
    assert 4 in {s["seat"] for s in hand["seats"]}
    # the small blind dead (the table's missed_blind_sb_dead), the big blind live
    assert [p for p in posts if p[0] == 4] == [(4, "dead_sb"), (4, "posted_bb")]
    newcomer = next(s for s in hand["seats"] if s["seat"] == 4)
    assert newcomer["starting_stack"] - newcomer["stack"] == 30  # small + big blind


@pytest.mark.rule("SEAT-15")
def test_a_new_player_who_does_not_post_waits_for_the_big_blind(
    tablet: TabletClient, players: list
) -> None:
    table_id = four_handed(tablet, players)
    seat(tablet, table_id, players[4], 4, 1000)
    hand = play_hand(tablet, table_id)  # button 3, blinds 5 and 7: seat 4 waits
    assert 4 not in {s["seat"] for s in hand["seats"]}
    assert seats(tablet, table_id)[4]["status"] == "waiting"
    # Hands later the big blind reaches him and he is dealt in posting only that.
    for _ in range(4):
        plan = preview(tablet, table_id)
        if plan["big_blind_seat"] == 4:
            break
        play_hand(tablet, table_id)
    assert plan["big_blind_seat"] == 4 and 4 in plan["dealt_in"]
    hand = play_hand(tablet, table_id)
    assert (4, "big_blind", 20) in [(p["seat"], p["kind"], p["amount"]) for p in hand["posts"]]


@pytest.mark.rule("SES-1")
def test_immediate_entry_table_deals_the_newcomer_in_without_posting(
    tablet: TabletClient, players: list
) -> None:
    table_id = four_handed(tablet, players, cash_new_player_entry="immediate_no_post")
    seat(tablet, table_id, players[4], 4, 1000)
    assert seats(tablet, table_id)[4]["status"] == "active"
    hand = play_hand(tablet, table_id)
    newcomer = next(s for s in hand["seats"] if s["seat"] == 4)
    assert newcomer["starting_stack"] == 1000 and 4 not in {p["seat"] for p in hand["posts"]}


def test_next_hand_preview_writes_nothing_and_needs_two_players(
    tablet: TabletClient, players: list
) -> None:
    table_id = open_table(tablet)
    seat(tablet, table_id, players[1], 1, 1000)
    before = StoredEvent.objects.count()
    refused(tablet.get(f"/api/v1/tables/{table_id}/next-hand/"), "not_enough_players", "SEAT-3")
    seat(tablet, table_id, players[2], 2, 1000)
    plan = tablet.get(f"/api/v1/tables/{table_id}/next-hand/?button_seat=2").json()
    assert (plan["button_seat"], plan["new_game"], plan["heads_up"]) == (2, True, True)
    assert StoredEvent.objects.count() == before + 1  # only the second seating
