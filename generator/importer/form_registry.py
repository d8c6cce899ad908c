"""The forms the importer reads out of the box (``document-forms.md``), each one declaration,
and the registry in force (``active_forms``; ``using_forms`` puts another in force).

In a record kind's section, tried in this order: a paragraph naming a record first (``For
OBJ-1, …``) continues it; a quotation after a paragraph declaration is its record's; an
amendment or retained-reasons paragraph after one is still its text; the paragraphs after a
declaration holding only its label, and a list right after any paragraph declaration, are
its body; a list whose items open with IDs declares a record per item; a table declares a record per
row whose first cell is an ID (the source register, a kind's table); a paragraph opening
``SRC-1 — Git <location> at <commit>`` declares a source with its layers; a paragraph opening
``ID — Label.`` (or a bold lead-in) declares its record. Elsewhere: tables (record rows,
limitation rows, typed rows, generic), lists, quotations, verbatim blocks (fences, indented
code, HTML: never declarations), a source declared by a paragraph and a reconciliation's typed
amendments. Whatever no form
reads stays the section's prose, in order.
"""

from __future__ import annotations

from contextlib import AbstractContextManager
from typing import Any

from generator.importer import source_paragraphs
from generator.importer.forms import FormRegistry, FormSpec, FormState
from generator.importer.markdown_blocks import Block
from generator.util.in_force import InForce


def _kind(name: str) -> Any:
    """A kind-section walker's reader, by its method name."""

    def read(block: Block, state: FormState) -> list[Any] | None:
        return getattr(state.walker, name)(block, state)

    read.__name__ = name
    return read


_prose = _kind  # a prose walker's reader, by its method name

FORMS = FormRegistry(
    (
        FormSpec(
            "quotation-after-record",
            "kind-section",
            frozenset({"quote"}),
            10,
            _kind("quotation_after_record"),
            "a quotation right after a paragraph declaration is its record's",
        ),
        FormSpec(
            "record-continuation",
            "kind-section",
            frozenset({"paragraph"}),
            20,
            _kind("record_continuation"),
            "'Amendment (…):' or 'Retained reasons:' after a paragraph declaration is its record's text",
        ),
        FormSpec(
            "record-follow-up",
            "kind-section",
            frozenset({"paragraph"}),
            5,
            _kind("follow_up"),
            "'For OBJ-1, …' or '… continuation on RTE-2: …' goes on with the record it names",
        ),
        FormSpec(
            "record-body",
            "kind-section",
            frozenset({"paragraph", "list"}),
            25,
            _kind("record_body"),
            "the paragraphs after a declaration that holds only its label, and a list right after a "
            "paragraph declaration ('- Status: …', '- Evidence: … @ <commit>'), are its record's",
        ),
        FormSpec(
            "list-declarations",
            "kind-section",
            frozenset({"list"}),
            30,
            _kind("list_declarations"),
            "list items opening 'ID — Label.' declare a record each",
        ),
        FormSpec(
            "register-rows",
            "kind-section",
            frozenset({"table"}),
            40,
            _kind("register_rows"),
            "a table's rows whose first cell is an ID declare a record each",
        ),
        FormSpec(
            "source-paragraph",
            "kind-section",
            frozenset({"paragraph"}),
            45,
            source_paragraphs.in_kind_section,
            "'SRC-1 — Git <location> at <commit>; access root <path>. Implementation: …' declares a source",
        ),
        FormSpec(
            "paragraph-declaration",
            "kind-section",
            frozenset({"paragraph"}),
            50,
            _kind("paragraph_declaration"),
            "a paragraph opening 'ID — Label.', '**ID — Label.**' or '**ID.**' declares its record",
        ),
        FormSpec(
            "table",
            "prose",
            frozenset({"table"}),
            10,
            _prose("table_block"),
            "record, limitation, typed or generic rows",
        ),
        FormSpec(
            "list", "prose", frozenset({"list"}), 20, _prose("list_of_items"), "a list, its items as written"
        ),
        FormSpec(
            "quotation", "prose", frozenset({"quote"}), 30, _prose("quotation"), "an attributed quotation"
        ),
        FormSpec(
            "verbatim",
            "prose",
            frozenset({"fence", "html"}),
            40,
            _prose("verbatim"),
            "a fence, indented code or HTML, kept as written and never a declaration",
        ),
        FormSpec(
            "source-register-paragraph",
            "prose",
            frozenset({"paragraph"}),
            45,
            source_paragraphs.in_register,
            "a source register's 'SRC-1 — Git <location> at <commit>; …' paragraph declares a source",
        ),
        FormSpec(
            "typed-amendment",
            "prose",
            frozenset({"paragraph"}),
            50,
            _prose("typed_amendment"),
            "a reconciliation's 'Amendment: IDs … Evidence: … Affected findings: …'",
        ),
    )
)


_IN_FORCE = InForce("kb_import_forms", FORMS)


def active_forms() -> FormRegistry:
    """The form registry in force: one put in force with ``using_forms``, else ``FORMS``."""
    return _IN_FORCE.get()


def using_forms(registry: FormRegistry) -> AbstractContextManager[FormRegistry]:
    """Put ``registry`` in force for the imports made inside the block."""
    return _IN_FORCE.using(registry)
