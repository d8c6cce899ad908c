"""What an import kept of a document's structure, measured against its census.

The words of a document can all reach the records while its records do not: a record
read as prose keeps every sentence. So beside the text figure (``coverage``) the import
counts structure. What the document states is its census (``census.py``: every
declaration, label, status statement, evidence span, quotation and revision, counted from
the document's own grammar before any form is tried, and attributed to the record the
grammar says it is of); each construct is then looked up in the files written:

- **records**: the ID is a record of its kind (not prose, not a supplied record);
- **labels**: the label the declaration writes is the record's label;
- **statuses**: the record holds the status under that label (its current name), its
  qualifier after the value;
- **anchors**: the record's evidence (or an amendment's) cites that path and range, or
  that document locator;
- **quotations**: the record has a quotation of that file;
- **revisions**: the source has that revision.

A construct the record does not hold is kept only as prose (the section's, or the
record's text). Each loss is an error (KB614) at the construct's own line; the figures come first in the
import's summary, every figure every time, "N of M" with M from the census.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from generator.diagnostics import Diagnostic, Rule, error
from generator.importer.census import FIGURES, OUTSIDE_FIGURES, PROSE, Construct, census
from generator.importer.columns import status_label_of
from generator.importer.folding import words
from generator.model import kinds
from generator.model.vocab import ConclusionStatus

KB614 = Rule(
    "KB614",
    "import-structure-lost",
    (
        "A record the document declares, or a label, status, evidence anchor, quotation or revision it "
        "states, is not in the records written."
    ),
    doc=(
        "`kbgen import`, error: a record the document declares (a heading, paragraph, list item or register "
        "row opening with its ID in a records section) is not a record of the files written, or a construct "
        "the document states (its declared label, a `… conclusion status: value` or `Status: value` "
        "statement, an evidence anchor, a quotation, a source's stated commit or capture digest) is not in "
        "the record the document's grammar gives it to, or belongs to no record (kept only as prose); "
        "counted by the import's census, independently of its forms, and located at the construct's line "
        "(after 200, the rest are counted)"
    ),
)

# A declared ID the import made a supplied record: one finding (KB614), not also KB607.
BECAME_SUPPLIED = "is declared here but became a supplied record, not a record of its kind"
# What one construct of a figure is called in the run's import findings (a figure not named
# here is called by its own name).
CONSTRUCT_KINDS = {
    "records": "record",
    "labels": "label",
    "statuses": "status",
    "anchors": "evidence anchor",
    "quotations": "quotation",
    "revisions": "revision",
}
MAX_REPORTED = 200

_STATUS_VALUES = "|".join(
    re.escape(s.value) for s in sorted(ConclusionStatus, key=lambda s: len(s.value), reverse=True)
)


@dataclass(frozen=True)
class Loss:
    """One construct the records do not keep: where the document states it, the record it
    is of, the message's words, its figure and the construct as stated."""

    record_id: str
    line: int
    col: int
    what: str
    figure: str
    stated: str

    @property
    def kind(self) -> str:
        return CONSTRUCT_KINDS.get(self.figure, self.figure)

    @property
    def message(self) -> str:
        if self.what.startswith(("is ", "label ")):
            return f"{self.record_id} {self.what}"
        return f"{self.record_id}'s {self.what} is not in its record"


@dataclass
class Structure:
    """The structure figures of one import: (kept, stated) per figure, and the losses."""

    stated: dict[str, int] = field(default_factory=lambda: dict.fromkeys(FIGURES, 0))
    kept: dict[str, int] = field(default_factory=lambda: dict.fromkeys(FIGURES, 0))
    losses: list[Loss] = field(default_factory=list)
    # What the sections' own prose states, outside any record: kept there as text, and
    # neither stated nor kept in the records' figures (no record's structure holds it).
    outside: dict[str, int] = field(default_factory=lambda: dict.fromkeys(OUTSIDE_FIGURES, 0))

    def add(self, construct: Construct, held: bool, what: str) -> None:
        """Count one construct; a loss keeps it located, with its record and as stated."""
        self.stated[construct.figure] += 1
        if held:
            self.kept[construct.figure] += 1
        else:
            self.losses.append(
                Loss(construct.owner, construct.line, construct.col, what, construct.figure, construct.key)
            )

    @property
    def whole(self) -> bool:
        return not self.losses

    def summary(self) -> str:
        """``records 33 of 34, labels 33 of 33, …, revisions 0 of 0``: every figure, every time."""
        figures = ", ".join(f"{name} {self.kept[name]:,} of {self.stated[name]:,}" for name in FIGURES)
        if not any(self.outside.values()):
            return figures
        prose = ", ".join(f"{name} {self.outside[name]:,}" for name in OUTSIDE_FIGURES)
        return f"{figures} (outside any record, kept as section text: {prose})"

    def as_dict(self) -> dict[str, dict[str, int]]:
        return {name: {"stated": self.stated[name], "kept": self.kept[name]} for name in FIGURES}


def combined(parts: Iterable[Structure]) -> Structure:
    """The structure of several documents (a set's members) as one figure."""
    total = Structure()
    for part in parts:
        for name in FIGURES:
            total.stated[name] += part.stated[name]
            total.kept[name] += part.kept[name]
        total.losses.extend(part.losses)
        for name in OUTSIDE_FIGURES:
            total.outside[name] += part.outside[name]
    return total


