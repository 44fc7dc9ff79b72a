"""Races on real PostgreSQL connections (one per thread): concurrent calls for one seat
never call or seat two players; the deadline timer fired several times while the sweep
runs moves the player exactly once; a seating whose list append loses leaves no seat."""

from __future__ import annotations

import threading
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
import time_machine
from django.db import connection

from casino.errors import DomainError
from casino.eventstore.commands import run_command
from casino.eventstore.models import StoredEvent
from casino.models import Player
from tables import services as table_services
from tables.models import SeatView
from tests.conftest import NLH_10_20
from waitlist import services, tasks

pytestmark = pytest.mark.django_db(transaction=True)
T0 = datetime(2026, 11, 21, 18, 0, tzinfo=UTC)


def race(*bodies: Callable[[], Any]) -> list[Any]:
    """Run the bodies at once on their own threads (and connections); their results or
    the exceptions they raised, in order."""
    barrier = threading.Barrier(len(bodies))
    results: list[Any] = [None] * len(bodies)

    def target(index: int, body: Callable[[], Any]) -> None:
        try:
            barrier.wait()
            results[index] = body()
        except Exception as exc:  # collected for the assertions
            results[index] = exc
        finally:
            connection.close()

    threads = [threading.Thread(target=target, args=(i, b)) for i, b in enumerate(bodies)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    return results


def command(body: Callable[[], Any]) -> Callable[[], Any]:
    return lambda: run_command(body).result


@pytest.fixture
def room() -> dict[str, Any]:
    players = [Player.objects.create(name=f"Racer {n}") for n in range(8)]
    table_id = run_command(lambda: table_services.open_table(**NLH_10_20)).result
    list_id = run_command(
        lambda: services.open_list(game="NLH", small_blind=10, big_blind=20, list_kind="waiting")
    ).result
    for player in players[:6]:
        run_command(
            lambda p=player: services.join_list(list_id=list_id, player_id=p.pk, channel="phone")
        )
    return {"players": players, "table_id": table_id, "list_id": list_id}


def _events(type_: str) -> int:
    return StoredEvent.objects.filter(type=type_).count()


@pytest.mark.rule("WL-2")
def test_concurrent_calls_for_the_same_seat_call_one_player(room: dict[str, Any]) -> None:
    list_id, table_id = room["list_id"], room["table_id"]
    for seat in (1, 2, 3):
        results = race(
            *[
                command(
                    lambda s=seat: services.call_player(list_id=list_id, table_id=table_id, seat=s)
                )
                for _ in range(4)
            ]
        )
        called = [r for r in results if not isinstance(r, Exception)]
        refused = [r for r in results if isinstance(r, DomainError)]
        assert len(called) == 1, results
        assert {r.code for r in refused} == {"seat_already_called"} and len(refused) == 3
    assert _events("waitlist.PlayerCalled") == 3
    calls = services.load_list(list_id).state.calls
    assert len({c.player_id for c in calls}) == 3  # three seats, three different players


@pytest.mark.rule("WL-2")
def test_concurrent_seatings_for_one_seat_seat_one_player(room: dict[str, Any]) -> None:
    list_id, table_id, players = room["list_id"], room["table_id"], room["players"]
    first = run_command(
        lambda: services.call_player(list_id=list_id, table_id=table_id, seat=7)
    ).result
    second = run_command(
        lambda: services.call_player(list_id=list_id, table_id=table_id, seat=8)
    ).result

    def seat(player_id: int) -> Callable[[], Any]:
        return command(
            lambda: services.seat_from_list(
                list_id=list_id, player_id=player_id, table_id=table_id, seat=7, buy_in=1000
            )
        )

    results = race(seat(first.player_id), seat(second.player_id), seat(players[2].pk))
    assert sum(not isinstance(r, Exception) for r in results) == 1, results
    (taken,) = SeatView.objects.filter(table_id=table_id, seat=7)
    assert taken.player_id == first.player_id  # the seat was held for him
    assert SeatView.objects.count() == 1
    state = services.load_list(list_id).state
    assert first.player_id not in [e.player_id for e in state.entries]
    assert {second.player_id, players[2].pk} <= {e.player_id for e in state.entries}


@pytest.mark.rule("WL-2")
def test_a_player_seated_at_two_tables_at_once_gets_one_seat(room: dict[str, Any]) -> None:
    list_id, table_id, players = room["list_id"], room["table_id"], room["players"]
    other = run_command(lambda: table_services.open_table(**{**NLH_10_20, "name": "second"})).result
    player_id = players[0].pk
    for _ in range(3):
        results = race(
            *[
                command(
                    lambda t=t, s=s: services.seat_from_list(
                        list_id=list_id, player_id=player_id, table_id=t, seat=s, buy_in=1000
                    )
                )
                for t, s in ((table_id, 1), (other, 1), (other, 2))
            ]
        )
        assert sum(not isinstance(r, Exception) for r in results) <= 1
    assert SeatView.objects.filter(player_id=player_id).count() == 1
    assert _events("waitlist.PlayerSeatedFromList") == 1
    assert _events("tables.PlayerSeated") == 1  # the losers' table appends rolled back


@pytest.mark.rule("WL-2")
def test_timer_twice_and_the_sweep_racing_move_the_player_exactly_once(
    room: dict[str, Any],
) -> None:
    list_id, table_id, players = room["list_id"], room["table_id"], room["players"]
    with time_machine.travel(T0, tick=False):
        called = run_command(
            lambda: services.call_player(list_id=list_id, table_id=table_id, seat=1)
        ).result
    assert called.player_id == players[0].pk
    with time_machine.travel(T0 + timedelta(minutes=5, seconds=1), tick=False):
        results = race(
            lambda: tasks.expire_call_task(list_id, called.call_id),
            lambda: tasks.expire_call_task(list_id, called.call_id),
            lambda: tasks.expire_call_task(list_id, called.call_id),
            tasks.sweep_overdue_calls,
            tasks.sweep_overdue_calls,
        )
    assert not [r for r in results if isinstance(r, Exception)], results
    assert sum(bool(r) for r in results) == 1, results
    assert _events("waitlist.CallMissed") == 1
    assert _events("waitlist.PlayerMovedDown") == 1
    order = [e.player_id for e in services.load_list(list_id).state.entries]
    assert order == [players[i].pk for i in (1, 0, 2, 3, 4, 5)]
