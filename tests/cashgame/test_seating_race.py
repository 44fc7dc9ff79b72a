"""BI-10 under concurrency: two seatings of one player at two tables at the same moment.
Each table's stream is its own, so optimistic concurrency alone would let both commit; the
seat read model's unique constraint (written in the seating's transaction) lets one."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection

from casino.errors import DomainError
from casino.eventstore.commands import run_command
from casino.eventstore.models import StoredEvent
from casino.models import Player
from tables import services
from tables.models import SeatView
from tests.conftest import NLH_10_20

pytestmark = pytest.mark.django_db(transaction=True)


def race(*bodies: Callable[[], Any]) -> list[Any]:
    barrier = threading.Barrier(len(bodies))
    results: list[Any] = [None] * len(bodies)

    def target(index: int, body: Callable[[], Any]) -> None:
        try:
            barrier.wait()
            results[index] = run_command(body).result
        except Exception as error:  # collected for the assertions
            results[index] = error
        finally:
            connection.close()

    threads = [threading.Thread(target=target, args=(i, b)) for i, b in enumerate(bodies)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    return results


@pytest.mark.rule("BI-10")
def test_one_player_seated_at_two_tables_at_once_gets_one_seat() -> None:
    tables = [
        run_command(lambda n=n: services.open_table(**{**NLH_10_20, "name": f"t{n}"})).result
        for n in range(3)
    ]
    for round_ in range(3):
        player = Player.objects.create(name=f"Racer {round_}")
        results = race(
            *[
                lambda t=t, p=player.pk, seat=1 + round_: services.seat_player(
                    table_id=t, player_id=p, seat=seat, buy_in=1000
                )
                for t in tables
            ]
        )
        refused = [r for r in results if isinstance(r, DomainError)]
        assert len(refused) == len(tables) - 1, results
        assert {(r.code, r.rule) for r in refused} == {("player_seated_elsewhere", "BI-10")}
        assert SeatView.objects.filter(player_id=player.pk).count() == 1
        seated = StoredEvent.objects.filter(type="tables.PlayerSeated", data__player_id=player.pk)
        assert seated.count() == 1  # the refused tables appended nothing


def test_a_player_may_sit_in_a_cash_game_and_a_tournament() -> None:
    """The one-seat rule is per cash room and per tournament, not across them."""
    from tables.domain.table import Stakes

    player = Player.objects.create(name="Both")
    cash = run_command(lambda: services.open_table(**NLH_10_20)).result
    run_command(
        lambda: services.seat_player(table_id=cash, player_id=player.pk, seat=1, buy_in=1000)
    )
    table = run_command(
        lambda: services.open_tournament_table(
            tournament_id=77, name="T", game="NLH", max_seats=9, stakes=Stakes(25, 50)
        )
    ).result
    run_command(
        lambda: services.seat_entrant(
            table_id=table, seat=1, player_id=player.pk, stack=5000, reason="draw"
        )
    )
    assert SeatView.objects.filter(player_id=player.pk).count() == 2
