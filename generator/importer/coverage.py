"""What an import kept: every unit of the document measured against the records written.

The document is cut into units independently of the importer's own parse: each sentence
of a paragraph or list item, each table cell, each heading, each quotation line and each
frontmatter value. The records are flattened into one stream of words (every key and
string value of every file, in the order the files hold them). A unit is kept when its
words, folded for case and markup (``**``, backticks, links, punctuation), occur as one
contiguous run of that stream; a unit that opens with a ``Label:`` the model names may
also be kept without its label, since the label then became the key.

A unit not found whole may be kept clause by clause (split at ``—``, ``:`` and ``;``): the
importer splits a declaration into ID, label and body and a labelled sentence into a key
and its value, and the models order those fields as they declare them.

A unit not found is reported at its line (KB611, error): the import lost or changed it.

The search is linear in practice: the stream is indexed by its word trigrams once, and a
unit is looked up at the positions of its rarest trigram only, at most ``MAX_PROBES``
of them (a unit that would need more, which only a document repeating one phrase
thousands of times produces, is reported as not verified rather than searched longer).
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import yaml

from generator.diagnostics import Diagnostic, Rule, error
from generator.importer.columns import FIELD_PREFIXES, model_names
from generator.importer.document import document_blocks, document_lines
from generator.importer.folding import words
from generator.importer.form_registry import active_forms
from generator.importer.frontmatter_shape import unsafe_shape
from generator.importer.markdown_blocks import Block
from generator.importer.recognisers.tables import is_separator_row
from generator.model.ids import grammar

KB612 = Rule(
    "KB612",
    "import-text-lost",
    "A sentence, list item, table cell or heading of the document is not in the records written.",
    doc=(
        "`kbgen import`, error: a sentence, list item, table cell, heading, quotation line or frontmatter "
        "value of the document is not in the records written (located at the document's line; after 200, the "
        "rest are counted)"
    ),
)

# A sentence ends at . ! or ? (after optional closing marks) followed by white space.
_SENTENCE_END = re.compile(r"(?<=[.!?])[*_`)\"'\]]*\s+")
_FENCE = re.compile(r"^\s{0,3}(```|~~~)")
_LIST_ITEM = re.compile(r"^\s*(?:[-*+]|[0-9]{1,9}[.)])\s+")
_LEADING_LABEL = re.compile(
    r"^\W*(?P<label>[A-Za-z][\w /()'→,-]{0,80}?)\W*:(?:\*\*)?\s+(?P<rest>\S.*)\Z", re.S
)
_ATTRIBUTION = re.compile(r"^\s*(?:---|—)\s+")
# A line opening with a label, bold or not (``Route function: …``, ``**Run state:** …``).
_LABELLED_LINE = re.compile(r"^(?:\*\*)?[A-Z][\w /()'-]{0,60}:(?:\*\*)? \S")

_CLAUSE = re.compile(r"\s+[—–]\s*|\s*[—–]\s+|:\s+|;\s+|\.\*\*\s*|\*\*\.\s*")
_SECTION_NUMBER = re.compile(r"^[0-9]+(?:\.[0-9]+)*\.?\s+")


@lru_cache(maxsize=8)
def _owner(in_text: str) -> re.Pattern[str]:
    """A record's ID opening a unit (``On RTE-1: …``), from the grammar's ID-in-text pattern."""
    return re.compile(r"^\W*(?:On\s+)?(?P<id>" + in_text + r")\W*")


MAX_PROBES = 256
MAX_REPORTED = 200  # lost units reported one by one; the rest are counted


@dataclass(frozen=True)
class Unit:
    """One measured piece of the document: its text and where it starts (1-based)."""

    kind: str  # "sentence", "item", "cell", "heading", "quote", "frontmatter"
    text: str
    line: int
    col: int


@dataclass(frozen=True)
class Coverage:
    """The units of a document and those the records do not hold."""

    units: int
    missing: list[Unit]
    unverified: list[Unit]

    @property
    def kept(self) -> int:
        return self.units - len(self.missing) - len(self.unverified)


# ---------------------------------------------------------------- the document's units


def document_units(text: str) -> list[Unit]:
    """Every unit of a document (Markdown or plain text), in order, read from the blocks the
    importer reads (``document.document_blocks``): the two agree on what is a heading, a
    table, a list or a quotation."""
    lines = document_lines(text)
    units: list[Unit] = []
    if lines and lines[0].strip() == "---":
        end = next((i for i in range(1, len(lines)) if lines[i].strip() == "---"), None)
        if end is not None:
            units.extend(_frontmatter_units(lines[1:end]))
    _, _, _, blocks = document_blocks(lines)
    for block in blocks:
        units.extend(_block_units(block))
    return [unit for unit in units if words(unit.text)]


def _frontmatter_units(lines: list[str]) -> Iterator[Unit]:
    """Each scalar value of the frontmatter (keys are structure), at its line; block, flow
    and JSON forms alike. Frontmatter that is not YAML is measured line by line."""
    text = "\n".join(lines)
    try:
        node = None if unsafe_shape(text) else yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.YAMLError:
        node = None
    if node is None:
        for offset, line in enumerate(lines, start=2):
            if line.strip():
                yield Unit("frontmatter", line, offset, 1)
        return
    stack: list[yaml.Node] = [node]
    while stack:
        current = stack.pop()
        if isinstance(current, yaml.MappingNode):
            stack.extend(value for _, value in reversed(current.value))
        elif isinstance(current, yaml.SequenceNode):
            stack.extend(reversed(current.value))
        elif isinstance(current, yaml.ScalarNode) and current.value not in ("", "null", "~"):
            mark = current.start_mark
            yield Unit("frontmatter", current.value, mark.line + 2, mark.column + 1)


def _block_units(block: Block) -> Iterator[Unit]:
    """The units of one block: a heading's title, a quotation's lines and attribution parts,
    a table's cells, a list's items, a fence's lines, a paragraph's sentences."""
    if block.kind == "heading":
        yield Unit("heading", block.lines[0], block.line, block.col)
    elif block.kind == "quote":
        yield from _quote_units(block)
    elif block.kind == "table":
        for offset, line in enumerate(block.lines):
            yield from _row_units(line, block.line + offset)
    elif block.kind == "list":
        yield from _item_units(block)
    elif block.kind == "fence":
        for offset, line in enumerate(block.lines):
            if line.strip() and not _FENCE.match(line):
                yield Unit("quote", line, block.line + offset, 1)
    else:
        yield from _paragraph_units(block)


def _quote_units(block: Block) -> Iterator[Unit]:
    for offset, line in enumerate(block.lines):
        body = re.sub(r"^\s*>\s?", "", line)
        if _ATTRIBUTION.match(body):
            for part in attribution_parts(_ATTRIBUTION.sub("", body)):
                kind = "pin" if _PIN.fullmatch(part.strip(" `")) else "quote"
                yield Unit(kind, part, block.line + offset, 1)
        else:
            yield Unit("quote", body, block.line + offset, 1)


def _row_units(line: str, number: int) -> Iterator[Unit]:
    """A table row's cells: a pipe row (its separator row has none) or a tab row."""
    if line.lstrip().startswith("|"):
        if not is_separator_row(line, dashes=2):
            yield from _cells(line, number)
        return
    col = 1
    for cell in line.split("\t"):
        if cell.strip():
            yield from _sentences([(number, cell)], "cell", col)
        col += len(cell) + 1


