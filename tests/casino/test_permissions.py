"""Access control (issue #4): one matrix of role x operation, deny by default.

Every operation of the OpenAPI schema is called by every principal -- anonymous, a dealer
tablet bound to table 1 (where a hand is running), one bound to table 2, a console user
of each staff role, and a user with no role -- and the answer is checked against
``casino.permissions.MATRIX``: 401/403 exactly where it denies (and then nothing in the
database changed), never 401/403 where it allows. Also: a tablet stays at its own table,
a session write needs the CSRF token, a revoked device is refused, reads never show a
hole card that was not shown nor a player's name, and events record who did it.
"""

from __future__ import annotations

import json
import uuid
from dataclasses import dataclass
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from drf_spectacular.generators import SchemaGenerator
from rest_framework.test import APIClient

from cashgame.models import CashSession
from casino.eventstore.models import CommandRecord, StoredEvent
from casino.models import Device, Player, Role, StaffProfile
from casino.permissions import MATRIX, NAME_OPERATIONS, PUBLIC_OPERATIONS, TABLE_SCOPED, allowed
from tables import services
from tables.models import TableView
from tests.conftest import NLH_10_20
from tests.tournaments.play import STRUCTURE
from tournaments import services as tournament_services
from waitlist import services as waitlist_services

pytestmark = pytest.mark.django_db
WAITLIST_ID = "nlh-10-20"
User = get_user_model()
SECRET_NAMES = ("Alice Secretname", "Bob Secretname", "Carol Secretname", "Dana Secretname")
PASSWORD = "correct horse battery staple"


@pytest.fixture(autouse=True)
def _no_token_cache(settings: Any) -> None:
    settings.DEVICE_TOKEN_CACHE_SECONDS = 0
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]  # speed


def schema_operations() -> list[tuple[str, str, str]]:
    """``(path, METHOD, operationId)`` of every operation in the OpenAPI schema."""
    schema = SchemaGenerator().get_schema(request=None, public=True)
    return [
        (path, method.upper(), op["operationId"])
        for path, item in schema["paths"].items()
        for method, op in item.items()
    ]


# --- the world -------------------------------------------------------------------------------


@dataclass
class World:
    table_1: int
    table_2: int
    hand_id: str
    players: list[Player]
    dealer_1: Device
    dealer_2: Device
    spare_device: Device  # the one revoke_device may revoke during the walk
    spare_user: Any  # the one update_staff may change during the walk
    users: dict[str, Any]


def make_user(username: str, role: Role | None) -> Any:
    user = User.objects.create_user(username=username, password=PASSWORD)
    if role is not None:
        StaffProfile.objects.create(user=user, role=role)
    return user


@pytest.fixture
def world() -> World:
    players = [Player.objects.create(name=n, nickname=n.split()[0]) for n in SECRET_NAMES]
    table_1 = services.open_table(**NLH_10_20)
    table_2 = services.open_table(**{**NLH_10_20, "name": "NLH 10/20 b"})
    for seat, player in enumerate(players[:3], start=1):  # Dana waits for a seat
        services.seat_player(table_id=table_1, player_id=player.pk, seat=seat, buy_in=1000)
    hand_id = services.start_hand(table_id=table_1, button_seat=1).state.hand_id
    # waiting lists (issue #5): a list with a phone entry, so list reads have data to leak
    waitlist_services.open_list(game="NLH", small_blind=10, big_blind=20, list_kind="waiting")
    waitlist_services.join_list(
        list_id=WAITLIST_ID, player_id=players[3].pk, channel="phone", phone="+420 1"
    )
    return World(
        table_1=table_1,
        table_2=table_2,
        hand_id=str(hand_id),
        players=players,
        dealer_1=Device.objects.create(name="dealer-1", role=Role.DEALER, table_id=table_1),
        dealer_2=Device.objects.create(name="dealer-2", role=Role.DEALER, table_id=table_2),
        spare_device=Device.objects.create(name="spare", role=Role.DEALER, table_id=table_2),
        spare_user=make_user("spare", Role.CASHIER),
        users={
            role.value: make_user(role.value, role)
            for role in (Role.CASHIER, Role.FLOOR, Role.DIRECTOR, Role.MANAGER, Role.ADMIN)
        }
        | {"no_role": make_user("no_role", None)},
    )


