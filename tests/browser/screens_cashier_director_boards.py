"""Screens of the cashier, director, reports and TV boards for ``tests.browser.screenshots``
(issue #13). Each setup builds what its console shows through the public API, once per
scene (a returning player, a tournament running with its tables, a waiting list with a
call in progress, a few cage sales), then logs in (or not, for a board)."""

from __future__ import annotations

from typing import Any

from tests.browser.screenshots import Scene, Screen


def _login(scene: Scene, page: Any, role: str) -> None:
    from tests.browser.conftest import login

    username, password = scene.data["staff"][role]
    login(page, scene.room.base, username, password)


def _returning_player(scene: Scene) -> int:
    """A player who left PLO 25/50 with 6 500 CZK a moment ago (SES-7), and a few sales."""
    if "returning" not in scene.data:
        room = scene.room
        player = room.player("Jan Novák", "Honza")
        table = 3  # the demo room's PLO 25/50
        room.api("POST", f"/api/v1/tables/{table}/seats/",
                 {"player_id": player, "seat": 5, "buy_in": 6500})  # fmt: skip
        room.api("POST", f"/api/v1/tables/{table}/seats/5/cash-out/")
        for who, amount in ((scene.data["players"][4], 3000), (scene.data["players"][5], 5000)):
            room.api("POST", "/api/v1/cage/sales/", {"player_id": who, "amount": amount})
        room.api("POST", "/api/v1/cage/redemptions/",
                 {"player_id": scene.data["players"][5], "amount": 1200})  # fmt: skip
        scene.data["returning"] = player
    return int(scene.data["returning"])


def _tournament(scene: Scene) -> int:
    """A running tournament of 14 entries on two tables, one eliminated by a late move."""
    if "tournament" not in scene.data:
        room = scene.room
        config = {
            "name": "Friday 500", "buy_in": 500, "fee": 100, "starting_stack": 20000,
            "min_entrants": 2, "late_reg_until_level": 3, "payout_rounding_unit": 10,
            "levels": [{"small_blind": 100, "big_blind": 200, "minutes": 20},
                       {"small_blind": 150, "big_blind": 300, "minutes": 20},
                       {"small_blind": 200, "big_blind": 400, "ante": 400,
                        "ante_type": "big_blind_ante", "minutes": 20}],
            "breaks": [{"after_level": 2, "minutes": 10}],
        }  # fmt: skip
        tid = room.api("POST", "/api/v1/tournaments/", config)["tournament_id"]
        names = ["Eva Dvořáková", "Petr Svoboda", "Lucie Černá", "Tomáš Procházka",
                 "Martin Kučera", "Jana Veselá", "Karel Horák", "Alena Němcová",
                 "Pavel Marek", "Zuzana Pokorná", "Jiří Král", "Hana Benešová",
                 "David Fiala", "Ivana Sedláčková"]  # fmt: skip
        for name in names:
            pid = room.player(name)
            room.api("POST", f"/api/v1/tournaments/{tid}/registrations/", {"player_id": pid})
        room.api("POST", f"/api/v1/tournaments/{tid}/start/", {"reserve_tables": 1})
        scene.data["tournament"] = tid
    return int(scene.data["tournament"])


def _waitlist(scene: Scene) -> None:
    """Two waiting lists on the board, one player called to an open seat."""
    if "waitlist" in scene.data:
        return
    room = scene.room
    nlh = room.api("POST", "/api/v1/waitlists/",
                   {"game": "NLH", "small_blind": 25, "big_blind": 50})["list_id"]  # fmt: skip
    plo = room.api("POST", "/api/v1/waitlists/",
                   {"game": "PLO", "small_blind": 50, "big_blind": 50})["list_id"]  # fmt: skip
    people = [("Marek Dvořák", "Ace"), ("Lenka Malá", ""), ("Ondřej Beneš", "Bluff King"),
              ("Tereza Kopecká", ""), ("Filip Šťastný", "Lucky"), ("Roman Holub", "")]  # fmt: skip
    for n, (name, nick) in enumerate(people):
        pid = room.player(name, nick)
        target = nlh if n < 4 else plo
        room.api("POST", f"/api/v1/waitlists/{target}/entries/",
                 {"player_id": pid, "channel": "in_person" if n % 2 else "phone"})  # fmt: skip
    room.api("POST", f"/api/v1/waitlists/{nlh}/calls/", {"table_id": 2, "seat": 1})
    scene.data["waitlist"] = [nlh, plo]


