"""Where each inline link's destination ends, found in one pass before parsing.

markdown-it-py tries a link at every ``[`` (an image at every ``![``) and, after each
``](``, scans the destination up to 32 nested parentheses deep in Python, one character
at a time: a text of nothing but ``![a](`` cost about thirty scanned characters per
character of text. ``Destinations`` finds the end of every such destination at once, as
``parseLinkDestination`` would for the whole text, reading each character once with a
pattern and each parenthesis, escape and stretch of white space once in Python; the
parser asks it instead of scanning (``generator.model.inline_markup``).

It also says whether a link can be made at all: only where some ``](`` is followed by
``<``, by ``)``, or by a destination that ends at a ``)``, or at white space with a ``)``
somewhere after it (the ``)`` that closes the link). A text without one is read without
the link rules, its brackets text.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

__all__ = ["Destinations"]

_LABEL_END = re.compile(r"\]\([ \t\n]*")
# What a destination's scan acts on, as ``parseLinkDestination`` reads it: a backslash and
# the character after it (skipped; a backslash before a space ends the scan), a
# parenthesis, and a run of spaces or control characters (where the scan ends).
_EVENT = re.compile(r"\\[^ ]|\\(?= )|[()]|[\x00-\x20\x7f]+")
# markdown-it-py's limit: a destination nesting parentheses deeper fails.
_MAX_NESTING = 32


@dataclass
class Destinations:
    """The destinations of one text's ``](`` (its whole length is the parser's limit)."""

    text: str
    # start → end of the destination there (exclusive), or None where the scan fails;
    # only starts that are not '<' (a destination in angle brackets is scanned by the
    # parser, up to the next '<', '>' or line break).
    ends: dict[int, int | None] = field(default_factory=dict)
    may_link: bool = False

    @classmethod
    def of(cls, text: str) -> Destinations:
        found = cls(text)
        starts: list[int] = []
        for label_end in _LABEL_END.finditer(text):
            start = label_end.end()
            if start == len(text):
                continue
            if text[start] in "<)":  # in angle brackets, or empty: a link may close here
                found.may_link = True
            if text[start] != "<":
                starts.append(start)
        if starts:
            found._scan(starts)
        return found

    def _scan(self, starts: list[int]) -> None:
        """Every scan at once: depth is counted from the start of each run of non-space
        characters; a scan begun at depth ``d`` ends at the first ``)`` met at depth ``d``,
        fails at the first ``(`` that takes the depth past ``d + 32``, and at white space
        (or the text's end) ends well only at depth ``d``."""
        text, ends = self.text, self.ends
        waiting: dict[int, list[int]] = {}  # the depth each unfinished scan began at
        depth = 0
        index = 0

        def begin_before(position: int) -> None:
            nonlocal index
            while index < len(starts) and starts[index] <= position:
                waiting.setdefault(depth, []).append(starts[index])
                index += 1

        def finish_all(position: int) -> None:
            for began, scans in waiting.items():
                for start in scans:
                    ends[start] = position if began == depth and position > start else None
            waiting.clear()

        for event in _EVENT.finditer(text, starts[0]):
            position = event.start()
            begin_before(position)
            matched = event.group()
            if matched == "(":
                depth += 1
                for start in waiting.pop(depth - _MAX_NESTING - 1, ()):
                    ends[start] = None
            elif matched == ")":
                for start in waiting.pop(depth, ()):
                    ends[start] = position if position > start else None
                depth -= 1
            elif matched[0] != "\\" or len(matched) == 1:  # white space, or '\' before it
                finish_all(position)
                depth = 0
        begin_before(len(text))
        finish_all(len(text))
        # A link closes with a ')': right at the destination's end, or after white space
        # (and a title), so only where one follows.
        last_close = text.rfind(")")
        self.may_link = self.may_link or any(end is not None and end <= last_close for end in ends.values())