class Console:
    """A principal's HTTP client: a device token, or a session with the CSRF token."""

    def __init__(self, *, device: Device | None = None, user: Any = None) -> None:
        self.device, self.user = device, user
        self.http = APIClient(enforce_csrf_checks=True)
        self.csrf: str | None = None
        if device is not None:
            self.http.credentials(HTTP_AUTHORIZATION=f"Token {device.token}")
        else:
            if user is not None:
                self.http.force_login(user)
            self.csrf = self.http.get("/api/v1/auth/csrf/").json()["csrf_token"]

    def call(self, method: str, path: str, body: Any = None, *, csrf: bool = True) -> Any:
        headers = {"HTTP_IDEMPOTENCY_KEY": str(uuid.uuid4())}
        if csrf and self.csrf and method not in ("GET", "HEAD", "OPTIONS"):
            headers["HTTP_X_CSRFTOKEN"] = self.csrf
        data = None if method == "GET" else json.dumps(body or {})
        return self.http.generic(method, path, data or "", "application/json", **headers)


PRINCIPALS = ["anonymous", "dealer@1", "dealer@2", "cashier", "floor", "director", "manager",
              "admin", "no_role"]  # fmt: skip


def console_for(world: World, principal: str) -> Console:
    if principal == "anonymous":
        return Console()
    if principal == "dealer@1":
        return Console(device=world.dealer_1)
    if principal == "dealer@2":
        return Console(device=world.dealer_2)
    return Console(user=world.users[principal])


def expected_allowed(principal: str, operation_id: str) -> bool:
    """What the matrix says for a request about table 1 (and its running hand)."""
    if operation_id in PUBLIC_OPERATIONS:
        return True
    if principal in ("anonymous", "no_role"):
        return False
    role = Role.DEALER if principal.startswith("dealer") else Role(principal)
    if role not in MATRIX[operation_id]:
        return False
    if role == Role.DEALER and operation_id in TABLE_SCOPED:
        return principal == "dealer@1"
    return True


def body_for(operation_id: str, world: World, principal: str) -> dict[str, Any]:
    """A plausible body, so that an allowed write mostly gets through; any other write
    is sent empty (a 400 still shows it passed the permission check)."""
    player = world.players[0].pk
    return {
        "create_player": {"name": f"Walk {principal}"},
        "sell_chips": {"player_id": player, "amount": 100},
        "redeem_chips": {"player_id": player, "amount": 100},
        "register_device": {"name": f"walk-{principal}", "table_id": world.table_2},
        "create_staff": {"username": f"walk-{principal}", "password": PASSWORD, "role": "floor"},
        "update_staff": {"is_active": True},
        "record_action": {"seat": 1, "action": "call"},
        "top_up": {"amount": 100},
        "change_table_limits": {"buy_in_min": 1000, "buy_in_max": 6000, "reason": "walk"},
    }.get(operation_id, {})


def state_of_the_world() -> tuple[Any, ...]:
    return (
        StoredEvent.objects.count(),
        CommandRecord.objects.count(),
        Player.objects.count(),
        Device.objects.count(),
        Device.objects.filter(revoked=True).count(),
        User.objects.count(),
        User.objects.filter(is_active=True).count(),
        StaffProfile.objects.count(),
        CashSession.objects.count(),
    )


# --- (a) the matrix covers the schema ----------------------------------------------------


def test_every_operation_of_the_schema_is_in_the_matrix_and_nothing_else() -> None:
    in_schema = [op for _, _, op in schema_operations()]
    assert len(in_schema) == len(set(in_schema)), "duplicate operationId"
    assert set(in_schema) == set(MATRIX)
    assert set(MATRIX) >= PUBLIC_OPERATIONS
    assert all(Role.ADMIN in roles for roles in MATRIX.values())


def test_table_scoped_operations_are_exactly_those_on_one_table_or_hand() -> None:
    scoped = {
        op for path, _, op in schema_operations() if "{table_id}" in path or "{hand_id}" in path
    }
    assert scoped == TABLE_SCOPED


