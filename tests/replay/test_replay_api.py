"""Acceptance: shared PHH hands replayed through the public API match their final stacks.

The whole corpus runs through the pure engine in tests/tables/domain/test_phh.py and over
HTTP in CI (.ci/run); here a sample runs through the API, in-process and over real HTTP.
"""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from casino.models import Device
from tables.phh import load_phh, replay
from tables.replay import HttpApi, InProcessApi, discover, replay_files

PHH = Path(__file__).resolve().parents[3] / "shared" / "phh"
needs_corpus = pytest.mark.skipif(not PHH.is_dir(), reason="shared/phh is not beside the repo")

SAMPLE = [
    *sorted((PHH / "wsop-2023-43").glob("*.phh")),  # NLH with big-blind antes, PLO
    PHH / "pluribus" / "102" / "0.phh",  # odd chip: 10112.5 / 10112.5 in the file
    *discover([PHH / "pluribus" / "30"])[:20],
]


@pytest.fixture
def dealer(db: None) -> Device:
    return Device.objects.create(name="replay-tablet", role=Device.Role.ADMIN)


@needs_corpus
@pytest.mark.rule("SD-21")
def test_sample_replays_in_process(dealer: Device) -> None:
    outcomes = list(replay_files(InProcessApi(dealer.token), SAMPLE))
    failed = [f"{o.source}: {o.error}" for o in outcomes if not o.matched]
    assert not failed, "\n".join(failed)
    assert len(outcomes) == len(SAMPLE) == 39
    odd = next(o for o in outcomes if o.source.endswith("102/0.phh"))
    assert sorted(odd.reported.values()) == [9775, 10000, 10000, 10000, 10112, 10113]


@needs_corpus
@pytest.mark.django_db(transaction=True)
def test_sample_replays_over_http(live_server: object) -> None:
    dealer = Device.objects.create(name="http-tablet", role=Device.Role.ADMIN)
    api = HttpApi(str(live_server.url), dealer.token)  # type: ignore[attr-defined]
    outcomes = list(replay_files(api, SAMPLE[:25]))
    failed = [f"{o.source}: {o.error}" for o in outcomes if not o.matched]
    assert not failed, "\n".join(failed)
    assert sum(o.actions for o in outcomes) > 100


@needs_corpus
def test_a_wrong_finishing_stack_is_reported_as_a_mismatch(dealer: Device, tmp_path: Path) -> None:
    text = (PHH / "pluribus" / "102" / "0.phh").read_text()
    broken = tmp_path / "broken.phh"
    broken.write_text(text.replace("9775.0", "9776.0"))
    (outcome,) = replay_files(InProcessApi(dealer.token), [broken])
    assert not outcome.matched and outcome.error


@needs_corpus
def test_replay_command_prints_the_summary_and_fails_on_mismatch(
    dealer: Device,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    caplog: pytest.LogCaptureFixture,
) -> None:
    from django.core.management import call_command

    with caplog.at_level(logging.DEBUG):
        call_command("replay_phh", str(PHH / "wsop-2023-43"), "--in-process", "--token",
                     dealer.token, "--quiet")  # fmt: skip
    out = capsys.readouterr().out
    assert "replayed 18 hands: 18 matched, 0 mismatched" in out
    # the in-process API's request lines do not bury the summary (hundreds of requests)
    assert not [r for r in caplog.records if r.name.startswith("django_structlog")]
    assert "hands/s" in out and "actions/s" in out
    broken = tmp_path / "broken.phh"
    broken.write_text((PHH / "pluribus" / "102" / "0.phh").read_text().replace("9775.0", "1.0"))
    with pytest.raises(SystemExit) as exit_info:
        call_command("replay_phh", str(broken), "--in-process", "--token", dealer.token,
                     "--quiet")  # fmt: skip
    assert exit_info.value.code == 1


FL_DIR = Path(__file__).resolve().parents[1] / "tables" / "data" / "phh_fixed_limit"
FIXED_LIMIT = sorted(FL_DIR.glob("*.phh"))


@pytest.mark.rule("BET-6")
def test_fixed_limit_hands_replay_through_the_api(dealer: Device) -> None:
    outcomes = list(replay_files(InProcessApi(dealer.token), FIXED_LIMIT))
    failed = [f"{o.source}: {o.error}" for o in outcomes if not o.matched]
    assert not failed, "\n".join(failed)
    assert len(outcomes) == 3  # one of them raises four times heads-up (cash default BET-6)


@needs_corpus
def test_a_second_run_after_a_refused_request_gives_up_the_stuck_table(
    dealer: Device, tmp_path: Path
) -> None:
    """A hand refused mid-way leaves its table with that hand in play. A later run on the
    same server (a second ``replay_phh --api``) must not try to cash out that table's seats
    (BI-6 refuses it, which used to abort the whole run); it opens a fresh table instead."""
    text = (PHH / "pluribus" / "102" / "0.phh").read_text()
    refused = tmp_path / "refused.phh"
    # a raise below the minimum: the server refuses it with the hand already under way
    refused.write_text(text.replace("'p5 cbr 225'", "'p5 cbr 101'", 1))
    assert refused.read_text() != text
    api = InProcessApi(dealer.token)
    (first,) = replay_files(api, [refused])
    assert not first.matched and first.error and "422" in first.error
    again = list(replay_files(api, [PHH / "pluribus" / "102" / "0.phh", refused]))
    assert [o.matched for o in again] == [True, False]


