"""One allocator of a page's anchors: record anchors and the page's fixed anchors first,
then each prose section's, so a section can never take an anchor another element owns.

A record's anchor is its lower-cased ID (``#rte-1``), and every link to it (search,
"Referenced by", ``record_link``) lands on the first element with that id. A prose
section titled ``RTE-1`` would take the same anchor; so would a subsection titled like a
page's own section ("Limitations"), or ``Top``. Such a title gets the next free anchor
(``rte-1-2``), the check reports the clash with a record or the theme (KB210), and no page
has two elements with one id.
"""

from __future__ import annotations

from collections.abc import Iterable

from generator.model.ids import THEME_ANCHORS, is_theme_anchor, title_anchor
from generator.model.profile import ALL_AXES, PROFILE_ANCHOR, axis_anchor

# Anchors the page templates write themselves, whatever the records hold.
TEMPLATE_ANCHORS = frozenset(
    {
        PROFILE_ANCHOR,
        f"{PROFILE_ANCHOR}-summary",
        *(axis_anchor(axis) for axis in ALL_AXES),
        "sources",
        "amendments",
        "supersessions",
        "unresolved-conflicts",
        "artifacts",
        "analysis-set",
        "declared-elsewhere",
        "by-status-field",
        "systems-without-a-profile",
    }
)


class PageAnchors:
    """The anchors of one page. ``own`` gives the anchor of a heading the template writes
    from the model's titles (reserved when the page is made, the same on every page of its
    type); ``section`` allocates the anchor of a heading whose title is record text."""

    def __init__(self, reserved: Iterable[str] = (), own_titles: Iterable[str] = ()) -> None:
        self._own = {title_anchor(title) for title in own_titles}
        self._used: set[str] = set(THEME_ANCHORS) | set(TEMPLATE_ANCHORS) | set(reserved) | self._own
        # The last number given to each title's slug: a page of many sections with one title
        # gets each next anchor in one step, not by counting up from 2 every time.
        self._numbered: dict[str, int] = {}

    def own(self, title: str) -> str:
        anchor = title_anchor(title)
        self._used.add(anchor)
        return anchor

    def section(self, title: str) -> str:
        """A record-text heading's anchor: its title's slug, or the next free ``slug-N``."""
        base = title_anchor(title)
        anchor, number = base, self._numbered.get(base, 1)
        while anchor in self._used or is_theme_anchor(anchor):
            number += 1
            anchor = f"{base}-{number}"
        self._numbered[base] = number
        self._used.add(anchor)
        return anchor
