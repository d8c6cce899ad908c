"""The loader's quick paths give what the general ones gave.

- A string is searched for control characters only where one can be: a text read through
  the door holds none, so only a double-quoted scalar's escapes can make one.
- Aliases are located by an event scan only when the built tree met one (a node twice, or
  a merge key), never expanded.
- The nesting bound reads each line's prefix after a line break, as ``^`` did.
"""

from __future__ import annotations

import random
import re

import pytest

from generator.load.records import _nesting_bound, load_record_text


@pytest.mark.parametrize("escape", ["\\x07", "\\e", "\\0", "\\x9b"])
@pytest.mark.parametrize("through_door", [True, False])
@pytest.mark.parametrize(
    ("line", "col"), [('"a{escape}b": x', 5), ('label: "a{escape}b"', 12)], ids=["key", "value"]
)
def test_an_escaped_control_character_is_refused(
    escape: str, through_door: bool, line: str, col: int
) -> None:
    text = "components:\n  - id: CMP-1\n    " + line.format(escape=escape) + "\n"
    loaded, problems = load_record_text(text, "f.yaml", through_door=through_door)
    assert loaded is None
    assert [(p.code, p.file, p.line, p.col) for p in problems] == [("KB012", "f.yaml", 3, col)]


def test_an_escaped_carriage_return_becomes_a_line_feed() -> None:
    loaded, problems = load_record_text('a: "x\\ry\\r\\nz"\n"k\\rey": v\n', "f.yaml", through_door=True)
    assert problems == [] and loaded is not None
    assert loaded.data == {"a": "x\ny\nz", "k\ney": "v"}


def test_text_that_bypassed_the_door_is_searched_everywhere() -> None:
    # A tab is allowed; a raw control character in a plain scalar never reaches the
    # builder (libyaml's reader refuses it), and a raw CR is a line break to it.
    loaded, problems = load_record_text("a: 'x\ty'\r\nb: |\r\n  one\r\n  two\r\n", "f.yaml")
    assert problems == [] and loaded is not None
    assert loaded.data == {"a": "x\ty", "b": "one\ntwo\n"}
    loaded, problems = load_record_text("a: x\x07y\n", "f.yaml")
    assert loaded is None and [(p.code, p.file, p.line, p.col) for p in problems] == [
        ("KB012", "f.yaml", 1, 5)
    ]


def _located(text: str) -> list[tuple[str, int, int, str]]:
    """Each problem's code, line, column and message (every one in ``f.yaml``)."""
    loaded, problems = load_record_text(text, "f.yaml", through_door=True)
    assert (loaded is None) == bool(problems)
    assert {p.file for p in problems} <= {"f.yaml"}
    return [(p.code, p.line, p.col, p.message) for p in problems]


def test_nested_aliases_are_refused_where_each_is_used_and_never_expanded() -> None:
    lines = ["n0: &n0 [x, x, x, x, x, x, x, x, x]"]
    for level in range(1, 30):  # 9**30 strings once expanded
        lines.append(f"n{level}: &n{level} [" + ", ".join([f"*n{level - 1}"] * 9) + "]")
    found = _located("\n".join(lines) + "\n")
    assert len(found) == 29 * 9
    assert {code for code, *_ in found} == {"KB003"}
    assert found[0][1:3] == (2, 10)  # n1: &n1 [*n0, …


def test_an_alias_behind_another_refusal_is_what_the_file_is_refused_for() -> None:
    # The anchored value sits below a refused tag, so the builder meets it once only.
    text = "a: !custom {x: &n [1]}\nb: *n\n"
    assert [(code, line, col) for code, line, col, _ in _located(text)] == [("KB003", 2, 4)]


def test_an_anchor_without_alias_and_stars_in_prose_load() -> None:
    text = "a: &unused Planner\nb: 'a * b & c'\nc: 2 * 3 & more\n"
    loaded, problems = load_record_text(text, "f.yaml", through_door=True)
    assert problems == [] and loaded is not None
    assert loaded.data == {"a": "Planner", "b": "a * b & c", "c": "2 * 3 & more"}


def test_a_merge_key_without_alias_is_refused_by_the_builder() -> None:
    assert _located("a:\n  <<: {x: 1}\n  y: 2\n") == [
        ("KB003", 2, 3, "merge keys ('<<') are not allowed; write the keys out")
    ]


def test_a_merge_key_with_an_alias_is_refused_where_it_is_written() -> None:
    assert _located("base: &b {x: 1}\nitem:\n  <<: *b\n  y: 2\n") == [
        ("KB003", 3, 3, "merge keys ('<<') are not allowed; write the keys out")
    ]


_EVERY_LINE_PREFIX = re.compile(r"^(?:[ \t]+|[-?:]+(?=[ \t]|$)|[&!][^ \t\n]*)*", re.M)


def _bound_by_every_line(text: str) -> int:
    """The nesting bound as first written: the prefix pattern tried at every line start."""
    flow = text.count("[") + text.count("{")
    return flow + 2 * (max(map(len, _EVERY_LINE_PREFIX.findall(text)), default=0) + 1)


def test_the_nesting_bound_matches_the_prefix_at_every_line_start() -> None:
    chooser = random.Random(3)
    alphabet = [" ", "  ", "\t", "-", "- ", "? ", ": ", "&a ", "!t ", "x", "\n", "\n", "[", "{", "#"]
    texts = ["", "\n", "- - - x", "\n\n  - ", "  - - -\n"]
    texts += ["".join(chooser.choice(alphabet) for _ in range(chooser.randint(1, 60))) for _ in range(3000)]
    for text in texts:
        assert _nesting_bound(text) == _bound_by_every_line(text), repr(text)