def _played_hands(scene: Scene) -> None:
    """Two hands played out at the demo room's PLO 50/50 (table 4): rake for the reports."""
    if "played" in scene.data:
        return
    room = scene.room
    table = 4
    token = room.tablet(table)
    players = [room.player("Radek Rychlý", "Rocket"), room.player("Olga Klidná")]
    for seat, player in ((2, players[0]), (6, players[1])):
        room.api("POST", f"/api/v1/tables/{table}/seats/",
                 {"player_id": player, "seat": seat, "buy_in": 6000}, token=token)  # fmt: skip
    for _ in range(2):
        hand = room.api("POST", f"/api/v1/tables/{table}/hands/", {}, token=token)
        url = f"/api/v1/hands/{hand['hand_id']}"

        def act(hand: Any, action: str, url: str = url, pot: bool = False) -> Any:
            body: dict[str, Any] = {"seat": hand["to_act"], "action": action}
            if pot:
                body["amount_to"] = hand["legal"]["max_raise_to"]
            return room.api("POST", f"{url}/actions/", body, token=token)

        hand = act(hand, "raise", pot=True)  # pot-limit: raise the pot, then calls
        for street, cards in (("flop", "2c7d9h"), ("turn", "Js"), ("river", "3d")):
            while hand["phase"] == "betting":
                hand = act(hand, "call" if hand["legal"]["to_call"] else "check")
            if hand.get("next_street") == street:
                hand = room.api("POST", f"{url}/board/", {"street": street, "cards": cards},
                                token=token)  # fmt: skip
                if street == "flop" and hand["phase"] == "betting":
                    hand = act(hand, "bet", pot=True)
        while hand["phase"] == "betting":
            hand = act(hand, "call" if hand["legal"]["to_call"] else "check")
        live = [s["seat"] for s in hand["seats"] if not s["folded"]]
        room.api("POST", f"{url}/award/", {"winners_by_pot": [[live[0]]]}, token=token)
    scene.data["played"] = True


def _cashier(scene: Scene, page: Any) -> str:
    player = _returning_player(scene)
    _tournament(scene)
    _login(scene, page, "cashier")
    return f"/cashier/?player={player}&amount=3000"


def _cashier_refused(scene: Scene, page: Any) -> None:
    """Try to sell below the returning-player minimum: the refusal with its rule."""
    page.click("#sale-submit")
    page.wait_for_selector("#sale-result.error")


def _director(scene: Scene, page: Any) -> str:
    tid = _tournament(scene)
    _login(scene, page, "director")
    return f"/director/?t={tid}"


def _reports(scene: Scene, page: Any) -> str:
    _returning_player(scene)
    _played_hands(scene)
    _login(scene, page, "manager")
    return "/reports/"


def _board_tournament(scene: Scene, page: Any) -> str:
    return f"/board/tournament/{_tournament(scene)}/"


def _board_waitlist(scene: Scene, page: Any) -> str:
    _waitlist(scene)
    return "/board/waitlist/"


SCREENS = [
    Screen(
        "cashier",
        "/cashier/",
        _cashier,
        ready="#sale-minimum.below",
        after=_cashier_refused,
    ),
    Screen("director", "/director/", _director, ready="#plan .tbl"),
    Screen("reports", "/reports/", _reports, ready="body[data-reports-loaded='true']"),
    Screen("board-waitlist", "/board/waitlist/", _board_waitlist, ready="li.called .countdown"),
    Screen(
        "board-tournament", "/board/tournament/", _board_tournament, ready="#level[data-level='1']"
    ),
]