def records_written(files: Iterable[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Every record of the files by ID (supplied records, annotations and limitations are not records)."""
    list_keys = {spec.list_key for spec in kinds.registered()}
    found: dict[str, dict[str, Any]] = {}
    for mapping in files:
        for key, value in mapping.items():
            if key in list_keys and isinstance(value, list):
                for record in value:
                    if isinstance(record, dict) and isinstance(record.get("id"), str):
                        found.setdefault(record["id"], record)
    return found


def supplied_written(files: Iterable[dict[str, Any]]) -> set[str]:
    """The IDs the files record as supplied (cited, declared elsewhere)."""
    return {
        entry["id"]
        for mapping in files
        for entry in mapping.get("supplied") or []
        if isinstance(entry, dict) and isinstance(entry.get("id"), str)
    }


class _Held:
    """What one record written holds, indexed once: its evidence and its quotations."""

    def __init__(self, record: dict[str, Any]) -> None:
        self.record = record
        self.ranges: set[tuple[str, str]] = set()
        self.paths: set[str] = set()
        self.locators: set[str] = set()
        anchors = list(record.get("evidence") or [])
        for amendment in record.get("amendments") or []:  # an amendment's anchors are its own
            if isinstance(amendment, dict):
                anchors.extend(amendment.get("evidence") or [])
        for anchor in anchors:
            self._index(str(anchor))
        self.quoted = Counter(str(q.get("path")) for q in record.get("quotes") or [] if isinstance(q, dict))

    def _index(self, anchor: str) -> None:
        source, _, rest = anchor.partition(" ")
        if (
            rest.startswith(("§", "Section ", "Appendix ", "Table ", "Figure ", "p.", "pp."))
            or ":" not in rest
        ):
            self.locators.add(f"{source} {rest}")
        path, colon, ranges = rest.rpartition(":") if ":" in rest else (rest, "", "")
        self.paths.add(path)
        for part in ranges.split(",") if colon else ():
            self.ranges.add((path, part))

    def cites(self, key: str) -> bool:
        if key in self.locators:
            return True
        path, colon, part = key.rpartition(":")
        if colon and part[:1].isdigit():
            return (path, part) in self.ranges
        return key in self.paths


def measure(text: str, files: Iterable[dict[str, Any]]) -> Structure:
    """The structure figures of one document (its census) against the files written from it."""
    files = list(files)
    written = records_written(files)
    supplied = supplied_written(files)
    held: dict[str, _Held] = {}
    structure = Structure()
    seen: set[tuple[str, str, str]] = set()  # a record's status or anchor stated again counts once
    lost_records: set[str] = set()  # declared here, not written: the record's loss says it all
    for construct in census(text):
        owner = construct.owner
        if owner == PROSE:
            structure.outside[construct.figure] += 1
            continue
        record = written.get(owner)
        if construct.figure == "records":
            lost = BECAME_SUPPLIED if owner in supplied else "is not a record of the files written"
            structure.add(construct, record is not None, lost)
            if record is None:
                lost_records.add(owner)
            continue
        if owner in lost_records:
            continue
        if construct.figure in ("statuses", "anchors"):
            if (owner, construct.figure, construct.key) in seen:
                continue
            seen.add((owner, construct.figure, construct.key))
        if record is None:
            structure.add(
                construct, False, f"{CONSTRUCT_KINDS[construct.figure]} {construct.key} (no such record)"
            )
            continue
        facts = held.get(owner) or held.setdefault(owner, _Held(record))
        structure.add(construct, *_kept(construct, facts))
    return structure


def _kept(construct: Construct, facts: _Held) -> tuple[bool, str]:
    """Whether the record holds the construct, and the loss's words when it does not."""
    key, record = construct.key, facts.record
    if construct.figure == "labels":
        held = words(str(record.get("label") or "")) in _label_forms(key)
        return held, f"label {key!r} is not the record's label"
    if construct.figure == "statuses":
        label, _, value = key.rpartition(": ")
        return _holds_status(record, label, value), key
    if construct.figure == "anchors":
        return facts.cites(key), f"evidence anchor {key}"
    if construct.figure == "quotations":
        present = facts.quoted[key] > 0
        facts.quoted[key] -= 1  # each quotation of the record answers one stated
        return present, f"quotation of {key}"
    revision = str(record.get("revision") or "")
    return bool(revision) and words(key)[-1] in words(revision), f"revision {key}"


def _label_forms(label: str) -> list[list[str]]:
    """The words a declared label may keep: all of it, or, when it ends ``; <status>``
    (``Session continuity; wired``), the part before (the status is the record's)."""
    forms = [words(label)]
    head, _, tail = label.rpartition("; ")
    if head and re.match(rf"(?:{_STATUS_VALUES})\b", tail.strip(), re.I):
        forms.append(words(head))
    return forms


def _holds_status(record: dict[str, Any], label: str, value: str) -> bool:
    """Whether the record holds the status a document states, under the label's current
    name (``learning`` is ``learning conclusion status``), its qualifier after it."""
    statuses = {
        status_label_of(str(k)).lower(): str(v).lower() for k, v in (record.get("statuses") or {}).items()
    }
    held = statuses.get(status_label_of(label).lower(), "")
    if held.startswith(value):
        return True
    own = str(record.get("conclusion_status") or record.get("status") or "").lower()
    return label in ("conclusion status", "claim conclusion status") and own.startswith(value)


def lost_structure(
    text: str, files: Iterable[dict[str, Any]], display: str
) -> tuple[Structure, list[Diagnostic]]:
    """Measure an import's structure and report each loss (KB614, error) where it is stated."""
    structure = measure(text, list(files))
    found = [
        error(
            KB614,
            loss.message,
            display,
            loss.line,
            loss.col,
            hint="The import lost structure the document states; report the form, or add it by hand.",
        )
        for loss in structure.losses[:MAX_REPORTED]
    ]
    if len(structure.losses) > MAX_REPORTED:
        found.append(
            error(KB614, f"and {len(structure.losses) - MAX_REPORTED:,} more structure losses", display)
        )
    return structure, found
