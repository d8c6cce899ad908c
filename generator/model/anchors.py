"""Evidence anchors: a declared source, then a relative path with optional line ranges
or a document locator (section, appendix, table, figure, page).

Written as ``SRC-1 packages/agent/src/agent-loop.ts:1593-1639,1700`` or ``SRC-1 §3.1``,
``SRC-1 Appendix C``, ``SRC-2 Table 2``, ``SRC-1 p. 4`` in a record's ``evidence`` list,
and found in prose in the same forms, where one source may cover several paths
separated by ``;`` or ``,`` (``SRC-1 a.ts:1-9; b.ts:4``). A prose path with neither a
file extension, a line range nor a closing ``/`` (``SRC-2 illustrations/reports``) only
looks like an anchor: it is found as a look-alike, reported and never linked.

A source is a record of a kind evidence cites (``Role.EVIDENCE_SOURCE`` in its kind
spec): the patterns that find one are compiled from the ID grammar in force
(``ids.grammar().source_id``), once per grammar.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from generator.model.ids import grammar

_RANGES = r"[0-9]+(?:-[0-9]+)?(?:,[0-9]+(?:-[0-9]+)?)*"
# A path token has a slash or a file extension, and no spaces.
_PATH = r"[A-Za-z0-9_.@<>~+-]*(?:/[A-Za-z0-9_.@<>~+-]*)+|[A-Za-z0-9_@<>~+-][A-Za-z0-9_.@<>~+-]*\.[A-Za-z0-9]+"
_PATH_WITH_RANGES = rf"(?:{_PATH})(?::{_RANGES})?"

# A document locator: '§3.1', 'Section 4', 'Appendix C', 'Table A.2', 'Figure 3', 'p. 4',
# 'pp. 4-5'. A sentence's closing period is not part of it.
_LOCATOR = (
    r"(?:§\s?|(?:Section|Appendix|Table|Figure|Fig\.|Chapter|Algorithm|Listing|Equation|Eq\.)\s|pp?\.\s?)"
    r"[A-Z0-9][A-Za-z0-9]*(?:\.[A-Za-z0-9]+)*(?:[-–][0-9]+)?"
)
LOCATOR = re.compile(_LOCATOR)


@dataclass(frozen=True)
class SourcePatterns:
    """The patterns that start with a source ID, for one ID grammar's source kinds."""

    locator_text: re.Pattern[str]  # a whole 'SRC-1 §3.1'
    locator_in_text: re.Pattern[str]  # 'SRC-1 §3.1' in prose
    anchor_text: re.Pattern[str]  # a whole 'SRC-1 path:ranges'
    # In prose: a source ID, then one or more path tokens separated by ``;`` or ``,``.
    anchor_in_text: re.Pattern[str]


@lru_cache(maxsize=8)
def _compiled(source: str) -> SourcePatterns:
    return SourcePatterns(
        locator_text=re.compile(rf"^(?P<source>{source}),?\s+(?P<locator>{_LOCATOR})\Z"),
        locator_in_text=re.compile(rf"(?P<source>{source}),?\s+(?P<locator>{_LOCATOR})"),
        anchor_text=re.compile(rf"^(?P<source>{source}),?\s+(?P<path>\S+?)(?::(?P<ranges>{_RANGES}))?\Z"),
        anchor_in_text=re.compile(
            rf"(?P<source>{source}),?\s+(?P<paths>{_PATH_WITH_RANGES}(?:\s*[;,]\s*{_PATH_WITH_RANGES})*)"
        ),
    )


def source_patterns() -> SourcePatterns:
    """The source patterns of the ID grammar in force."""
    return _compiled(grammar().source_id)


_PATH_IN_LIST = re.compile(rf"(?P<path>{_PATH})(?::(?P<ranges>{_RANGES}))?")


@dataclass(frozen=True, slots=True)
class LineRange:
    """An inclusive line range; a single line has start == end."""

    start: int
    end: int

    def __str__(self) -> str:
        return str(self.start) if self.start == self.end else f"{self.start}-{self.end}"


def parse_ranges(text: str) -> tuple[LineRange, ...]:
    """Parse ``1593-1639,1700`` into line ranges (no validation of order)."""
    ranges = []
    for part in text.split(","):
        start, _, end = part.partition("-")
        ranges.append(LineRange(int(start), int(end or start)))
    return tuple(ranges)


@dataclass(frozen=True, slots=True)
class AnchorText:
    """One anchor as parsed from text, with its character span in that text."""

    source: str
    path: str
    ranges: tuple[LineRange, ...]
    start: int
    end: int
    source_start: int  # where the citing source ID is written (shared by its paths)
    locator: str = ""  # a document locator ('§3.1'); the path is then empty
    lookalike: bool = False  # a path that names no file: text, not an anchor

    @property
    def is_file(self) -> bool:
        """Whether it cites a file (which can be linked and checked against a clone)."""
        return not self.locator and not self.lookalike


def _strip_trailing(path: str) -> str:
    # A sentence may end right after a path: "… src/lib.rs." or "… lib.rs)".
    return path.rstrip(".)")


