"""The README is the user's manual and the rest of the manual lives in ``docs/``: the README
stays short, every relative link of the manual resolves, and every rule code has its
stable anchor in ``docs/rules.md``."""

from __future__ import annotations

import re
from pathlib import Path

from generator.diagnostics import RULES

ROOT = Path(__file__).resolve().parents[2]
MANUAL = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
_LINK = re.compile(r"\]\(([^)\s]+)\)")
_CODE = re.compile(r"`[^`\n]*`")  # a link written as an example inside a code span is none
_ID = re.compile(r'<a id="([a-z0-9-]+)"></a>')


def test_the_readme_is_a_short_manual() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(readme.encode("utf-8")) <= 16_000
    assert "python3 -m pip install -e . && kbgen build" in readme and "bash scripts/test.sh" in readme


def test_every_relative_link_of_the_manual_resolves() -> None:
    broken = []
    for page in MANUAL:
        text = _CODE.sub("", page.read_text(encoding="utf-8"))
        for target in _LINK.findall(text):
            if target.startswith(("http://", "https://", "mailto:")):
                continue
            path, _, anchor = target.partition("#")
            file = (page.parent / path).resolve() if path else page
            if not file.exists() or (
                anchor
                and file.name == "rules.md"
                and anchor not in _ID.findall(file.read_text(encoding="utf-8"))
            ):
                broken.append(f"{page.relative_to(ROOT)}: {target}")
    assert broken == []


def test_every_rule_has_a_stable_anchor() -> None:
    anchors = set(_ID.findall((ROOT / "docs" / "rules.md").read_text(encoding="utf-8")))
    assert sorted(code.lower() for code in RULES if code.lower() not in anchors) == []
