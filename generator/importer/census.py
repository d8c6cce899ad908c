"""The census of a document: every construct that carries structure, counted from its text.

An import's figures must see what its recognisers miss, so this count shares nothing with
them (``tests/project/test_architecture.py`` holds it so): it reads the document's blocks
(the one Markdown adapter, the same blocks the importer reads) with the grammar of
``specs/document-forms.md`` alone, before any form is tried. Each construct is located at
the document's line and, where the grammar says whose it is, attributed to a record:

- **records**: an ID opening a heading, a paragraph, a list item or a bold lead-in
  (``CMP-1 — Label``, ``**OBJ-1.**``) in a records section (a kind's section, 'Shared
  records', the source register), or the first cell of a register row there (a source
  stated per evidence layer, its ID repeated, is one record);
- **labels**: the label such a declaration writes;
- **statuses**: each ``<label> conclusion status: <value>`` statement, and each
  ``Status: [<layer>] <value>`` one (``- Status: implementation wired; …``), one per
  statement;
- **anchors**: each evidence span: ``SRC-n path[:lines]`` and document locators
  (``SRC-1 §4.1``) in prose, a backticked ``path:lines`` (each range of a multi-range
  anchor its own), and each path of an ``Evidence:``/``Source:`` clause (``- Evidence:
  `a`, `b` @ <commit>``: every path at that revision);
- **quotations**: each block quote whose last line, or the line after it, attributes it
  (``--- path @ commit``, ``— SRC-2 path:lines``);
- **revisions**: the commit or capture digest a source's declaration (or register row)
  states, once per source.

Attribution follows the forms: a record's span runs from its declaration over its body to
the next declaration or heading that is not its own subsection: the paragraphs after a
declaration that holds only its label, the lists and quotations right after any
declaration, and the subsections of a heading declaration. A paragraph that names a
record first (``For OBJ-1, …``, ``Memory-specific continuation on RTE-2: …``) is that
record's, wherever it stands (a paragraph naming several, ``For CMP-5, CMP-6 and CMP-7,``,
is no one record's). A construct the grammar gives to no record is its section's own prose
(a synthesis that cites a file, a quotation under a subsection of its own) and is not
counted: what is counted is each record's structure. Counting is linear in the document.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache

from generator.importer.columns import continues_record
from generator.importer.document import document_blocks, document_lines
from generator.importer.markdown_blocks import Block
from generator.importer.sections import heading_level, kind_list_of_title
from generator.model import kinds
from generator.model.anchors import find_anchors
from generator.model.ids import grammar
from generator.model.vocab import ConclusionStatus

FIGURES = ("records", "labels", "statuses", "anchors", "quotations", "revisions")


@dataclass(frozen=True)
class Construct:
    """One construct of the document, where it is written and whose it is by the grammar.

    ``key`` is what the records must hold for it to be kept: the ID (records), the label,
    ``label: value`` (statuses), ``path:range``, ``path`` or ``SRC-n §locator`` (anchors),
    the quoted path (quotations), the digest (revisions)."""

    figure: str  # one of FIGURES
    line: int
    col: int
    key: str
    owner: str  # the record the grammar attributes it to


_VALUES = "|".join(
    re.escape(s.value) for s in sorted(ConclusionStatus, key=lambda s: len(s.value), reverse=True)
)
# ``Implementation conclusion status: wired``, also after ``. `` or ``; `` inside prose, and
# after ``, `` when the label names its layer (``wired, actual uptake conclusion status: …``).
_LABELLED_STATUS = re.compile(
    r"(?:^|(?<=[.;:]\s)|(?<=\n)|(?<=,\s)(?=[A-Za-z][\w /'-]{0,110}?\sconclusion status:))(?:[-*+]\s+)?\**"
    r"(?P<label>(?:[A-Za-z][\w ,/'-]{0,110}?\s)?conclusion status)\**\s*:\s*\**"
    rf"(?P<value>{_VALUES})\b",
    re.I,
)
# ``Status: implementation wired; …``: the layer words before the controlled value.
_BARE_STATUS = re.compile(
    r"(?:^|(?<=[.;]\s)|(?<=\n))(?:[-*+]\s+)?\**Status\**\s*:\**\s*\**"
    rf"(?P<layer>(?:[A-Za-z/-]+\s){{0,3}}?)(?P<value>{_VALUES})\b",
    re.I,
)
_COMMIT = re.compile(r"\b[0-9a-f]{40}\b|(?:sha-?256:?\s*`?)[0-9a-fA-F]{64}\b", re.I)
_RANGES = r"[0-9]+(?:-[0-9]+)?(?:,[0-9]+(?:-[0-9]+)?)*"
# A backticked file path with lines: ``src/a.py:10-20``, ``a.py:102-214,287-322``.
_TICKED_LINES = re.compile(rf"`(?P<path>[^`\s:]+(?:/[^`\s:]*|\.[A-Za-z0-9]+)):(?P<ranges>{_RANGES})`")
# A backticked path in an evidence clause: a slash or a file extension.
_TICKED_PATH = re.compile(r"`(?P<path>[^`\s:]*(?:/[^`\s:]*|\.[A-Za-z0-9]+))(?::(?P<ranges>[0-9,-]+))?`")
_LEAD_IN = re.compile(r"(?:^|(?<=[\s(*]))(?:Evidence|Sources?)\**\s*:", re.I)
_ATTRIBUTION = re.compile(r"^\s*(?:>\s*)?(?:---|—|–)\s*(?P<rest>\S.*)\Z")
_QUOTED_PATH = re.compile(r"`?(?:[A-Z][A-Z0-9]*-[0-9A-Za-z-]+\s+)?`?(?P<path>[^`\s:@]+)")
# ``For OBJ-1, …``, ``Memory-specific continuation on RTE-2: …``: a paragraph that goes on
# with a record it names first.
_FOLLOW_UP = re.compile(
    r"^[*_]*(?:For|(?:[\w/-]+\s){0,3}continuation (?:on|of))\s+[*`]*"
    r"(?P<id>[A-Za-z][A-Za-z0-9-]*-[A-Za-z0-9-]+)"
    r"[*`]*\s*(?:,|:)(?!\s*[*`]*[A-Za-z][A-Za-z0-9]*-[0-9])",
    re.I,
)
# ``RTE-10 memory amendment — …``: an amendment of the record it opens with.
_AMENDMENT = re.compile(r"^[*_]*(?P<id>[A-Za-z][A-Za-z0-9-]*-[A-Za-z0-9-]+)[*_]*\s+[a-z][\w -]*?amendment\b")
_DASH = r"\s*(?:—|–|--?)\s*"
_PARAGRAPH = re.compile(rf"^[*_`]*{_DASH}(?P<rest>\S.*)?\Z", re.S)
_BARE_BOLD = re.compile(r"^(?:\*\*[.:]|[.:]\*\*)\s*(?P<rest>.*)\Z", re.S)
_LABEL_END = re.compile(r"(?<![\s.][A-Za-z])\.(?=\s|\Z)|:(?=\s|\Z)")
_CODE_SPAN = re.compile(r"`[^`]*`")
_ITEM = re.compile(r"^(?P<indent>\s*)(?:[-*+•]|[0-9]{1,9}[.)])\s+(?P<text>\S.*)\Z")
# The sections whose blocks hold declarations besides a kind's own section.
_RECORD_SECTIONS = frozenset({"shared records", "source register"})


# The owner of a construct the grammar gives to no record: a quotation, evidence span or
# status a section's own prose states (a synthesis citing a file, a quotation under a
# subsection of its own). It is counted apart from the records' figures.
PROSE = ""
OUTSIDE_FIGURES = ("quotations", "anchors", "statuses")


def census(text: str) -> list[Construct]:
    """Every construct of the document, in document order."""
    _, _, markdown, blocks = document_blocks(document_lines(text))
    return list(_Walk(markdown).constructs(blocks))


def counts(constructs: list[Construct]) -> dict[str, int]:
    """How many constructs of each figure a record holds by the grammar (every figure, zero
    included; the sections' own prose is ``outside_records``)."""
    found = dict.fromkeys(FIGURES, 0)
    for construct in constructs:
        if construct.owner != PROSE:
            found[construct.figure] += 1
    return found


def outside_records(constructs: list[Construct]) -> dict[str, int]:
    """How many quotations, evidence spans and statuses the sections' own prose states."""
    found = dict.fromkeys(OUTSIDE_FIGURES, 0)
    for construct in constructs:
        if construct.owner == PROSE:
            found[construct.figure] += 1
    return found


class _Walk:
    """One pass over a document's blocks: the open headings and the record in force."""

    def __init__(self, markdown: bool) -> None:
        self.markdown = markdown
        self.open: list[tuple[float, str]] = []  # (level, folded title) of the open headings
        self.owner: str | None = None
        self.owner_level = 0.0  # a heading declaration's level (0: declared by a paragraph)
        self.body_follows = False  # the paragraphs after the declaration are its body
        self.after_declaration = False  # the block before was the owner's declaration
        self.declared: set[str] = set()
        self.revised: set[str] = set()  # the sources whose revision is counted

    def constructs(self, blocks: list[Block]) -> Iterator[Construct]:
        for index, block in enumerate(blocks):
            if block.kind in ("fence", "html"):
                continue  # verbatim: never a declaration, never structure
            if block.kind == "heading":
                yield from self._heading(block, index == 0)
                continue
            following = blocks[index + 1] if index + 1 < len(blocks) else None
            yield from self._block(block, following)

    # ------------------------------------------------------------------ headings

    def _heading(self, block: Block, first: bool) -> Iterator[Construct]:
        title = block.lines[0]
        plain = block.level or heading_level(title, [t for _, t in self.open], first)
        if plain is None:  # a plain-text line that is not a heading after all
            yield from self._block(block, None)
            return
        level = float(plain)
        declared = None if title.startswith("On ") else _leading_id(title)
        if declared is not None and self._in_records():
            record_id, after = declared
            kind_level = next((lv for lv, t in reversed(self.open) if kind_list_of_title(t)), None)
            if kind_level is not None and kind_level >= level:
                level = kind_level + 0.5  # a record heading at its kind heading's level
            self._close(level)
            self.open.append((level, record_id.lower()))
            dash = re.match(rf"^[*_`]*{_DASH}(?P<label>.+)\Z", after)
            label = dash.group("label").strip("*_ ") if dash else None
            yield from self._declare(record_id, label, "", block.line, block.col, level)
            return
        self._close(level)
        self.open.append((level, " ".join(title.lower().split())))
        if self.owner is not None and (self.owner_level == 0 or level <= self.owner_level):
            self._release()

    def _close(self, level: float) -> None:
        while self.open and self.open[-1][0] >= level:
            self.open.pop()

    def _in_records(self) -> bool:
        return any(
            kind_list_of_title(title) or _strip_number(title) in _RECORD_SECTIONS for _, title in self.open
        )

    def _release(self) -> None:
        self.owner, self.owner_level, self.body_follows, self.after_declaration = None, 0.0, False, False

    # ------------------------------------------------------------------ declarations

    def _declare(
        self, record_id: str, label: str | None, body: str, line: int, col: int, level: float
    ) -> Iterator[Construct]:
        self.owner, self.owner_level = record_id, level
        self.body_follows = level == 0 and not body.strip()
        self.after_declaration = True
        if record_id not in self.declared:
            self.declared.add(record_id)
            stated = f"{record_id} — {label}" if label else record_id
            yield Construct("records", line, col, stated, record_id)
            if label:
                yield Construct("labels", line, col, label, record_id)
        yield from _statements(body, line, record_id, self.revised)

    # ------------------------------------------------------------------ other blocks

    def _block(self, block: Block, following: Block | None) -> Iterator[Construct]:
        in_records = self._in_records()
        if block.kind == "table":
            self._release()
            if in_records:
                yield from self._rows(block)
            return
        if block.kind == "quote":
            attribution = _attribution(block, following)
            if attribution is not None:
                owner = self.owner if self.owner is not None else PROSE
                yield Construct("quotations", block.line, block.col, _quoted_path(attribution), owner)
            return
        after_declaration, self.after_declaration = self.after_declaration, False
        pieces = _pieces(block, self.markdown)
        if block.kind == "paragraph" and self._attribution_line(pieces):
            return  # a quotation's attribution line, counted with its quotation
        for line, col, text in pieces:
            declared = _paragraph_declaration(text) if in_records else None
            if declared is not None:
                record_id, label, body = declared
                yield from self._declare(record_id, label, body, line, col, 0)
                continue
            named = _FOLLOW_UP.match(text) or _AMENDMENT.match(text)
            if named is not None and _names_another(text, named.group("id"), named.end()):
                named = None  # ``For BAP-20, … BAP-21's …``: several records' paragraph
            if named is not None and grammar().in_text.fullmatch(named.group("id")):
                record_id = named.group("id")
                yield from _statements(text[named.end() :], line, record_id, self.revised, named.end())
                # The quotations right after it are the record's too.
                self.owner, self.owner_level, self.body_follows = record_id, 0.0, False
                self.after_declaration = True
                continue
            goes_on = self.owner_level > 0 or self.body_follows or continues_record(text)
            if self.owner is not None and not (goes_on or (after_declaration and block.kind == "list")):
                self._release()  # prose after a record that does not continue it
            if self.owner is not None:
                yield from _statements(text, line, self.owner, self.revised)
            else:  # the section's own prose: counted apart, it is no record's structure
                yield from _statements(text, line, PROSE, self.revised)

    def _attribution_line(self, pieces: list[tuple[int, int, str]]) -> bool:
        return len(pieces) == 1 and _ATTRIBUTION.match(pieces[0][2]) is not None and "@" in pieces[0][2]

    def _rows(self, block: Block) -> Iterator[Construct]:
        """A register: a table whose first column is an ID column declares a record a row
        (a source stated per evidence layer repeats its ID: one record), and its revision
        column states the source's revision."""
        rows = [(block.line + offset, _cells(line)) for offset, line in enumerate(block.lines)]
        rows = [(line, cells) for line, cells in rows if cells and not _separator(cells)]
        if len(rows) < 2 or _fold(rows[0][1][0]) not in _ID_COLUMNS:
            return
        revision_columns = [
            i for i, title in enumerate(rows[0][1]) if any(word in _fold(title) for word in _REVISION_WORDS)
        ]
        for row_line, cells in rows[1:]:
            first = cells[0].strip().strip("`*")
            if not grammar().in_text.fullmatch(first):
                continue
            if first not in self.declared:
                self.declared.add(first)
                yield Construct("records", row_line, 1, first, first)
            if not kinds.has_role(first, kinds.Role.EVIDENCE_SOURCE):
                yield from _statements(" | ".join(cells[1:]), row_line, first, self.revised)
                continue
            if first in self.revised:
                continue
            for index in revision_columns:
                commit = _COMMIT.search(cells[index]) if index < len(cells) else None
                if commit is not None:
                    self.revised.add(first)
                    yield Construct("revisions", row_line, 1, _digest(commit.group(0)), first)
                    break


# ---------------------------------------------------------------- the grammar of one text


_ID_COLUMNS = frozenset({"id", "source id", "source", "record", "record id"})
_REVISION_WORDS = ("revision", "capture", "commit")


def _cells(line: str) -> list[str]:
    """A table row's cells: between ``|`` in Markdown, between tabs in plain text."""
    stripped = line.strip()
    if stripped.startswith("|"):
        return [cell.strip() for cell in stripped.strip("|").split("|")]
    return [cell.strip() for cell in stripped.split("\t")] if "\t" in stripped else []


def _separator(cells: list[str]) -> bool:
    return all(re.fullmatch(r":?-+:?", cell) for cell in cells if cell)


def _fold(title: str) -> str:
    return " ".join(title.replace("*", "").replace("`", "").lower().split())


def _names_another(text: str, record_id: str, start: int) -> bool:
    """Whether a follow-up names another record of its kind after its lead-in (``BAP-21``
    after ``For BAP-20,``): then it is several records' paragraph, no one's."""
    if not record_id[-1:].isdigit():
        return False
    prefix = re.escape(record_id.rstrip("0123456789"))
    return any(m.group(0) != record_id for m in re.finditer(rf"\b{prefix}[0-9]+\b", text[start:]))


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


def _paragraph_declaration(text: str) -> tuple[str, str | None, str] | None:
    """``ID — Label. Body``, ``**ID — Label.** Body``, ``**ID.** Body``, ``ID — Label``:
    the ID, its label and the body after it."""
    if not text.startswith(("*", "_")) and not text[:1].isupper():
        return None
    found = _leading_id(text)
    if found is None or re.match(r"^\s+[a-z][\w -]*?amendment", found[1]):
        return None
    record_id, after = found
    bare = _BARE_BOLD.match(after) if text.startswith("**") else None
    if bare:
        return record_id, None, bare.group("rest")
    dash = _PARAGRAPH.match(after)
    if dash is None:
        return None
    label, body = _label(dash.group("rest") or "", text.startswith("**"))
    return record_id, label, body


def _label(rest: str, bold_open: bool) -> tuple[str | None, str]:
    """The declaration's label: a bold span, else the text to its first full stop or colon."""
    bold = re.match(r"^\*\*(?P<label>[^*]+?)[.:]?\*\*[.:]?\s*(?P<body>.*)\Z", rest, re.S)
    if bold is None and bold_open:  # ``**CMP-1 — Label.** Body``: the bold opened before the ID
        bold = re.match(r"^(?P<label>[^*]+?)[.:]?\*\*[.:]?\s*(?P<body>.*)\Z", rest, re.S)
    if bold:
        return bold.group("label").strip() or None, bold.group("body").strip()
    end = _outside_code(_LABEL_END, rest)
    if end is not None:
        head, semicolon, clause = rest[: end.start()].rpartition("; ")
        if end.group() == ":" and semicolon and head.strip() and clause.lower().endswith("conclusion status"):
            # ``Label; discovery conclusion status: wired``: the clause states a status.
            return head.strip(), rest[len(head) + len(semicolon) :].strip()
        return rest[: end.start()].strip() or None, rest[end.end() :].strip()
    return rest.strip() or None, ""


def _outside_code(pattern: re.Pattern[str], text: str) -> re.Match[str] | None:
    """The first match of ``pattern`` not inside a code span."""
    spans = [(m.start(), m.end()) for m in _CODE_SPAN.finditer(text)]
    index = 0
    for match in pattern.finditer(text):
        while index < len(spans) and spans[index][1] <= match.start():
            index += 1
        if index < len(spans) and spans[index][0] <= match.start():
            continue
        return match
    return None


def _pieces(block: Block, markdown: bool) -> list[tuple[int, int, str]]:
    """The statements of a block: a paragraph whole (a plain-text line each), each list item."""
    if block.kind == "list":
        return list(_items(block))
    if markdown:
        return [(block.line, block.col, block.text)]
    return [(block.line + i, 1, line.strip()) for i, line in enumerate(block.lines) if line.strip()]


def _items(block: Block) -> Iterator[tuple[int, int, str]]:
    current: list[int | str] | None = None
    for offset, line in enumerate(block.lines):
        match = _ITEM.match(line)
        if match and (current is None or len(match.group("indent")) == 0):
            if current is not None:
                yield int(current[0]), int(current[1]), str(current[2])
            current = [block.line + offset, match.start("text") + 1, match.group("text")]
        elif current is not None and line.strip():
            current[2] = f"{current[2]} {line.strip()}"
    if current is not None:
        yield int(current[0]), int(current[1]), str(current[2])


def _attribution(block: Block, following: Block | None) -> str | None:
    """A quotation's attribution line: its own last line, or the paragraph line after it."""
    if _ATTRIBUTION.match(block.lines[-1]):
        return block.lines[-1]
    if following is not None and following.kind == "paragraph" and _ATTRIBUTION.match(following.lines[0]):
        return following.lines[0]
    return None


def _quoted_path(attribution: str) -> str:
    rest = _ATTRIBUTION.match(attribution)
    found = _QUOTED_PATH.match(rest.group("rest")) if rest else None
    return found.group("path").rstrip(".,;") if found else attribution.strip("> ")


def _digest(found: str) -> str:
    return re.sub(r"^sha-?256:?\s*`?", "", found, flags=re.I).lower()


def _statements(text: str, line: int, owner: str, revised: set[str], shift: int = 0) -> Iterator[Construct]:
    """The statuses, anchors and revisions one statement of a record states, in their order
    (``shift``: where the text starts in its line)."""
    seen: set[tuple[str, str]] = set()  # one status per statement
    for match in _LABELLED_STATUS.finditer(text):
        found = (" ".join(match.group("label").lower().split()), match.group("value").lower())
        if found not in seen:
            seen.add(found)
            yield Construct("statuses", line, shift + match.start() + 1, f"{found[0]}: {found[1]}", owner)
    for match in _BARE_STATUS.finditer(text):
        layer = " ".join(match.group("layer").lower().split())
        found = (f"{layer} conclusion status" if layer else "conclusion status", match.group("value").lower())
        if found not in seen:
            seen.add(found)
            yield Construct("statuses", line, shift + match.start() + 1, f"{found[0]}: {found[1]}", owner)
    for at, key in _anchors(text):
        yield Construct("anchors", line, shift + at + 1, key, owner)
    if owner not in revised and kinds.has_role(owner, kinds.Role.EVIDENCE_SOURCE):
        commit = _COMMIT.search(text)
        if commit is not None:
            revised.add(owner)
            yield Construct("revisions", line, shift + commit.start() + 1, _digest(commit.group(0)), owner)


@lru_cache(maxsize=4)
def _source_then_ticked(source_id: str) -> re.Pattern[str]:
    """``SRC-1 `a.py`, `b/`; and `c.md:3```: a source ID (in backticks or not), then paths in backticks."""
    ticked = r"`[^`\s]+`"
    return re.compile(rf"`?(?:{source_id})`?,?\s+(?P<paths>{ticked}(?:\s*(?:[;,]\s*)?(?:and\s+)?{ticked})*)")


def _anchors(text: str) -> list[tuple[int, str]]:
    """Each evidence span of a text, once, by where it starts: ``path:range`` per range,
    ``path``, or ``SRC-n <locator>``."""
    spans: dict[tuple[str, str], int] = {}

    def add(at: int, path: str, ranges: str | None) -> None:
        for part in (ranges or "").split(",") if ranges else [""]:
            key = (path, part)
            if key not in spans:
                spans[key] = at

    for anchor in find_anchors(text):
        if anchor.locator:
            spans.setdefault((f"{anchor.source} {anchor.locator}", ""), anchor.start)
        elif not anchor.lookalike:
            add(anchor.start, anchor.path, ",".join(str(r) for r in anchor.ranges) or None)
    for match in _TICKED_LINES.finditer(text):
        add(match.start(), match.group("path"), match.group("ranges"))
    for run in _source_then_ticked(grammar().source_id).finditer(text):
        for match in _TICKED_PATH.finditer(run.group("paths")):
            add(run.start("paths") + match.start(), match.group("path").rstrip("."), match.group("ranges"))
    for lead in _LEAD_IN.finditer(text):
        clause_end = text.find(". ", lead.end())
        clause = text[lead.end() : clause_end if clause_end >= 0 else len(text)]
        for match in _TICKED_PATH.finditer(clause):
            path = match.group("path").rstrip(".")
            if path and not path.startswith(("http:", "https:")):
                add(lead.end() + match.start(), path, match.group("ranges"))
    # A path stated bare and with lines is one anchor, the one with its lines.
    with_lines = {path for path, part in spans if part}
    found = [
        (at, f"{path}:{part}" if part else path)
        for (path, part), at in spans.items()
        if part or path not in with_lines
    ]
    return sorted(found)