def test_managers_only_read_and_only_cashiers_move_cash() -> None:
    by_id = {op: method for _, method, op in schema_operations()}
    manager_ops = {op for op, roles in MATRIX.items() if Role.MANAGER in roles}
    assert {by_id[op] for op in manager_ops - {"auth_login", "auth_logout"}} == {"GET"}
    for cash in ("sell_chips", "redeem_chips"):
        assert MATRIX[cash] == {Role.CASHIER, Role.ADMIN}
    for floor_only in ("open_table", "close_table", "change_table_limits", "transfer_player",
                       "partial_cash_out", "keep_players_apart",
                       "redeem_chips_override"):  # fmt: skip
        assert MATRIX[floor_only] == {Role.FLOOR, Role.ADMIN}


def test_an_unknown_operation_is_denied_to_everyone(world: World) -> None:
    admin = world.users["admin"]
    assert not allowed(admin, "drop_all_tables")
    assert not allowed(None, "list_tables")
    assert allowed(None, "auth_login")
    response = Console(user=admin).call("PUT", f"/api/v1/tables/{world.table_1}/")
    assert response.status_code == 405  # a method no operation of the path has (issue #12)


# --- (b) every operation x every principal ---------------------------------------------------


@pytest.mark.parametrize("principal", PRINCIPALS)
def test_every_operation_answers_as_the_matrix_says(world: World, principal: str) -> None:
    console = console_for(world, principal)
    values = {
        "table_id": world.table_1,
        "hand_id": world.hand_id,
        "seat": 1,
        "player_id": world.players[0].pk,
        "sidebet_id": uuid.uuid4(),
        "user_id": world.spare_user.pk,
        "device_id": world.spare_device.pk,
        "list_id": WAITLIST_ID,  # waiting lists (issue #5)
        "call_id": uuid.uuid4(),
        # tournaments (issue #6): one being registered, so writes reach the domain
        "tournament_id": tournament_services.create_tournament(config=STRUCTURE),
    }
    # Logging out ends the session the rest of the walk needs: last.
    operations = sorted(schema_operations(), key=lambda o: o[2] == "auth_logout")
    wrong = []
    for path_template, method, operation_id in operations:
        path = path_template.format(**values)
        before = state_of_the_world()
        response = console.call(method, path, body_for(operation_id, world, principal))
        code = response.status_code
        expected = expected_allowed(principal, operation_id)
        if code >= 500:
            wrong.append(f"{operation_id}: {code} (server error)")
        elif expected and code in (401, 403):
            wrong.append(f"{operation_id}: {code}, but the matrix allows it: {response.json()}")
        elif not expected:
            denied = 401 if principal == "anonymous" else 403
            if code != denied:
                wrong.append(f"{operation_id}: {code}, but the matrix denies it ({denied})")
            elif state_of_the_world() != before:
                wrong.append(f"{operation_id}: refused with {code}, yet something changed")
        if method == "GET" and code == 200:
            text = response.content.decode()
            for name in SECRET_NAMES:
                if name in text and operation_id not in NAME_OPERATIONS:
                    wrong.append(f"{operation_id}: shows a player's name")
            for device in (world.dealer_1, world.dealer_2, world.spare_device):
                if device.token in text:
                    wrong.append(f"{operation_id}: shows a device token")
    assert not wrong, "\n".join(wrong)


# --- (c) a tablet stays at its own table -----------------------------------------------------


