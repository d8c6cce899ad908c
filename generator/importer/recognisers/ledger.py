"""A compact authority-route ledger entry: seventeen labelled lines, ``Route ID:`` first.

The epistemic report writes each ledger row as a compact record (the spec: "start each
record with ``Route ID: <full ID or IDs>`` on its own line", then the other named ledger
fields). The labels are literal and come from the model (``LEDGER_LABELS``, in the
spec's column order). The recogniser only reads the lines: which label each one opens
with, its value as written, and where that value starts. A line that opens with no
ledger label continues the value before it (a value wrapped over two lines).
"""

from __future__ import annotations

from dataclasses import dataclass

from generator.model.sets import LEDGER_LABELS

ROUTE_ID = LEDGER_LABELS["routes"] + ":"
# Label → field name, for the lookup of each line's label.
FIELD_OF_LABEL = {label: name for name, label in LEDGER_LABELS.items()}


@dataclass
class LabelledLine:
    """One ledger field as written: its field name, value, and the 1-based line and
    columns of its label and value."""

    name: str
    parts: list[str]  # the value's words on its first line, then each wrapped line's
    line: int
    label_col: int
    value_col: int

    @property
    def value(self) -> str:
        return " ".join(part for part in self.parts if part)


def opens_entry(first_line: str) -> bool:
    """True when a paragraph's first line opens a ledger entry (``Route ID: …``)."""
    return first_line.strip().startswith(ROUTE_ID)


def _label_of(text: str) -> tuple[str, str, int] | None:
    """(field name, value, offset of the value) when ``text`` opens with a ledger label."""
    label, colon, rest = text.partition(":")
    name = FIELD_OF_LABEL.get(label) if colon else None
    if name is None:
        return None
    value = rest.strip()
    return name, value, len(text) - len(rest.lstrip()) if value else len(text)


def labelled_lines(lines: list[str], first_line: int) -> list[LabelledLine]:
    """The ledger fields of a paragraph's lines, in the order written; each line is read once."""
    fields: list[LabelledLine] = []
    for offset, raw in enumerate(lines):
        text = raw.strip()
        if not text:
            continue
        indent = len(raw) - len(raw.lstrip())
        found = _label_of(text)
        if found is None:
            if fields:  # a wrapped value: its words join the value before it
                fields[-1].parts.append(text)
            continue
        name, value, at = found
        col = indent + 1
        fields.append(LabelledLine(name, [value], first_line + offset, col, col + at))
    return fields
