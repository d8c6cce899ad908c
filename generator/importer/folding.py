"""Folding text to the words an import is measured by: case, markup and punctuation dropped."""

from __future__ import annotations

import re

_WORD = re.compile(r"[^\W_]+")
# A Markdown link counts by its text: the target is the record's URL, not the document's words.
# A link is ``[text](target)`` on one line: the text runs to the first ``]``, the target to
# the first ``)``. Where no link starts at a ``[``, the second branch consumes what the
# first one read (up to that ``]`` or line end; after ``](``, up to the line end, as no
# ``)`` follows there), since no link can start inside it either: every character is read
# by at most one attempt of each branch, so the scan is linear (a run of ``[`` or of
# ``[a](`` once made it quadratic).
_LINK = re.compile(r"\[([^\]\n]*)\]\([^)\n]*\)|\[[^\]\n]*(?:\]\([^)\n]*)?")


# ``SHA-256 <hex>`` and ``sha256:<hex>`` name one digest: a capture's revision is held in
# the second spelling whichever the document wrote.
_SHA256 = re.compile(r"\bsha-256\b", re.I)


def _link_text(match: re.Match[str]) -> str:
    text = match.group(1)
    return match.group(0) if text is None else text


def words(text: str) -> list[str]:
    """The folded words of a text: case, markup and punctuation dropped."""
    return _WORD.findall(_SHA256.sub("sha256", _LINK.sub(_link_text, text)).casefold())
