"""The epistemic member's 'Authority-route ledger' section: compact entries become typed.

Each paragraph that opens with ``Route ID:`` and carries the seventeen ledger labels in
the spec's order becomes a ``LedgerEntry`` (``entries:``), every value as written. The
model is the judge of the values: route IDs, route function, architectural status and
content/update relation must be its controlled values. Paragraphs and quotations after an
entry are that entry's ``remarks`` and ``quotes``, so the page keeps their place; prose
before the first entry stays the section's prose. An entry with a label missing, out of
order or repeated, or with a value outside a vocabulary, is kept as prose with a KB601
note located at the label or value; nothing is coerced.
"""

from __future__ import annotations

from typing import Any

from pydantic import ValidationError

from generator.importer.context import Gathered
from generator.importer.document import Block, Section
from generator.importer.import_rules import KB601
from generator.importer.prose import ProseWalker
from generator.importer.recognisers.amendments import leading_ids
from generator.importer.recognisers.ledger import LabelledLine, labelled_lines, opens_entry
from generator.model.sets import LEDGER_LABELS, LedgerEntry

LEDGER = "authority_route_ledger"  # the section's key in the epistemic report
ORDER = tuple(LEDGER_LABELS)
# Fields with a controlled value; the spec lets a value be written as inline code.
CONTROLLED = frozenset({"route_function", "architectural_status", "content_relation"})


class LedgerWalker:
    """Reads one ledger section with the member's prose walker for everything else."""

    def __init__(self, gathered: Gathered, prose: ProseWalker) -> None:
        self.gathered = gathered
        self.prose = prose

    def section(self, section: Section) -> dict[str, Any]:
        blocks: list[Any] = []
        entries: list[dict[str, Any]] = []
        for block in section.blocks:
            entry = self.entry(block) if _is_entry(block) else None
            if entry is not None:
                entries.append(entry)
            elif entries and block.kind in ("paragraph", "quote"):
                self.follow(entries[-1], block)
            else:
                if entries:
                    self.gathered.warn(
                        KB601,
                        f"a {block.kind} after a ledger entry is kept in the section's prose, "
                        "which is shown before the entries",
                        block.line,
                        block.col,
                    )
                blocks.extend(self.prose.blocks(block))
        out: dict[str, Any] = {"blocks": blocks} if blocks else {}
        children = [self.prose.subsection(child) for child in section.children]
        if children:
            out["sections"] = children
        if entries:
            out["entries"] = [_ordered(entry) for entry in entries]
        return out

    def follow(self, entry: dict[str, Any], block: Block) -> None:
        """A paragraph or quotation after an entry: its remarks, or a quotation it cites."""
        remarks = entry.setdefault("remarks", [])  # joined into one text when the section ends
        if block.kind == "quote":
            remarks.extend(self.prose.quote(block, entry))  # a quotation without a path: prose
            return
        remarks.extend(self.prose.paragraphs(block))

    def entry(self, block: Block) -> dict[str, Any] | None:
        """The typed entry a paragraph is, or None (it stays prose, with a note)."""
        fields = labelled_lines(block.lines, block.line)
        if not self.in_order(fields, block):
            return None
        by_name = {field.name: field for field in fields}
        routes, rest = leading_ids(by_name["routes"].value)
        if not routes or rest.strip():
            self.note(by_name["routes"], "is not a list of record IDs ('RTE-2' or 'RTE-2, RTE-3')")
            return None
        data: dict[str, Any] = {name: _unquoted(name, by_name[name].value) for name in ORDER}
        data["routes"] = routes
        try:
            LedgerEntry.model_validate(data)
        except ValidationError as exc:
            for problem in exc.errors():
                expected = (problem.get("ctx") or {}).get("expected")
                reason = f"{problem['msg']} (expected {expected})" if expected else problem["msg"]
                self.note(by_name[str(problem["loc"][0])], f"is not accepted: {reason}")
            return None
        for field in fields:
            self.gathered.cite(field.value, field.line, field.value_col)
        return data

    def in_order(self, fields: list[LabelledLine], block: Block) -> bool:
        """True when the labels are the ledger's, each once, in order; else a note at the first
        label that is not the one expected there (or where the missing one should be)."""
        names = [field.name for field in fields]
        if tuple(names) == ORDER:
            return True
        differs = (i for i, (name, wanted) in enumerate(zip(names, ORDER, strict=False)) if name != wanted)
        index = next(differs, min(len(names), len(ORDER)))
        expected = ORDER[index] if index < len(ORDER) else None
        where = fields[index] if index < len(fields) else None
        line, col = (where.line, where.label_col) if where else (block.line + len(block.lines) - 1, block.col)
        if expected is not None and expected not in names:
            problem = f"has no '{LEDGER_LABELS[expected]}:' line"
        elif expected is not None and where is not None:
            problem = (
                f"has '{LEDGER_LABELS[where.name]}:' where '{LEDGER_LABELS[expected]}:' belongs "
                "(labels out of order or repeated)"
            )
        else:
            problem = f"repeats '{LEDGER_LABELS[where.name] if where else ''}:'"
        self.gathered.warn(
            KB601,
            f"a ledger entry {problem}; an entry carries the {len(ORDER)} ledger labels in the "
            "spec's order, each once; kept as prose",
            line,
            col,
        )
        return False

    def note(self, field: LabelledLine, problem: str) -> None:
        label = LEDGER_LABELS[field.name]
        self.gathered.warn(
            KB601,
            f"a ledger entry's '{label}:' value {field.value!r} {problem}; the entry is kept as prose",
            field.line,
            field.value_col,
        )


def _is_entry(block: Block) -> bool:
    return block.kind == "paragraph" and bool(block.lines) and opens_entry(block.lines[0])


def _unquoted(name: str, value: str) -> str:
    """A controlled value written as one inline code span is read without its backticks."""
    if name in CONTROLLED and len(value) > 2 and value[0] == value[-1] == "`" and "`" not in value[1:-1]:
        return value[1:-1]
    return value


def _ordered(entry: dict[str, Any]) -> dict[str, Any]:
    """The entry's keys in the model's order (remarks before quotes, whatever came first),
    its remarks' paragraphs as one text."""
    if "remarks" in entry:
        entry["remarks"] = "\n\n".join(entry["remarks"])
        if not entry["remarks"]:
            del entry["remarks"]
    return {name: entry[name] for name in LedgerEntry.model_fields if name in entry}