ODD_CHIPS = Path(__file__).resolve().parents[1] / "tables" / "data" / "phh_odd_chips"


@pytest.mark.rule("SD-21")
def test_a_file_that_split_merged_pots_matches_with_the_house_odd_chips(dealer: Device) -> None:
    """Two tied players split four pots, two of them odd. The server splits each pot and
    gives its odd chip to the first winner left of the button (seat 3: 446, seat 4: 559);
    the file, from pokerkit, merged the pots first (445 and 560). The replay accepts the
    difference because the server's own split pots account for it, chip for chip."""
    (outcome,) = replay_files(InProcessApi(dealer.token), [ODD_CHIPS / "merged_split_pots.phh"])
    assert outcome.matched, outcome.error
    assert outcome.reported == {1: 0, 2: 0, 3: 446, 4: 559, 5: 287, 6: 22}


@needs_corpus
def test_a_phhs_file_of_several_hands_replays_each_of_them(
    dealer: Device, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """PHH's several-hands form (``.phhs``: ``[1]``, ``[2]`` ... as pokerkit's ``dump_all``
    writes it) is found in a folder beside ``.phh`` files and replayed hand by hand; a
    broken hand inside it is one failed outcome, and ``--limit`` counts hands."""
    from django.core.management import call_command

    wsop = sorted((PHH / "wsop-2023-43").glob("*.phh"))[:3]
    sections = [f"[{i}]\n{path.read_text()}" for i, path in enumerate(wsop, 1)]
    (tmp_path / "three.phhs").write_text("\n\n".join(sections))
    (tmp_path / "single.phh").write_text((PHH / "pluribus" / "102" / "0.phh").read_text())
    files = discover([tmp_path])
    assert [f.name for f in files] == ["single.phh", "three.phhs"]
    outcomes = list(replay_files(InProcessApi(dealer.token), files))
    assert [o.matched for o in outcomes] == [True] * 4, [o.error for o in outcomes]
    assert [o.source.rsplit("/", 1)[1] for o in outcomes[1:]] == [
        "three.phhs[1]",
        "three.phhs[2]",
        "three.phhs[3]",
    ]
    broken = (
        sections[1]
        .replace("variant = 'NT'", "variant = 'XX'")
        .replace("variant = 'PO'", "variant = 'XX'")
    )
    (tmp_path / "three.phhs").write_text("\n\n".join([sections[0], broken, sections[2]]))
    outcomes = list(replay_files(InProcessApi(dealer.token), [tmp_path / "three.phhs"]))
    assert [o.matched for o in outcomes] == [True, False, True]
    assert "unreadable" in (outcomes[1].error or "")
    call_command("replay_phh", str(tmp_path), "--in-process", "--token", dealer.token,
                 "--quiet", "--limit", "2")  # fmt: skip
    assert "replayed 2 hands: 2 matched, 0 mismatched" in capsys.readouterr().out


MUCK_THEN_SHOW = """\
variant = 'NT'
antes = [0, 0, 0]
blinds_or_straddles = [50, 100, 0]
min_bet = 100
starting_stacks = [10000, 10000, 10000]
actions = ['d dh p1 AcKd', 'd dh p2 9s9c', 'd dh p3 2c7d', 'p3 f', 'p1 cc', 'p2 cc',
           'd db Qs9c4s', 'p1 cc', 'p2 cc', 'd db 8d', 'p1 cc', 'p2 cc', 'd db 2h', 'p1 cc',
           'p2 cc', 'p1 sm', 'p2 sm 9s9c']
players = ['Hero', 'Hero', 'Villain']
finishing_stacks = [9900, 10100, 10000]
"""


# PLO, all-in preflop for 19: the big blind shows, the caller mucks before the board, and
# pokerkit still deals the flop
MUCK_THEN_BOARD = """\
variant = 'PO'
antes = [0, 0, 0, 0, 0]
blinds_or_straddles = [5, 10, 0, 0, 0]
min_bet = 10
starting_stacks = [2436, 19, 743, 571, 913]
actions = ['d dh p1 7s8sJcQc', 'd dh p2 3s3h8h7c', 'd dh p3 Ac4cKc9s', 'd dh p4 9hAsAd8d',
           'd dh p5 JsJd6c3d', 'p3 cc', 'p4 f', 'p5 f', 'p1 f', 'p2 cbr 19', 'p3 cc',
           'p2 sm 3s3h8h7c', 'p3 sm', 'd db 6h4h2s']
finishing_stacks = [2431, 43, 724, 571, 913]
"""


@pytest.mark.rule("SD-25")
@pytest.mark.parametrize(
    ("text", "stacks"),
    [
        (MUCK_THEN_SHOW, {1: 9900, 2: 10100, 3: 10000}),
        (MUCK_THEN_BOARD, {1: 2431, 2: 43, 3: 724, 4: 571, 5: 913}),
    ],
    ids=["show", "board"],
)
def test_what_the_file_records_after_the_others_mucked_is_not_sent(
    dealer: Device, tmp_path: Path, text: str, stacks: dict[int, int]
) -> None:
    """Once every other player has mucked, one player wins uncontested and the hand is over
    (a later request is refused, SD-25). The file may still record his show, or a board
    dealt after the muck; the replay leaves both out. In the first hand two seats share the
    name "Hero" and are two players."""
    path = tmp_path / "after_the_muck.phh"
    path.write_text(text)
    (outcome,) = replay_files(InProcessApi(dealer.token), [path])
    assert outcome.matched, outcome.error
    assert outcome.reported == stacks
    assert replay(load_phh(path)).stacks == stacks  # the pure engine agrees


@needs_corpus
def test_an_unreachable_server_or_a_refused_token_is_one_line(live_server: object) -> None:
    """Both ended in a traceback of 80 lines or more (found by QA)."""
    import socket

    from django.core.management import CommandError, call_command

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]  # nothing listens on it
    hand = str(PHH / "pluribus" / "102" / "0.phh")
    with pytest.raises(CommandError, match="cannot reach"):
        call_command("replay_phh", hand, "--api", f"http://127.0.0.1:{port}", "--token", "x",
                     "--quiet")  # fmt: skip
    with pytest.raises(CommandError, match="refused the token"):
        call_command("replay_phh", hand, "--api", live_server.url, "--token", "x",  # type: ignore[attr-defined]
                     "--quiet")  # fmt: skip


