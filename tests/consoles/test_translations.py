"""Every label the consoles' scripts write is translated to Czech (docs/consoles.md,
"Translations"): each ``gettext("...")`` literal in an app's static JavaScript has a
non-empty entry in the compiled ``djangojs`` catalogue that ``/jsi18n/`` serves. A label
added without a translation showed English on a Czech floor console."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from django.utils.translation.trans_real import DjangoTranslation

ROOT = Path(__file__).resolve().parents[2]
GETTEXT = re.compile(r"""\bgettext\(\s*(["'])((?:(?!\1).)+)\1\s*\)""")
APPS = ("casino", "tables", "cashgame", "waitlist", "tournaments")


def _labels() -> dict[str, set[str]]:
    found: dict[str, set[str]] = {}
    for app in APPS:
        for script in (ROOT / app / "static").rglob("*.js"):
            if "vendor" in script.parts:
                continue
            for match in GETTEXT.finditer(script.read_text(encoding="utf-8")):
                found.setdefault(match.group(2), set()).add(str(script.relative_to(ROOT)))
    return found


def test_every_script_label_has_a_czech_translation() -> None:
    labels = _labels()
    assert len(labels) > 50  # the scan found the consoles' labels
    catalogue = DjangoTranslation("cs", domain="djangojs")
    missing = {
        label: sorted(where)
        for label, where in labels.items()
        if label not in catalogue._catalog  # type: ignore[attr-defined]
    }
    assert missing == {}


def test_the_language_chosen_on_a_screen_outlives_the_browser(client: Any) -> None:
    """The EN/CS choice was a browser-session cookie: a tablet whose browser restarted was
    back in English (found by QA)."""
    answer = client.post("/i18n/setlang/", {"language": "cs", "next": "/tablet/"})
    assert answer.status_code == 302
    assert int(answer.cookies["django_language"]["max-age"]) >= 30 * 24 * 3600
