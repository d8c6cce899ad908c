"""What an import kept of a document's structure: its declared records, measured.

The words of a document can all reach the records while its records do not: a record
read as prose keeps every sentence. So beside the text figure (``coverage``) the import
counts structure. Every ID the document declares, by the method's declaration grammar
wherever the forms put one (a heading opening with an ID, a paragraph or list item
opening ``ID —``, ``**ID — Label.**`` or ``**ID.**``, a register row whose first cell is
an ID), in a records section (a kind's section, 'Shared records', the source register),
is looked up in the files written, with what its declaration states:

- **records**: the ID is a record of its kind (not prose, not a supplied record);
- **labels**: the label the declaration writes is the record's label;
- **statuses**: each ``… conclusion status: <value>`` its text states is the record's;
- **anchors**: each evidence anchor its prose writes is in the record's evidence;
- **quotations**: each attributed quotation that follows it is one of the record's;
- **revisions**: a source whose register row or paragraph states a commit or a capture
  digest has a revision.

The grammar here is the forms list's, written independently of the importer's
recognisers, and it reads the blocks of the one Markdown adapter. Each loss is an error
(KB614) at the document's line; the figures come first in the import's summary.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from generator.diagnostics import Diagnostic, Rule, error
from generator.importer.columns import continues_record, status_label_of
from generator.importer.document import document_blocks, document_lines
from generator.importer.folding import words
from generator.importer.markdown_blocks import Block
from generator.importer.recognisers.declarations import first_outside_code
from generator.importer.recognisers.evidence import evidence_anchors
from generator.importer.recognisers.quotes import block_quote
from generator.importer.recognisers.tables import table_rows
from generator.importer.sections import heading_level, kind_list_of_title
from generator.importer.tables import column_meaning
from generator.model import kinds
from generator.model.ids import grammar
from generator.model.vocab import ConclusionStatus

KB614 = Rule(
    "KB614",
    "import-structure-lost",
    (
        "A record the document declares, or its label, status, evidence anchor, quotation or revision, is "
        "not in the records written."
    ),
    doc=(
        "`kbgen import`, error: a record the document declares (a heading, paragraph, list item or register "
        "row opening with its ID in a records section) is not a record of the files written, or its declared "
        "label, a `… conclusion status: value` its text states, an evidence anchor of its prose, a quotation "
        "after it, or a source's stated commit or capture digest is not in its record (located at the "
        "declaration; after 200, the rest are counted)"
    ),
)

# A declared ID the import made a supplied record: one finding (KB614), not also KB607.
BECAME_SUPPLIED = "is declared here but became a supplied record, not a record of its kind"
FIGURES = ("records", "labels", "statuses", "anchors", "quotations", "revisions")
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
# ``Implementation conclusion status: wired``, also after ``. `` or ``; `` inside prose, and
# after ``, `` when the label names its layer (``wired, actual uptake conclusion status: …``).
_STATUS = re.compile(
    r"(?:^|(?<=[.;]\s)|(?<=\n)|(?<=,\s)(?=[A-Za-z][\w /'-]{0,110}?\sconclusion status:))(?:[-*+]\s+)?\**"
    r"(?P<label>(?:[A-Za-z][\w ,/'-]{0,110}?\s)?conclusion status)\**\s*:\s*\**"
    rf"(?P<value>{_STATUS_VALUES})\b",
    re.I,
)
_DASH = r"\s*(?:—|–|--?)\s*"
_COMMIT = re.compile(r"\b[0-9a-f]{40}\b|(?:sha-?256:?\s*`?)[0-9a-fA-F]{64}\b", re.I)
# The sections whose blocks hold declarations besides a kind's own section.
_RECORD_SECTIONS = frozenset({"shared records", "source register"})


@dataclass
class Declared:
    """One declaration of the document and what it states."""

    record_id: str
    line: int
    col: int
    label: str | None = None
    statuses: list[tuple[str, str]] = field(default_factory=list)
    anchors: list[str] = field(default_factory=list)
    quotations: list[str] = field(default_factory=list)  # quoted paths
    revision: str | None = None


@dataclass(frozen=True)
class Loss:
    """One construct a declaration states that the records do not keep: the declaration,
    the message's words, the figure that counts it and the construct as stated."""

    declared: Declared
    what: str
    figure: str
    stated: str

    @property
    def kind(self) -> str:
        return CONSTRUCT_KINDS.get(self.figure, self.figure)


