"""A reconciliation member's typed paragraphs: amendments become typed amendments.

``Amendment: RTE-4's description … Evidence: … Affected findings: …`` becomes
``{targets: [RTE-4], body, evidence_text, affected_findings}``, each part as written. An
``Amendment:`` paragraph that does not open with the IDs it amends, and an ``Unresolved
conflict:`` paragraph (whose parts the spec does not label, so they cannot be cut
without rewording), stay prose with a KB601 note.
"""

from __future__ import annotations

from typing import Any

from generator.importer.context import Gathered
from generator.importer.document import Block
from generator.importer.import_rules import KB601
from generator.importer.recognisers.amendments import AMENDMENT, UNRESOLVED_CONFLICT, amendment_text


def typed_paragraph(gathered: Gathered, block: Block) -> dict[str, Any] | None:
    """The typed amendment a paragraph is, or None (then it stays prose)."""
    text = block.text
    if text.startswith(UNRESOLVED_CONFLICT):
        gathered.warn(
            KB601,
            "an 'Unresolved conflict:' paragraph is kept as prose: its affected IDs, findings, "
            "evidence and conclusion prevented are not labelled, so they are not cut apart",
            block.line,
            block.col,
        )
        return None
    if not text.startswith(AMENDMENT):
        return None
    parsed = amendment_text(text)
    if parsed is None:
        gathered.warn(
            KB601,
            "an 'Amendment:' paragraph that does not open with the IDs it amends "
            "('Amendment: RTE-4's …', 'Amendment: RTE-2 and RTE-3's …') is kept as prose",
            block.line,
            block.col,
        )
        return None
    gathered.cite(text, block.line, block.col)
    amendment: dict[str, Any] = {"targets": parsed.targets, "body": parsed.body}
    if parsed.evidence:
        amendment["evidence_text"] = parsed.evidence
    if parsed.affected:
        amendment["affected_findings"] = parsed.affected
    return amendment
