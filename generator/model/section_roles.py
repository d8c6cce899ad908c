"""The sections that carry a run's conclusions, by role, across document types.

A single result states its verdicts in its bounded synthesis and its limitations; an
analysis set states them in its overview's synthesis and limitations, its epistemic
report's bounded conclusion and its memory report's core ideas and limitations. Two runs
of one system may be of different document types, so their verdicts are compared section
by role, not by key: ``SECTION_ROLES`` is the one place that says which section of which
document carries which role (``graph/verdict_diff.py`` reads it).
"""

from __future__ import annotations

from typing import Literal

from generator.model.sets import DOCUMENT_SECTION_TITLES

SectionRole = Literal["synthesis", "limitations"]

# Document key → section key → role, in the order a run's pages show the documents.
SECTION_ROLES: dict[str, dict[str, SectionRole]] = {
    "result": {"bounded_synthesis": "synthesis", "limitations": "limitations"},
    "memory_report": {"core_ideas": "synthesis", "limitations_and_checks": "limitations"},
    "overview": {"bounded_synthesis": "synthesis", "limitations": "limitations"},
    "epistemic_report": {"bounded_conclusion": "synthesis"},
}


def role_sections(role: SectionRole) -> list[tuple[str, str]]:
    """The (document key, section key) pairs that carry ``role``, in document order."""
    return [(doc, key) for doc, keys in SECTION_ROLES.items() for key, r in keys.items() if r == role]


def section_title(document: str, key: str) -> str:
    """A role section's title as its page shows it by default."""
    return DOCUMENT_SECTION_TITLES[document][key]
