"""A refusal's ``detail`` in the console's language (casino/api/error_texts.py): the Czech
sentence with the numbers grouped the Czech way, the English one unchanged, and English
whenever no registered sentence says exactly what the rule raised."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.utils import translation
from rest_framework.test import APIClient

from casino.api.error_texts import localized_detail, placeholders, registered_details
from casino.api.errors import exception_handler
from casino.errors import DomainError, NotFound
from casino.models import Device
from tests.conftest import NLH_10_20, TabletClient

ROOT = Path(__file__).resolve().parents[2]
APPS = ("casino", "tables", "cashgame", "tournaments", "waitlist")
NBSP = "\xa0"  # Czech groups thousands with a non-breaking space


@pytest.fixture(autouse=True)
def _back_to_the_default_language() -> Iterator[None]:
    """LocaleMiddleware leaves the request's language active in the thread: reset it."""
    yield
    translation.deactivate()


def _table(tablet: TabletClient) -> int:
    r = tablet.post("/api/v1/tables/", NLH_10_20)
    assert r.status_code == 201, r.json()
    return int(r.json()["table_id"])


def _seat(tablet: TabletClient, table_id: int, player: Any, seat: int, buy_in: int) -> None:
    body = {"player_id": player.id, "seat": seat, "buy_in": buy_in}
    assert tablet.post(f"/api/v1/tables/{table_id}/seats/", body).status_code == 201


# --- over the API ----------------------------------------------------------------------


def test_top_up_above_the_maximum_in_czech_and_in_english(
    tablet: TabletClient, players: list
) -> None:
    table_id = _table(tablet)
    _seat(tablet, table_id, players[0], 1, 1000)
    url = f"/api/v1/tables/{table_id}/seats/1/top-up/"

    czech = tablet.post(url, {"amount": 4001}, **{"Accept-Language": "cs"})
    assert czech.status_code == 422
    body = czech.json()
    assert body["detail"] == f"Dokup smí stack zvýšit nejvýše na 5{NBSP}000."
    # the shape and the raw numbers do not change with the language
    assert (body["code"], body["rule"], body["stack"], body["buy_in_max"]) == (
        "top_up_above_maximum", "BI-3", 1000, 5000)  # fmt: skip
    assert body["amount"] == 4001

    english = tablet.post(url, {"amount": 4001}, **{"Accept-Language": "en"}).json()
    # grouped as the screens show amounts ("5000" beside "5,000" on the page: QA)
    assert english["detail"] == "A top-up may bring the stack to at most 5,000."
    assert {k: v for k, v in english.items() if k != "detail"} == {
        k: v for k, v in body.items() if k != "detail"
    }
    assert tablet.post(url, {"amount": 4001}).json()["detail"] == english["detail"]


def test_raise_below_the_minimum_on_a_hand_in_czech(tablet: TabletClient, players: list) -> None:
    table_id = _table(tablet)
    for i, seat in enumerate((1, 2, 3)):
        _seat(tablet, table_id, players[i], seat, 1000)
    hand = tablet.post(f"/api/v1/tables/{table_id}/hands/", {"button_seat": 1}).json()
    r = tablet.post(
        f"/api/v1/hands/{hand['hand_id']}/actions/",
        {"seat": 1, "action": "raise", "amount_to": 30},
        **{"Accept-Language": "cs-CZ,cs;q=0.9,en;q=0.5"},
    )
    assert r.status_code == 422
    assert (r.json()["code"], r.json()["min_raise_to"]) == ("raise_below_minimum", 40)
    assert r.json()["detail"] == "Nejmenší navýšení je do 40."


def test_cage_redemption_over_the_holdings_in_czech_by_the_language_cookie(
    tablet: TabletClient, players: list
) -> None:
    cashier = TabletClient(Device.objects.create(name="cage", role=Device.Role.CASHIER))
    cashier.http.cookies["django_language"] = "cs"
    a = players[0]
    table_id = _table(tablet)
    sale = cashier.post("/api/v1/cage/sales/", {"player_id": a.id, "amount": 3000})
    assert sale.status_code == 201, sale.json()
    tablet.post(f"/api/v1/tables/{table_id}/seats/",
                {"player_id": a.id, "seat": 1, "buy_in": 1000, "paid_with": "chips"})  # fmt: skip
    r = cashier.post("/api/v1/cage/redemptions/", {"player_id": a.id, "amount": 2001})
    assert r.status_code == 422
    assert (r.json()["code"], r.json()["held"]) == ("redemption_exceeds_holdings", 2000)
    assert r.json()["detail"] == (
        f"Podle záznamů má hráč mimo stoly žetony za 2{NBSP}000 Kč; víc může s odůvodněním "
        "schválit floor (konzole flooru)."
    )