@dataclass
class Structure:
    """The structure figures of one import: (kept, stated) per figure, and the losses."""

    stated: dict[str, int] = field(default_factory=lambda: dict.fromkeys(FIGURES, 0))
    kept: dict[str, int] = field(default_factory=lambda: dict.fromkeys(FIGURES, 0))
    losses: list[Loss] = field(default_factory=list)

    def add(self, figure: str, held: bool, declared: Declared, what: str, stated: str | None = None) -> None:
        """Count one construct of ``figure``; a loss keeps the construct as ``stated`` (else ``what``)."""
        self.stated[figure] += 1
        if held:
            self.kept[figure] += 1
        else:
            self.losses.append(Loss(declared, what, figure, stated or what))

    @property
    def whole(self) -> bool:
        return not self.losses

    def summary(self) -> str:
        """``records 33 of 34, labels 33 of 33, …, revisions 0 of 0``: every figure, every time."""
        return ", ".join(f"{name} {self.kept[name]:,} of {self.stated[name]:,}" for name in FIGURES)

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
    return total


# ---------------------------------------------------------------- the document's declarations


def declarations(text: str) -> list[Declared]:
    """Every declaration of a document, in order, with what its span states."""
    lines = document_lines(text)
    _, _, markdown, blocks = document_blocks(lines)
    found: list[Declared] = []
    open_titles: list[tuple[float, str]] = []  # (level, folded title) of the open headings
    current: Declared | None = None
    current_level = 0.0
    follows_paragraph = False
    for index, block in enumerate(blocks):
        if block.kind == "heading":
            plain = block.level or heading_level(block.lines[0], [t for _, t in open_titles], index == 0)
            if plain is None:  # a plain-text line that is not a heading after all
                continue
            level = float(plain)
            declared = _heading_declaration(block)
            in_kind = any(kind_list_of_title(title) for _, title in open_titles)
            if declared is not None and (in_kind or _in_records(open_titles)):
                kind_level = next((lv for lv, t in reversed(open_titles) if kind_list_of_title(t)), None)
                if kind_level is not None and kind_level >= level:
                    level = kind_level + 0.5  # a record heading at its kind heading's level
                while open_titles and open_titles[-1][0] >= level:
                    open_titles.pop()
                open_titles.append((level, declared.record_id.lower()))
                found.append(declared)
                current, current_level, follows_paragraph = declared, level, False
                continue
            while open_titles and open_titles[-1][0] >= level:
                open_titles.pop()
            open_titles.append((level, " ".join(block.lines[0].lower().split())))
            if current is not None and (follows_paragraph or level <= current_level):
                current = None
            follows_paragraph = False
            continue
        if not (_in_records(open_titles) or any(kind_list_of_title(t) for _, t in open_titles)):
            if current is not None and not follows_paragraph:
                _state(current, block)
            continue
        if block.kind == "table":
            found.extend(_row_declarations(block))
            current, follows_paragraph = None, False
            continue
        paragraph = _paragraph_declarations(block, markdown)
        if paragraph:
            found.extend(paragraph)
            current, follows_paragraph = paragraph[-1], True
            continue
        if current is None:
            continue
        if follows_paragraph and not (block.kind == "quote" or continues_record(block.text)):
            current = None
            continue
        _state(current, block)
    return found


def _in_records(open_titles: list[tuple[float, str]]) -> bool:
    return any(_strip_number(title) in _RECORD_SECTIONS for _, title in open_titles)


def _strip_number(title: str) -> str:
    return re.sub(r"^[0-9]+(?:\.[0-9]+)*\.?\s+", "", title)


def _leading_id(text: str) -> tuple[str, str] | None:
    """The ID that opens a text (after ``**``) and the text after it."""
    stripped = text.lstrip("*_` ")
    match = grammar().in_text.match(stripped)
    if match is None:
        return None
    after = stripped[match.end() :]
    if after and (after[0].isalnum() or after[0] in "-_"):
        return None
    return match.group(0), after


def _heading_declaration(block: Block) -> Declared | None:
    title = block.lines[0]
    if title.startswith("On "):
        return None
    found = _leading_id(title)
    if found is None:
        return None
    record_id, after = found
    dash = re.match(rf"^[*_`]*{_DASH}(?P<label>.+)\Z", after)
    label = dash.group("label").strip("*_ ") if dash else None
    return Declared(record_id, block.line, block.col, label or None)