def _item_units(block: Block) -> Iterator[Unit]:
    """Each item of a list (a marker line and its continuation lines) as sentences."""
    item: list[tuple[int, str]] = []
    for offset, line in enumerate(block.lines):
        marker = _LIST_ITEM.match(line)
        if marker and item:
            yield from _sentences(item, "item")
            item = []
        if marker:
            item.append((block.line + offset, line[marker.end() :]))
        elif line.strip():
            item.append((block.line + offset, line))
    if item:
        yield from _sentences(item, "item")


def _paragraph_units(block: Block) -> Iterator[Unit]:
    """A paragraph's sentences; a labelled line (``Route function: …``) starts a field of its
    own, and a plain-text line holding tabs is a table row."""
    paragraph: list[tuple[int, str]] = []
    for offset, line in enumerate(block.lines):
        number = block.line + offset
        if "\t" in line.strip():
            yield from _sentences(paragraph, "sentence")
            paragraph = []
            yield from _row_units(line, number)
            continue
        if paragraph and _LABELLED_LINE.match(line):
            yield from _sentences(paragraph, "sentence")
            paragraph = []
        if line.strip():
            paragraph.append((number, line))
    yield from _sentences(paragraph, "sentence")


# A quotation's pin: a commit, abbreviated or full, or a capture's digest.
_PIN = re.compile(r"(?:sha256:)?[0-9a-fA-F]{7,64}")
_RANGE = re.compile(r":(?P<ranges>[0-9][0-9,\s-]*)`?\Z")
_SAME_END = re.compile(r"\b([0-9]+)-\1\b")