def test_a_code_without_a_czech_sentence_stays_english(tablet: TabletClient, players: list) -> None:
    """Its sentence names the seats dealt in, which its context does not carry."""
    assert "button_seat_not_in_hand" not in registered_details()
    table = _table(tablet)
    _seat(tablet, table, players[0], 1, 1000)
    _seat(tablet, table, players[1], 2, 1000)
    r = tablet.post(
        f"/api/v1/tables/{table}/hands/", {"button_seat": 5}, **{"Accept-Language": "cs"}
    )
    assert (r.status_code, r.json()["code"]) == (422, "button_seat_not_in_hand")
    assert r.json()["detail"] == "The button must be on a seat dealt in: [1, 2]."


def test_the_login_and_show_poker_refusals_in_czech(tablet: TabletClient) -> None:
    """A Czech console showed "Wrong username or password." and other refusals in English:
    their codes had no Czech sentence (found by QA)."""
    table = tablet.post("/api/v1/tables/", {**NLH_10_20, "name": "x"}).json()["table_id"]
    r = tablet.post(
        f"/api/v1/tables/{table}/show-hands/", {"button_seat": 1}, **{"Accept-Language": "cs"}
    )
    assert (r.status_code, r.json()["code"]) == (422, "not_show_poker")
    assert r.json()["detail"] == "U tohoto stolu se nerozdává Show poker."
    login = APIClient(enforce_csrf_checks=False)
    r = login.post("/api/v1/auth/login/", {"username": "nobody", "password": "wrong-password"},
                   format="json", HTTP_ACCEPT_LANGUAGE="cs")  # fmt: skip
    assert (r.status_code, r.json()["code"]) == (400, "invalid_credentials")
    assert r.json()["detail"] == "Nesprávné uživatelské jméno nebo heslo."


def test_a_sentence_without_its_template_stays_english(tablet: TabletClient) -> None:
    """A refusal naming two problems of a table has no template, though the code has one
    for the buy-in limits alone: it is not half translated."""
    body = {"name": "x", "game": "PLO", "small_blind": 30, "big_blind": 60}
    limits = {"buy_in_min": 500, "buy_in_max": 100}
    r = tablet.post("/api/v1/tables/", {**body, **limits}, **{"Accept-Language": "cs"})
    assert (r.status_code, r.json()["code"]) == (422, "invalid_table_config")
    assert r.json()["detail"] == "Minimální buy-in musí být alespoň 1 a nejvýše maximální."
    r = tablet.post("/api/v1/tables/", {**body, **limits, "small_blind": 90},
                    **{"Accept-Language": "cs"})  # fmt: skip
    assert r.json()["detail"].startswith("blinds must satisfy")


def test_field_errors_and_missing_ids_in_czech(tablet: TabletClient) -> None:
    """A Czech cashier read "The request is not valid." and "A whole number is required (a
    JSON integer)." in English beside DRF's own Czech messages, and "There is no player
    99999." (found by QA)."""
    url = "/api/v1/cage/sales/"
    cs = {"Accept-Language": "cs"}
    text = tablet.post(url, {"player_id": 1, "amount": "abc"}, **cs).json()
    assert (text["code"], text["detail"]) == ("not_an_integer", "Požadavek není platný.")
    assert text["errors"] == {"amount": ["Je třeba celé číslo (celé číslo JSON)."]}
    extra = tablet.post(url, {"player_id": 1, "amount": 5, "tip": 1}, **cs).json()
    assert extra["errors"] == {"tip": ["Tato operace toto pole nepřijímá."]}
    nobody = tablet.post(url, {"player_id": 99999, "amount": 5}, **cs)
    assert (nobody.status_code, nobody.json()["detail"]) == (404, "Hráč 99999 neexistuje.")
    no_table = tablet.get("/api/v1/tables/99999/seat-check/?player_id=1")
    assert no_table.json()["detail"] == "There is no table 99999."  # English stays English
    english = tablet.post(url, {"player_id": 1, "amount": "abc"}).json()
    assert english["errors"] == {"amount": ["A whole number is required (a JSON integer)."]}


# --- the handler itself ------------------------------------------------------------------


def _detail(exc: DomainError, language: str = "cs") -> str:
    with translation.override(language):
        response = exception_handler(exc, {})
    assert response is not None
    return str(response.data["detail"])


def _top_up(**context: Any) -> DomainError:
    return DomainError(
        "top_up_above_maximum",
        "A top-up may bring the stack to at most 5000.",
        rule="BI-3",
        **context,
    )


def test_the_handler_translates_a_domain_error_and_keeps_the_shape() -> None:
    exc = _top_up(buy_in_max=5000, stack=1000)
    with translation.override("cs"):
        response = exception_handler(exc, {})
    assert response is not None and response.status_code == 422
    assert response.data == {
        "code": "top_up_above_maximum",
        "rule": "BI-3",
        "detail": f"Dokup smí stack zvýšit nejvýše na 5{NBSP}000.",
        "buy_in_max": 5000,
        "stack": 1000,
    }
    assert _detail(exc, "en") == "A top-up may bring the stack to at most 5,000."