def find_anchors(text: str) -> list[AnchorText]:
    """Find every evidence anchor written in prose (files, locators, look-alikes), in order."""
    ids = grammar()
    if not ids.cites_a_source(text):  # every anchor names a source ('SRC-1')
        return []
    return list(_anchors_in(text, ids.source_id))


# The check, the renderer (a record shared by several pages is written on each) and the
# evidence lines read the same texts: each is scanned once per source-ID grammar. A build's
# forked render workers inherit what the check found.
@lru_cache(maxsize=1 << 15)
def _anchors_in(text: str, source_id: str) -> tuple[AnchorText, ...]:
    patterns = _compiled(source_id)
    found = _file_anchors(text, patterns)
    found.extend(
        AnchorText(m.group("source"), "", (), m.start(), m.end(), m.start(), locator=m.group("locator"))
        for m in patterns.locator_in_text.finditer(text)
    )
    found.sort(key=lambda anchor: anchor.start)
    return tuple(found)


def _looks_like_a_file(path: str) -> bool:
    """A cited path names a file (an extension) or a folder (a closing '/')."""
    return path.endswith("/") or "." in path.rsplit("/", 1)[-1]


def _file_anchors(text: str, patterns: SourcePatterns) -> list[AnchorText]:
    found: list[AnchorText] = []
    for match in patterns.anchor_in_text.finditer(text):
        source = match.group("source")
        offset = match.start("paths")
        for part in _PATH_IN_LIST.finditer(match.group("paths")):
            path = part.group("path")
            ranges = part.group("ranges")
            if ranges is None:
                path = _strip_trailing(path)
            if not path or ("/" not in path and "." not in path):
                continue
            start = offset + part.start()
            end = start + len(path) + (len(ranges) + 1 if ranges else 0)
            found.append(
                AnchorText(
                    source,
                    path,
                    parse_ranges(ranges) if ranges else (),
                    start,
                    end,
                    match.start("source"),
                    lookalike=ranges is None and not _looks_like_a_file(path),
                )
            )
    return found


def parse_locator(text: str) -> tuple[str, str] | None:
    """Parse ``SRC-1 §3.1`` into (source, locator); None when it is not of that form."""
    match = source_patterns().locator_text.match(text.strip())
    return (match.group("source"), match.group("locator")) if match else None


def parse_anchor(text: str) -> tuple[str, str, tuple[LineRange, ...]] | None:
    """Parse one structured anchor string; None when it is not of the anchor form."""
    match = source_patterns().anchor_text.match(text.strip())
    if not match:
        return None
    ranges = match.group("ranges")
    return match.group("source"), match.group("path"), parse_ranges(ranges) if ranges else ()


_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


_PERCENT_ESCAPE = re.compile(r"%[0-9A-Fa-f]{2}")


_DRIVE = re.compile(r"[A-Za-z]:")


# Asked of every anchor, in prose and structured, by the check and again by the renderer;
# a system cites the same few files many times.
@lru_cache(maxsize=1 << 12)
def unsafe_path_reason(path: str) -> str | None:
    """Why a cited path is unsafe to turn into a link, or None when it is safe."""
    if path.startswith(("/", "~")) or _DRIVE.match(path):
        return "is absolute"
    if "\\" in path:
        return "contains a backslash"
    if ".." in path and any(part == ".." for part in path.split("/")):
        return "climbs out of the repository with '..'"
    if "//" in path or _CONTROL.search(path):
        return "contains an empty segment or a control character"
    # The path becomes part of a URL: an encoded '..' (%2e%2e) or a '?'/'#' would change
    # which file the link opens, so only the path as the repository spells it is accepted.
    if _PERCENT_ESCAPE.search(path):
        return "is percent-encoded; write the path as the repository spells it"
    if "?" in path or "#" in path:
        return "contains '?' or '#', which would turn part of it into a URL query or fragment"
    return None


def bad_range_reason(ranges: tuple[LineRange, ...]) -> str | None:
    """Why a set of line ranges is not sane, or None."""
    for line_range in ranges:
        if line_range.start < 1:
            return f"line range {line_range} starts before line 1"
        if line_range.end < line_range.start:
            return f"line range {line_range} ends before it starts"
    return None


_ATTRIBUTION = re.compile(
    rf"^`?(?P<path>[^\s`@]+?)(?::(?P<ranges>{_RANGES}))?`?(?:\s+@\s+`?(?P<pin>[^\s`]+)`?)?\Z"
)


def parse_attribution(text: str) -> tuple[str, tuple[LineRange, ...], str | None] | None:
    """Parse a quotation's attribution, ``capture.md:81-82 @ sha256:…`` (backticks allowed),
    into (path, line ranges, pin); None when it is not of that form."""
    match = _ATTRIBUTION.match(text.strip().removeprefix("---").strip())
    if match is None:
        return None
    ranges = match.group("ranges")
    return match.group("path"), parse_ranges(ranges) if ranges else (), match.group("pin")