def attribution_parts(text: str) -> list[str]:
    """An attribution's path, line ranges and pin: each is kept in a field of its own (a
    range ``5-5`` is the line ``5``)."""
    parts: list[str] = []
    for piece in re.split(r"\s@\s", text):
        ranges = _RANGE.search(piece.strip())
        if ranges:
            parts.append(piece.strip()[: ranges.start()])
            parts.append(_SAME_END.sub(r"\1", ranges.group("ranges")))
        else:
            parts.append(piece)
    return parts


def _cells(line: str, number: int) -> Iterator[Unit]:
    text = line.strip()
    text = text[1:] if text.startswith("|") else text
    text = text[:-1] if text.endswith("|") and not text.endswith("\\|") else text
    col = line.index("|") + 2
    for cell in re.split(r"(?<!\\)\|", text):
        if cell.strip():
            yield from _sentences([(number, cell)], "cell", col)
        col += len(cell) + 1


def _sentences(lines: list[tuple[int, str]], kind: str, col: int = 1) -> Iterator[Unit]:
    """The sentences of a paragraph, each at the line it starts on."""
    joined = ""
    starts: list[tuple[int, int]] = []  # (offset in joined, line number)
    for number, text in lines:
        if joined:
            joined += " "
        starts.append((len(joined), number))
        joined += text.strip()
    position = 0
    line_index = 0
    for match in [*_SENTENCE_END.finditer(joined), None]:
        end = match.start() if match else len(joined)
        piece = joined[position:end].strip()
        while line_index + 1 < len(starts) and starts[line_index + 1][0] <= position:
            line_index += 1
        if piece:
            yield Unit(kind, piece, starts[line_index][1], col)
        if match:
            position = match.end()


# ---------------------------------------------------------------- the records' words


def record_words(files: Iterable[Any], structural: frozenset[str] = frozenset()) -> list[str]:
    """Every key and scalar value of the record files, as one stream of folded words; keys
    in ``structural`` (the models' field names) are structure, not text, and are left out."""
    stream: list[str] = []
    stack: list[Any] = list(reversed(list(files)))
    while stack:
        value = stack.pop()
        if isinstance(value, dict):
            for key, item in reversed(list(value.items())):
                stack.append(item)
                if str(key) not in structural:
                    stack.append(str(key))
        elif isinstance(value, list | tuple):
            stack.extend(reversed(value))
        elif value is not None and not isinstance(value, bool):
            stream.extend(words(str(value)))
    return stream


class _Index:
    """The record stream, found by word trigram; words are numbered for cheap comparison."""

    def __init__(self, stream: list[str]) -> None:
        numbers: dict[str, int] = {}
        self.stream = [numbers.setdefault(word, len(numbers)) for word in stream]
        self.numbers = numbers
        self.sorted_words: list[str] | None = None
        self.grams: dict[tuple[int, ...], list[int]] = {}
        for n in (1, 2, 3):
            for position in range(len(self.stream) - n + 1):
                self.grams.setdefault(tuple(self.stream[position : position + n]), []).append(position)

    def has_prefix(self, word: str) -> bool:
        """Whether some word of the stream starts with ``word``."""
        if self.sorted_words is None:
            self.sorted_words = sorted(self.numbers)
        at = bisect.bisect_left(self.sorted_words, word)
        return at < len(self.sorted_words) and self.sorted_words[at].startswith(word)

    def find(self, unit_words: list[str]) -> bool | None:
        """True when the words occur contiguously; None when too many probes would be needed."""
        numbers = [self.numbers.get(word) for word in unit_words]
        if any(number is None for number in numbers):
            return False
        sequence = [n for n in numbers if n is not None]
        n = min(3, len(sequence))
        best: tuple[int, list[int]] | None = None
        for offset in range(len(sequence) - n + 1):
            positions = self.grams.get(tuple(sequence[offset : offset + n]), [])
            if not positions:
                return False
            if best is None or len(positions) < len(best[1]):
                best = (offset, positions)
        assert best is not None
        offset, positions = best
        for probes, position in enumerate(positions):
            if probes >= MAX_PROBES:
                return None
            begin = position - offset
            if begin >= 0 and self.stream[begin : begin + len(sequence)] == sequence:
                return True
        return False


def _is_label(unit: Unit, unit_words: list[str], labels: frozenset[str]) -> bool:
    """A field's own label; a table header may also name its field by a prefix."""
    joined = " ".join(unit_words)
    if joined in labels:
        return True
    return unit.kind == "cell" and any(joined.startswith(" ".join(words(p))) for p in FIELD_PREFIXES)


