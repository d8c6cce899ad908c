"""The README is the user's manual and the rest of the manual lives in ``docs/``: the README
stays short, every relative link of the manual resolves, and every rule code has its
stable anchor in ``docs/rules.md``, whose table is generated from the rules' declarations."""

from __future__ import annotations

import re
from pathlib import Path

from rule_catalogue import TABLE_END, TABLE_START, declared_rules, rules_table

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
    assert sorted(code.lower() for code in declared_rules() if code.lower() not in anchors) == []


def test_the_rules_table_is_generated_from_the_declarations(update_goldens: bool) -> None:
    """docs/rules.md's table is the declarations' (``pytest --update-goldens`` rewrites it)."""
    path = ROOT / "docs" / "rules.md"
    text = path.read_text(encoding="utf-8")
    before, rest = text.split(TABLE_START, 1)
    after = rest.split(TABLE_END, 1)[1]
    wanted = before + rules_table(declared_rules()) + after
    if update_goldens:
        path.write_text(wanted, encoding="utf-8")
        text = wanted
    assert text == wanted, "docs/rules.md's table differs from the rules' declarations"


def test_every_rule_is_declared_once_and_named_by_its_code() -> None:
    """Each module-level Rule is bound to its code's name, and no two declare one code."""
    rules = declared_rules()  # raises on a misnamed rule or a code declared twice
    assert all(code == rule.code for code, rule in rules.items())
    assert len(rules) >= 100
