"""Every cash-game rule of the catalogue is tested (a ``rule`` marker) or explained in
docs/rules-coverage.md."""

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
CATALOGUE = ROOT.parent / "shared" / "rules" / "CATALOGUE.md"
CASH_SECTIONS = ("## 1. Cash game", "## 2. Cash game", "## 3. Cash game")


def _cash_rule_ids() -> set[str]:
    ids, inside = set(), False
    for line in CATALOGUE.read_text().splitlines():
        if line.startswith("## "):
            inside = line.startswith(CASH_SECTIONS)
        elif inside and (match := re.match(r"\| ([A-Z]+-\d+) \|", line)):
            ids.add(match.group(1))
    return ids


def _tested_ids() -> set[str]:
    found = set()
    for path in (ROOT / "tests").rglob("*.py"):
        found |= set(re.findall(r'mark\.rule\("([A-Z]+-\d+)"\)', path.read_text()))
    return found


def _explained_ids() -> set[str]:
    text = (ROOT / "docs" / "rules-coverage.md").read_text()
    table = text.split("## Cash-game rules without a test")[1].split("\n## ")[0]
    return set(re.findall(r"^\| ([A-Z]+-\d+) \|", table, flags=re.MULTILINE))


@pytest.mark.skipif(not CATALOGUE.exists(), reason="shared/rules is not beside the repo")
def test_every_cash_game_rule_is_tested_or_explained() -> None:
    rules = _cash_rule_ids()
    assert len(rules) == 28, sorted(rules)  # BI-1..11, SES-1..7, RAKE-1..10
    missing = rules - _tested_ids() - _explained_ids()
    assert not missing, f"cash-game rules neither tested nor explained: {sorted(missing)}"


HAND_SECTIONS = ("## 6. Betting", "## 7. Misdeals", "## 8. Showdown", "## 19. Show poker")


def _hand_rule_ids() -> set[str]:
    ids, inside = set(), False
    for line in CATALOGUE.read_text().splitlines():
        if line.startswith("## "):
            inside = line.startswith(HAND_SECTIONS)
        elif inside and (match := re.match(r"\| ([A-Z]+-\d+) \|", line)):
            ids.add(match.group(1))
    return ids


def _explained_hand_ids() -> set[str]:
    text = (ROOT / "docs" / "rules-coverage.md").read_text()
    table = text.split("## Hand rules without a test")[1].split("\n## ")[0]
    return set(re.findall(r"^\| ([A-Z]+-\d+) \|", table, flags=re.MULTILINE))


@pytest.mark.skipif(not CATALOGUE.exists(), reason="shared/rules is not beside the repo")
def test_every_betting_misdeal_showdown_and_show_poker_rule_is_tested_or_explained() -> None:
    rules = _hand_rule_ids()
    assert len(rules) == 107, sorted(rules)  # BET-1..33, MIS-1..21, SD-1..26, SHOW-1..27
    missing = rules - _tested_ids() - _explained_hand_ids()
    assert not missing, f"hand rules neither tested nor explained: {sorted(missing)}"
