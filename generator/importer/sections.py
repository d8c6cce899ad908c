"""Which document a text is (result or memory report) and where each heading belongs.

Section titles come from the models (``RESULT_SECTION_TITLES``,
``MEMORY_REPORT_SECTION_TITLES``) and the kind titles of 'Shared records' from the kind
registry, so a new section or kind needs no change here.
"""

from __future__ import annotations

import re

from generator.model import kinds
from generator.model.ids import grammar
from generator.model.prose import MEMORY_REPORT_SECTION_TITLES, RESULT_SECTION_TITLES
from generator.model.sets import (
    DOCUMENT_SECTION_TITLES,
)

SHARED = "shared_records"


def _fold(title: str) -> str:
    return re.sub(r"\s+", " ", title.strip().lower())


def section_keys(document_kind: str) -> dict[str, str]:
    """Folded section title → model key, for a document kind (``result``, ``overview``, …)."""
    return {_fold(title): key for key, title in DOCUMENT_SECTION_TITLES[document_kind].items()}


def top_level_titles() -> set[str]:
    return {_fold(t) for t in (*RESULT_SECTION_TITLES.values(), *MEMORY_REPORT_SECTION_TITLES.values())}


def kind_list_of_title(title: str) -> str | None:
    """The list key of a 'Shared records' kind subsection title (``Routes`` → ``routes``)."""
    folded = _fold(title)
    for list_key, shared_title in kinds.shared_kind_titles().items():
        if _fold(shared_title) == folded:
            return list_key
    return None


def starts_with_id(text: str) -> bool:
    match = grammar().in_text.search(text)
    return match is not None and match.start() == 0


def heading_level(title: str, open_titles: list[str], first: bool) -> int | None:
    """The level of a plain-text heading, from what it says and what is open above it.

    The title line is level 1, known sections level 2, kind subsections of 'Shared records'
    level 3, a record or annotation heading (``MEM-OBJ-x``, ``On RT-OBJ-y``) level 4, and any
    other title a subsection (level 3) of the section it is in. None: not a heading.
    """
    if first:
        return 1
    folded = _fold(title)
    if folded in top_level_titles():
        return 2
    if kind_list_of_title(title) and any(_fold(t) == "shared records" for t in open_titles):
        return 3
    if starts_with_id(title) or (title.startswith("On ") and starts_with_id(title[3:])):
        return 4
    if not (title[:1].isupper() or title[:1].isdigit()):
        return None
    return 3
