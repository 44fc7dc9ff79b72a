"""Exported PHH replays to the same finishing stacks (the round trip on shared hands)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from casino.eventstore import store
from casino.models import Device
from tables.models import HandView
from tables.phh import check_finishing_stacks, load_phh
from tables.phh_export import NotExportable, to_phh, to_pokerstars
from tables.replay import InProcessApi, discover, replay_files

PHH = Path(__file__).resolve().parents[3] / "shared" / "phh"
SAMPLE = [
    PHH / "pluribus" / "102" / "0.phh",
    *sorted((PHH / "wsop-2023-43").glob("*.phh"))[:4],  # antes, PLO
    *discover([PHH / "pluribus" / "30"])[:6],
]


@pytest.mark.skipif(not PHH.is_dir(), reason="shared/phh is not beside the repo")
@pytest.mark.django_db
def test_exported_hands_replay_to_the_same_finishing_stacks(tmp_path: Path) -> None:
    dealer = Device.objects.create(name="export-tablet", role=Device.Role.ADMIN)
    api = InProcessApi(dealer.token)
    first = list(replay_files(api, SAMPLE))
    assert all(o.matched for o in first), [o.error for o in first if not o.matched]

    exported = []
    for hand in HandView.objects.order_by("started_at"):
        events = [r.event for r in store.read_stream(f"hand-{hand.hand_id}")]
        path = tmp_path / f"{hand.hand_id}.phh"
        path.write_text(to_phh(events))
        exported.append(path)
    assert len(exported) == len(SAMPLE)
    again = list(replay_files(api, exported))
    failed = [f"{o.source}: {o.error}" for o in again if not o.matched]
    assert not failed, "\n".join(failed)
    assert len(again) == len(exported) and sum(o.actions for o in again) > 50
    # the same stacks as the original files, player by player (half chips: the odd chip)
    for original, copy in zip(SAMPLE, exported, strict=True):
        expected = dict(enumerate(load_phh(original).finishing_stacks, start=1))
        actual = {i: int(v) for i, v in enumerate(load_phh(copy).finishing_stacks, start=1)}
        assert check_finishing_stacks(expected, actual) == [], original


def test_an_unsettled_hand_is_not_exported() -> None:
    with pytest.raises(NotExportable):
        to_phh([])


def test_a_hand_is_downloaded_as_phh(tablet: object, nlh_table: int, players: list) -> None:
    from tests.play import play_random_hand

    for seat, player in enumerate(players[:3], start=1):
        body = {"seat": seat, "player_id": player.pk, "buy_in": 2000}
        assert tablet.post(f"/api/v1/tables/{nlh_table}/seats/", body).status_code == 201  # type: ignore[attr-defined]
    hand = play_random_hand(tablet, nlh_table, [99] * 50)  # type: ignore[arg-type]
    response = tablet.get(f"/api/v1/hands/{hand['hand_id']}/phh/")  # type: ignore[attr-defined]
    assert response.status_code == 200
    text = response.content.decode()
    assert "variant = 'NT'" in text and "finishing_stacks = [" in text
    stars = tablet.get(f"/api/v1/hands/{hand['hand_id']}/pokerstars/")  # type: ignore[attr-defined]
    assert stars.status_code == 200
    history = stars.content.decode()
    assert history.startswith("PokerStars Hand #1: Hold'em No Limit (10/20 CZK) - ")
    assert "posts small blind 10" in history and "posts big blind 20" in history
    assert "*** HOLE CARDS ***" in history and "*** SUMMARY ***" in history
    assert " collected " in history
    events = [r.event for r in store.read_stream(f"hand-{hand['hand_id']}")]
    as_tournament = [replace(e, mode="tournament") if e is events[0] else e for e in events]
    heading = to_pokerstars(as_tournament).splitlines()[0]
    assert heading == "PokerStars Hand #1: Hold'em No Limit (10/20)"  # chips, not CZK (QA)
    missing = tablet.get("/api/v1/hands/00000000-0000-0000-0000-000000000000/phh/")  # type: ignore[attr-defined]
    assert missing.status_code == 404


def test_a_range_of_hands_downloads_as_replayable_phh_and_as_one_pokerstars_file(
    tablet: object, nlh_table: int, players: list, tmp_path: Path, monkeypatch: object
) -> None:
    import io
    import zipfile

    from tables import hand_list
    from tests.play import play_random_hand

    for seat, player in enumerate(players[:3], start=1):
        body = {"seat": seat, "player_id": player.pk, "buy_in": 2000}
        assert tablet.post(f"/api/v1/tables/{nlh_table}/seats/", body).status_code == 201  # type: ignore[attr-defined]
    for n in range(4):
        play_random_hand(tablet, nlh_table, [7 + n] * 50)  # type: ignore[arg-type]
    url = f"/api/v1/tables/{nlh_table}/hands/export/"
    ranged = "hand_number_from=2&hand_number_to=4"
    zipped = tablet.get(f"{url}?export_format=phh&{ranged}")  # type: ignore[attr-defined]
    assert zipped.status_code == 200, zipped.content[:300]
    assert (zipped["Content-Type"], zipped["X-Hands"]) == ("application/zip", "3")
    with zipfile.ZipFile(io.BytesIO(zipped.content)) as archive:
        names = sorted(archive.namelist())
        assert [n.split("/")[-1][:6] for n in names] == ["000002", "000003", "000004"]
        files = []
        for name in names:
            path = tmp_path / name.split("/")[-1]
            path.write_bytes(archive.read(name))
            files.append(path)
    dealer = Device.objects.create(name="range-replay", role=Device.Role.ADMIN)
    again = list(replay_files(InProcessApi(dealer.token), files))
    assert [o.matched for o in again] == [True, True, True], [o.error for o in again]
    text = tablet.get(f"{url}?export_format=pokerstars&{ranged}").content.decode()  # type: ignore[attr-defined]
    assert [line.split(":")[0] for line in text.splitlines() if line.startswith("PokerStars")] == [
        "PokerStars Hand #2", "PokerStars Hand #3", "PokerStars Hand #4"]  # fmt: skip
    no_format = tablet.get(url)  # type: ignore[attr-defined]
    assert (no_format.status_code, no_format.json()["code"]) == (400, "invalid_request")
    monkeypatch.setattr(hand_list, "EXPORT_MAX_HANDS", 2)  # type: ignore[attr-defined]
    big = tablet.get(f"{url}?export_format=phh")  # type: ignore[attr-defined]
    assert (big.status_code, big.json()["code"]) == (400, "export_range_too_large")