def test_a_placeholder_missing_from_the_context_falls_back_to_english() -> None:
    assert _detail(_top_up(stack=1000)) == "A top-up may bring the stack to at most 5000."


def test_a_sentence_that_is_not_the_raised_one_falls_back_to_english() -> None:
    # the maximum raised (a returning player's higher ceiling) is not the context's buy_in_max
    exc = DomainError(
        "buy_in_above_maximum",
        "The maximum buy-in at this table is 8000.",
        rule="BI-3",
        buy_in_max=5000,
    )
    assert _detail(exc) == "The maximum buy-in at this table is 8000."
    renamed = _top_up(buy_in_max=5000)
    renamed.detail = "A top-up may bring the stack up to 5000 at most."
    assert _detail(renamed) == renamed.detail


def test_subclasses_are_translated_and_identifiers_are_not_grouped() -> None:
    exc = NotFound("not_on_list", "Player 12345 is not on this list.", player_id=12345)
    assert _detail(exc) == "Hráč 12345 na této listině není."
    seated = DomainError(
        "player_seated_elsewhere",
        "The player already has a seat at table 1001.",
        rule="BI-10",
        table_id=1001,
    )
    assert _detail(seated) == "Hráč už má místo u stolu 1001."
    assert localized_detail("not_on_list", "x", {"player_id": 1}) == "x"


def test_a_code_raised_with_several_sentences_gets_the_matching_one() -> None:
    for detail, czech in [
        ("The previous hand is not finished.", "Předchozí handa ještě neskončila."),
        ("The next shuffle starts after the hand.", "Další míchání začíná až po handě."),
    ]:
        assert _detail(DomainError("hand_in_progress", detail)) == czech


# --- the registry against the source and the catalogues ----------------------------------


def _source_strings() -> tuple[set[str], list[re.Pattern[str]]]:
    """Every string literal in the apps' code (not the registrations themselves), and each
    literal or f-string as a pattern whose fields match any text."""
    literals: set[str] = set()
    patterns: list[re.Pattern[str]] = []
    for app in APPS:
        for path in (ROOT / app).rglob("*.py"):
            if "migrations" in path.parts or path.name == "error_texts.py":
                continue
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.Constant) and isinstance(node.value, str):
                    literals.add(node.value)
                    patterns.append(re.compile(re.escape(node.value)))
                elif isinstance(node, ast.JoinedStr):
                    parts = [
                        re.escape(v.value) if isinstance(v, ast.Constant) else ".+?"
                        for v in node.values
                    ]
                    patterns.append(re.compile("".join(parts), re.DOTALL))
    return literals, patterns


def _english(template: Any) -> str:
    with translation.override(None):
        return str(template)


def test_every_registered_code_and_sentence_is_raised_somewhere() -> None:
    """A renamed code, or a reworded detail without its template, fails here."""
    literals, patterns = _source_strings()
    registered = registered_details()
    assert len(registered) >= 40
    assert not sorted(code for code in registered if code not in literals)
    unraised = []
    for templates in registered.values():
        for template in templates:
            sample = re.sub(r"%\((\w+)\)s", "\x00", _english(template))
            if not any(p.fullmatch(sample) for p in patterns):
                unraised.append(_english(template))
    assert not unraised


def test_every_registered_sentence_has_a_czech_translation_with_its_placeholders() -> None:
    untranslated = []
    for templates in registered_details().values():
        for template in templates:
            english = _english(template)
            with translation.override("cs"):
                czech = str(template)
            if not czech or czech == english:
                untranslated.append(english)
            assert set(re.findall(r"%\((\w+)\)s", czech)) == placeholders(template), english
    assert not untranslated


def test_a_short_password_is_refused_in_czech() -> None:
    """Django 6 asks for its too-short sentence with ``%d``, which its Czech catalogue does
    not have: a Czech console showed that one sentence of the refusal in English (QA)."""
    from django.contrib.auth.password_validation import validate_password
    from django.core.exceptions import ValidationError

    with translation.override("cs"), pytest.raises(ValidationError) as refused:
        validate_password("abc")
    assert "Heslo je příliš krátké. Musí mít délku aspoň 10 znaků." in refused.value.messages


def test_a_list_for_a_game_no_table_deals_is_refused_in_czech(tablet: TabletClient) -> None:
    """The games allowed are the refusal's context (``allowed``), so its Czech sentence
    names them from where the domain lists them, not from a copy (QA: it was English)."""
    r = tablet.post(
        "/api/v1/waitlists/",
        {"game": "XYZ", "small_blind": 10, "big_blind": 20},
        **{"Accept-Language": "cs"},
    )
    assert (r.status_code, r.json()["code"]) == (422, "unknown_game")
    assert r.json()["allowed"] == "NLH, PLO, FLH, SHOW"
    assert r.json()["detail"] == (
        "Čekací listina nebo listina pro změnu stolu je jen pro hru, kterou stoly rozdávají: "
        "NLH, PLO, FLH, SHOW (zájmová listina smí uvést jakoukoli)."
    )
