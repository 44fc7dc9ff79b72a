"""Benchmark (issue #11): the CPU a dealer request costs in one process, layer by layer.

Run: ``uv run python -m tests.bench.bench_request_cpu [--hands 150] [--rounds 3]``
(PostgreSQL on 127.0.0.1, ``DATABASE_URL`` to point elsewhere; it creates and drops a
throwaway database ``test_<name>``). ``DEBUG`` is off.

One table, six players seated once, hands of check/call/bet to the river played one
request at a time (the ``seated`` workload of :mod:`tests.bench.bench_live`), measured as
this process's CPU time per request (``time.process_time``, so the machine's other load
hardly matters; PostgreSQL's own CPU is not in it). The same hands are played through:

* ``full``: Django's test client and every middleware of ``settings.MIDDLEWARE``, DRF, the
  view, the command (as a tablet's request, less the ASGI server and the socket);
* ``-structlog``, ``-prometheus``, ``-both``: the same without django-structlog's request
  middleware, without django-prometheus' pair, without either;
* ``no middleware``: DRF, the view and the command alone (a token needs no session);
* ``services``: no HTTP at all: ``run_command`` around the service and the hand's JSON, as
  the view's body runs them (the floor of a framework-free path: load, decide, append,
  answer).

Rounds alternate the variants; each line gives the median over the rounds, ms per request
and the share of ``full``. Request log lines go to ``os.devnull`` (their rendering is
counted, a real pipe's write is not). The live benchmark shows what these costs become on
a shared two-core machine with the relay, PostgreSQL and the screens beside the server.
"""

from __future__ import annotations

import argparse
import logging
import os
import statistics
import time
import uuid
from collections.abc import Callable, Iterator
from typing import Any

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "casino.settings")
os.environ["DEBUG"] = "false"
os.environ.setdefault("SECRET_KEY", "bench-request-cpu-" + "x" * 40)
os.environ.setdefault("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/casino_bench_cpu")

import django

django.setup()

from django.conf import settings  # noqa: E402
from django.test.utils import override_settings, setup_databases, teardown_databases  # noqa: E402
from rest_framework.test import APIClient  # noqa: E402

from casino.eventstore import aggregates, commands  # noqa: E402
from casino.eventstore.context import CommandContext  # noqa: E402
from casino.models import Device, Player  # noqa: E402
from tables import services  # noqa: E402
from tables.api import hand_payload  # noqa: E402
from tests.bench.bench_live import seated_action  # noqa: E402

BOARD = [("flop", "2c7d9h"), ("turn", "Js"), ("river", "3d")]
STRUCTLOG = "django_structlog.middlewares.RequestMiddleware"
PROMETHEUS = (
    "django_prometheus.middleware.PrometheusBeforeMiddleware",
    "django_prometheus.middleware.PrometheusAfterMiddleware",
)
Post = Callable[[str, dict[str, Any]], dict[str, Any]]


def _without(*names: str) -> list[str]:
    return [m for m in settings.MIDDLEWARE if m not in names]


def http_post(token: str) -> Post:
    """POST through Django's test client (a fresh handler: the middleware in force now)."""
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token}")

    def post(path: str, body: dict[str, Any]) -> dict[str, Any]:
        response = client.post(path, body, format="json", secure=True,
                               HTTP_IDEMPOTENCY_KEY=str(uuid.uuid4()))  # fmt: skip
        assert response.status_code in (200, 201), (response.status_code, response.content[:300])
        return dict(response.json())

    return post


def services_post(path: str, body: dict[str, Any]) -> dict[str, Any]:
    """The same request with no HTTP: the service inside ``run_command``, as the view's body
    runs it (fingerprint, command context, the hand's JSON as the answer)."""
    parts = path.strip("/").split("/")  # api v1 (tables|hands) <id> <operation>
    resource, ident, operation = parts[2], parts[3], parts[4]
    if resource == "tables":
        service: Callable[..., Any] = services.start_hand
        kwargs: dict[str, Any] = {"table_id": int(ident), **body}
    else:
        by_operation: dict[str, Callable[..., Any]] = {
            "actions": services.record_action,
            "board": services.deal_board,
            "award": services.award_pots,
        }
        service = by_operation[operation]
        kwargs = {"hand_id": ident, **body}

    def run() -> dict[str, Any]:
        loaded = service(**kwargs)
        return hand_payload(loaded.state, loaded.version)

    outcome = commands.run_command(
        run,
        ctx=CommandContext(actor="device:1", device="bench"),
        command_id=str(uuid.uuid4()),
        fingerprint=commands.fingerprint("POST", path, body),
        status_code=201 if resource == "tables" else 200,
    )
    return dict(outcome.result)


