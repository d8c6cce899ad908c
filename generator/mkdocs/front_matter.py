"""While serving, each page text's front matter is read once, not on every rebuild.

MkDocs reads every page's source on every build (``Page.read_source``) and splits off its
front matter (``mkdocs.utils.meta.get_data``): a YAML parse and a copy of the page's
Markdown, for every page, after every edit. A generated page of a system the edit did not
touch is the very same text as before (the serve memory keeps its string), so what
``get_data`` made of it is kept, under the text, and handed out again: the same Markdown
and a copy of the same data (a plugin may change a page's ``meta``). What the latest
build read is kept, nothing older; ``get_data`` is replaced only while a serve runs
(MkDocs offers no hook between reading a page and splitting it).
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

from mkdocs.utils import meta

__all__ = ["FrontMatterMemo"]

Read = tuple[str, dict[str, Any]]


class FrontMatterMemo:
    """What ``get_data`` made of each page text the latest builds read."""

    def __init__(self) -> None:
        self._kept: dict[str, Read] = {}  # by the text, as the last finished build read them
        self._read: dict[str, Read] = {}  # by the text, as this build reads them
        self._original: Callable[[str], Read] | None = None

    def install(self) -> None:
        if self._original is None:
            self._original = meta.get_data
            meta.get_data = self.get_data

    def uninstall(self) -> None:
        if self._original is not None:
            if meta.get_data == self.get_data:
                meta.get_data = self._original  # type: ignore[assignment]
            self._original = None
        self._kept, self._read = {}, {}

    def get_data(self, doc: str) -> Read:
        found = self._read.get(doc)
        if found is None:
            found = self._kept.get(doc)
        if found is None:
            assert self._original is not None
            found = self._original(doc)
        self._read[doc] = found
        return found[0], copy.deepcopy(found[1])

    def build_done(self) -> None:
        """A build ended: what it read is kept for the next, nothing older."""
        self._kept, self._read = self._read, {}
