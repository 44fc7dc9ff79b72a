"""Commands on a fresh database migrate first or refuse in one line, never a traceback."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PHH = ROOT.parent / "shared" / "phh"


def _manage(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {
        **os.environ,
        "DATABASE_URL": f"sqlite:///{tmp_path / 'fresh.sqlite3'}",
        "REDIS_URL": "",
        "DJANGO_SETTINGS_MODULE": "casino.settings",
        # as an operator runs it: production defaults, the HTTPS redirect on
        "DEBUG": "false",
        "SECURE_SSL_REDIRECT": "true",
    }
    return subprocess.run(
        [sys.executable, "manage.py", *args], cwd=ROOT, env=env, capture_output=True,
        text=True, timeout=300,
    )  # fmt: skip


@pytest.mark.parametrize("command", ["rebuild_projections", "relay"])
def test_commands_that_may_not_migrate_say_so_in_one_line(tmp_path: Path, command: str) -> None:
    result = _manage(tmp_path, command)
    assert result.returncode == 1
    assert "Traceback" not in result.stderr
    (line,) = result.stderr.strip().splitlines()
    assert "migrations pending" in line and "manage.py migrate" in line


@pytest.mark.skipif(not PHH.is_dir(), reason="shared/phh is not beside the repo")
def test_replay_in_process_migrates_a_fresh_database_first(tmp_path: Path) -> None:
    result = _manage(
        tmp_path, "replay_phh", str(PHH / "pluribus" / "102" / "0.phh"), "--in-process", "--quiet"
    )
    assert "Traceback" not in result.stderr, result.stderr[-2000:]
    assert result.returncode == 0, result.stderr[-2000:]
    assert "applying" in result.stdout and "pending migrations first" in result.stdout
    assert "replayed 1 hands: 1 matched, 0 mismatched" in result.stdout
    # and now the schema is there: the rebuild runs
    rebuilt = _manage(tmp_path, "rebuild_projections")
    assert rebuilt.returncode == 0 and "rebuilt projections from" in rebuilt.stdout
