"""Player search (``search_players``): the consoles find a player before a sale, a buy-in
or a registration."""

from __future__ import annotations

from urllib.parse import urlencode

from casino.models import Player
from tests.conftest import TabletClient


def test_search_by_name_nickname_or_id(tablet: TabletClient) -> None:
    jan = Player.objects.create(name="Jan Novák", nickname="Honza")
    eva = Player.objects.create(name="Eva Svobodová", nickname="")
    Player.objects.create(name="Petr Dvořák", nickname="")

    def found(q: str) -> list[int]:
        response = tablet.get(f"/api/v1/players/search/?q={q}")
        assert response.status_code == 200
        return [p["id"] for p in response.json()]

    assert found("nov") == [jan.id]
    assert found("HONZA") == [jan.id]
    assert found(str(eva.id)) == [eva.id]
    assert found("") == []  # no browsing the whole registry
    assert tablet.get("/api/v1/players/search/?q=eva").json() == [
        {"id": eva.id, "name": "Eva Svobodová", "nickname": ""}
    ]


def test_a_console_names_the_players_it_shows_by_id(tablet: TabletClient) -> None:
    a = Player.objects.create(name="Ann A", nickname="Ace")
    b = Player.objects.create(name="Bob B")
    answer = tablet.get(f"/api/v1/players/search/?ids={b.id},{a.id},999999").json()
    assert [(p["id"], p["name"]) for p in answer] == [(a.id, "Ann A"), (b.id, "Bob B")]
    # what is not a player id is refused, never skipped in silence (found by fuzzing)
    for ids in (f"{a.id},x", ",,,", "-1,0", f"{a.id}," * 501 + "1"):
        refused = tablet.get(f"/api/v1/players/search/?ids={ids}")
        assert (refused.status_code, refused.json()["code"]) == (400, "invalid_ids"), ids
    # two ways of searching at once: one was dropped in silence (found by QA)
    for both in (f"q=x&ids={a.id}", "q=x&name=y", f"name=y&ids={a.id}"):
        refused = tablet.get(f"/api/v1/players/search/?{both}")
        assert (refused.status_code, refused.json()["code"]) == (
            400, "conflicting_query_parameters"
        ), both  # fmt: skip


def test_a_search_with_a_control_character_is_refused_and_odd_digits_find_nobody(
    tablet: TabletClient,
) -> None:
    """Found by fuzzing: a NUL byte in ``q`` reached PostgreSQL (500), and ``"²"`` passed
    ``str.isdigit()`` then broke ``int()`` (500)."""
    ann = Player.objects.create(name="Ann A")
    refused = tablet.get("/api/v1/players/search/?q=a%00b")
    assert refused.status_code == 400, refused.content
    assert refused.json()["code"] == "forbidden_characters"
    for q in ("%C2%B2", "99999999999999999999", "%D9%A3"):  # ², 20 digits, Arabic-Indic 3
        response = tablet.get(f"/api/v1/players/search/?q={q}")
        assert (response.status_code, response.json()) == (200, []), q
    for odd in ("%C2%B2", "99999999999999999999"):
        answer = tablet.get(f"/api/v1/players/search/?ids={odd},{ann.id}")
        assert (answer.status_code, answer.json()["code"]) == (400, "invalid_ids")
    assert [p["id"] for p in tablet.get(f"/api/v1/players/search/?ids={ann.id}").json()] == [ann.id]


def test_search_ignores_case_and_accents_in_czech_names(tablet: TabletClient) -> None:
    """On SQLite (the embedded mode) "černý" did not find "Černý", and nobody types the
    accents: "novak" found no "Novák" either, so the cashier registered him twice (QA)."""
    karel = Player.objects.create(name="Karel Černý", nickname="Čert")
    jan = Player.objects.create(name="Jan Novák")

    def found(q: str) -> list[int]:
        return [p["id"] for p in tablet.get(f"/api/v1/players/search/?q={q}").json()]

    for q in ("černý", "ČERNÝ", "cerny", "CERNY", "čert", "cert"):
        assert found(q) == [karel.id], q
    assert found("novak") == found("NOVÁK") == [jan.id]
    jan.name = "Jan Dvořák"  # a renamed player is found by his new name only
    jan.save(update_fields=["name"])
    assert found("dvorak") == [jan.id] and found("novak") == []


def test_the_player_with_that_number_comes_first_and_is_never_cut_off(
    tablet: TabletClient,
) -> None:
    """ "20" listed #21 (nickname "nick20") above #20, and "7" left #7 out of the 20
    results when 22 nicknames held a 7: the director registered the wrong man (QA)."""
    seven = Player.objects.create(name="Sedmý Hráč")
    crowd = [
        Player.objects.create(name=f"Crowd {n}", nickname=f"n{seven.pk}x{n}") for n in range(22)
    ]
    found = [p["id"] for p in tablet.get(f"/api/v1/players/search/?q={seven.pk}").json()]
    assert found[0] == seven.pk and len(found) == 20
    assert set(found[1:]) <= {p.pk for p in crowd}


def test_the_players_registered_under_a_whole_name(tablet: TabletClient) -> None:
    """``?name=`` answers the cashier's question before a new player: is this name taken?
    As the search compares names (any case, with or without accents), the whole name only,
    never a nickname, and not cut off behind 20 players whose names merely contain it."""
    jan = Player.objects.create(name="Jan Novák", nickname="Honza")
    twin = Player.objects.create(name="JAN NOVAK")
    for n in range(25):
        Player.objects.create(name=f"Jan Novák {n}")  # contain the name, are not it
    Player.objects.create(name="Jan", nickname="Novák")  # his nickname is not his name
    Player.objects.create(name="Petr", nickname="Jan Novák")

    def same(name: str) -> list[int]:
        response = tablet.get(f"/api/v1/players/search/?{urlencode({'name': name})}")
        assert response.status_code == 200, response.content
        return [p["id"] for p in response.json()]

    assert same("jan novak") == same(" Jan Novák ") == [jan.id, twin.id]
    assert same("Jan Nov") == [] and same("") == []
    assert same("x" * 200) == []  # a name as long as a name may be
    refused = tablet.get("/api/v1/players/search/?name=Jan%00Nov%C3%A1k")
    assert refused.status_code == 400 and refused.json()["code"] == "forbidden_characters"


def test_a_cut_list_says_how_many_players_match_in_all(tablet: TabletClient) -> None:
    """The search lists 20; before, nothing said that 25 Nováks matched, so the cashier
    picked from the first 20 believing that was everyone (QA)."""
    novaks = [Player.objects.create(name=f"Jan Novák {n:02}") for n in range(25)]
    twins = [Player.objects.create(name="Petr Král") for _ in range(23)]
    cut = tablet.get("/api/v1/players/search/?q=novak")
    assert (len(cut.json()), cut["X-Total-Count"]) == (20, "25")
    whole = tablet.get("/api/v1/players/search/?q=novak 07")
    assert (len(whole.json()), whole["X-Total-Count"]) == (1, "1")
    nobody = tablet.get("/api/v1/players/search/?q=")
    assert (nobody.json(), nobody["X-Total-Count"]) == ([], "0")
    by_number = tablet.get(f"/api/v1/players/search/?q={novaks[3].id}")
    assert by_number.json()[0]["id"] == novaks[3].id
    assert int(by_number["X-Total-Count"]) == 1 + sum(
        str(novaks[3].id) in p.name for p in Player.objects.all()
    )
    same = tablet.get("/api/v1/players/search/?name=petr kral")
    assert [p["id"] for p in same.json()] == [p.id for p in twins[:20]]
    assert same["X-Total-Count"] == "23"
