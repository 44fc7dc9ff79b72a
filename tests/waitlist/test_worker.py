"""The timer path end to end with a real Celery worker (in-process thread, the project's
Celery app and broker) on PostgreSQL:

1. a call's deadline task, queued after commit with its ETA, fires in the worker and moves
   the no-show down;
2. with the clock frozen by time-machine, a timer that fires early does nothing; once the
   clock passes the deadline, the timer fired twice and the sweep all run in the worker and
   the player moves exactly once.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
import time_machine

from casino.eventstore.commands import run_command
from casino.eventstore.models import StoredEvent
from casino.models import Player
from tables import services as table_services
from tests.conftest import NLH_10_20, wait_until
from waitlist import services, tasks

pytestmark = pytest.mark.django_db(transaction=True)


def order(list_id: str) -> list[int]:
    return [e.player_id for e in services.load_list(list_id).state.entries]


def moves() -> int:
    return StoredEvent.objects.filter(type="waitlist.PlayerMovedDown").count()


@pytest.mark.rule("WL-2")
def test_a_real_worker_runs_the_deadline_timer_and_the_sweep_exactly_once(
    worker: list[tuple[str, Any]], settings: Any
) -> None:
    settings.WAITLIST_CALL_SECONDS = 2
    settings.WAITLIST_CALL_NEXT_ON_MISS = False  # one call at a time here: the timers alone
    players = [Player.objects.create(name=f"Worker {n}") for n in range(4)]
    table_id = run_command(lambda: table_services.open_table(**NLH_10_20)).result
    list_id = run_command(
        lambda: services.open_list(game="NLH", small_blind=10, big_blind=20, list_kind="waiting")
    ).result
    for player in players:
        run_command(
            lambda p=player: services.join_list(list_id=list_id, player_id=p.pk, channel="phone")
        )
    ids = [p.pk for p in players]

    # 1. the ETA timer queued by call_player (after commit) fires in the worker
    first = run_command(
        lambda: services.call_player(list_id=list_id, table_id=table_id, seat=1)
    ).result
    assert order(list_id) == ids
    wait_until(lambda: moves() == 1)
    # the task's postrun signal comes after its commit: wait for it, not only for the move
    wait_until(lambda: ("waitlist.expire_call", True) in worker)
    assert order(list_id) == [ids[1], ids[0], ids[2], ids[3]]
    missed = StoredEvent.objects.get(type="waitlist.CallMissed")
    assert missed.data["call_id"] == first.call_id
    assert missed.metadata["actor"] == "system:waitlist-timer"

    # 2. frozen clock: early timer does nothing; timer twice + sweep after the deadline: once
    settings.WAITLIST_CALL_SECONDS = 300
    start = datetime.now(tz=UTC).replace(microsecond=0) + timedelta(hours=1)
    with time_machine.travel(start, tick=True) as traveller:
        second = run_command(
            lambda: services.call_player(list_id=list_id, table_id=table_id, seat=2)
        ).result
        assert second.player_id == ids[1]
        ran = len(worker)
        tasks.expire_call_task.delay(list_id, second.call_id)
        wait_until(lambda: len(worker) > ran)
        assert worker[-1] == ("waitlist.expire_call", False)
        assert moves() == 1

        traveller.shift(timedelta(seconds=301))
        ran = len(worker)
        tasks.expire_call_task.delay(list_id, second.call_id)
        tasks.sweep_overdue_calls.delay()
        tasks.expire_call_task.delay(list_id, second.call_id)
        wait_until(lambda: len(worker) >= ran + 3)
    results = worker[ran:]
    assert sorted(results, key=str) == sorted(
        [
            ("waitlist.expire_call", True),
            ("waitlist.sweep_overdue_calls", 0),
            ("waitlist.expire_call", False),
        ],
        key=str,
    )
    assert moves() == 2
    assert (
        StoredEvent.objects.filter(type="waitlist.CallMissed", data__call_id=second.call_id).count()
        == 1
    )
    # ids[1] (second, after the first no-show) moved one place down, behind ids[0]
    assert order(list_id) == ids
    state = services.load_list(list_id).state
    assert [e.misses for e in state.entries] == [1, 1, 0, 0]
