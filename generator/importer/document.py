"""The structure of an analysis document: a tree of sections holding located blocks.

One parser serves both input forms. Markdown marks its headings with ``#``; a plain-text
document (the seeds) writes a heading as a short line of its own that ends without
punctuation. Either way the text is cut into blank-line separated blocks, each with the
1-based line and column where it starts; the recognisers in ``recognisers/`` then decide
what a block means (a record declaration, a table, a quotation, …). The parser itself
only finds structure, and it is linear in the input: every line is looked at once.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from generator.importer.recognisers.lists import list_item
from generator.importer.recognisers.tables import is_table_line


@dataclass
class Block:
    """A run of lines that belong together: a paragraph, a table, a list, a quotation, a heading."""

    kind: str  # "heading", "paragraph", "table", "list", "quote", "fence"
    line: int
    col: int
    lines: list[str]
    level: int = 0  # heading level

    @property
    def text(self) -> str:
        """The block's lines joined as one text (a paragraph's soft breaks become spaces)."""
        return " ".join(part.strip() for part in self.lines if part.strip())


@dataclass
class Section:
    """A heading and what follows it up to the next heading of the same or a higher level."""

    title: str
    level: int
    line: int
    col: int = 1
    blocks: list[Block] = field(default_factory=list)
    children: list[Section] = field(default_factory=list)


@dataclass
class Document:
    """A parsed document: its frontmatter text (Markdown only), title and section tree."""

    form: str  # "markdown" or "text"
    frontmatter: str | None
    frontmatter_line: int
    root: Section


_ATX = re.compile(r"^(#{1,6})[ \t]+(.*?)[ \t#]*\Z")
_FENCE = re.compile(r"^(```|~~~)")


def parse_document(text: str) -> Document:
    """Cut the text into a section tree of located blocks."""
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    frontmatter, first = _frontmatter(lines)
    markdown = frontmatter is not None or any(_ATX.match(line) for line in lines[first:])
    blocks = list(_blocks(lines, first, markdown))
    if not markdown:
        blocks = _join_tables(blocks, lines)
        blocks = [_promote_text_heading(block) for block in blocks]
    root = _tree(blocks)
    return Document("markdown" if markdown else "text", frontmatter, 2 if frontmatter else 0, root)


def _join_tables(blocks: list[Block], lines: list[str]) -> list[Block]:
    """In plain text a table may continue after a blank line (the seeds do): one table."""
    out: list[Block] = []
    for block in blocks:
        previous = out[-1] if out else None
        if previous is not None and previous.kind == block.kind == "table":
            end = block.line - 1 + len(block.lines)
            previous.lines = lines[previous.line - 1 : end]
            continue
        out.append(block)
    return out


def _frontmatter(lines: list[str]) -> tuple[str | None, int]:
    """The YAML between a first line ``---`` and the next ``---`` line, and where the body starts."""
    if not lines or lines[0].strip() != "---":
        return None, 0
    for index in range(1, len(lines)):
        if lines[index].strip() == "---":
            return "\n".join(lines[1:index]) + "\n", index + 1
    return None, 0


def _blocks(lines: list[str], first: int, markdown: bool):
    """Yield the blocks of ``lines[first:]`` in order."""
    index = first
    while index < len(lines):
        line = lines[index]
        if not line.strip():
            index += 1
            continue
        start = index
        col = len(line) - len(line.lstrip()) + 1
        heading = _ATX.match(line) if markdown else None
        if heading:
            yield Block("heading", index + 1, heading.start(2) + 1, [heading.group(2)], len(heading.group(1)))
            index += 1
            continue
        if markdown and _FENCE.match(line.lstrip()):
            index = _until_fence_end(lines, index)
            yield Block("fence", start + 1, col, lines[start:index])
            continue
        kind = _kind_of(line)
        index += 1
        while index < len(lines) and lines[index].strip() and not (markdown and _ATX.match(lines[index])):
            if _kind_of(lines[index]) != kind and not _continues(kind, lines[index]):
                break
            index += 1
        yield Block(kind, start + 1, col, lines[start:index])


def _until_fence_end(lines: list[str], index: int) -> int:
    marker = lines[index].lstrip()[:3]
    index += 1
    while index < len(lines) and not lines[index].lstrip().startswith(marker):
        index += 1
    return min(index + 1, len(lines))


def _kind_of(line: str) -> str:
    stripped = line.lstrip()
    if stripped.startswith(">"):
        return "quote"
    if is_table_line(line):
        return "table"
    if list_item(line) is not None:
        return "list"
    return "paragraph"


def _continues(kind: str, line: str) -> bool:
    """A line that does not start a block of its own joins the block before it."""
    if kind == "list":  # an indented continuation of an item
        return line.startswith((" ", "\t")) and _kind_of(line) == "paragraph"
    return False


# A plain-text heading: one short line, no final punctuation, not a labelled field.
_TEXT_HEADING = re.compile(r"^[^\s].{0,90}\Z")
_LABELLED = re.compile(r"^[A-Z][\w /()'-]{0,60}: \S")


def _promote_text_heading(block: Block) -> Block:
    """In plain text, a one-line block that reads as a title is a heading (level decided later)."""
    if len(block.lines) != 1 or block.kind not in ("paragraph", "list"):
        return block
    if block.kind == "list" and not block.lines[0][:1].isdigit():
        return block  # an unindented "1. Title" line is a numbered heading; bullets stay lists
    line = block.lines[0]
    if not _TEXT_HEADING.match(line) or line.rstrip().endswith((".", ":", ";", ",", "!", "?")):
        return block
    if _LABELLED.match(line):
        return block
    return Block("heading", block.line, block.col, [line.strip()], 0)


def _tree(blocks: list[Block]) -> Section:
    """Nest blocks under headings; plain-text headings (level 0) get their level from ``levels``."""
    from generator.importer.sections import heading_level

    root = Section("", 0, 1)
    stack = [root]
    for block in blocks:
        if block.kind != "heading":
            stack[-1].blocks.append(block)
            continue
        level = block.level or heading_level(block.lines[0], [s.title for s in stack], block is blocks[0])
        if level is None:  # not a heading after all
            stack[-1].blocks.append(Block("paragraph", block.line, block.col, block.lines))
            continue
        while len(stack) > 1 and stack[-1].level >= level:
            stack.pop()
        section = Section(block.lines[0], level, block.line, block.col)
        stack[-1].children.append(section)
        stack.append(section)
    return root
