"""Replaying PHH hands through the public REST API, exactly as a dealer tablet would.

For each hand: find or open a table with the hand's game, blinds and antes and zero rake
(buy-ins by the players' agreement, BI-5), register the players once, seat them with their
starting stacks, start the hand with the recorded button, post every action, board and
show, read the stacks back from the table and compare them with ``finishing_stacks``, then
cash everybody out. The replayer never computes a winner; the server does.

Two transports share this code: :class:`HttpApi` (real HTTP, httpx, keep-alive) and
:class:`InProcessApi` (DRF's test client: the same views, no sockets).
"""

from __future__ import annotations

import uuid
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from tables.phh import (
    ActionRequest,
    BoardRequest,
    PhhHand,
    ShowRequest,
    check_finishing_stacks,
    left_out,
    parse_phh,
    read_sections,
)

REPLAY_PREFIX = "Replay"


class ApiError(Exception):
    """The server refused a request the recorded hand says was legal."""

    def __init__(self, method: str, path: str, status: int, body: Any) -> None:
        super().__init__(f"{method} {path} -> {status}: {body}")
        self.status = status
        self.body = body


class Api(Protocol):
    def get(self, path: str) -> Any: ...
    def post(self, path: str, data: dict[str, Any] | None = None) -> Any: ...


class HttpApi:
    """The API over HTTP with a device token (keep-alive connection)."""

    def __init__(self, base_url: str, token: str, *, timeout: float = 30.0) -> None:
        import httpx

        self.client = httpx.Client(
            base_url=base_url.rstrip("/"),
            headers={"Authorization": f"Token {token}"},
            timeout=timeout,
        )

    def get(self, path: str) -> Any:
        r = self.client.get(path)
        if r.status_code >= 400:
            raise ApiError("GET", path, r.status_code, r.text)
        return r.json()

    def post(self, path: str, data: dict[str, Any] | None = None) -> Any:
        r = self.client.post(path, json=data or {}, headers={"Idempotency-Key": str(uuid.uuid4())})
        if r.status_code >= 400:
            raise ApiError("POST", path, r.status_code, r.text)
        return r.json()


class InProcessApi:
    """The same API through Django's request handling in this process (no sockets)."""

    def __init__(self, token: str) -> None:
        from rest_framework.test import APIClient

        self.client = APIClient()
        self.client.credentials(HTTP_AUTHORIZATION=f"Token {token}")

    # secure=True: nothing leaves the process, and production settings redirect plain
    # HTTP to HTTPS (SECURE_SSL_REDIRECT); a redirect is an error, never a page to parse.
    def get(self, path: str) -> Any:
        r = self.client.get(path, secure=True)
        if r.status_code >= 300:
            raise ApiError("GET", path, r.status_code, r.content.decode())
        return r.json()

    def post(self, path: str, data: dict[str, Any] | None = None) -> Any:
        r = self.client.post(
            path, data or {}, format="json", secure=True, HTTP_IDEMPOTENCY_KEY=str(uuid.uuid4())
        )
        if r.status_code >= 300:
            raise ApiError("POST", path, r.status_code, r.content.decode())
        return r.json()


@dataclass
class HandOutcome:
    """What happened to one replayed hand."""

    source: str
    matched: bool
    actions: int = 0
    requests: int = 0
    reported: dict[int, int] = field(default_factory=dict)
    expected: dict[int, float] = field(default_factory=dict)
    error: str | None = None
    left_out: int = 0
    """Actions the file left out, played as pokerkit reads such a file
    (:func:`tables.phh.left_out`)."""


def discover(paths: Iterable[str | Path]) -> list[Path]:
    """PHH files named or found (recursively) under ``paths``, in a stable order."""
    found: list[Path] = []
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            found.extend(sorted((*path.rglob("*.phh"), *path.rglob("*.phhs")), key=_natural))
        else:
            found.append(path)
    return found


