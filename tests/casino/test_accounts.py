"""Accounts and devices (issue #12 C): hashed device tokens shown once, login throttling,
password validators, DEBUG off by default, no serving on the built-in SECRET_KEY and a
clean ``check --deploy``."""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import uuid
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from rest_framework.test import APIClient

from casino.eventstore.models import CommandRecord
from casino.models import Device, Role, StaffProfile, hash_token
from tests.conftest import TabletClient

pytestmark = pytest.mark.django_db
User = get_user_model()
ROOT = Path(__file__).resolve().parents[2]
PASSWORD = "correct horse battery staple"


def console(user: Any = None) -> tuple[APIClient, str]:
    client = APIClient(enforce_csrf_checks=True)
    if user is not None:
        client.force_login(user)
    csrf = client.get("/api/v1/auth/csrf/").json()["csrf_token"]
    return client, csrf


def post(client: APIClient, csrf: str, path: str, body: Any, **headers: str) -> Any:
    return client.post(
        path,
        body,
        format="json",
        HTTP_X_CSRFTOKEN=csrf,
        HTTP_IDEMPOTENCY_KEY=str(uuid.uuid4()),
        **headers,
    )


# --- device tokens ----------------------------------------------------------------------------


def test_a_device_token_is_stored_hashed_and_shown_once(nlh_table: int) -> None:
    floor = User.objects.create_user("floor", password=PASSWORD)
    StaffProfile.objects.create(user=floor, role=Role.FLOOR)
    client, csrf = console(floor)
    registered = post(client, csrf, "/api/v1/devices/", {"name": "tab-9", "table_id": nlh_table})
    assert registered.status_code == 201, registered.json()
    token = registered.json()["token"]
    assert len(token) == 64
    # the database holds the hash, never the token
    with connection.cursor() as cursor:
        cursor.execute("SELECT * FROM casino_device WHERE name = 'tab-9'")
        row = cursor.fetchone()
    assert token not in [str(v) for v in row]
    assert hashlib.sha256(token.encode()).hexdigest() in [str(v) for v in row]
    assert Device.objects.get(name="tab-9").token is None  # read back: no plain token
    # the token works, and no later answer shows it again
    tablet = APIClient()
    tablet.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    assert tablet.get(f"/api/v1/tables/{nlh_table}/").status_code == 200
    listing = client.get("/api/v1/devices/")
    assert token not in listing.content.decode() and "token_hash" not in listing.content.decode()
    assert hash_token(token) not in listing.content.decode()
    # nor does the idempotency record of the registration
    assert not any(token in str(r.response) for r in CommandRecord.objects.all())


def test_a_token_that_is_only_the_stored_hash_is_refused(nlh_table: int) -> None:
    device = Device.objects.create(name="tab", role=Role.DEALER, table_id=nlh_table)
    thief = APIClient()
    thief.credentials(HTTP_AUTHORIZATION=f"Token {device.token_hash}")
    assert thief.get(f"/api/v1/tables/{nlh_table}/").status_code == 401


def test_revocation_takes_effect_at_once_here_and_within_the_cache_time(
    nlh_table: int, settings: Any
) -> None:
    from casino import auth

    settings.DEVICE_TOKEN_CACHE_SECONDS = 60.0
    floor = User.objects.create_user("floor", password=PASSWORD)
    StaffProfile.objects.create(user=floor, role=Role.FLOOR)
    device = Device.objects.create(name="tab", role=Role.DEALER, table_id=nlh_table)
    assert device.token is not None
    tablet = APIClient()
    tablet.credentials(HTTP_AUTHORIZATION=f"Token {device.token}")
    assert tablet.get(f"/api/v1/tables/{nlh_table}/").status_code == 200
    assert hash_token(device.token) in auth._recent  # cached by hash, not by token
    assert device.token not in auth._recent
    client, csrf = console(floor)
    assert tablet.get(f"/api/v1/tables/{nlh_table}/").status_code == 200
    revoked = post(client, csrf, f"/api/v1/devices/{device.pk}/revoke/", None)
    assert revoked.status_code == 200, revoked.json()
    assert tablet.get(f"/api/v1/tables/{nlh_table}/").status_code == 401


