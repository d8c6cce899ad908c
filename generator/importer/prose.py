"""Prose blocks: paragraphs, lists, tables and quotations kept in their section, in order.

Tables whose first column holds record IDs (the source register, a kind's table) or
limitation titles declare records; a table whose header is a typed table's columns
becomes typed rows; any other table stays generic.
"""

from __future__ import annotations

from typing import Any

from generator.diagnostics import Rule
from generator.importer.columns import field_of, fold, list_key_of_id
from generator.importer.context import Gathered
from generator.importer.declare import declare
from generator.importer.doc_types import document_type
from generator.importer.document import Block, Section
from generator.importer.drafts import Draft, status_stated_first
from generator.importer.form_registry import active_forms
from generator.importer.forms import FormState
from generator.importer.import_rules import KB601, KB606
from generator.importer.recognisers.lists import list_item
from generator.importer.recognisers.quotes import block_quote
from generator.importer.recognisers.tables import Row, reflow, table_rows
from generator.importer.reconciliation import typed_paragraph
from generator.importer.tables import (
    generic_table,
    is_id,
    typed_kind,
    typed_kind_of_words,
    typed_table,
    written_headers,
)
from generator.model import kinds
from generator.model.prose import ROW_TYPES
from generator.model.records import LIMITATION_COLUMNS

KB602 = Rule(
    "KB602",
    "import-table-row",
    "A table row is unterminated or its cells do not match the header.",
    doc=(
        "`kbgen import`, warning: a pipe-table row without its closing `\\|`, or with more or fewer cells "
        "than the header (a short row is padded, extra cells join the last)"
    ),
)


