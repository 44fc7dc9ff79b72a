"""``manage.py up``: the whole service on one command, embedded defaults, no server needed.

Migrates the database (SQLite under ``var/`` unless ``DATABASE_URL`` is set), creates the
demo card room and its dealer device, prints the API docs URL and fresh demo tokens (only
their hashes are stored, so each start mints new ones and the old ones stop working), and
serves HTTP and WebSockets (uvicorn, ASGI) until stopped, with the push relay (in the
server's event loop, casino.lifespan), a Celery worker and beat (tournament clocks,
waiting-list call deadlines: casino.celery.start_embedded) in threads beside it. DEBUG is
on for ``up`` (manage.py) unless set otherwise.
"""

import argparse
import errno
import os
import socket
from typing import Any

from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import DatabaseError


def port_number(text: str) -> int:
    """A TCP port, 1-65535 (``--port 99999`` listened on 34463 before)."""
    try:
        port = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a port number: {text!r}") from None
    if not 1 <= port <= 65535:
        raise argparse.ArgumentTypeError(f"a port is 1-65535, not {port}")
    return port


def check_port_free(host: str, port: int) -> None:
    """Refuse a port another server listens on before anything is changed: a second
    ``up`` on the same database minted new demo tokens, which cut off the running
    server's tablets, and only then failed to bind (found by QA).

    Raises:
        CommandError: the port is taken, or the host cannot be bound here.
    """
    for family, kind, proto, _, address in socket.getaddrinfo(host, port, 0, socket.SOCK_STREAM):
        with socket.socket(family, kind, proto) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as uvicorn binds
            try:
                probe.bind(address)
            except OSError as error:
                taken = error.errno == errno.EADDRINUSE
                raise CommandError(
                    f"{host}:{port} is already in use (is the service running? stop it, or "
                    f"pick another --port); nothing was changed"
                    if taken
                    else f"cannot serve on {host}:{port}: {error.strerror}"
                ) from None
        return


def _in_memory(name: str) -> bool:
    """Whether a SQLite database name is an in-memory database (``""``, ``:memory:``, a
    ``file:`` URI with ``mode=memory``)."""
    return (
        name in ("", ":memory:", "None")
        or name.startswith(":memory")
        or (name.startswith("file:") and ("mode=memory" in name or name.startswith("file::memory")))
    )