def test_tokens_are_compared_in_constant_time(monkeypatch: pytest.MonkeyPatch) -> None:
    """The look-up is by hash; the hashes are compared again with hmac.compare_digest."""
    from casino import auth

    device = Device.objects.create(name="tab", role=Role.ADMIN)
    assert device.token is not None
    compared: list[tuple[str, str]] = []
    real = auth.hmac.compare_digest

    def spy(a: Any, b: Any) -> bool:
        compared.append((a, b))
        return real(a, b)

    monkeypatch.setattr(auth.hmac, "compare_digest", spy)
    auth._recent.clear()
    assert auth._device_for(device.token) == device
    assert compared == [(device.token_hash, hash_token(device.token))]


def test_the_migration_hashes_existing_tokens(transactional_db: None) -> None:
    executor = MigrationExecutor(connection)
    executor.migrate([("casino", "0002_staff_and_device_audit")])
    old = executor.loader.project_state([("casino", "0002_staff_and_device_audit")]).apps
    token = "ab" * 32
    old.get_model("casino", "Device").objects.create(name="old-tab", role="dealer", token=token)
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())
    device = Device.objects.get(name="old-tab")
    assert device.token_hash == hashlib.sha256(token.encode()).hexdigest()
    from casino.auth import _device_for, _recent

    _recent.clear()
    assert _device_for(token) == device  # the tablet keeps working with its token


def test_up_prints_fresh_demo_tokens_and_the_old_ones_stop_working(db: None) -> None:
    from tables.demo import ensure_demo_room

    _, admin = ensure_demo_room()
    first = admin.token
    _, again_admin = ensure_demo_room()
    assert again_admin.token != first and again_admin.token is not None
    from casino.auth import _device_for, _recent

    _recent.clear()
    assert _device_for(first) is None
    assert _device_for(again_admin.token) == again_admin


def test_up_reinstates_a_revoked_demo_device_so_its_printed_tokens_work(db: None) -> None:
    """Staff revoked the demo admin (or a fuzzer did, through the API): the next ``up``
    must still print tokens that authenticate, and the revoked token stays dead."""
    from casino.auth import _device_for, _recent
    from tables.demo import ensure_demo_room

    dealer, admin = ensure_demo_room()
    old = admin.token
    Device.objects.filter(pk__in=[dealer.pk, admin.pk]).update(revoked=True)
    _recent.clear()
    again_dealer, again_admin = ensure_demo_room()
    assert again_admin.reinstated and again_dealer.reinstated
    assert _device_for(again_admin.token or "") == again_admin
    assert _device_for(again_dealer.token or "") == again_dealer
    assert _device_for(old or "") is None
    _, third = ensure_demo_room()
    assert not third.reinstated


def test_conftest_tablet_uses_the_token_returned_at_creation(tablet: TabletClient) -> None:
    assert tablet.device.token is not None
    assert tablet.get("/api/v1/auth/me/").json()["kind"] == "device"


# --- login throttling ----------------------------------------------------------------------------


def test_logins_are_throttled_per_user_after_repeated_failures(settings: Any) -> None:
    settings.AXES_FAILURE_LIMIT = 3
    user = User.objects.create_user("cashier", password=PASSWORD)
    StaffProfile.objects.create(user=user, role=Role.CASHIER)
    client, csrf = console()
    for _ in range(2):
        wrong = post(client, csrf, "/api/v1/auth/login/", {"username": "cashier", "password": "x"})
        assert wrong.status_code == 400, wrong.json()
    third = post(client, csrf, "/api/v1/auth/login/", {"username": "cashier", "password": "x"})
    assert third.status_code == 429, third.content  # the failure that reaches the limit
    right = {"username": "cashier", "password": PASSWORD}
    locked = post(client, csrf, "/api/v1/auth/login/", right)
    assert locked.status_code == 429, locked.content
    body = locked.json()
    assert body["code"] == "too_many_login_failures" and body["rule"] is None
    # from another address too: the account is locked
    other, other_csrf = console()
    elsewhere = post(other, other_csrf, "/api/v1/auth/login/", right, REMOTE_ADDR="10.0.0.9")
    assert elsewhere.status_code == 429


