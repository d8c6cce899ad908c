"""Folding text to the words an import is measured by: case, markup and punctuation dropped."""

from __future__ import annotations

import re

_WORD = re.compile(r"[^\W_]+")
# A Markdown link counts by its text: the target is the record's URL, not the document's words.
_LINK = re.compile(r"\[([^\]\n]*)\]\([^)\n]*\)")


def words(text: str) -> list[str]:
    """The folded words of a text: case, markup and punctuation dropped."""
    return _WORD.findall(_LINK.sub(r"\1", text).casefold())