class ProseWalker:
    """Turns blocks into prose blocks of the section model, declaring records found in tables."""

    def __init__(self, gathered: Gathered, plain: bool, set_member: str | None = None) -> None:
        self.gathered = gathered
        self.plain = plain
        # In a set member, quotations become quote blocks; a reconciliation's amendment
        # paragraphs become typed amendments (a quotation right after one is its own).
        self.set_member = set_member
        self.amendments: list[dict[str, Any]] = []
        self.last_amendment: dict[str, Any] | None = None
        self.limitations_as_table = False
        # The limitations table's header as written, where it is not the page's titles.
        self.limitation_headers: list[str] | None = None

    def section(self, section: Section) -> dict[str, Any]:
        out: dict[str, Any] = {}
        blocks = [item for block in section.blocks for item in self.blocks(block)]
        if blocks:
            out["blocks"] = blocks
        children = [self.subsection(child) for child in section.children]
        if children:
            out["sections"] = children
        return out

    def subsection(self, section: Section) -> dict[str, Any]:
        self.last_amendment = None
        self.gathered.cite(section.title, section.line, section.col)
        return {"title": section.title, **self.section(section)} if section.title else self.section(section)

    def blocks(self, block: Block) -> list[Any]:
        """The prose blocks one document block becomes (none when it only declared records):
        the first form of the registry in force that reads it (``builtin_forms``), else
        its paragraphs."""
        amendment, self.last_amendment = self.last_amendment, None
        found = active_forms().read("prose", block, FormState(self, previous=amendment))
        return found if found is not None else self.paragraphs(block)

    def quotation(self, block: Block, state: FormState) -> list[Any]:
        """A quotation: in a set member a quote block (or the quotation of the amendment or
        ledger entry it follows), in a single document a paragraph."""
        return self.quote(block, state.previous) if self.set_member else [self.quote_paragraph(block)]

    def verbatim(self, block: Block, state: FormState) -> list[Any]:
        """A fence, indented code or HTML: kept as written, never a declaration."""
        return [self.paragraph("\n".join(block.lines), block)]

    def typed_amendment(self, block: Block, state: FormState) -> list[Any] | None:
        """A reconciliation's ``Amendment: RTE-2 … Evidence: … Affected findings: …``."""
        if not (self.set_member and document_type(self.set_member).typed_amendments) or self.plain:
            return None
        typed = typed_paragraph(self.gathered, block)
        if typed is None:
            return None
        self.amendments.append(typed)
        self.last_amendment = typed
        # The amendments are shown where the first one was written.
        return [{"amendments": "here"}] if len(self.amendments) == 1 else []

    def paragraph(self, text: str, block: Block) -> str:
        self.gathered.cite(text, block.line, block.col)
        return text

    def paragraphs(self, block: Block) -> list[Any]:
        """A Markdown paragraph is one block; in plain text every line is a paragraph of its own."""
        if not self.plain or len(block.lines) == 1:
            return [self.paragraph(block.text, block)]
        header = typed_kind_of_words(block.lines[0])
        if header:
            self.gathered.warn(
                KB601,
                f"a {header} table whose columns are not separated (no tabs or pipes); "
                "its rows are kept as paragraphs",
                block.line,
                block.col,
            )
        return [
            self.paragraph(line.strip(), Block("paragraph", block.line + offset, 1, [line]))
            for offset, line in enumerate(block.lines)
            if line.strip()
        ]

    def list_block(self, block: Block) -> dict[str, Any]:
        items: list[str] = []
        ordered = False
        for offset, line in enumerate(block.lines):
            item = list_item(line)
            if item is None and items:  # a continuation line of the item before
                items[-1] += " " + line.strip()
                continue
            text = item.text if item else line.strip()
            ordered = ordered or bool(item and item.ordered)
            self.gathered.cite(text, block.line + offset, item.col if item else 1)
            items.append(text)
        return {"items": items, "ordered": True} if ordered else {"items": items}

    def quote_paragraph(self, block: Block) -> str:
        """A quotation outside a record: kept as a paragraph with its attribution; none is a warning."""
        quote = block_quote(block.lines)
        if quote.path is None:
            self.gathered.warn(
                KB606, "quotation without a '--- path' attribution; kept as prose", block.line, block.col
            )
            return self.paragraph(quote.text, block)
        return self.paragraph(f"{quote.text}\n\n{quote.attribution.replace('---', '—', 1)}", block)

    def quote(self, block: Block, owner: dict[str, Any] | None) -> list[Any]:
        """A set member's quotation: a quote block, or the quotation of the amendment or ledger
        entry (``owner``) it follows; none is a warning."""
        written = block_quote(block.lines)
        if written.path is None:
            return [self.quote_paragraph(block)]
        quote: dict[str, Any] = {"text": written.text, "path": written.path}
        if written.lines:
            quote["lines"] = written.lines
        self.gathered.note_quote(quote, written, block.line + len(block.lines) - 1, block.col)
        self.gathered.prose_quotes.append(quote)
        if owner is not None:
            owner.setdefault("quotes", []).append(quote)
            return []
        return [{"quote": quote}]

    def table_block(self, block: Block, state: FormState) -> list[Any]:
        return self.table(block)

    def list_of_items(self, block: Block, state: FormState) -> list[Any]:
        return [self.list_block(block)]

    def record_rows_of(self, block: Block) -> None:
        """Declare the records a table's rows declare (a register inside a record's section)."""
        rows = table_rows(block.lines, block.line)
        if len(rows) < 2:
            return
        header, data = rows[0].cells, rows[1:]
        if fold(header[0]) in ("id", "source id") and all(is_id(row.cells[0]) for row in data):
            self.record_rows(header, data)

    def table(self, block: Block) -> list[Any]:
        rows = table_rows(block.lines, block.line)
        rows = reflow(rows, len(rows[0].cells)) if rows else rows
        self.check_rows(rows, block)
        if len(rows) < 2:
            return [self.paragraph(block.text, block)]
        header, data = rows[0].cells, rows[1:]
        first = fold(header[0]) if header else ""
        if first in ("id", "source id") and all(is_id(row.cells[0]) for row in data):
            self.record_rows(header, data)
            return []
        if first == "limitation":
            self.limitations_as_table = False
            self.limitation_rows(header, data)
            if not self.limitations_as_table:
                return []
        kind = typed_kind(header)
        typed = typed_table(kind, data, header) if kind else None
        table = typed or generic_table(header, data)
        skip = provenance_columns(kind)
        for row in data:
            cells = [c for i, c in enumerate(row.cells) if i not in skip]
            self.gathered.cite(" ".join(cells), row.line, 1)
        return [{"table": table}]

    def check_rows(self, rows: list[Row], block: Block) -> None:
        """Warn about unterminated rows and rows whose cells do not match the header."""
        width = len(rows[0].cells) if rows else 0
        for row in rows:
            if row.unterminated:
                self.gathered.warn(
                    KB602,
                    "table row is not terminated with '|'; its cells are read to the line end",
                    row.line,
                    1,
                )
            elif len(row.cells) != width:
                self.gathered.warn(
                    KB602,
                    f"table row has {len(row.cells)} cells, the header {width}",
                    row.line,
                    1,
                )

    def record_rows(self, header: list[str], rows: list[Row]) -> list[str]:
        """Declare one record per row; returns the IDs declared, in order."""
        declared: list[str] = []
        for row in rows:
            record_id = row.cells[0].strip()
            list_key = list_key_of_id(record_id)
            if (
                record_id in declared
                and list_key is not None
                and kinds.list_has_role(list_key, kinds.Role.EVIDENCE_SOURCE)
                and self.layer_row(record_id, list_key, header, row)
            ):
                continue
            draft = declare(self.gathered, record_id, list_key, row.line, 1, None)
            if draft is None:
                continue
            for name, cell in zip(header[1:], row.cells[1:], strict=False):
                self._cell(draft, name, cell)
            native = draft.data.get("source_native")
            if "label" not in draft.data and isinstance(native, str) and _label_like(native):
                draft.data = {"label": native, **draft.data}
            self.gathered.cite(" ".join(row.cells[1:]), row.line, 1)
            declared.append(record_id)
        return declared

    def layer_row(self, record_id: str, list_key: str, header: list[str], row: Row) -> bool:
        """A further row of a source this register declared: one more evidence layer of it."""
        from generator.importer.source_cells import further_layer

        cells = {
            field_of(list_key, name) or fold(name): cell
            for name, cell in zip(header, row.cells, strict=False)
        }
        if not further_layer(self.gathered.drafts[record_id], cells):
            return False
        self.gathered.cite(" ".join(row.cells[1:]), row.line, 1)
        return True

    def _cell(self, draft: Draft, header: str, cell: str) -> None:
        from generator.importer.source_cells import revision_value, source_cell

        if not cell.strip():
            return
        name = field_of(draft.list_key, header)
        source = kinds.list_has_role(draft.list_key, kinds.Role.EVIDENCE_SOURCE)
        if source and name is not None and source_cell(draft, name, cell, header, self.gathered.drafts):
            draft.note_label(name, header)
            if name == "access_gaps":
                draft.note_label("gap", header)  # the column fills the source's gaps
            return
        if name is None or name in draft.data or name == "evidence":
            # An 'Evidence' column is prose too: its anchors are read from it like any prose's.
            draft.add_prose(f"{header}: {cell}")
            return
        if name == "revision":
            cell = revision_value(cell)
        draft.set(name, cell)
        draft.note_label(name, header)
        status_field = status_stated_first(draft.list_key, name)
        if status_field is not None:
            first = cell.split(".")[0].strip().lower()
            status = first.split()[0] if first else ""
            draft.data[status_field] = status
            draft.data = {k: draft.data[k] for k in draft.data}

    def limitation_rows(self, header: list[str], rows: list[Row]) -> None:
        unknown = [name for name in header if field_of("limitations", name) is None]
        if unknown:
            # A limitation has no prose of its own: a column it has no field for would be lost.
            self.gathered.warn(
                KB601,
                f"the limitations table's column {unknown[0]!r} names no limitation field; "
                "the table is kept as a table",
                rows[0].line - 1 if rows else 1,
                1,
            )
            self.limitations_as_table = True
            return
        if [field_of("limitations", name) for name in header] == list(LIMITATION_COLUMNS):
            self.limitation_headers = written_headers(header, list(LIMITATION_COLUMNS.values()))
        for row in rows:
            draft = Draft("limitations", {}, row.line, 1)
            for name, cell in zip(header, row.cells, strict=False):
                field = field_of("limitations", name)
                if field and cell.strip():
                    draft.set(field, cell.strip())
            self.gathered.cite(" ".join(row.cells), row.line, 1)
            self.gathered.limitations.append(draft)


def provenance_columns(kind: str | None) -> frozenset[int]:
    """The columns of a typed table that hold provenance (proposal tags), not prose: the IDs
    in them cite nothing."""
    row = ROW_TYPES.get(kind or "")
    if row is None:
        return frozenset()
    return frozenset(index for index, name in enumerate(row.COLUMNS) if name in row.PROVENANCE_FIELDS)


def _label_like(text: str) -> bool:
    """A table's source-native cell names the record when it is a short phrase, not prose."""
    return len(text) <= 100 and ". " not in text.strip().rstrip(".")