def play_hand(post: Post, table_id: int, n: int) -> int:
    """One hand to the end (a bet on every third hand); the number of requests it took."""
    hand = post(f"/api/v1/tables/{table_id}/hands/", {})
    url, requests = f"/api/v1/hands/{hand['hand_id']}", 1
    streets: Iterator[tuple[str, str]] = iter(BOARD)
    while hand["phase"] != "complete":
        if hand["phase"] == "betting":
            hand = post(f"{url}/actions/", seated_action(hand["legal"], n))
        elif hand["next_street"]:
            street, cards = next(streets)
            hand = post(f"{url}/board/", {"street": street, "cards": cards})
        else:
            hand = post(f"{url}/award/", {"winners_by_pot": [[min(p["eligible_seats"])]
                                                             for p in hand["pots"]]})  # fmt: skip
        requests += 1
    return requests


def measure(post: Post, table_id: int, hands: int, warm: int = 10) -> float:
    """CPU ms per request over ``hands`` hands, after ``warm`` unmeasured ones."""
    for n in range(warm):
        play_hand(post, table_id, n)
    began, requests = time.process_time(), 0
    for n in range(hands):
        requests += play_hand(post, table_id, n)
    return (time.process_time() - began) * 1000 / requests


def prepare() -> tuple[str, int]:
    """An admin device and one NLH table with six players seated; its token and table id."""
    device = Device.objects.create(name="bench", role=Device.Role.ADMIN)
    token = str(device.token)
    post = http_post(token)
    table = post("/api/v1/tables/", {
        "name": "bench", "game": "NLH", "small_blind": 50, "big_blind": 100, "buy_in_min": 1,
        "buy_in_max": 10**9, "rake_percent_bp": 0, "rake_cap": 0,
        "returning_player_rule": False})  # fmt: skip
    table_id = int(table["table_id"])
    for seat in range(1, 7):
        player = Player.objects.create(name=f"bench {seat}")
        post(f"/api/v1/tables/{table_id}/seats/",
             {"player_id": player.pk, "seat": seat, "buy_in": 10**7})  # fmt: skip
    return token, table_id


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=150, help="measured hands per variant")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    for handler in logging.getLogger().handlers:
        if isinstance(handler, logging.StreamHandler):
            handler.setStream(open(os.devnull, "w"))  # noqa: SIM115 (lives as long as we do)
    old = setup_databases(verbosity=0, interactive=False)
    hosts = override_settings(ALLOWED_HOSTS=[*settings.ALLOWED_HOSTS, "testserver"])
    hosts.enable()
    try:
        token, table_id = prepare()
        # the middleware each variant runs with; None: the services alone, no HTTP
        variants: dict[str, list[str] | None] = {
            "full": list(settings.MIDDLEWARE),
            "-structlog": _without(STRUCTLOG),
            "-prometheus": _without(*PROMETHEUS),
            "-both": _without(STRUCTLOG, *PROMETHEUS),
            "no middleware": [],
            "services": None,
        }
        results: dict[str, list[float]] = {name: [] for name in variants}
        for _ in range(args.rounds):
            for name, middleware in variants.items():
                aggregates.cache.clear()
                if middleware is None:
                    results[name].append(measure(services_post, table_id, args.hands))
                    continue
                with override_settings(MIDDLEWARE=middleware):
                    results[name].append(measure(http_post(token), table_id, args.hands))
        full = statistics.median(results["full"])
        print(f"{'variant':<14} {'CPU ms/request':>15} {'of full':>8}   rounds")
        for name, values in results.items():
            median = statistics.median(values)
            rounds = " ".join(f"{v:.3f}" for v in values)
            print(f"{name:<14} {median:>15.3f} {median / full:>8.2f}   {rounds}")
    finally:
        hosts.disable()
        teardown_databases(old, verbosity=0)


if __name__ == "__main__":
    main()
