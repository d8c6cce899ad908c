"""Loading keeps every value's position: spots of values and keys, and offsets inside text."""

from __future__ import annotations

import datetime
from pathlib import Path

import pytest
import yaml

import generator.load.records
from generator.load.records import LoadedFile, ValueSpot, load_record_file, load_record_text

TEXT = """\
run:
  system: Demo
  run_date: 2024-05-01
components:
  - id: CMP-1
    label: Agent loop
    body: The loop hands tools to CMP-7 when asked.
    remarks: 'Quoted: see RTE-2 here.'
    evidence:
      - SRC-1 src/agent.py:1-40
  - id: CMP-2
    body: |
      First line names RTE-1.
      Second line names RTE-9 and CMP-3.
"""


def _load(text: str = TEXT) -> LoadedFile:
    loaded, diagnostics = load_record_text(text, "records/demo/x.yaml")
    assert diagnostics == []
    assert loaded is not None
    return loaded


def _position_of(loaded: LoadedFile, path: tuple, needle: str) -> tuple[int, int]:
    """Where text_position puts ``needle`` of the string at ``path``."""
    value = loaded._value(path)
    return loaded.text_position(path, value.index(needle))


def _points_at(loaded: LoadedFile, path: tuple, needle: str) -> bool:
    """True when the located line and column show ``needle`` in the source text."""
    line, col = _position_of(loaded, path, needle)
    return loaded.lines[line - 1][col - 1 :].startswith(needle)


def test_values_are_plain_data() -> None:
    loaded = _load()
    assert loaded.display == "records/demo/x.yaml"
    assert loaded.data["run"]["run_date"] == datetime.date(2024, 5, 1)
    assert loaded.data["components"][1]["body"].endswith("CMP-3.\n")
    assert loaded.lines[0] == "run:"


def test_spot_of_plain_one_line_scalar() -> None:
    spot = _load().spot(("components", 0, "label"))
    assert (spot.line, spot.col) == (6, 12)
    assert (spot.key_line, spot.key_col) == (6, 5)
    assert spot.style is None  # plain, whichever YAML parser is used


def test_spot_of_sequence_item_and_mapping() -> None:
    loaded = _load()
    anchor = loaded.spot(("components", 0, "evidence", 0))
    assert (anchor.line, anchor.col) == (10, 9)
    item = loaded.spot(("components", 1))
    assert (item.line, item.col) == (11, 5)


def test_spot_falls_back_to_nearest_located_ancestor() -> None:
    loaded = _load()
    assert loaded.spot(("components", 0, "missing", 3)) == loaded.spot(("components", 0))
    assert loaded.spot(("nowhere",)) == loaded.spot(())
    empty = LoadedFile("x.yaml", {}, {}, [])
    assert empty.spot(("a",)) == ValueSpot(1, 1, None, 1, 1)


def test_text_position_in_plain_one_line_scalar() -> None:
    loaded = _load()
    assert _position_of(loaded, ("components", 0, "body"), "CMP-7") == (7, 35)
    assert _points_at(loaded, ("components", 0, "body"), "CMP-7")
    assert loaded.text_position(("components", 0, "body"), 0) == (7, 11)


def test_text_position_in_single_quoted_scalar() -> None:
    loaded = _load()
    assert loaded.lines[7].index("RTE-2") + 1 == 27
    assert _position_of(loaded, ("components", 0, "remarks"), "RTE-2") == (8, 27)
    assert _points_at(loaded, ("components", 0, "remarks"), "Quoted")


def test_spot_of_literal_block_scalar() -> None:
    spot = _load().spot(("components", 1, "body"))
    assert (spot.line, spot.col, spot.style) == (12, 11, "|")


def test_text_position_in_literal_block_scalar() -> None:
    loaded = _load()
    path = ("components", 1, "body")
    assert _position_of(loaded, path, "RTE-1") == (13, 24)
    assert _position_of(loaded, path, "RTE-9") == (14, 25)
    assert _position_of(loaded, path, "CMP-3") == (14, 35)
    assert all(_points_at(loaded, path, needle) for needle in ("First", "RTE-1", "Second", "RTE-9", "CMP-3"))


def test_text_position_of_non_text_is_the_value_spot() -> None:
    loaded = _load()
    assert loaded.text_position(("run", "run_date"), 3) == (3, 13)


@pytest.mark.parametrize("loader", [yaml.SafeLoader, getattr(yaml, "CSafeLoader", yaml.SafeLoader)])
def test_positions_do_not_depend_on_the_yaml_parser(loader: type, monkeypatch: pytest.MonkeyPatch) -> None:
    """libyaml reports plain scalars with style '' where PyYAML says None; both must locate alike."""
    monkeypatch.setattr(generator.load.records, "_Loader", loader)
    loaded = _load()
    assert loaded.spot(("components", 0, "body")).style is None
    assert _position_of(loaded, ("components", 0, "body"), "CMP-7") == (7, 35)
    assert _position_of(loaded, ("components", 1, "body"), "CMP-3") == (14, 35)


def test_text_position_after_quote_escape() -> None:
    loaded = _load("body: 'the loop''s store feeds RTE-9'\n")
    # "body: " is 6 characters, the opening quote is column 7; RTE-9 starts at column 32.
    assert loaded.lines[0].index("RTE-9") + 1 == 32
    assert _position_of(loaded, ("body",), "RTE-9") == (1, 32)


def test_text_position_on_more_indented_literal_line() -> None:
    loaded = _load("body: |\n  First line.\n    indented RTE-9 here.\n")
    assert loaded.lines[2].index("RTE-9") + 1 == 14
    assert _position_of(loaded, ("body",), "RTE-9") == (3, 14)


def test_empty_file_is_an_empty_mapping() -> None:
    loaded, diagnostics = load_record_text("# nothing here\n", "x.yaml")
    assert diagnostics == []
    assert loaded is not None and loaded.data == {}


def test_loading_never_raises_on_bad_input(tmp_path: Path) -> None:
    cases = {
        "syntax.yaml": b"a: [\n",
        "binary.yaml": b"\xff\xfe\x00",
        "tag.yaml": b"a: !!python/name:os.system\n",
        "scalar.yaml": b"just text\n",
    }
    for name, content in cases.items():
        (tmp_path / name).write_bytes(content)
        loaded, diagnostics = load_record_file(tmp_path / name, name)
        assert loaded is None
        assert len(diagnostics) == 1 and diagnostics[0].file == name, name
    loaded, diagnostics = load_record_file(tmp_path / "absent.yaml", "absent.yaml")
    assert loaded is None and [d.code for d in diagnostics] == ["KB007"]


def test_duplicate_key_hint_says_the_file_is_refused() -> None:
    # The loader refuses the file; it keeps neither value, so the hint must not say otherwise.
    loaded, problems = load_record_text("routes: []\nroutes: []\n", "records/x/a.yaml")
    assert loaded is None
    (problem,) = problems
    assert (problem.code, problem.line, problem.col) == ("KB002", 2, 1)
    assert problem.hint is not None and "refused" in problem.hint and "last value" not in problem.hint
