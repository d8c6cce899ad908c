"""Declaring a record: the one place a draft is made for an ID the document declares."""

from __future__ import annotations

from generator.diagnostics import Rule
from generator.importer.context import Gathered
from generator.importer.drafts import Draft
from generator.importer.import_rules import KB601
from generator.importer.recognisers.fields import status_phrase
from generator.model import kinds

KB605 = Rule(
    "KB605",
    "import-duplicate-id",
    "A document declares a record ID twice; the later one is kept as prose.",
    doc="`kbgen import`, error: the document declares an ID twice; the later declaration is kept as prose",
)


def declare(
    gathered: Gathered, record_id: str, list_key: str | None, line: int, col: int, label: str | None
) -> Draft | None:
    """A new draft for ``record_id``; None (and an error) when the document declared it before."""
    if list_key is None:
        gathered.warn(KB601, f"{record_id} names no record kind; kept as prose", line, col)
        return None
    if record_id in gathered.drafts:
        first = gathered.drafts[record_id]
        gathered.fail(
            KB605,
            f"{record_id} is declared again (first at line {first.line}); this declaration is kept as prose",
            line,
            col,
        )
        return None
    draft = Draft(list_key, {"id": record_id}, line, col)
    label, status = _label_status(label, list_key)
    if label:
        draft.set("label", label)
    if status:
        draft.data["statuses"] = {"conclusion status": status}
    gathered.drafts[record_id] = draft
    return draft


def _label_status(label: str | None, list_key: str) -> tuple[str | None, str | None]:
    """``Session continuity; wired`` → the label and the record's conclusion status, which
    the label states after a semicolon (an evidenced absence's status is always absent: kept
    whole)."""
    if not label or "; " not in label or kinds.list_has_role(list_key, kinds.Role.EVIDENCED_ABSENCE):
        return label, None
    head, _, tail = label.rpartition("; ")
    phrase = status_phrase(tail)
    return (head.strip(), phrase) if phrase and head.strip() else (label, None)
