"""Raw HTML blocks of generated pages kept out of Python-Markdown and spliced back after it.

A generated page is mostly raw HTML blocks (``render/rawhtml.py``) between a few Markdown
parts (front matter, headings, a few small tables). Python-Markdown gives a raw block back
unchanged, but only after parsing it with ``HTMLParser`` twice (MkDocs' anchor finder and
the raw-block preprocessor): on a large page that is most of its conversion. So before
conversion each raw block is replaced by a marker comment, which Python-Markdown passes
through as a one-line raw block of its own, and after conversion the marker is replaced
by the block, normalised as Python-Markdown would have normalised it.

Only a chunk Python-Markdown would certainly keep whole as raw HTML is taken out: it
follows a blank line, starts at the line start with a block-level tag, is not inside a
code fence, holds no blank line, no ``markdown`` attribute and no comment, and each of its
top-level elements closes at a line end, followed by the next one's start or by the
chunk's end (text after a closed element would be Markdown). Once an element with a
``markdown`` attribute opens, nothing after it is taken out (md_in_html parses inside).
Anything not taken out stays in the Markdown, converted as before. The scan relies on
what the renderer guarantees inside raw HTML: every ``<`` of record text is an entity, so
each ``<`` opens a tag. It is linear in the page. The markers carry a digest of the page,
so no text on the page can name one.
"""

from __future__ import annotations

import hashlib
import html
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from markdown import Markdown

# Python-Markdown's default tab length (MkDocs offers no setting for it).
TAB_LENGTH = 4
BLOCK_LEVEL = frozenset(Markdown().block_level_elements)
# HTML elements without a closing tag.
VOID = frozenset(
    {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}
)
_TAG = re.compile(r"<(/?)([a-zA-Z][a-zA-Z0-9-]*)([^<>]*)>")
_ANCHOR_ATTR = re.compile(r"""\s(id|name)\s*=\s*"([^"]*)\"""")
_MARKDOWN_ATTR = re.compile(r"\smarkdown(?:[\s=/]|$)")
_MARKDOWN_CONTAINER = re.compile(r"<[a-zA-Z][^<>]*\smarkdown(?:[\s=/>])")
_FENCE_LINE = re.compile(r"^ *(?:```|~~~)", re.MULTILINE)
# A line of spaces only after a line break (the line break kept); led by the line break, the
# pattern is looked for with a fast scan for that character instead of at every position.
_SPACE_ONLY_LINE = re.compile(r"\n +(?=\n)")


@dataclass(frozen=True, slots=True)
class Spliced:
    """A page's Markdown with its raw blocks taken out, and what splicing needs."""

    markdown: str
    blocks: tuple[str, ...]
    marker: re.Pattern[str]
    anchors: frozenset[str]  # ids (and ``<a name>``) inside the blocks, as MkDocs would find them

    def splice(self, converted: str) -> str:
        """The converted HTML with every marker replaced by its block."""
        if not self.blocks:
            return converted
        return self.marker.sub(lambda match: self.blocks[int(match.group(1))], converted)


if TYPE_CHECKING:
    from generator.render.registry import PageSpec


def normalised(markdown: str) -> str:
    """What Python-Markdown's whitespace normaliser makes of a page (it is idempotent)."""
    text = markdown.replace("\x02", "").replace("\x03", "")
    text = text.replace("\r\n", "\n").replace("\r", "\n").expandtabs(TAB_LENGTH)
    return _SPACE_ONLY_LINE.sub("\n", text)


def _next_block_starts(chunk: str, ended: re.Match[str], following: re.Match[str]) -> bool:
    """After an element closes at the top level, the chunk goes on with another raw block:
    the next line starts with a block-level tag (Python-Markdown opens a new raw block there)."""
    return (
        following.start() == ended.end() + 1
        and chunk[ended.end()] == "\n"
        and not following.group(1)
        and following.group(2).lower() in BLOCK_LEVEL
    )


def _raw_block_anchors(chunk: str) -> set[str] | None:
    """The anchors of a chunk Python-Markdown would keep whole as one raw block; None if
    it might not (see the module note)."""
    tags = list(_TAG.finditer(chunk))
    if not tags or tags[0].start() != 0 or tags[0].group(1) or tags[0].group(2).lower() not in BLOCK_LEVEL:
        return None
    if "<!" in chunk or "<?" in chunk:
        return None
    open_names: list[str] = []
    anchors: set[str] = set()
    last = len(tags) - 1
    for position, tag in enumerate(tags):
        closing, name, attrs = tag.groups()
        name = name.lower()
        if closing:
            if not open_names or open_names[-1] != name:
                return None
            open_names.pop()
            if not open_names and position != last and not _next_block_starts(chunk, tag, tags[position + 1]):
                return None  # text after a closed element is Markdown
            continue
        if attrs:  # most tags have none: the substring tests spare the patterns
            if "markdown" in attrs and _MARKDOWN_ATTR.search(attrs):
                return None
            if "id" in attrs or "name" in attrs:
                for attr, value in _ANCHOR_ATTR.findall(attrs):
                    if attr == "id" or name == "a":
                        anchors.add(html.unescape(value))
        if name not in VOID and not attrs.rstrip().endswith("/"):
            open_names.append(name)
        elif not open_names and position != last and not _next_block_starts(chunk, tag, tags[position + 1]):
            return None
    if open_names or chunk[tags[last].end() :].strip():
        return None
    return anchors