def test_a_dealer_of_table_2_cannot_touch_table_1_or_its_hand(world: World) -> None:
    other = Console(device=world.dealer_2)
    own = Console(device=world.dealer_1)
    hand = f"/api/v1/hands/{world.hand_id}/"
    events = StoredEvent.objects.count()

    to_act = own.call("GET", hand).json()["to_act"]
    action = {"seat": to_act, "action": "call"}
    assert other.call("POST", hand + "actions/", action).status_code == 403
    assert other.call("GET", hand).status_code == 403
    assert other.call("GET", f"/api/v1/tables/{world.table_1}/").status_code == 403
    seat = {"player_id": world.players[0].pk, "seat": 9, "buy_in": 1000}
    assert other.call("POST", f"/api/v1/tables/{world.table_1}/seats/", seat).status_code == 403
    assert other.call("POST", f"/api/v1/tables/{world.table_1}/hands/").status_code == 403
    assert StoredEvent.objects.count() == events

    assert other.call("GET", f"/api/v1/tables/{world.table_2}/").status_code == 200
    assert own.call("POST", hand + "actions/", action).status_code == 200
    assert StoredEvent.objects.filter(stream=f"hand-{world.hand_id}").count() > 0


def test_a_dealer_tablet_with_no_table_may_not_act_anywhere(world: World) -> None:
    loose = Console(device=Device.objects.create(name="loose", role=Role.DEALER))
    assert loose.call("GET", f"/api/v1/tables/{world.table_1}/").status_code == 403
    assert loose.call("GET", f"/api/v1/hands/{world.hand_id}/").status_code == 403
    assert loose.call("GET", "/api/v1/auth/me/").json()["table_id"] is None


def test_a_dealer_is_refused_on_a_hand_that_does_not_exist(world: World) -> None:
    own = Console(device=world.dealer_1)
    assert own.call("GET", f"/api/v1/hands/{uuid.uuid4()}/").status_code == 404  # issue #12
    floor = Console(user=world.users["floor"])
    assert floor.call("GET", f"/api/v1/hands/{uuid.uuid4()}/").status_code == 404


# --- (d) sessions and CSRF -------------------------------------------------------------------


def test_a_session_write_without_the_csrf_token_is_refused(world: World) -> None:
    floor = Console(user=world.users["floor"])
    events = StoredEvent.objects.count()
    refused = floor.call("POST", "/api/v1/tables/", NLH_10_20, csrf=False)
    assert refused.status_code == 403
    assert "CSRF" in refused.json()["detail"]
    assert StoredEvent.objects.count() == events
    assert floor.call("POST", "/api/v1/tables/", NLH_10_20).status_code == 201


def test_login_needs_the_csrf_token_and_a_staff_role(world: World) -> None:
    console = Console()
    credentials = {"username": "floor", "password": PASSWORD}
    no_token = console.call("POST", "/api/v1/auth/login/", credentials, csrf=False)
    assert no_token.status_code == 403
    wrong = console.call("POST", "/api/v1/auth/login/", {**credentials, "password": "nope"})
    assert (wrong.status_code, wrong.json()["code"]) == (400, "invalid_credentials")
    no_role = {"username": "no_role", "password": PASSWORD}
    refused = console.call("POST", "/api/v1/auth/login/", no_role)
    assert (refused.status_code, refused.json()["code"]) == (422, "no_staff_role")
    assert console.call("GET", "/api/v1/auth/me/").status_code == 401


def test_console_login_me_logout(world: World) -> None:
    console = Console()
    credentials = {"username": "cashier", "password": PASSWORD}
    logged_in = console.call("POST", "/api/v1/auth/login/", credentials)
    assert logged_in.status_code == 200, logged_in.json()
    assert logged_in.json()["role"] == "cashier"
    assert logged_in.json()["csrf_token"] != console.csrf  # rotated at login
    stale = console.call("POST", "/api/v1/cage/sales/", {"player_id": 1, "amount": 1})
    assert stale.status_code == 403
    console.csrf = logged_in.json()["csrf_token"]
    me = console.call("GET", "/api/v1/auth/me/").json()
    assert (me["kind"], me["name"], me["role"]) == ("user", "cashier", "cashier")
    sale = {"player_id": world.players[0].pk, "amount": 500}
    assert console.call("POST", "/api/v1/cage/sales/", sale).status_code == 201
    assert console.call("POST", "/api/v1/auth/logout/").status_code == 200
    assert console.call("GET", "/api/v1/auth/me/").status_code == 401


