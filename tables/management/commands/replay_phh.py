"""``manage.py replay_phh PATH ... [--api URL] [--token T] [--in-process] [--limit N]``.

Plays PHH hands (``.phh`` files, or ``.phhs`` files of several hands each; ``--limit``
counts hands) through the REST API as a dealer tablet would and checks the stacks the
server reports against ``finishing_stacks``. Without ``--api`` it starts a server on a free
port itself (``manage.py up`` on this project's database); without ``--token`` it uses the
demo card room's admin device from the local database (a replay opens tables and registers
players, which a dealer tablet bound to one table may not do). Exits 1 on any mismatch or error.
"""

from __future__ import annotations

import logging
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from itertools import islice
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser
from tqdm import tqdm

from tables.replay import Api, HttpApi, InProcessApi, discover, replay_files

SHOWN_FAILURES = 50
"""The failed hands printed one by one; the rest are counted."""


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def _own_server() -> Iterator[str]:
    """Start ``manage.py up`` on a free port for the duration of the replay."""
    port = _free_port()
    proc = subprocess.Popen(
        [
            sys.executable,
            str(Path(settings.BASE_DIR) / "manage.py"),
            "up",
            "--port",
            str(port),
            "--keep-tokens",  # the demo tokens a running server printed keep working
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        env=os.environ.copy(),
    )
    url = f"http://127.0.0.1:{port}"
    try:
        import httpx

        for _ in range(120):
            try:
                if httpx.get(f"{url}/api/schema/", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if proc.poll() is not None:
                raise CommandError(f"the server did not start: {proc.stderr.read()!r}")  # type: ignore[union-attr]
            time.sleep(0.5)
        yield url
    finally:
        proc.terminate()
        proc.wait(10)


@contextmanager
def _request_lines_silenced() -> Iterator[None]:
    """In process, every API call would log its request line here (JSON at INFO), tens of
    thousands burying the summary; each refused request is in the outcome anyway. Server
    errors (5xx, ERROR) still show."""
    logger = logging.getLogger("django_structlog")
    level = logger.level
    logger.setLevel(logging.ERROR)
    try:
        yield
    finally:
        logger.setLevel(level)


class Command(BaseCommand):
    help = "Replay PHH hand histories through the dealer-tablet API and check the stacks."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "paths", nargs="+", help="PHH files (.phh, or .phhs with several hands) or folders"
        )
        parser.add_argument("--api", help="base URL of a running server")
        parser.add_argument(
            "--token",
            help="device token allowed to open tables, register and seat players and record "
            "hands (default: the demo card room's admin device)",
        )
        parser.add_argument(
            "--in-process", action="store_true", help="call the API in this process, no HTTP"
        )
        parser.add_argument("--limit", type=int, help="replay at most N hands")
        parser.add_argument("--quiet", action="store_true", help="no progress bar")

    def handle(self, *args: Any, **options: Any) -> None:
        files = discover(options["paths"])
        if not files:
            raise CommandError("no .phh or .phhs files found")
        if options["in_process"] or not options["api"] or not options["token"]:
            # a local room is needed (the demo token, the in-process API, or our own server)
            from casino.schema import require_schema

            require_schema(migrate=True, stdout=self.stdout)
        token = options["token"] or self._demo_token()
        if options["in_process"]:
            with _request_lines_silenced():
                ok = self._run(InProcessApi(token), files, "in-process", options)
        elif options["api"]:
            ok = self._run_remote(HttpApi(options["api"], token), files, options)
        else:
            with _own_server() as url:
                ok = self._run(HttpApi(url, token), files, url, options)
        if not ok:
            sys.exit(1)

    def _run_remote(self, api: Api, files: list[Path], options: dict[str, Any]) -> bool:
        """The replay against ``--api``: an unreachable server or a refused token is said
        in one line, not a traceback."""
        import httpx

        from tables.replay import ApiError

        try:
            return self._run(api, files, options["api"], options)
        except httpx.TransportError as error:
            raise CommandError(f"cannot reach {options['api']}: {error}") from None
        except ApiError as error:
            if error.status in (401, 403):
                raise CommandError(
                    f"{options['api']} refused the token ({error.status}): give an admin "
                    "device's token with --token"
                ) from None
            raise

    def _demo_token(self) -> str:
        from tables.demo import replay_token

        return replay_token()

    def _run(self, api: Api, files: list[Path], where: str, options: dict[str, Any]) -> bool:
        matched = mismatched = actions = requests = left_out = 0
        failures: list[str] = []
        started = time.perf_counter()
        several = any(path.suffix == ".phhs" for path in files)  # hands unknown until read
        bar = tqdm(
            total=None if several else min(len(files), options["limit"] or len(files)),
            unit="hand",
            disable=options["quiet"],
            file=sys.stderr,
        )
        for outcome in islice(replay_files(api, files), options["limit"]):
            actions += outcome.actions
            requests += outcome.requests
            left_out += outcome.left_out
            if outcome.matched:
                matched += 1
            else:
                mismatched += 1
                failures.append(f"{outcome.source}: {outcome.error}")
            bar.update(1)
        bar.close()
        elapsed = time.perf_counter() - started
        for line in failures[:SHOWN_FAILURES]:
            self.stderr.write(line)
        if len(failures) > SHOWN_FAILURES:
            self.stderr.write(f"... and {len(failures) - SHOWN_FAILURES} more failed hands")
        total = matched + mismatched
        self.stdout.write(f"replayed {total} hands: {matched} matched, {mismatched} mismatched")
        if left_out:  # pokerkit's reading of a file that skips a player (tables.phh.left_out)
            self.stdout.write(
                f"{left_out} actions the files left out were played as a check or fold"
            )
        self.stdout.write(
            f"{total / elapsed:.1f} hands/s, {actions / elapsed:.1f} actions/s, "
            f"{requests / elapsed:.1f} requests/s ({elapsed:.1f} s, {where})"
        )
        return mismatched == 0