def test_logins_are_throttled_per_address(settings: Any) -> None:
    settings.AXES_FAILURE_LIMIT = 3
    for name in ("a", "b", "c", "d"):
        user = User.objects.create_user(name, password=PASSWORD)
        StaffProfile.objects.create(user=user, role=Role.FLOOR)
    client, csrf = console()
    for name in ("a", "b"):  # one failure each: no user reaches the limit
        wrong = post(client, csrf, "/api/v1/auth/login/", {"username": name, "password": "x"})
        assert wrong.status_code == 400
    third = post(client, csrf, "/api/v1/auth/login/", {"username": "c", "password": "x"})
    assert third.status_code == 429  # the address reached the limit
    locked = post(client, csrf, "/api/v1/auth/login/", {"username": "d", "password": PASSWORD})
    assert locked.status_code == 429, locked.content
    # another address may still log in as d
    other, other_csrf = console()
    fine = post(
        other,
        other_csrf,
        "/api/v1/auth/login/",
        {"username": "d", "password": PASSWORD},
        REMOTE_ADDR="10.0.0.7",
    )
    assert fine.status_code == 200, fine.content


def test_a_successful_login_is_not_throttled(settings: Any) -> None:
    settings.AXES_FAILURE_LIMIT = 3
    user = User.objects.create_user("floor", password=PASSWORD)
    StaffProfile.objects.create(user=user, role=Role.FLOOR)
    for _ in range(5):
        client, csrf = console()
        ok = post(client, csrf, "/api/v1/auth/login/", {"username": "floor", "password": PASSWORD})
        assert ok.status_code == 200


# --- passwords -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "password", ["short", "12345678901234", "password1234", "newcashier-2"], ids=str
)
def test_staff_passwords_go_through_the_validators(password: str) -> None:
    admin = User.objects.create_superuser("root", password=PASSWORD)
    client, csrf = console(admin)
    before = User.objects.count()
    created = post(
        client,
        csrf,
        "/api/v1/staff/",
        {"username": "newcashier", "password": password, "role": "cashier"},
    )
    assert created.status_code == 400, created.json()
    assert "password" in created.json()["errors"]
    assert User.objects.count() == before
    target = User.objects.create_user("target", password=PASSWORD)
    changed = client.patch(
        f"/api/v1/staff/{target.pk}/",
        {"password": password.replace("newcashier", "target")},
        format="json",
        HTTP_X_CSRFTOKEN=csrf,
        HTTP_IDEMPOTENCY_KEY=str(uuid.uuid4()),
    )
    assert changed.status_code == 400
    target.refresh_from_db()
    assert target.check_password(PASSWORD)


@pytest.mark.parametrize("password", [-(2**63), 918273645501234567, True, ["plum orchard 47"]])
def test_a_password_is_a_json_string(password: Any) -> None:
    """Found by fuzzing: a JSON number was turned into text and set as the password."""
    admin = User.objects.create_superuser("root", password=PASSWORD)
    client, csrf = console(admin)
    body = {"username": "newcashier", "password": password, "role": "cashier"}
    created = post(client, csrf, "/api/v1/staff/", body)
    assert created.status_code == 400 and "password" in created.json()["errors"], created.json()
    assert not User.objects.filter(username="newcashier").exists()
    target = User.objects.create_user("target", password=PASSWORD)
    changed = client.patch(
        f"/api/v1/staff/{target.pk}/", {"password": password}, format="json",
        HTTP_X_CSRFTOKEN=csrf, HTTP_IDEMPOTENCY_KEY=str(uuid.uuid4()),
    )  # fmt: skip
    assert changed.status_code == 400
    target.refresh_from_db()
    assert target.check_password(PASSWORD)


