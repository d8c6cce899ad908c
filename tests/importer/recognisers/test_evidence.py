"""``recognisers/evidence.py``: evidence anchors in prose, each the source's named last before it."""

from __future__ import annotations

import pytest

from generator.importer.recognisers.evidence import evidence_anchors


@pytest.mark.parametrize(
    ("text", "anchors"),
    [
        pytest.param("SRC-1 path/to/file.ts:10-20", ["SRC-1 path/to/file.ts:10-20"], id="plain"),
        pytest.param("SRC-1 `path/to/file.ts:10-20`", ["SRC-1 path/to/file.ts:10-20"], id="path-in-code"),
        pytest.param("`SRC-1` `a.py:3`", ["SRC-1 a.py:3"], id="both-in-code"),
        pytest.param("`SRC-1` a.py", ["SRC-1 a.py"], id="id-in-code"),
        pytest.param("SRC-1 a.py:5,7-9", ["SRC-1 a.py:5,7-9"], id="several-ranges"),
        pytest.param("SRC-1 a.py and b.py", ["SRC-1 a.py", "SRC-1 b.py"], id="and"),
        pytest.param("SRC-1 a.py; b.py, c.py", ["SRC-1 a.py", "SRC-1 b.py", "SRC-1 c.py"], id="separators"),
        pytest.param("SRC-1 src/ folder", ["SRC-1 src/"], id="folder"),
        pytest.param("SRC-1 src/lib.rs.", ["SRC-1 src/lib.rs"], id="sentence-end"),
        pytest.param("SRC-1 (lib.rs)", ["SRC-1 lib.rs"], id="brackets"),
        pytest.param("SRC-1 a.py a.py", ["SRC-1 a.py"], id="once-each"),
        pytest.param("SRC-1 a.py   \r", ["SRC-1 a.py"], id="trailing-whitespace"),
        pytest.param("MEM-SRC-notes a.py", ["MEM-SRC-notes a.py"], id="prefixed-source"),
    ],
)
def test_anchors_after_a_source(text: str, anchors: list[str]) -> None:
    assert evidence_anchors(text) == anchors


def test_each_path_belongs_to_the_source_named_last_before_it() -> None:
    text = "Evidence: SRC-3, `docs/usage.md`; SRC-1, `lib/a.py`, `lib/b.py`."
    assert evidence_anchors(text) == ["SRC-3 docs/usage.md", "SRC-1 lib/a.py", "SRC-1 lib/b.py"]


def test_an_evidence_clause_runs_to_its_sentence_s_end() -> None:
    text = "Evidence: SRC-1, a.rs, dispatch in b.rs. Then c.rs."
    assert evidence_anchors(text) == ["SRC-1 a.rs", "SRC-1 b.rs"]


def test_outside_a_clause_a_plain_word_ends_the_run() -> None:
    assert evidence_anchors("SRC-1 a.py, the file b.py") == ["SRC-1 a.py"]


def test_a_slashed_name_that_is_no_file_neither_anchors_nor_ends_the_run() -> None:
    text = "SRC-1 waitForDiagnostics/getDiagnosticsForFile a.py"
    assert evidence_anchors(text) == ["SRC-1 a.py"]


@pytest.mark.parametrize(
    ("text", "anchors"),
    [
        pytest.param("SRC-1 §4.1", ["SRC-1 §4.1"], id="section"),
        pytest.param("SRC-1 Table 2", ["SRC-1 Table 2"], id="table"),
        pytest.param("`SRC-1` p. 7", ["SRC-1 p. 7"], id="page-after-code-id"),
    ],
)
def test_document_locators(text: str, anchors: list[str]) -> None:
    assert evidence_anchors(text) == anchors


@pytest.mark.parametrize(
    "text",
    [
        pytest.param("a.py and b.py", id="no-source"),
        pytest.param("SRC-1: `a.py`", id="source-naming-a-quotation-s-file"),
        pytest.param("SRC-1 the file a.py", id="word-between"),
        pytest.param("SRC-1 — see a.py", id="dash-between"),
        pytest.param("", id="empty"),
    ],
)
def test_text_without_anchors(text: str) -> None:
    assert evidence_anchors(text) == []


@pytest.mark.parametrize(
    ("text", "count"),
    [
        pytest.param(" ".join(f"SRC-1 f{i}.py" for i in range(20_000)), 20_000, id="many-anchors"),
        pytest.param("`SRC-1` p. 7 " * 20_000, 1, id="many-locators"),
        pytest.param("SRC-1 " + "a/" * 100_000, 1, id="deep-path"),
        pytest.param("SRC-1 " + "a." * 100_000, 1, id="dotted-word"),
        pytest.param("SRC-1 " + "` " * 100_000, 0, id="backticks"),
    ],
)
def test_a_large_hostile_text_is_read_once(text: str, count: int) -> None:
    assert len(evidence_anchors(text)) == count