_PARAGRAPH = re.compile(rf"^[*_`]*{_DASH}(?P<rest>\S.*)\Z", re.S)
_BARE_BOLD = re.compile(r"^(?:\*\*[.:]|[.:]\*\*)\s*(?P<rest>.*)\Z", re.S)


def _paragraph_declarations(block: Block, markdown: bool) -> list[Declared]:
    """A paragraph or list item that opens ``ID —`` (or a bold lead-in) declares its ID."""
    if block.kind == "paragraph":
        pieces = [(block.line, block.col, block.text)] if markdown else _lines(block)
    elif block.kind == "list":
        pieces = list(_items(block))
    else:
        return []
    found = []
    for line, col, text in pieces:
        declared = _paragraph_declaration(text, line, col)
        if declared is not None:
            found.append(declared)
    return found


def _paragraph_declaration(text: str, line: int, col: int) -> Declared | None:
    if not text.startswith(("*", "_")) and not text[:1].isupper():
        return None
    found = _leading_id(text)
    if found is None or re.match(r"^\s+[a-z][\w -]*?amendment", found[1]):
        return None
    record_id, after = found
    bare = _BARE_BOLD.match(after) if text.startswith("**") else None
    if bare:
        declared = Declared(record_id, line, col)
        _state_text(declared, bare.group("rest"))
        return declared
    dash = _PARAGRAPH.match(after)
    if dash is None:
        return None
    rest = dash.group("rest")
    label, body = _label(rest, text.startswith("**"))
    declared = Declared(record_id, line, col, label)
    _state_text(declared, body)
    return declared


_LABEL_END = re.compile(r"(?<![\s.][A-Za-z])\.(?=\s|\Z)|:(?=\s|\Z)")


def _label(rest: str, bold_open: bool) -> tuple[str | None, str]:
    """The declaration's label: a bold span, else the text to its first full stop or colon."""
    bold = re.match(r"^\*\*(?P<label>[^*]+?)[.:]?\*\*[.:]?\s*(?P<body>.*)\Z", rest, re.S)
    if bold is None and bold_open:  # ``**CMP-1 — Label.** Body``: the bold opened before the ID
        bold = re.match(r"^(?P<label>[^*]+?)[.:]?\*\*[.:]?\s*(?P<body>.*)\Z", rest, re.S)
    if bold:
        return bold.group("label").strip() or None, bold.group("body").strip()
    end = first_outside_code(_LABEL_END, rest)
    if end is not None:
        head, semicolon, clause = rest[: end.start()].rpartition("; ")
        if end.group() == ":" and semicolon and head.strip() and clause.lower().endswith("conclusion status"):
            # ``Label; discovery conclusion status: wired``: the clause states a status.
            return head.strip(), rest[len(head) + len(semicolon) :].strip()
        return rest[: end.start()].strip() or None, rest[end.end() :].strip()
    return rest.strip() or None, ""


def _lines(block: Block) -> list[tuple[int, int, str]]:
    return [(block.line + offset, 1, line.strip()) for offset, line in enumerate(block.lines) if line.strip()]


_ITEM = re.compile(r"^(?P<indent>\s*)(?:[-*+•]|[0-9]{1,9}[.)])\s+(?P<text>\S.*)\Z")


def _items(block: Block) -> Iterator[tuple[int, int, str]]:
    current: list[Any] | None = None
    for offset, line in enumerate(block.lines):
        match = _ITEM.match(line)
        if match and (current is None or len(match.group("indent")) == 0):
            if current is not None:
                yield current[0], current[1], current[2]
            current = [block.line + offset, match.start("text") + 1, match.group("text")]
        elif current is not None and line.strip():
            current[2] += " " + line.strip()
    if current is not None:
        yield current[0], current[1], current[2]


def _row_declarations(block: Block) -> list[Declared]:
    """A register's rows: a table whose first column is an ID column declares one record a row."""
    rows = table_rows(block.lines, block.line)
    if len(rows) < 2:
        return []
    header = [column_meaning(cell) for cell in rows[0].cells]
    if not header or header[0] not in ("id", "source id", "source"):
        return []
    revision_columns = [i for i, title in enumerate(header) if "revision" in title or "capture" in title]
    found: dict[str, Declared] = {}
    for row in rows[1:]:
        first = row.cells[0].strip().strip("`*")
        match = grammar().in_text.fullmatch(first)
        if match is None:
            continue
        declared = found.setdefault(first, Declared(first, row.line, 1))
        for index in revision_columns:
            cell = row.cells[index] if index < len(row.cells) else ""
            if declared.revision is None and _COMMIT.search(cell):
                declared.revision = _COMMIT.search(cell).group(0)  # type: ignore[union-attr]
    return list(found.values())


