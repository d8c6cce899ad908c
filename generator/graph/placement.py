"""Where the linked graph puts records and sections: page keys, supplied by the renderer.

The graph resolves every reference to a place (a page and an anchor on it) but does not
know the site's pages: the page registry does. The renderer hands the graph a
``PagePlacement`` (``generator.render.registry.PLACEMENT``) naming the page each kind of
content is published on, and which page is a system's home.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from generator.model.system import SystemRecords
from generator.model.vocab import Member


@dataclass(frozen=True)
class PagePlacement:
    """The page keys the graph places content on."""

    system: str  # the system page: annotations and the profile without a memory report
    memory_report: str  # annotations, the profile and the memory report's sections
    # Each document key (``result``, ``memory_report``, ``overview``, …) → its page.
    documents: Mapping[str, str]
    # In an analysis set, each member → its page (records and annotations live there).
    members: Mapping[Member, str]
    home: Callable[[SystemRecords], str]  # the page a system's records are published on

    def member_page(self, member: Member) -> str:
        return self.members[member]

    @property
    def overview(self) -> str:
        """An analysis set's home page: its overview member's."""
        return self.members[Member.OVERVIEW]

    @property
    def reconciliation(self) -> str:
        return self.members[Member.RECONCILIATION]