WSOP_2019 = """variant = 'NT'
antes = [0, 500000, 0, 0, 0, 0, 0, 0]
blinds_or_straddles = [250000, 500000, 0, 0, 0, 0, 0, 0]
min_bet = 500000
starting_stacks = [13050000, 9525000, 6675000, 5750000, 9150000, 6525000, 14100000, 7300000]
actions = ['d dh p1 QdJd', 'd dh p2 Ac7c', 'd dh p3 Qh3h', 'd dh p4 6s5c', 'd dh p5 Ad7s',
  'd dh p6 9c4c', 'd dh p7 3s3c', 'd dh p8 Td3d', 'p3 f', 'p4 f', 'p5 f', 'p6 f',
  'p7 cbr 1150000', 'p1 cc', 'p2 cc', 'd db ThJc5h', 'p1 cc', 'p2 cc', 'p7 cc', 'd db 6c',
  'p1 cc', 'p2 cc', 'p7 cc', 'd db 8s', 'p1 cc', 'p2 cbr 2250000', 'p7 f', 'p1 cc',
  'p2 sm Ac7c', 'p1 sm QdJd']
finishing_stacks = [18100000, 5625000, 6675000, 5750000, 9150000, 6525000, 12950000, 7300000]
"""
"""A real hand of the PHH dataset (WSOP 2019, event 42, day 3) that leaves out the button's
(p8) fold after p7's raise; pokerkit folds him, and the finishing stacks assume it."""


def test_an_action_the_file_left_out_is_played_as_pokerkit_reads_it(
    dealer: Device, tmp_path: Path
) -> None:
    """The server refused p1's call (not his turn: p8 was), so the hand failed (found by QA
    on a hand of the PHH dataset). The seat to act folds, as pokerkit reads the file, and
    the outcome counts it."""
    path = tmp_path / "wsop2019.phh"
    path.write_text(WSOP_2019)
    (outcome,) = replay_files(InProcessApi(dealer.token), [path])
    assert outcome.matched, outcome.error
    assert outcome.left_out == 1
    assert replay(load_phh(path)).stacks == outcome.reported  # the pure engine agrees


def test_a_file_that_ends_mid_hand_or_cannot_open_its_table_fails_alone(
    dealer: Device, tmp_path: Path
) -> None:
    """Both ended the whole run with a traceback: a file without its river actions (the
    cash-out after it was refused, BI-6) and a hand whose blinds no table takes (found by
    QA). Each is now a failed outcome with its reason, and the next hand plays."""
    unfinished = tmp_path / "a_unfinished.phh"
    river = "'p2 cbr 2250000', 'p7 f', 'p1 cc',\n  'p2 sm Ac7c', 'p1 sm QdJd']"
    assert river in WSOP_2019
    unfinished.write_text(WSOP_2019.replace(river, "]"))  # p1 checked: p2 to act
    one_blind = tmp_path / "b_one_blind.phh"
    one_blind.write_text(WSOP_2019.replace("[250000, 500000,", "[500000, 0,"))
    whole = tmp_path / "c_whole.phh"
    whole.write_text(WSOP_2019)
    outcomes = list(replay_files(InProcessApi(dealer.token), [unfinished, one_blind, whole]))
    assert [o.matched for o in outcomes] == [False, False, True]
    assert outcomes[0].error == "the file ends before the hand does (seat 2 to act)"
    assert outcomes[1].error and "a small and a big blind" in outcomes[1].error