def test_a_locked_account_or_a_changed_role_takes_effect_at_once(world: World) -> None:
    cashier = Console(user=world.users["cashier"])
    admin = Console(user=world.users["admin"])
    assert cashier.call("GET", "/api/v1/cage/balance/").status_code == 200
    change = {"role": "manager"}
    assert admin.call("PATCH", f"/api/v1/staff/{world.users['cashier'].pk}/", change).json()[
        "role"
    ] == "manager"  # fmt: skip
    sale = {"player_id": world.players[0].pk, "amount": 500}
    assert cashier.call("POST", "/api/v1/cage/sales/", sale).status_code == 403
    lock = {"is_active": False}
    assert (
        admin.call("PATCH", f"/api/v1/staff/{world.users['cashier'].pk}/", lock).status_code == 200
    )
    assert cashier.call("GET", "/api/v1/cage/balance/").status_code == 401


def test_staff_accounts_are_never_dealers_and_keep_no_password_in_idempotency_records(
    world: World,
) -> None:
    admin = Console(user=world.users["admin"])
    dealer = {"username": "d", "password": PASSWORD, "role": "dealer"}
    refused = admin.call("POST", "/api/v1/staff/", dealer)
    assert refused.status_code == 400 and "dealers work through" in json.dumps(refused.json())
    schema = admin.call("GET", "/api/schema/?format=json").json()["components"]["schemas"]
    role = schema["CreateStaffRequestRequest"]["properties"]["role"]  # the schema says so too
    enum = schema[role["allOf"][0]["$ref"].rsplit("/", 1)[1]]["enum"] if "allOf" in role else (
        schema[role["$ref"].rsplit("/", 1)[1]]["enum"])  # fmt: skip
    assert "dealer" not in enum and "admin" in enum
    created = admin.call("POST", "/api/v1/staff/", {**dealer, "role": "floor"})
    assert created.status_code == 201, created.json()
    assert created.json()["role"] == "floor"
    for record in CommandRecord.objects.all():
        assert PASSWORD not in json.dumps(record.response)


def test_the_last_active_admin_is_neither_locked_nor_demoted(world: World) -> None:
    """An admin could lock or demote the room's only admin account (found by QA)."""
    admin = Console(user=world.users["admin"])
    url = f"/api/v1/staff/{world.users['admin'].pk}/"
    for change in ({"is_active": False}, {"role": "floor"}):
        refused = admin.call("PATCH", url, change)
        assert (refused.status_code, refused.json()["code"]) == (409, "last_admin")
    world.users["admin"].refresh_from_db()
    assert world.users["admin"].is_active and world.users["admin"].staff_profile.role == "admin"
    second = {"username": "admin2", "password": PASSWORD, "role": "admin"}
    assert admin.call("POST", "/api/v1/staff/", second).status_code == 201
    assert admin.call("PATCH", url, {"role": "floor"}).status_code == 200  # another admin left


def test_a_superuser_without_a_profile_acts_as_admin(world: World) -> None:
    root = User.objects.create_superuser("root", password=PASSWORD)
    assert Console(user=root).call("GET", "/api/v1/staff/").status_code == 200


# --- (e) devices: registered by the floor, revocable -----------------------------------------


def test_the_floor_registers_a_tablet_bound_to_a_table_and_revokes_it(
    world: World, settings: Any
) -> None:
    settings.DEVICE_TOKEN_CACHE_SECONDS = 60  # revocation is immediate in this process
    floor = Console(user=world.users["floor"])
    registered = floor.call(
        "POST", "/api/v1/devices/", {"name": "tablet-t2", "table_id": world.table_2}
    )
    assert registered.status_code == 201, registered.json()
    device = registered.json()
    assert (device["role"], device["table_id"]) == ("dealer", world.table_2)
    assert device["registered_by"] == world.users["floor"].pk
    tablet = APIClient()
    tablet.credentials(HTTP_AUTHORIZATION=f"Token {device['token']}")
    assert tablet.get(f"/api/v1/tables/{world.table_2}/").status_code == 200
    assert tablet.get(f"/api/v1/tables/{world.table_1}/").status_code == 403
    listed = floor.call("GET", "/api/v1/devices/").json()
    assert device["token"] not in json.dumps(listed)

    revoked = floor.call("POST", f"/api/v1/devices/{device['id']}/revoke/")
    assert revoked.status_code == 200, revoked.json()
    assert revoked.json()["revoked_by"] == world.users["floor"].pk
    refused = tablet.get(f"/api/v1/tables/{world.table_2}/")
    assert (refused.status_code, refused.json()["code"]) == (401, "authentication_failed")


