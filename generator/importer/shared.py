"""'Shared records' and 'Annotations': declarations, their fields, and the prose between them."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from generator.diagnostics import Rule
from generator.importer.columns import continues_record, list_key_of_id, route_field_of
from generator.importer.context import Gathered
from generator.importer.declare import declare
from generator.importer.document import Block, Section
from generator.importer.drafts import Draft, apply_labelled
from generator.importer.form_registry import active_forms
from generator.importer.forms import FormState
from generator.importer.import_rules import KB601, KB606
from generator.importer.prose import ProseWalker
from generator.importer.recognisers.declarations import Declaration, declaration
from generator.importer.recognisers.fields import Field, field_sentences, labelled, status_line
from generator.importer.recognisers.lists import list_item
from generator.importer.recognisers.quotes import QuoteText, attributed_paragraph, block_quote
from generator.importer.recognisers.record_body import bare_status, follow_up, path_evidence
from generator.importer.sections import kind_list_of_title
from generator.importer.status_groups import group_statuses
from generator.model import kinds
from generator.model.ids import grammar
from generator.model.records import ROUTE_FIELD_LABELS

KB603 = Rule(
    "KB603",
    "import-unlabelled",
    "An imported record declaration has no label.",
    doc=(
        "`kbgen import`, warning: a record declaration without a label (`#### MEM-RTE-x` with no `— label` "
        "and no `Label:` line)"
    ),
)

KB604 = Rule(
    "KB604",
    "import-status-value",
    "A status line's value is not a conclusion status; kept as prose.",
    doc=(
        "`kbgen import`, warning: a status line whose value is not a conclusion status (`… conclusion "
        "status: probably`); the line is kept as prose, located at the value"
    ),
)


class SharedWalker:
    """Walks the kind subsections of 'Shared records' and the 'Annotations' section."""

    def __init__(self, gathered: Gathered, prose: ProseWalker) -> None:
        self.gathered = gathered
        self.prose = prose
        # The record a paragraph just declared: the quotations right after it are its own.
        self.quoting: Draft | None = None
        # A paragraph declaration held only its label: the paragraphs after it are its body
        # (``body_of`` is that record while the block after it is read).
        self.body_follows = False
        self.body_of: Draft | None = None

    def shared_records(self, section: Section) -> dict[str, Any]:
        out: dict[str, Any] = {}
        loose = [item for block in section.blocks for item in self.prose.blocks(block)]
        for child in section.children:
            list_key = kind_list_of_title(child.title)
            if list_key is None:
                self.gathered.warn(
                    KB601,
                    f"{child.title!r} is not a record kind; its text is kept in the section before",
                    child.line,
                    child.col,
                )
                loose.extend([child.title, *self.kind_blocks(child, None)])
                continue
            out[list_key] = {"blocks": self.kind_blocks(child, list_key)}
        if loose:
            first = next(iter(out.values()), None)
            if first is None:
                out[kinds.shared_kinds()[0].list_key] = {"blocks": loose}
            else:
                first["blocks"] = loose + first["blocks"]
        return out

    def kind_blocks(self, section: Section, list_key: str | None) -> list[Any]:
        """The blocks of one kind subsection: prose, and placements of the records declared in it."""
        self.body_follows = False  # a heading ends a body
        blocks: list[Any] = []
        statuses: dict[str, str] = {}
        for block in section.blocks:
            statuses = group_statuses(block.text) or statuses if block.kind == "paragraph" else statuses
            for item in self.block_in_kind(block, statuses):
                _append(blocks, item, list_key)
        for child in section.children:
            for item in self.record_section(child, statuses):
                _append(blocks, item, list_key)
        return blocks

    def block_in_kind(self, block: Block, statuses: dict[str, str]) -> list[Any]:
        """What a block of a kind's section becomes: the first form of the registry in force
        that reads it (``builtin_forms``), else prose."""
        previous, self.quoting = self.quoting, None
        self.body_of, self.body_follows = (previous if self.body_follows else None), False
        found = active_forms().read("kind-section", block, FormState(self, statuses, previous))
        return found if found is not None else self.prose.blocks(block)

    def quotation_after_record(self, block: Block, state: FormState) -> list[Any] | None:
        """A quotation right after a paragraph declaration is its record's."""
        if state.previous is None:
            return None
        self.quote(state.previous, block_quote(block.lines), block)
        self.quoting = state.previous  # a record may be followed by several quotations
        self.body_follows = self.body_of is state.previous
        return []

    def record_continuation(self, block: Block, state: FormState) -> list[Any] | None:
        """``Amendment (memory lens): …``, ``Retained reasons: …`` after a paragraph
        declaration: still the record's text, and the quotations after it are its own."""
        if state.previous is None or not continues_record(block.text):
            return None
        self.line_into(state.previous, block.text, block.line, block.col)
        self.quoting = state.previous
        return []

    def register_rows(self, block: Block, state: FormState) -> list[Any]:
        """A table of a kind's section: the records its rows declare are placed after it."""
        before = set(self.gathered.drafts)
        prose = self.prose.blocks(block)
        declared = [i for i in self.gathered.drafts if i not in before]
        self._group(declared, state.statuses)
        return prose + ([{"records": declared}] if declared else [])

    def paragraph_declaration(self, block: Block, state: FormState) -> list[Any] | None:
        """``CMP-6 — Label. Body…`` (or a bold lead-in, or ``RTE-10 memory amendment — …``)."""
        if not self._may_declare(block):
            return None
        found = declaration(block.text, heading=False)
        if found is None:
            return None
        if found.amendment:
            return self.amendment(found, block)
        list_key = list_key_of_id(found.record_id)
        draft = declare(self.gathered, found.record_id, list_key, block.line, found.id_col, found.label)
        if draft is None:
            return None
        self.gathered.cite(block.text, block.line, block.col)
        if found.rest:
            # The body may state fields as labelled sentences, as a record's lines do.
            self.line_into(draft, found.rest, block.line, block.col)
        self._group([found.record_id], state.statuses)
        self.quoting = draft
        self.body_follows = not found.rest  # ``OBJ-5 — Label`` alone: its body comes after
        return [{"records": [found.record_id]}]

    def list_declarations(self, block: Block, state: FormState) -> list[Any] | None:
        """A list whose items open ``ID — Label. Body`` (Markdown only)."""
        if self.prose.plain or not self._declares_items(block):
            return None
        return self.item_declarations(block, state.statuses)

    def _declares_items(self, block: Block) -> bool:
        first = list_item(block.lines[0])
        found = declaration(first.text, heading=False) if first else None
        return found is not None and not found.amendment and list_key_of_id(found.record_id) is not None

    def item_declarations(self, block: Block, statuses: Mapping[str, str]) -> list[Any]:
        """A list whose items open ``ID — Label. Body``: a record per item; an item that
        declares nothing is the text of the record declared before it."""
        items: list[tuple[int, int, str]] = []
        for offset, line in enumerate(block.lines):
            item = list_item(line)
            if item is not None and not line[:1].isspace():
                items.append((block.line + offset, item.col, item.text))
            elif items and line.strip():
                number, col, text = items[-1]
                items[-1] = (number, col, text + " " + line.strip())
        placed: list[str] = []
        draft: Draft | None = None
        for number, col, text in items:
            found = declaration(text, heading=False)
            made = (
                declare(
                    self.gathered, found.record_id, list_key_of_id(found.record_id), number, col, found.label
                )
                if found is not None and not found.amendment
                else None
            )
            if made is None or found is None:
                if draft is not None:
                    self.line_into(draft, text, number, col)
                else:
                    self.gathered.cite(text, number, col)
                    placed.append(text)
                continue
            draft = made
            self.gathered.cite(text, number, col)
            if found.rest:
                self.line_into(draft, found.rest, number, col)
            self._group([found.record_id], statuses)
            placed.append(found.record_id)
        self.quoting = draft
        ids = [i for i in placed if i in self.gathered.drafts]
        loose = [i for i in placed if i not in self.gathered.drafts]
        return [*([{"items": loose}] if loose else []), *([{"records": ids}] if ids else [])]

    def _group(self, ids: list[str], statuses: Mapping[str, str]) -> None:
        for record_id in ids:
            for label, value in statuses.items():
                self.gathered.drafts[record_id].data.setdefault("statuses", {}).setdefault(label, value)

    def amendment(self, found: Declaration, block: Block) -> list[Any]:
        target = self.gathered.drafts.get(found.record_id)
        if target is None:
            self.gathered.warn(
                KB601,
                f"amendment of {found.record_id}, which is not declared before it; kept as prose",
                block.line,
                block.col,
            )
            return self.prose.blocks(block)
        self.gathered.cite(found.rest, block.line, block.col)
        from generator.importer.drafts import evidence_of

        entry: dict[str, Any] = {"label": found.amendment, "body": found.rest}
        evidence = evidence_of(found.rest)
        if evidence:
            entry["evidence"] = evidence
        affects = list(
            dict.fromkeys(
                m.group(0) for m in grammar().in_text.finditer(found.rest) if m.group(0) != found.record_id
            )
        )
        affects = [i for i in affects if not kinds.has_role(i, kinds.Role.EVIDENCE_SOURCE)]
        if affects:
            entry["affects"] = affects
        target.data.setdefault("amendments", []).append(entry)
        return []

    def record_section(self, section: Section, statuses: dict[str, str]) -> list[Any]:
        """A heading that declares a record, and the blocks under it."""
        self.body_follows = False  # a heading ends a body
        found = declaration(section.title, heading=True)
        list_key = list_key_of_id(found.record_id) if found else None
        draft = (
            declare(
                self.gathered,
                found.record_id,
                list_key,
                section.line,
                section.col + found.id_col - 1,
                found.label,
            )
            if found and not found.annotation
            else None
        )
        if draft is None:
            if found is None:
                # A subsection of the kind that declares no record (``#### Memory payload
                # evidence``): its title and blocks stay in place, and the records its
                # paragraphs and tables declare are declared.
                self.gathered.cite(section.title, section.line, section.col)
                items: list[Any] = [section.title]
                for block in section.blocks:
                    items.extend(self.block_in_kind(block, statuses))
                for child in section.children:
                    items.extend(self.record_section(child, statuses))
                return items
            kept = self.prose.subsection(section)
            return [section.title, *kept.get("blocks", [])]
        # A paragraph that declares another record ends this one: a document may follow a
        # heading declaration with paragraph declarations in the same section.
        own = next(
            (index for index, block in enumerate(section.blocks) if self._declares_another(block, draft)),
            len(section.blocks),
        )
        self.fill(draft, section.blocks[:own])
        self._group([draft.data["id"]], statuses)
        following: list[Any] = []
        for block in section.blocks[own:]:
            following.extend(self.block_in_kind(block, statuses))
        for child in section.children:
            following.extend(self.record_section(child, statuses))
        if "label" not in draft.data:
            self.gathered.warn(
                KB603, f"{draft.data['id']} is declared without a label", section.line, section.col
            )
        return [{"records": [draft.data["id"]]}, *following]

    def _may_declare(self, block: Block) -> bool:
        """A paragraph may open a declaration: in Markdown a whole (wrapped) paragraph, in
        plain text a line of its own (plain text writes one paragraph per line)."""
        return block.kind == "paragraph" and (not self.prose.plain or len(block.lines) == 1)

    def _declares_another(self, block: Block, draft: Draft) -> bool:
        if not self._may_declare(block):
            return False
        found = declaration(block.text, heading=False)
        return (
            found is not None
            and not found.amendment
            and found.record_id != draft.data.get("id")
            and list_key_of_id(found.record_id) is not None
        )

    def annotations(self, section: Section) -> dict[str, Any]:
        blocks = [item for block in section.blocks for item in self.prose.blocks(block)]
        for child in section.children:
            found = declaration(child.title, heading=True)
            if found is None or not found.annotation:
                kept = self.prose.subsection(child)
                blocks.extend([child.title, *kept.get("blocks", [])])
                continue
            draft = Draft("annotations", {"target": found.record_id}, child.line, child.col)
            if found.label:
                self.gathered.supplied_labels.setdefault(found.record_id, found.label)
            self.gathered.cite(found.record_id, child.line, child.col + 3)
            self.fill(draft, child.blocks)
            self.gathered.annotations.append(draft)
        return {"blocks": blocks} if blocks else {}

    def fill(self, draft: Draft, blocks: list[Block]) -> None:
        """Give a draft the labelled fields, statuses, quotations and prose of its blocks."""
        for block in blocks:
            if block.kind == "quote":
                self.quote(draft, block_quote(block.lines), block)
            elif block.kind == "list":
                self.list_into(draft, block)
            elif block.kind == "paragraph":
                for offset, line in enumerate(block.lines if self.prose.plain else [block.text]):
                    self.line_into(draft, line.strip(), block.line + offset, block.col)
            elif block.kind == "table":
                # A table inside a record is Markdown of the record's text, kept as written
                # (the record's prose renders it as a table); the records its rows declare
                # are declared.
                self.prose.record_rows_of(block)
                self.gathered.cite(block.text, block.line, block.col)
                draft.add_prose("\n".join(line.rstrip() for line in block.lines))
            else:
                for item in self.prose.blocks(block):
                    draft.add_prose(item if isinstance(item, str) else _flatten(item))

    def list_into(self, draft: Draft, block: Block) -> None:
        """Each item of a list is a field, a status or a quotation when it reads as one; the
        others stay list items of the record's prose, in order."""
        items: list[tuple[int, int, str]] = []
        for offset, line in enumerate(block.lines):
            item = list_item(line)
            if item is None and items:
                number, col, text = items[-1]
                items[-1] = (number, col, text + " " + line.strip())
            elif item is not None:
                items.append((block.line + offset, item.col, item.text))
        for number, col, text in items:
            if not self.line_into(draft, text, number, col, keep=False):
                draft.add_prose(text, item=True)

    def line_into(self, draft: Draft, text: str, line: int, col: int, keep: bool = True) -> bool:
        """One line or list item of a record; True when it filled a field (or was kept as prose)."""
        self.gathered.cite(text, line, col)
        amends = "amendment" in text and draft.list_key != "annotations"
        found = declaration(text, heading=False) if amends else None
        if found is not None and found.amendment:
            kept = self.amendment(found, Block("paragraph", line, col, [text]))
            for item in kept:
                draft.add_prose(item if isinstance(item, str) else _flatten(item))
            return True
        # An annotation is prose about a record declared elsewhere: no fields of its own.
        labelled_status = status_line(text) if draft.list_key != "annotations" else None
        bare = bare_status(text) if labelled_status is None and draft.list_key != "annotations" else None
        status = labelled_status or bare
        if draft.list_key != "annotations":
            self.path_evidence_into(draft, text)
        if status is not None:
            if status.known:
                draft.add_status(status)
                if bare is not None and not bare.label.startswith("conclusion"):
                    # ``Status: implementation wired; …``: the layer's words are kept as written.
                    draft.add_prose(text, item=not keep)
                return True
            self.gathered.warn(
                KB604,
                f"{status.value!r} is not a conclusion status; the line is kept as prose",
                line,
                col + status.value_offset,
            )
        elif draft.list_key != "annotations":
            if self.several_fields(draft, text):
                return True
            field = labelled(text)
            if field is not None and apply_labelled(draft, field, text):
                return True
        quote = attributed_paragraph(text) if self.prose.plain else None
        if quote is not None:
            self.quote(draft, quote, Block("paragraph", line, col, [text]))
            return True
        if keep:
            draft.add_prose(text)
        return keep

    def path_evidence_into(self, draft: Draft, text: str) -> None:
        """``Evidence: `a`, `b` @ <commit>`` or ``… (`SRC-1`)``: the paths join the record's
        evidence (the line stays its text, as written)."""
        found = path_evidence(text)
        if found is None:
            return
        if found.source is not None:
            draft.named_evidence.extend(f"{found.source} {path}" for path in found.paths)
        elif found.commit is not None:
            draft.pinned_evidence.extend((path, found.commit) for path in found.paths)

    def follow_up(self, block: Block, state: FormState) -> list[Any] | None:
        """``For OBJ-1, …``, ``Memory-specific continuation on RTE-2: …``: the paragraph goes
        on with a record declared before it; its statuses, anchors and quotations are the
        record's, its text the record's continuation, and the quotations after it its own."""
        named = follow_up(block.text)
        draft = self.gathered.drafts.get(named) if named else None
        if draft is None:
            return None
        self.fill(draft, [block])
        self.quoting = draft
        return []

    def record_body(self, block: Block, state: FormState) -> list[Any] | None:
        """The paragraphs after a declaration that holds only its label, and a list right
        after any paragraph declaration, are the record's (up to the next declaration)."""
        draft = state.previous
        if draft is None or self._declares_another(block, draft):
            return None
        if block.kind == "list":
            if self._declares_items(block):
                return None
        elif self.body_of is not draft:
            return None
        self.fill(draft, [block])
        self.quoting = draft
        self.body_follows = self.body_of is draft
        return []

    def several_fields(self, draft: Draft, text: str) -> bool:
        """``Consumer: … . Channels: … . Force: … .`` — several labelled fields in one paragraph."""
        parts = field_sentences(draft.list_key, text)
        if parts is None:
            return False
        fields, rest = parts
        route = kinds.list_has_role(draft.list_key, kinds.Role.ROUTE)
        if route and self.gathered.contract.exact_labels and not _states_every_route_field(fields):
            # Under today's contract, a paragraph stating some of a route's labelled fields
            # among other sentences: its other text fields are read, and the route's
            # labelled sentences stay its prose as written, neither split into a partial set
            # of fields nor swallowed by the first label. A run written under an earlier
            # contract, whose routes stated their fields in prose in any wording, keeps
            # those it states as its fields (the check lists what today's would flag).
            parts = field_sentences(draft.list_key, text, route_fields=False)
            if parts is None:
                draft.add_prose(text)
                return True
            fields, rest = parts
        if (
            rest
            and route
            and not self.gathered.contract.exact_labels
            and any(route_field_of(field.label) for field in fields)
        ):
            # An earlier contract's route paragraph: its other sentences stay where they were
            # written, the route's body when nothing structured came before.
            draft.add_prose(rest)
            rest = ""
        for field in fields:
            if not apply_labelled(draft, field, text):
                draft.add_prose(f"{field.label}: {field.value}")  # a field stated twice: as written
        if rest:
            draft.add_prose(rest)
        return True

    def quote(self, draft: Draft, quote: QuoteText, block: Block) -> None:
        if quote.path is None:
            self.gathered.warn(
                KB606, "quotation without a '--- path' attribution; kept as prose", block.line, block.col
            )
            draft.add_prose(quote.text)
            return
        entry: dict[str, Any] = {"text": quote.text, "path": quote.path}
        if quote.lines:
            entry["lines"] = quote.lines
        self.gathered.note_quote(entry, quote, block.line + len(block.lines) - 1, block.col)
        draft.add_quote(entry)


def _states_every_route_field(fields: list[Field]) -> bool:
    """Whether a paragraph's labelled fields include all of a route's labelled fields, or
    none of them (its other text fields, ``Endpoints/progression:``, ``Owner:``, are read)."""
    named = {route_field_of(field.label) for field in fields} - {None}
    return not named or set(ROUTE_FIELD_LABELS) <= named


def _append(blocks: list[Any], item: Any, list_key: str | None) -> None:
    """Add a block; consecutive placements of this kind's records merge into one."""
    if isinstance(item, dict) and "records" in item:
        ids = [i for i in item["records"] if list_key is not None and list_key_of_id(i) == list_key]
        if not ids:
            return
        if blocks and isinstance(blocks[-1], dict) and "records" in blocks[-1]:
            blocks[-1]["records"].extend(ids)
            return
        item = {"records": ids}
    blocks.append(item)


def _flatten(item: dict[str, Any]) -> str:
    """A prose block as Markdown text of a record (a list's items; any other block is not
    made inside a record, and is refused rather than written as a mapping)."""
    if "items" in item:
        return "\n".join(f"- {text}" for text in item["items"])
    raise ValueError(f"a {next(iter(item), 'block')} block cannot be a record's text")