class Command(BaseCommand):
    help = "Migrate, create the demo card room and serve the API at 127.0.0.1:8000."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--host", default="127.0.0.1")
        parser.add_argument("--port", type=port_number, default=8000)
        parser.add_argument("--workers", type=int, default=1, help="uvicorn worker processes")
        parser.add_argument("--no-serve", action="store_true", help="set everything up, then exit")
        parser.add_argument(
            "--keep-tokens",
            action="store_true",
            help="do not mint new demo tokens: the ones an earlier start printed keep working "
            "(a second server on the same database, e.g. replay_phh's own)",
        )
        parser.add_argument(
            "--no-timers",
            action="store_true",
            help="do not run a Celery worker and beat here (production: celery worker and beat)",
        )
        parser.add_argument(
            "--no-relay",
            action="store_true",
            help="do not push events to WebSockets from this process (run 'manage.py relay')",
        )

    def execute(self, *args: Any, **options: Any) -> str | None:
        """The command, with a database it cannot use (a folder that does not exist, a
        file that is not a database, no server) said in one line, not a traceback of 90
        (found by QA); the system checks already touch it."""
        from django.conf import settings

        try:
            return super().execute(*args, **options)
        except DatabaseError as error:
            where = settings.DATABASES["default"].get("NAME") or "the database"
            source = "DATABASE_URL" if os.environ.get("DATABASE_URL") else "the embedded default"
            raise CommandError(f"cannot use the database {where} ({source}): {error}") from None

    def handle(self, *args: Any, **options: Any) -> None:
        from django.conf import settings
        from django.utils.module_loading import import_string

        from casino import logs
        from casino.security import require_secret_key

        ensure_demo_room = import_string(settings.CASINO_DEMO_ROOM)  # an app's, by name
        database = settings.DATABASES["default"]
        if database["ENGINE"].endswith("sqlite3") and _in_memory(str(database.get("NAME"))):
            # one database per connection: the relay, the timers and the server's threads
            # would each see an empty one (tracebacks every second: found by QA)
            raise CommandError(
                "an in-memory SQLite database cannot be shared by up's threads: "
                "give DATABASE_URL a file (sqlite:////path/room.sqlite3)"
            )
        if not options["no_serve"]:  # refuse before the tokens are minted again
            try:
                require_secret_key()
            except Exception as error:
                raise CommandError(str(error)) from None
            check_port_free(options["host"], options["port"])

        os.environ["LOG_FORMAT"] = "console"  # human-readable, in uvicorn's workers too
        logs.use_console()
        call_command("migrate", interactive=False, verbosity=0)
        dealer, admin = ensure_demo_room(issue_tokens=not options["keep_tokens"])
        logs.clear()  # what the setup bound (its actor, streams) is not the requests'
        base = f"http://{options['host']}:{options['port']}"
        self.stdout.write(f"API docs:          {base}/api/docs/")
        self.stdout.write(f"OpenAPI schema:    {base}/api/schema/")
        # --keep-tokens mints none, but a demo device made just now (a fresh database) has
        # its first token, shown once: it was never printed, so nobody could use it (QA)
        if options["keep_tokens"] and not (dealer.token or admin.token):
            self.stdout.write("Demo tokens:       unchanged (--keep-tokens)")
            for device, what in ((dealer, "dealer"), (admin, "admin")):
                if device.revoked:  # its kept token works nowhere: say so (QA)
                    self.stdout.write(
                        f"  The demo {what} device is revoked, so its token no longer works: "
                        "start without --keep-tokens to reinstate it with a new one"
                    )
            self.stdout.flush()
            if not options["no_serve"]:
                self._serve(options)
            return
        again = "; it had been revoked: reinstated with this token"
        kept = "unchanged (--keep-tokens)"
        self.stdout.write(
            f"Demo dealer token: {dealer.token or kept}  (tablet of table {dealer.table_id}"
            f"{again if dealer.reinstated else ''})"
        )
        self.stdout.write(
            f"Demo admin token:  {admin.token or kept}  (new at each start"
            f"{again if admin.reinstated else ''})"
        )
        self.stdout.write(
            f"  e.g. curl -H 'Authorization: Token {dealer.token or '<dealer token>'}' "
            f"{base}/api/v1/tables/{dealer.table_id}/"
        )
        self.stdout.write(
            f"Consoles:          {base}/login/ (staff; a first account: manage.py "
            f"createsuperuser), {base}/tablet/ (enter the dealer token once)"
        )
        if settings.SECURE_SSL_REDIRECT:
            self.stdout.write(
                "Note: SECURE_SSL_REDIRECT is on (DEBUG off), so plain http is redirected to "
                "https, which up does not serve: set SECURE_SSL_REDIRECT=false to use these "
                "URLs, or put a TLS proxy in front"
            )
        self.stdout.flush()
        if not options["no_serve"]:
            self._serve(options)

    def _serve(self, options: dict[str, Any]) -> None:
        import uvicorn
        from django.conf import settings

        from casino.celery import start_embedded
        from casino.server import SERVER_SETTINGS

        workers = options["workers"]
        if options["host"] not in ("127.0.0.1", "localhost", "::1"):
            self.stderr.write(
                "serving beyond this machine: tablets must reach it by a name or address in "
                f"ALLOWED_HOSTS (now {', '.join(settings.ALLOWED_HOSTS)})"
            )
        if options["no_relay"] and not settings.REDIS_URL:
            self.stderr.write(
                "--no-relay with the in-process channel layer: a separate 'manage.py relay' "
                "cannot reach this server's sockets (set REDIS_URL for both)"
            )
        if not settings.REDIS_URL and workers > 1:
            self.stderr.write("in-process channel layer: serving with one worker (set REDIS_URL)")
            workers = 1
        if not options["no_relay"]:
            # the relay runs in each server process's own event loop (casino.lifespan)
            os.environ["CASINO_EMBEDDED_RELAY"] = "1"
            settings.EMBEDDED_RELAY = True
            if workers > 1 and settings.DATABASES["default"]["ENGINE"].endswith("sqlite3"):
                # no NOTIFY on SQLite: each worker's relay sees the others' commits by polling
                os.environ["CASINO_RELAY_SQLITE_POLL_SECONDS"] = "0.05"
        if not options["no_timers"]:
            start_embedded()  # blind levels, breaks, call deadlines: a worker and beat
        uvicorn.run(
            "casino.asgi:application",
            host=options["host"],
            port=options["port"],
            workers=workers,
            log_level="warning",
            **SERVER_SETTINGS,  # as production's workers (casino/server.py)
        )
