"""Exact positions of IDs written inside multi-line YAML strings.

A dangling ID in a wrapped paragraph is reported on the line and column where it is
written, whatever the scalar's style: folded (``>``), literal (``|``), with an
indentation indicator or chomping, plain multi-line, and double- or single-quoted
multi-line. Where an escape cannot be mapped, the report falls back to the scalar's
start, never to a wrong line.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hostile_support import located, make_records

from generator.load.records import load_record_text
from generator.load.scalarpos import ScalarSpan, scalar_locator

FILE = "records/demo/prose.yaml"

# Each layout writes CMP-7 (a dangling ID) on the first, middle and last line of a
# three-line paragraph of a component's body; ``@`` marks where it is written.
LAYOUTS = {
    "folded": "    body: >\n      {0} wraps here\n      and {1} in the middle\n      the end {2}.\n",
    "folded-keep": "    body: >2+\n        {0} wraps here\n        and {1} here\n        end {2}.\n\n",
    "literal": "    body: |\n      {0} wraps here\n      and {1} in the middle\n      the end {2}.\n",
    "literal-strip": "    body: |-\n      {0} wraps here\n        and {1} indented\n      the end {2}.\n",
    "plain": "    body: {0} wraps here\n      and {1} in the middle of\n      the paragraph {2}.\n",
    "double-quoted": '    body: "{0} wraps here\n      and {1} in the middle\n      the end {2}."\n',
    "single-quoted": "    body: '{0} it''s here\n      and {1} in the middle\n      the end {2}.'\n",
}


def _write(layout: str, slot: int) -> tuple[str, int, int]:
    """The component file with CMP-7 in ``slot``, and where CMP-7 is written (line, col)."""
    words = ["CMP-1", "CMP-1", "CMP-1"]
    words[slot] = "@"
    body = LAYOUTS[layout].format(*words)
    head = "components:\n  - id: CMP-9\n    label: Prose\n"
    text = head + body
    row = next(i for i, line in enumerate(text.splitlines(), start=1) if "@" in line)
    col = text.splitlines()[row - 1].index("@") + 1
    return text.replace("@", "CMP-7"), row, col


@pytest.mark.parametrize("slot", [0, 1, 2], ids=["first-line", "middle-line", "last-line"])
@pytest.mark.parametrize("layout", sorted(LAYOUTS))
def test_hide_a_dangling_id_in_a_wrapped_paragraph(
    layout: str, slot: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, kbgen
) -> None:
    text, line, col = _write(layout, slot)
    make_records(tmp_path, {"prose.yaml": text})
    monkeypatch.chdir(tmp_path)
    result = kbgen("check", "records", "--format", "json")
    assert ("KB202", FILE, line, col) in located(result)


def test_unmatched_lines_fall_back_to_the_scalar_start() -> None:
    """A line that cannot be matched against the value: the scalar's start, not a guessed line."""
    lines = ['k: "one', "  tw\\o", '  three"']
    span = ScalarSpan(1, 4, 3, 9, '"')
    locate = scalar_locator(lines, span, "one two three")  # not what the source decodes to
    assert locate(0) == (1, 5)
    assert locate(10) == (1, 4)


def test_hide_a_dangling_id_after_escapes_in_double_quotes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, kbgen
) -> None:
    text = (
        "components:\n  - id: CMP-9\n    label: Prose\n"
        '    body: "tab\\there \\u00e9\\"q\\"\n      and \\x41 CMP-7 after escapes."\n'
    )
    make_records(tmp_path, {"prose.yaml": text})
    monkeypatch.chdir(tmp_path)
    assert ("KB202", FILE, 5, 16) in located(kbgen("check", "records", "--format", "json"))


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("k: >\n  one two\n  three\n", [(0, (2, 3)), (4, (2, 7)), (8, (3, 3))]),
        ("k: |\n  one\n\n  three\n", [(0, (2, 3)), (5, (4, 3))]),
        ("k: one\n  two\n", [(0, (1, 4)), (4, (2, 3))]),
        ("k: 'it''s\n  fine'\n", [(3, (1, 9)), (5, (2, 3))]),
    ],
    ids=["folded", "literal-blank-line", "plain", "single-quoted"],
)
def test_offsets_map_to_their_source_position(text: str, expected: list) -> None:
    loaded, problems = load_record_text(text, "x.yaml")
    assert loaded is not None and not problems
    locate = loaded.locator(("k",))
    assert [(offset, locate(offset)) for offset, _ in expected] == expected