# What ``_raw_block_anchors`` found of a chunk, by the chunk's text.
ChunkReadings = dict[str, "set[str] | None"]


def split_raw_blocks(
    markdown: str, known: ChunkReadings | None = None, read: ChunkReadings | None = None
) -> Spliced:
    """Take the raw HTML blocks out of a generated page's Markdown (see the module note).

    Blocks on consecutive chunks share one marker: Python-Markdown writes consecutive raw
    blocks one line apart, and each marker it sees is a paragraph its inline patterns run
    over, so a record's run of blocks costs one marker, not one per block. A chunk found
    in ``known`` is not read again; ``read`` is given what was found of every chunk read.
    """
    text = normalised(markdown)
    nonce = hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:16]
    chunks = text.split("\n\n")
    kept: list[str] = []  # the chunks Python-Markdown sees
    blocks: list[str] = []
    anchors: set[str] = set()
    in_fence = False
    joinable = False  # the last kept chunk is a marker whose chunk ended with its block
    for index, chunk in enumerate(chunks):
        was_in_fence = in_fence
        if "```" in chunk or "~~~" in chunk:
            in_fence ^= len(_FENCE_LINE.findall(chunk)) % 2 == 1
        found = None
        if not was_in_fence:
            # In any chunk: it may open on a paragraph's line (the word first: a fast scan).
            if "markdown" in chunk and _MARKDOWN_CONTAINER.search(chunk):
                kept.extend(chunks[index:])  # md_in_html parses what follows a markdown attribute
                break
            if chunk.startswith("<"):
                found = known[chunk] if known is not None and chunk in known else _raw_block_anchors(chunk)
                if read is not None:
                    read[chunk] = found
        if found is None:
            kept.append(chunk)
            joinable = False
            continue
        block = chunk.rstrip()
        anchors |= found
        if joinable:
            blocks[-1] += "\n\n" + block
        else:
            kept.append(f"<!--kb-raw:{nonce}:{len(blocks)}-->" + chunk[len(block) :])
            blocks.append(block)
        joinable = len(block) == len(chunk)
    marker = re.compile(rf"<!--kb-raw:{nonce}:(\d+)-->")
    return Spliced("\n\n".join(kept), tuple(blocks), marker, frozenset(anchors))


def markdown_share(text: str) -> float:
    """The share of a page's text that Python-Markdown converts once its raw HTML blocks
    are spliced out (0 for a page of raw HTML only)."""
    return len(split_raw_blocks(text).markdown) / len(text) if text else 0.0


def markdown_share_problem(spec: PageSpec, path: str, text: str) -> str | None:
    """Why a page breaks its type's convention (``PageSpec.markdown_share``), with what to do."""
    share = markdown_share(text)
    if share <= spec.markdown_share:
        return None
    return (
        f"{path} leaves {share:.0%} of its text to Python-Markdown, more than the {spec.markdown_share:.0%} "
        f"its page type {spec.key!r} allows: write its blocks as raw HTML (the html_* helpers and the "
        "HTML linker in its template), or give its PageSpec a larger markdown_share and say why there"
    )


class RawHtmlSplicer:
    """Takes a generated page's raw blocks out before MkDocs converts it and puts them back
    after (off for ``kbgen render``, which hands the pages' whole Markdown to another engine)."""

    def __init__(self) -> None:
        self.enabled = True
        self._pending: dict[str, Spliced] = {}  # page source path → its raw blocks
        self._readings: dict[str, ChunkReadings] | None = None  # see ``remember``

    def remember(self, enabled: bool) -> None:
        """``kbgen serve``: keep each page's chunks as last read. A rebuild takes out the raw
        blocks of every page an edit changed, and the status matrix, which grows with the KB,
        changes whenever a label does; most of its chunks are those of unchanged systems."""
        self._readings = {} if enabled else None

    def take_out(self, source: str, markdown: str) -> str:
        """The Markdown Python-Markdown sees of a generated page."""
        if not self.enabled:
            return markdown
        if self._readings is None:
            spliced = split_raw_blocks(markdown)
        else:
            read: ChunkReadings = {}
            spliced = split_raw_blocks(markdown, self._readings.get(source), read)
            self._readings[source] = read
        self._pending[source] = spliced
        return spliced.markdown

    def marker_of(self, source: str) -> re.Pattern[str]:
        """The marker pattern of a page taken out (``take_out``) and not yet put back."""
        return self._pending[source].marker

    def put_back(self, source: str, converted: str, anchors: set[str] | None) -> tuple[str, set[str] | None]:
        """The page's HTML with its raw blocks, and its anchors with theirs (MkDocs found
        the anchors of the Markdown parts; those of the blocks join them)."""
        spliced = self._pending.pop(source, None)
        if spliced is None:
            return converted, anchors
        return spliced.splice(converted), (anchors or set()) | spliced.anchors

    def reset(self) -> None:
        self._pending = {}
