"""The theme's own stylesheets are whole: every block closes, and a style rule opens no
block inside it (only an at-rule, @media or @supports, holds rules). A rule left open
makes a browser read every rule after it as nested under it, matching nothing, so the
rules after it are lost without an error anywhere."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

THEME = Path(__file__).resolve().parents[2] / "overrides"
STYLESHEETS = sorted(path for path in THEME.rglob("*.css") if ".min." not in path.name)
_COMMENT_OR_STRING = re.compile(r"/\*.*?\*/|\"(?:\\.|[^\"\\])*\"|'(?:\\.|[^'\\])*'", re.DOTALL)


def _problems(text: str) -> list[str]:
    """Where blocks do not close or a style rule holds a block, by line."""
    code = _COMMENT_OR_STRING.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), text)
    found: list[str] = []
    stack: list[bool] = []  # for each open block: is it an at-rule's?
    start = 0
    for index, char in enumerate(code):
        if char == "{":
            prelude = code[start:index].strip()
            is_at_rule = prelude.startswith("@")
            if stack and not stack[-1]:
                found.append(f"line {code.count(chr(10), 0, index) + 1}: a block inside a style rule")
            stack.append(is_at_rule)
            start = index + 1
        elif char == "}":
            if not stack:
                found.append(f"line {code.count(chr(10), 0, index) + 1}: '}}' closes nothing")
            else:
                stack.pop()
            start = index + 1
        elif char == ";":
            start = index + 1
    if stack:
        found.append(f"{len(stack)} block(s) left open at the end")
    return found


@pytest.mark.parametrize("path", STYLESHEETS, ids=lambda p: str(p.relative_to(THEME)))
def test_every_rule_closes(path: Path) -> None:
    assert _problems(path.read_text(encoding="utf-8")) == []


def test_a_rule_left_open_is_found() -> None:
    assert _problems(".a {\n  top: 0;\n\n.b { left: 0; }\n")[0] == "line 4: a block inside a style rule"
    assert _problems("@media (min-width: 1px) { .a { top: 0; } }") == []
    assert _problems(".a { content: '{'; }") == []
