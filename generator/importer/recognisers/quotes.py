"""Quotations attributed to a file: ``> text`` lines ending in ``--- path:lines @ commit``, or a
plain-text paragraph ``text --- path``."""

from __future__ import annotations

import re
from dataclasses import dataclass

from ...model.anchors import parse_ranges

_ATTRIBUTION = re.compile(
    r"(?:^|\s)---\s+`?(?P<path>[^\s`:@]+)(?::(?P<ranges>[0-9]+(?:-[0-9]+)?(?:,[0-9]+(?:-[0-9]+)?)*))?`?"
    r"(?:\s+@\s+`?(?P<commit>[0-9a-fA-F]{7,64})`?)?\s*$"
)


@dataclass(frozen=True)
class QuoteText:
    text: str
    path: str | None
    lines: list[list[int]]
    commit: str | None
    attribution: str  # the attribution as written ("" when none)


def _parts(text: str, attribution_text: str) -> QuoteText:
    match = _ATTRIBUTION.search(attribution_text)
    if match is None:
        return QuoteText(text, None, [], None, "")
    ranges = match.group("ranges")
    lines = [[r.start, r.end] for r in parse_ranges(ranges)] if ranges else []
    return QuoteText(text, match.group("path"), lines, match.group("commit"), match.group(0).strip())


def block_quote(lines: list[str]) -> QuoteText:
    """A Markdown block quote: its text (line breaks kept) and its attribution line, if any."""
    body = [re.sub(r"^\s*> ?", "", line) for line in lines]
    if body and body[-1].lstrip().startswith("---"):
        return _parts("\n".join(body[:-1]).strip("\n"), body[-1])
    return QuoteText("\n".join(body).strip("\n"), None, [], None, "")


def attributed_paragraph(text: str) -> QuoteText | None:
    """A plain-text paragraph that ends with ``--- path``: a quotation of that file."""
    match = _ATTRIBUTION.search(text)
    if match is None or match.start() == 0:
        return None
    return _parts(text[: match.start()].strip(), text[match.start() :])
