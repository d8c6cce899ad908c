"""The model walk gathers the texts that must be one line as the separate walk it
replaced did: the same paths, texts and keys, over every shipped and fixture system, and
over objects built for the corners (a limitation's texts, lists of one-line texts, the
objects the walk takes whole)."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from enum import StrEnum
from pathlib import Path
from typing import Any

import pytest
from pydantic import BaseModel

from generator.check.rules import _owners
from generator.model.meta import DataPath
from generator.model.prose import Paragraph
from generator.model.records import Limitation
from generator.model.walk import ONE_LINE_FIELDS, collect, one_line_field
from generator.pipeline import check_records

ROOT = Path(__file__).resolve().parents[2]


def _reference(value: Any, path: DataPath) -> Iterator[tuple[DataPath, str, bool]]:
    """The walk KB109 used before the model walk gathered one-line texts (kept as the oracle)."""
    branches = (list, dict, BaseModel)
    if isinstance(value, list):
        for index, item in enumerate(value):
            if isinstance(item, branches):
                yield from _reference(item, (*path, index))
    elif isinstance(value, dict):
        for key, item in value.items():
            if isinstance(key, str):
                yield (*path, key), key, True
            if isinstance(item, branches):
                yield from _reference(item, (*path, key))
    elif isinstance(value, BaseModel) and not isinstance(value, Limitation):
        for name, info in type(value).model_fields.items():
            one_line = one_line_field(info, name)
            item = getattr(value, name)
            if isinstance(item, str) and not isinstance(item, StrEnum):
                if one_line:
                    yield (*path, name), item, False
            elif isinstance(item, list) and item and isinstance(item[0], str) and one_line:
                for index, text in enumerate(item):
                    if isinstance(text, str):
                        yield (*path, name, index), text, False
            elif isinstance(item, branches):
                yield from _reference(item, (*path, name))


def _record_folders() -> list[Path]:
    found = [ROOT / "records"]
    found += sorted({path.parent.parent for path in (ROOT / "tests" / "fixtures").rglob("records/*/*.yaml")})
    return [folder for folder in found if folder.is_dir()]


@pytest.mark.parametrize("records", _record_folders(), ids=lambda p: str(p.relative_to(ROOT)))
def test_one_line_texts_match_the_separate_walk(records: Path) -> None:
    compared = 0
    for system in check_records(records):
        for owner, _ in _owners(system.records):
            ours = collect(owner).one_line
            assert sorted(ours) == sorted(_reference(owner, ()))
            compared += len(ours)
    if records == ROOT / "records":
        assert compared > 1000  # the shipped records hold many labels, titles and keys


def test_the_walk_keeps_its_one_line_fields() -> None:
    assert {"label", "title", "revision", "source_kind", "system"} <= ONE_LINE_FIELDS


class _Named(BaseModel):
    label: str
    note: Any = None


class _WideParagraph(Paragraph):
    """A paragraph (taken whole by the walk) that also holds one-line texts below it."""

    inner: _Named
    keyed: dict[str, _Named]
    names: list[str]
    limits: list[Limitation]


def test_one_line_texts_below_an_object_taken_whole_are_gathered() -> None:
    limitation = Limitation(title="Not one line\nhere", affected="RTE-1")
    value = _WideParagraph(
        p="Prose.",
        inner=_Named(label="Inner", note={"key": _Named(label="Deep")}),
        keyed={"a key": _Named(label="Keyed")},
        names=["one", "two"],
        limits=[limitation],
    )
    owner = _Named(label="Owner", note=[value, {"k": value}])
    ours = collect(owner).one_line
    assert sorted(ours) == sorted(_reference(owner, ()))
    texts = {text for _, text, _ in ours}
    assert {"Owner", "Inner", "Deep", "Keyed", "a key", "one", "two", "k"} <= texts
    assert "Not one line\nhere" not in texts  # a limitation's title is a table cell
    assert [text.text for text in collect(owner).texts] == ["Prose.", "Prose."]


def test_a_check_leaves_no_reference_cycle_behind() -> None:
    """A check pauses the collector while it loads: a cycle left by the walk (functions that
    call each other hold what they found) would keep every system's texts until the next
    full collection."""
    gc.collect()
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        checked = check_records(ROOT / "records")
        assert checked and sum(len(collect(owner).texts) for owner, _ in _owners(checked[0].records)) > 10
        assert gc.collect() == 0
    finally:
        if was_enabled:
            gc.enable()
