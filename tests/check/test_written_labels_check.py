"""A record's labels as written and its same-line fields, checked: a name that is no
field of the kind is refused with KB101 at the name's file, line and column."""

from __future__ import annotations

from pathlib import Path

import pytest
from hostile_support import CLEAN_SYSTEM, make_records

from generator.pipeline import check_records

CLEAN = (CLEAN_SYSTEM / "records.yaml").read_text(encoding="utf-8")


@pytest.mark.parametrize(
    ("old", "new", "where", "message"),
    [
        (
            "    form: Symbolic code.\n",
            "    form: Symbolic code.\n    labels:\n      colour: Colour\n",
            (6, 7),
            "'colour' names no field of the record",
        ),
        (
            "    form: Symbolic code.\n",
            '    form: Symbolic code.\n    labels:\n      form: "Form\\nand role"\n',
            (6, 13),  # at the label written
            "one line of plain text",
        ),
        (
            "    label: Prompt to answer\n",
            "    label: Prompt to answer\n    same_line: [colour]\n",
            (13, 16),
            "'colour' names no labelled field",
        ),
    ],
)
def test_a_label_or_same_line_field_that_names_no_field_is_located(
    tmp_path: Path, old: str, new: str, where: tuple[int, int], message: str
) -> None:
    assert old in CLEAN
    records = make_records(tmp_path, {"records.yaml": CLEAN.replace(old, new, 1)})
    diagnostics = [d for system in check_records(records, tmp_path) for d in system.diagnostics]
    assert [(d.code, Path(d.file).name, (d.line, d.col)) for d in diagnostics] == [
        ("KB101", "records.yaml", where)
    ]
    assert message in diagnostics[0].message