def test_a_revoked_device_is_refused(world: World) -> None:
    Device.objects.filter(pk=world.dealer_1.pk).update(revoked=True)
    response = Console(device=world.dealer_1).call("GET", f"/api/v1/tables/{world.table_1}/")
    assert response.status_code == 401
    assert not allowed(Device.objects.get(pk=world.dealer_1.pk), "get_table",
                       table_id=world.table_1)  # fmt: skip


def test_a_replayed_registration_does_not_show_the_token_again(world: World) -> None:
    floor = Console(user=world.users["floor"])
    body = {"name": "tablet-r", "table_id": world.table_1}
    headers = {"HTTP_IDEMPOTENCY_KEY": "register-once", "HTTP_X_CSRFTOKEN": floor.csrf}
    first = floor.http.post("/api/v1/devices/", body, format="json", **headers)
    again = floor.http.post("/api/v1/devices/", body, format="json", **headers)
    assert first.json()["token"] and again.json()["token"] is None
    assert again["Idempotent-Replayed"] == "true"
    assert Device.objects.filter(name="tablet-r").count() == 1
    assert first.json()["token"] not in json.dumps(list(CommandRecord.objects.values("response")))


def test_the_floor_cannot_revoke_a_device_that_is_not_a_tablet(world: World) -> None:
    console_device = Device.objects.create(name="cage-pc", role=Role.CASHIER)
    floor = Console(user=world.users["floor"])
    assert floor.call("POST", f"/api/v1/devices/{console_device.pk}/revoke/").status_code == 403
    admin = Console(user=world.users["admin"])
    assert admin.call("POST", f"/api/v1/devices/{console_device.pk}/revoke/").status_code == 200


def test_a_closed_table_gets_no_tablet(world: World) -> None:
    TableView.objects.filter(table_id=world.table_2).update(status="closed")
    floor = Console(user=world.users["floor"])
    answer = floor.call("POST", "/api/v1/devices/", {"name": "x", "table_id": world.table_2})
    assert (answer.status_code, answer.json()["code"]) == (422, "table_closed")
    answer = floor.call("POST", "/api/v1/devices/", {"name": "x", "table_id": 999})
    assert (answer.status_code, answer.json()["code"]) == (404, "table_not_found")


# --- (f) reads leak no hole card and no private data ------------------------------------------


def _play_to_showdown(dealer: Console, hand_id: str) -> dict[str, Any]:
    path = f"/api/v1/hands/{hand_id}/"
    boards = {"flop": "Qs9c4s", "turn": "2d", "river": "7h"}
    hand = dealer.call("GET", path).json()
    for _ in range(50):
        if hand["phase"] == "betting":
            action = "call" if hand["legal"]["to_call"] else "check"
            body = {"seat": hand["to_act"], "action": action}
            hand = dealer.call("POST", path + "actions/", body).json()
        elif hand["phase"] == "awaiting_board":
            street = hand["next_street"]
            body = {"street": street, "cards": boards[street]}
            hand = dealer.call("POST", path + "board/", body).json()
        else:
            break
        assert "phase" in hand, hand
    assert hand["phase"] == "showdown", hand
    return hand


def _visible_cards(hand: dict[str, Any]) -> dict[int, Any]:
    return {seat["seat"]: seat["shown"] for seat in hand["seats"]}