def test_a_taken_username_is_refused_and_a_retry_gets_the_first_answer() -> None:
    admin = User.objects.create_superuser("root", password=PASSWORD)
    client, csrf = console(admin)
    body = {"username": "newcashier", "password": "plum orchard 47 lanterns", "role": "cashier"}

    def create(key: str) -> Any:
        return client.post("/api/v1/staff/", body, format="json", HTTP_X_CSRFTOKEN=csrf,
                           HTTP_IDEMPOTENCY_KEY=key)  # fmt: skip

    first = create("staff-1")
    assert first.status_code == 201, first.json()
    retry = create("staff-1")  # the same request again (a lost answer): the first answer
    assert (retry.status_code, retry.json()["username"]) == (201, "newcashier")
    taken = create("staff-2")  # another request for the same name
    assert (taken.status_code, taken.json()["code"]) == (409, "username_taken")
    assert User.objects.filter(username="newcashier").count() == 1
    body["username"] = "NewCashier"  # the same name to the floor (found by fuzzing)
    assert create("staff-3").json()["code"] == "username_taken"
    body["username"] = "new cashier/<b>"  # not a username by Django's rule
    odd = create("staff-4")
    assert (odd.status_code, odd.json()["code"]) == (400, "invalid_request")
    assert User.objects.filter(username__iexact="newcashier").count() == 1


def test_a_strong_staff_password_is_accepted() -> None:
    admin = User.objects.create_superuser("root", password=PASSWORD)
    client, csrf = console(admin)
    created = post(
        client,
        csrf,
        "/api/v1/staff/",
        {"username": "newcashier", "password": "plum orchard 47 lanterns", "role": "cashier"},
    )
    assert created.status_code == 201, created.json()


# --- DEBUG, SECRET_KEY, check --deploy -----------------------------------------------------------


def _env(**changes: str) -> dict[str, str]:
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("DEBUG", "SECRET_KEY") and not k.startswith("SECURE_")
    }
    return env | changes


def _run(code: str, **changes: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=_env(**changes), capture_output=True, text=True
    )


def test_debug_is_off_unless_asked_for() -> None:
    code = "import django, os; os.environ.setdefault('DJANGO_SETTINGS_MODULE','casino.settings');"
    code += "from django.conf import settings; print(settings.DEBUG)"
    assert _run(code).stdout.strip() == "False"
    assert _run(code, DEBUG="true").stdout.strip() == "True"


def test_serving_refuses_the_builtin_secret_key_without_debug() -> None:
    code = "import casino.asgi"
    refused = _run(code)
    assert refused.returncode != 0
    last = refused.stderr.strip().splitlines()[-1]
    assert last.startswith("django.core.exceptions.ImproperlyConfigured: SECRET_KEY is the"), last
    assert _run(code, SECRET_KEY="a-real-secret-" + "x" * 50).returncode == 0, refused.stderr
    for weak in ("short", "x" * 60):  # too short; too few different characters (found by QA)
        refused = _run(code, SECRET_KEY=weak)
        last = refused.stderr.strip().splitlines()[-1]
        assert "SECRET_KEY is too weak" in last, (weak, last)
    assert _run(code, DEBUG="true", SECRET_KEY="short").returncode == 0
    assert _run(code, DEBUG="true").returncode == 0


def test_check_deploy_is_clean_for_production_settings() -> None:
    secret = "prod-" + uuid.uuid4().hex + uuid.uuid4().hex
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env=_env(DEBUG="false", SECRET_KEY=secret),
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout, result.stdout
    builtin = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy"],
        cwd=ROOT,
        env=_env(DEBUG="false"),
        capture_output=True,
        text=True,
    )
    assert builtin.returncode != 0 and "casino.E001" in builtin.stdout + builtin.stderr


def test_production_defaults_are_secure() -> None:
    code = "import os; os.environ.setdefault('DJANGO_SETTINGS_MODULE','casino.settings');"
    code += "from django.conf import settings as s;"
    code += "print(s.SECURE_SSL_REDIRECT, s.SESSION_COOKIE_SECURE, s.CSRF_COOKIE_SECURE,"
    code += " s.SECURE_HSTS_SECONDS > 0)"
    assert _run(code).stdout.split() == ["True", "True", "True", "True"]
    assert _run(code, DEBUG="true").stdout.split() == ["False", "False", "False", "False"]
