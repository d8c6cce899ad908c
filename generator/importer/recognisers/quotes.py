"""Quotations attributed to a file: ``> text`` lines ending in ``--- path:lines @ commit``
(or ``— SRC-2 path:lines``, or a capture's ``@ sha256:…``), or a plain-text paragraph
``text --- path``."""

from __future__ import annotations

import re
from dataclasses import dataclass

from generator.model.anchors import parse_ranges

# ``--- path:lines @ commit``, ``--- `path:81-82` @ `sha256:…` ``, ``— SRC-2 path:lines``:
# a dash (three hyphens or an em dash), an optional source ID, the path (backticks
# allowed) with optional line ranges, and an optional pin (a commit or a capture digest).
_ATTRIBUTION = re.compile(
    r"(?:^|\s)(?:---|—)\s+(?:`?(?P<source>(?:[A-Z]{2,5}-)?SRC-[0-9a-z-]+)`?,?\s+)?"
    r"`?(?P<path>[^\s`:@]+)(?::(?P<ranges>[0-9]+(?:-[0-9]+)?(?:,[0-9]+(?:-[0-9]+)?)*))?`?"
    r"(?:\s+@\s+`?(?P<commit>(?:sha256:)?[0-9a-fA-F]{7,64})`?)?\s*\Z"
)


@dataclass(frozen=True)
class QuoteText:
    text: str
    path: str | None
    lines: list[list[int]]
    commit: str | None  # the pin written after '@': a commit, or 'sha256:' and a digest
    attribution: str  # the attribution as written ("" when none)
    source: str | None = None  # the source the attribution names, if it names one


def _parts(text: str, match: re.Match[str] | None) -> QuoteText:
    if match is None:
        return QuoteText(text, None, [], None, "")
    ranges = match.group("ranges")
    lines = [[r.start, r.end] for r in parse_ranges(ranges)] if ranges else []
    return QuoteText(
        text, match.group("path"), lines, match.group("commit"), match.group(0).strip(), match.group("source")
    )


def block_quote(lines: list[str]) -> QuoteText:
    """A Markdown block quote: its text (line breaks kept) and its attribution line, if any.

    The last line is the attribution only when the whole line is one (``--- path…`` or
    ``— SRC-2 path…``); any other last line, one opening with dashes included (``--- see
    the notes``, a pin that is no commit), is the quotation's text."""
    body = [re.sub(r"^\s*> ?", "", line) for line in lines]
    attribution = _ATTRIBUTION.match(body[-1].strip()) if body else None
    if attribution is not None:
        return _parts("\n".join(body[:-1]).strip("\n"), attribution)
    return _parts("\n".join(body).strip("\n"), None)


def attributed_paragraph(text: str) -> QuoteText | None:
    """A plain-text paragraph that ends with ``--- path``: a quotation of that file."""
    match = _ATTRIBUTION.search(text)
    if match is None or match.start() == 0:
        return None
    return _parts(text[: match.start()].strip(), match)