def _natural(path: Path) -> tuple[Any, ...]:
    parts: list[Any] = []
    for part in path.parts:
        stem = part.removesuffix(".phhs").removesuffix(".phh")
        parts.append((0, int(stem), "") if stem.isdigit() else (1, 0, stem))
    return tuple(parts)


class Replayer:
    """Plays :class:`PhhHand` objects through an :class:`Api`; keeps tables and players."""

    def __init__(self, api: Api) -> None:
        self.api = api
        self.players: dict[str, int] = {}
        self.tables: dict[tuple[Any, ...], int] = {}
        self.requests = 0
        for table in self._get("/api/v1/tables/"):
            # a table left with a hand in play by a refused request stays stuck with it:
            # an earlier run gave it up, and so does this one
            if table["name"].startswith(REPLAY_PREFIX) and table["current_hand_id"] is None:
                self.tables.setdefault(self._key_of_table(table), table["table_id"])
                for seat in table["seats"]:  # left over from an interrupted run
                    self._post(f"/api/v1/tables/{table['table_id']}/seats/{seat['seat']}/cash-out/")

    def _get(self, path: str) -> Any:
        self.requests += 1
        return self.api.get(path)

    def _post(self, path: str, data: dict[str, Any] | None = None) -> Any:
        self.requests += 1
        return self.api.post(path, data)

    @staticmethod
    def _key_of_table(t: dict[str, Any]) -> tuple[Any, ...]:
        return (t["game"], t["small_blind"], t["big_blind"], t["ante"], t["ante_type"])

    def _table_for(self, hand: PhhHand) -> int:
        key = (hand.game, hand.small_blind, hand.big_blind, hand.ante, hand.ante_type)
        if key not in self.tables:
            name = f"{REPLAY_PREFIX} {hand.game} {hand.small_blind}/{hand.big_blind}"
            if hand.ante:
                name += f" ante {hand.ante} {hand.ante_type}"
            table = self._post(
                "/api/v1/tables/",
                {
                    "name": name,
                    "game": hand.game,
                    "small_blind": hand.small_blind,
                    "big_blind": hand.big_blind,
                    "ante": hand.ante,
                    "ante_type": hand.ante_type,
                    "buy_in_min": 1,
                    "buy_in_max": 10**11,
                    "limits_reason": "replay of recorded hands: every stack as recorded",
                    "rake_percent_bp": 0,
                    "rake_cap": 0,
                    "min_raise_rule": "previous_increment",
                    "max_seats": 10,
                    # The recorded hands reset every stack each hand: a private game whose
                    # players agreed to that (BI-5), so the returning-player rule is off.
                    "returning_player_rule": False,
                    # Online histories: the forward-moving button and no posting on entry
                    # (the catalogue's online default; each hand is a new game anyway).
                    "button_rule": "forward",
                    "cash_new_player_entry": "immediate_no_post",
                },
            )
            self.tables[key] = table["table_id"]
        return self.tables[key]

    def _player(self, name: str) -> int:
        if name not in self.players:
            self.players[name] = self._post("/api/v1/players/", {"name": name})["id"]
        return self.players[name]

    def replay(self, hand: PhhHand) -> HandOutcome:
        """Play one hand; never raises for a refused request (the outcome says so)."""
        outcome = HandOutcome(hand.source, matched=False, expected=hand.expected_stacks)
        start = self.requests
        table_id = 0
        seated: list[int] = []
        try:
            table_id = self._table_for(hand)
            for p in hand.players:
                self._post(
                    f"/api/v1/tables/{table_id}/seats/",
                    {"player_id": self._player(p.name), "seat": p.seat, "buy_in": p.stack},
                )
                seated.append(p.seat)
            begin: dict[str, Any] = {"button_seat": hand.button_seat}
            if hand.straddles:
                begin["straddles"] = list(hand.straddles)
            started = self._post(f"/api/v1/tables/{table_id}/hands/", begin)
            base = f"/api/v1/hands/{started['hand_id']}"
            last = started
            for request in hand.requests:
                legal = last.get("legal") or {}
                while skipped := left_out(
                    last.get("phase"), last.get("to_act"), legal.get("can_check"), request
                ):
                    last = self._post(
                        f"{base}/actions/", {"seat": skipped.seat, "action": skipped.kind}
                    )
                    legal = last.get("legal") or {}
                    outcome.actions += 1
                    outcome.left_out += 1
                match request:
                    case ShowRequest() | BoardRequest() if last.get("phase") == "complete":
                        # every other player mucked: the pot is awarded, and a show or a
                        # board the file still records is no request
                        continue
                    case ActionRequest(seat=seat, kind=kind, amount_to=amount_to):
                        body: dict[str, Any] = {"seat": seat, "action": kind}
                        if amount_to is not None:
                            body["amount_to"] = amount_to
                        last = self._post(f"{base}/actions/", body)
                        outcome.actions += 1
                    case BoardRequest(street=street, cards=cards):
                        last = self._post(f"{base}/board/", {"street": street, "cards": cards})
                    case ShowRequest(seat=seat, cards=None):
                        # the file records the muck: an all-in one too (SD-12)
                        body = {"seat": seat, "deliberate": True}
                        last = self._post(f"{base}/muck/", body)
                    case ShowRequest(seat=seat, cards=cards):
                        last = self._post(f"{base}/show/", {"seat": seat, "cards": cards})
            if last.get("phase") != "complete":
                raise HandNotFinished(last)
            table = self._get(f"/api/v1/tables/{table_id}/")
            outcome.reported = {s["seat"]: s["stack"] for s in table["seats"]}
            result = last.get("result") or self._get(base + "/")["result"]
            split = [
                {w["seat"]: w["amount"] for w in pot["winners"]}
                for pot in (result or {}).get("pots", ())
                if len(pot["winners"]) > 1
            ]
            differences = check_finishing_stacks(hand.expected_stacks, outcome.reported, split)
            outcome.matched = not differences
            if differences:
                outcome.error = "; ".join(differences)
        except (ApiError, HandNotFinished) as exc:
            outcome.error = str(exc)
            # The table is stuck with this hand: later hands get a new table and new players.
            self.tables.pop((hand.game, hand.small_blind, hand.big_blind, hand.ante,
                             hand.ante_type), None)  # fmt: skip
            self.players.clear()
            seated = []
        finally:
            try:
                for seat in seated:
                    self._post(f"/api/v1/tables/{table_id}/seats/{seat}/cash-out/")
            except ApiError as exc:  # the hand is over, so this is the server's to explain
                outcome.matched, outcome.error = False, f"cash-out after the hand: {exc}"
            outcome.requests = self.requests - start
        return outcome


class HandNotFinished(Exception):
    """The file's requests end while the hand is still in play."""

    def __init__(self, hand: dict[str, Any]) -> None:
        to_act = hand.get("to_act")
        waiting = f"seat {to_act} to act" if to_act is not None else f"phase {hand.get('phase')}"
        super().__init__(f"the file ends before the hand does ({waiting})")


def replay_files(api: Api, files: Iterable[Path]) -> Iterator[HandOutcome]:
    """Replay each hand of each file in turn (one per ``.phh``, several per ``.phhs``); a
    file or a hand that cannot be read is a failed outcome, not the end of the run."""
    replayer = Replayer(api)
    for path in files:
        try:
            sections = read_sections(path)
        except Exception as exc:
            yield HandOutcome(str(path), matched=False, error=f"unreadable: {exc}")
            continue
        for source, data in sections:
            try:
                hand = parse_phh(data, source=source)
            except Exception as exc:
                yield HandOutcome(source, matched=False, error=f"unreadable: {exc}")
                continue
            yield replayer.replay(hand)