def test_reads_show_no_hole_card_before_it_is_shown(world: World) -> None:
    dealer = Console(device=world.dealer_1)
    readers = [dealer, Console(user=world.users["floor"]), Console(user=world.users["director"])]
    path = f"/api/v1/hands/{world.hand_id}/"
    for reader in readers:
        running = reader.call("GET", path).json()
        assert set(_visible_cards(running).values()) == {None}

    hand = _play_to_showdown(dealer, world.hand_id)
    assert set(_visible_cards(hand).values()) == {None}
    shown = dealer.call("POST", path + "show/", {"seat": 1, "cards": "AcKd"}).json()
    assert _visible_cards(shown) == {1: "AcKd", 2: None, 3: None}
    for reader in readers:
        assert _visible_cards(reader.call("GET", path).json()) == {1: "AcKd", 2: None, 3: None}
    assert Console(device=world.dealer_2).call("GET", path).status_code == 403


def test_table_and_hand_payloads_carry_no_private_fields(world: World) -> None:
    floor = Console(user=world.users["floor"])
    table = floor.call("GET", f"/api/v1/tables/{world.table_1}/").json()
    assert {key for seat in table["seats"] for key in seat} == {
        "seat",
        "player_id",
        "stack",
        "seated_at",
        "status",
        "missed_small_blind",
        "missed_big_blind",
        "posts_next_hand",
        "busted",
        "top_up_after_hand",
    }
    hand = floor.call("GET", f"/api/v1/hands/{world.hand_id}/").json()
    everything = json.dumps([table, hand, floor.call("GET", "/api/v1/tables/").json()])
    for player in world.players:
        assert player.name not in everything
        assert player.nickname not in everything
    for device in (world.dealer_1, world.dealer_2):
        me = Console(device=device).call("GET", "/api/v1/auth/me/").json()
        assert device.token not in json.dumps(me)
    staff = Console(user=world.users["admin"]).call("GET", "/api/v1/staff/").json()
    assert "password" not in json.dumps(staff)


def test_the_dealer_reads_his_own_tables_player_names_and_no_other(world: World) -> None:
    """Names stay off the feeds; the dealer of table 1 reads nicknames and short names for
    table 1 only, never a full name."""
    own = Console(device=world.dealer_1).call("GET", f"/api/v1/tables/{world.table_1}/players/")
    assert own.status_code == 200
    assert own.json() == [
        {
            "seat": seat,
            "player_id": p.pk,
            "nickname": p.nickname,
            "short_name": f"{p.name.split()[0]} {p.name.split()[-1][0]}.",
        }
        for seat, p in enumerate(world.players[:3], start=1)
    ]
    other = Console(device=world.dealer_2)
    assert other.call("GET", f"/api/v1/tables/{world.table_1}/players/").status_code == 403
    assert other.call("GET", f"/api/v1/tables/{world.table_2}/players/").json() == []
    floor = Console(user=world.users["floor"])
    assert floor.call("GET", f"/api/v1/tables/{world.table_1}/players/").json() == own.json()
    missing = floor.call("GET", "/api/v1/tables/999999/players/")
    assert (missing.status_code, missing.json()["code"]) == (404, "table_not_found")
    cashier = Console(user=world.users["cashier"])
    assert cashier.call("GET", f"/api/v1/tables/{world.table_1}/players/").status_code == 403


# --- audit: events record who did it ---------------------------------------------------------


def test_events_record_the_staff_user_or_the_device_and_the_request(world: World) -> None:
    floor = Console(user=world.users["floor"])
    floor.http.defaults["HTTP_X_REQUEST_ID"] = "req-floor-1"
    opened = floor.call("POST", "/api/v1/tables/", NLH_10_20)
    assert opened.status_code == 201
    event = StoredEvent.objects.get(stream=f"table-{opened.json()['table_id']}", version=1)
    assert event.metadata["actor"] == f"user:{world.users['floor'].pk}"
    assert event.metadata["request_id"] == "req-floor-1"
    assert "device" not in event.metadata

    dealer = Console(device=world.dealer_1)
    hand = dealer.call("GET", f"/api/v1/hands/{world.hand_id}/").json()
    body = {"seat": hand["to_act"], "action": "call"}
    assert dealer.call("POST", f"/api/v1/hands/{world.hand_id}/actions/", body).status_code == 200
    last = StoredEvent.objects.filter(stream=f"hand-{world.hand_id}").latest("version")
    assert last.metadata["actor"] == f"device:{world.dealer_1.pk}"
    assert last.metadata["device"] == "dealer-1"
