"""A source declared by a paragraph, in the source register or a sources section:
``SRC-1 — Git <location> at <commit>; access root <path>. Implementation: … Doctrine/design: …``.

The paragraph is a declaration like any record's (``document-forms.md``): its label is the
text to the first full stop, and says the source's kind (the words before the location),
its location and its revision (a commit after ``at``, or a capture digest); each layer the
text after it names as a label is one evidence layer. A paragraph whose label names no
location is left to the other forms (the paragraph declaration keeps it, as prose when it
lacks a source's fields, with an import note).
"""

from __future__ import annotations

from typing import Any

from generator.importer.columns import list_key_of_id
from generator.importer.declare import declare
from generator.importer.forms import FormState
from generator.importer.markdown_blocks import Block
from generator.importer.recognisers.declarations import declaration
from generator.importer.recognisers.sources import source_head
from generator.importer.source_cells import declared_by_paragraph
from generator.model import kinds


def in_register(block: Block, state: FormState) -> list[Any] | None:
    """A source paragraph of the source register (a prose section): declared, nothing left
    in the section's prose (the sources file holds it, as a register's rows)."""
    return [] if _declare(block, state) is not None else None


def in_kind_section(block: Block, state: FormState) -> list[Any] | None:
    """A source paragraph of a sources section: declared and placed where it was written."""
    record_id = _declare(block, state)
    return [{"records": [record_id]}] if record_id is not None else None


def _declare(block: Block, state: FormState) -> str | None:
    """Declare the source ``block`` declares, its fields read; its ID, or None when it
    declares none this way."""
    walker = state.walker
    plain = getattr(walker, "plain", None)
    plain = walker.prose.plain if plain is None else plain
    if block.kind != "paragraph" or (plain and len(block.lines) > 1):
        return None
    found = declaration(block.text, heading=False)
    if found is None or found.amendment or found.label is None:
        return None
    list_key = list_key_of_id(found.record_id)
    if list_key is None or not kinds.list_has_role(list_key, kinds.Role.EVIDENCE_SOURCE):
        return None
    head = source_head(found.label)
    if head is None:
        return None
    gathered = walker.gathered
    draft = declare(gathered, found.record_id, list_key, block.line, found.id_col, found.label)
    if draft is None:
        return None
    gathered.cite(block.text, block.line, block.col)
    for text in declared_by_paragraph(draft, head, found.rest):
        draft.add_prose(text)
    return found.record_id
