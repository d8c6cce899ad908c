"""A reconciliation's typed paragraphs: ``Amendment: <IDs> …`` and ``Unresolved conflict: …``.

An amendment paragraph names the records it amends first (``RTE-4's description …``,
``RTE-2 and RTE-3's …``), then says what it changes; ``Evidence:`` and ``Affected
findings:`` parts follow. Every part is kept as written: the recogniser only cuts the
paragraph at those two labels.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from generator.model.ids import grammar

AMENDMENT = "Amendment:"
UNRESOLVED_CONFLICT = "Unresolved conflict:"
# Between two amended IDs: "RTE-2 and RTE-3", "RTE-2, RTE-3 and RTE-5", "RTE-2, RTE-3, and …".
_JOINER = re.compile(r",\s+and\s+|,\s+|\s+and\s+")
# After the IDs: a possessive, then a word ("RTE-4's description"), or straight a word
# ("CMP-1 is extended"); anything else ("RTE-2/RTE-4") is not a list of amended records.
_AFTER_IDS = re.compile(r"(?:'s|\u2019s)?\s+\S")
_EVIDENCE = re.compile(r"\s+Evidence:\s+")
_AFFECTED = re.compile(r"\s+Affected findings:\s+")


@dataclass(frozen=True)
class AmendmentText:
    """An amendment paragraph cut into its parts, each as written."""

    targets: list[str]
    body: str  # after "Amendment: ", up to "Evidence:"
    evidence: str | None
    affected: str | None


def leading_ids(text: str) -> tuple[list[str], str]:
    """The IDs a text opens with (joined by commas or 'and'), and the text after them; one
    match of one pattern, so a paragraph of thousands of IDs is read in linear time."""
    one = grammar().in_text.pattern
    lead = re.compile(rf"(?:{one})(?:(?:{_JOINER.pattern})(?:{one}))*").match(text)
    if lead is None:
        return [], text
    return [m.group(0) for m in grammar().in_text.finditer(lead.group(0))], text[lead.end() :]


def _cut(text: str, label: re.Pattern[str]) -> tuple[str, str | None]:
    """The text before the label's first occurrence and after it (None: no such label)."""
    match = label.search(text)
    if match is None:
        return text, None
    return text[: match.start()], text[match.end() :]


def amendment_text(text: str) -> AmendmentText | None:
    """An ``Amendment:`` paragraph's parts, or None when it does not open with the IDs it amends."""
    if not text.startswith(AMENDMENT):
        return None
    written = text[len(AMENDMENT) :].strip()
    targets, rest = leading_ids(written)
    if not targets or _AFTER_IDS.match(rest) is None:
        return None
    body, evidence = _cut(written, _EVIDENCE)
    if evidence is None:
        body, affected = _cut(body, _AFFECTED)
    else:
        evidence, affected = _cut(evidence, _AFFECTED)
    return AmendmentText(targets, body.strip(), _stripped(evidence), _stripped(affected))


def _stripped(text: str | None) -> str | None:
    return text.strip() or None if text is not None else None