def measure(
    text: str,
    files: Iterable[Any],
    labels: frozenset[str] = frozenset(),
    structural: frozenset[str] = frozenset(),
    markers: tuple[tuple[str, ...], ...] = (),
) -> Coverage:
    """Measure a document against the record files an import made of it.

    ``labels`` are the folded field labels the model names (``claimed operation``,
    ``conclusion status``, …): a unit opening with one, or consisting of one (a table's
    header cell), may be kept without it. ``structural`` are the models' field names.
    ``markers`` are the folded words a declaration form opens with before the ID (its
    structure, as ``On`` is an annotation's).
    """
    index = _Index(record_words(files, structural))
    units = document_units(text)
    missing: list[Unit] = []
    unverified: list[Unit] = []
    for unit in units:
        unit_words = words(unit.text)
        if unit.kind == "pin":
            # An abbreviated commit is the commit it abbreviates (a source's revision, a pin).
            found: bool | None = index.has_prefix(unit_words[-1])
        elif _is_label(unit, unit_words, labels) or (
            unit.kind == "heading" and " ".join(words(_SECTION_NUMBER.sub("", unit.text))) in labels
        ):
            found = True  # a field's or a section's own title (a section's number is structure)
        else:
            found = index.find(unit_words)
        if found is not True:
            label = _LEADING_LABEL.match(unit.text)
            if label and " ".join(words(label.group("label"))) in labels:
                rest = words(label.group("rest"))
                found = index.find(rest) if rest else True
        if found is not True:
            marked = next((m for m in markers if unit_words[: len(m)] == list(m)), None)
            owner = _owner(grammar().in_text.pattern).match(
                _after_words(unit.text, len(marked)) if marked else unit.text
            )
            if owner:
                # A record's ID opening a unit is structure (the record it is declared on or
                # that an annotation or amendment names); the rest is its text.
                rest = words(owner.string[owner.end() :])
                found = index.find(rest) if rest else index.find(words(owner.group("id")))
        if found is False:
            # The importer may have split the unit into fields (a label and a body, a status
            # and its qualifier): it is kept when each of its clauses is.
            clauses = [words(part) for part in _CLAUSE.split(unit.text)]
            clauses = [clause for clause in clauses if clause]
            if len(clauses) > 1:
                # A clause that is a field's own label (``later read-back``) became its key.
                results = [True if " ".join(clause) in labels else index.find(clause) for clause in clauses]
                found = None if None in results else all(results)
        if found is None:
            unverified.append(unit)
        elif not found:
            missing.append(unit)
    return Coverage(len(units), missing, unverified)


def lost_text(text: str, files: Iterable[Any], display: str) -> tuple[Coverage, list[Diagnostic]]:
    """Measure an import and report each unit it did not keep (KB612, error), at its line."""
    names, labels = model_names()
    markers = tuple(tuple(words(marker)) for form in active_forms().forms for marker in form.markers)
    coverage = measure(text, files, labels, names, markers)
    found = [
        error(
            KB612,
            f"this {unit.kind} is not in the records written: {_excerpt(unit.text)!r}",
            display,
            unit.line,
            unit.col,
            hint="The importer could not place it; add it to the records by hand, or report the form.",
        )
        for unit in coverage.missing
    ]
    found.extend(
        error(
            KB612,
            f"this {unit.kind} repeats a phrase too often to be verified: {_excerpt(unit.text)!r}",
            display,
            unit.line,
            unit.col,
        )
        for unit in coverage.unverified
    )
    if len(found) > MAX_REPORTED:
        rest = len(found) - MAX_REPORTED
        found = found[:MAX_REPORTED]
        last = found[-1]
        found.append(
            error(KB612, f"and {rest:,} more units not in the records written", display, last.line, last.col)
        )
    return coverage, found


def _after_words(text: str, count: int) -> str:
    """``text`` after its first ``count`` words."""
    found = list(re.finditer(r"[^\W_]+", text))
    return text[found[count - 1].end() :] if 0 < count <= len(found) else text


def combined(parts: Iterable[Coverage]) -> Coverage:
    """The coverage of several documents (a set's members) as one figure."""
    units, missing, unverified = 0, [], []
    for part in parts:
        units += part.units
        missing.extend(part.missing)
        unverified.extend(part.unverified)
    return Coverage(units, missing, unverified)


def _excerpt(text: str, limit: int = 80) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"