def _state(declared: Declared, block: Block) -> None:
    """What one block of a declaration's span states of its record."""
    if block.kind == "quote":
        quote = block_quote(block.lines)
        if quote.path is not None:
            declared.quotations.append(quote.path)
        return
    if block.kind in ("paragraph", "list"):
        _state_text(declared, "\n".join(block.lines))


def _state_text(declared: Declared, text: str) -> None:
    for match in _STATUS.finditer(text):
        declared.statuses.append(
            (" ".join(match.group("label").lower().split()), match.group("value").lower())
        )
    declared.anchors.extend(evidence_anchors(text))
    if kinds.has_role(declared.record_id, kinds.Role.EVIDENCE_SOURCE):
        commit = _COMMIT.search(text)
        if commit and declared.revision is None:
            declared.revision = commit.group(0)


# ---------------------------------------------------------------- measured against the files


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


def measure(text: str, files: Iterable[dict[str, Any]]) -> Structure:
    """The structure figures of one document against the files written from it."""
    files = list(files)
    written = records_written(files)
    supplied = supplied_written(files)
    structure = Structure()
    seen: set[str] = set()
    for declared in declarations(text):
        if declared.record_id in seen:
            continue  # a record stated twice (a source per evidence layer) counts once
        seen.add(declared.record_id)
        record = written.get(declared.record_id)
        lost = BECAME_SUPPLIED if declared.record_id in supplied else "is not a record of the files written"
        stated = f"{declared.record_id} — {declared.label}" if declared.label else declared.record_id
        structure.add("records", record is not None, declared, lost, stated)
        if record is None:
            continue
        if declared.label:
            held = words(str(record.get("label") or "")) in _label_forms(declared.label)
            what = f"label {declared.label!r} is not the record's label"
            structure.add("labels", held, declared, what, declared.label)
        for label, value in dict.fromkeys(declared.statuses):
            structure.add("statuses", _holds_status(record, label, value), declared, f"{label}: {value}")
        evidence = {str(anchor) for anchor in record.get("evidence") or []}
        for amendment in record.get("amendments") or []:  # an amendment's anchors are its own
            evidence.update(str(anchor) for anchor in amendment.get("evidence") or [])
        for anchor in dict.fromkeys(declared.anchors):
            structure.add("anchors", anchor in evidence, declared, f"evidence anchor {anchor}", anchor)
        # Each quotation of the record answers one written after its declaration (counted, so
        # a record of many quotations is measured in linear time).
        quoted = Counter(str(q.get("path")) for q in record.get("quotes") or [] if isinstance(q, dict))
        for path in declared.quotations:
            held = quoted[path] > 0
            quoted[path] -= 1
            structure.add("quotations", held, declared, f"quotation of {path}", path)
        if declared.revision is not None:
            revision = str(record.get("revision") or "")
            held = bool(revision) and words(declared.revision)[-1] in words(revision)
            structure.add("revisions", held, declared, f"revision {declared.revision}", declared.revision)
    return structure


def _label_forms(label: str) -> list[list[str]]:
    """The words a declared label may keep: all of it, or, when it ends ``; <status>``
    (``Session continuity; wired``), the part before (the status is the record's)."""
    forms = [words(label)]
    head, _, tail = label.rpartition("; ")
    if head and re.match(rf"(?:{_STATUS_VALUES})\b", tail.strip(), re.I):
        forms.append(words(head))
    return forms


def _loss_message(record_id: str, what: str) -> str:
    if what.startswith(("is ", "label ")):
        return f"{record_id} {what}"
    return f"{record_id}'s {what} is not in its record"


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
    """Measure an import's structure and report each loss (KB614, error) at its declaration."""
    structure = measure(text, list(files))
    found = [
        error(
            KB614,
            _loss_message(loss.declared.record_id, loss.what),
            display,
            loss.declared.line,
            loss.declared.col,
            hint="The import lost structure the document states; report the form, or add it by hand.",
        )
        for loss in structure.losses[:MAX_REPORTED]
    ]
    if len(structure.losses) > MAX_REPORTED:
        found.append(
            error(KB614, f"and {len(structure.losses) - MAX_REPORTED:,} more structure losses", display)
        )
    return structure, found
