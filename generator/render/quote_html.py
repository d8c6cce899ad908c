"""A quotation as its source wrote it, as one raw HTML block with no blank line inside.

A quotation of a Markdown file (a README, a skill, a prompt template) is Markdown: its
block structure (paragraphs, headings, lists, tables, fences, block quotes) is read by
markdown-it-py with raw HTML off, and each piece of inline text goes through the record
text's own renderer (``Linker.inline``: escaped text, emphasis, code, links through the
one link builder), so no marker is shown raw and no tag of the quotation reaches the page.
Any other prose keeps its lines. Code is a code block, highlighted by Pygments for the
language its path's extension names (a short list of lexers, and only quotations under a
size cap: every step stays linear in the quotation). Every function here is linear in its
input.
"""

from __future__ import annotations

import re
import textwrap
from collections.abc import Sequence
from typing import TYPE_CHECKING

from markdown_it import MarkdownIt
from markdown_it.token import Token

from generator.render import rawhtml
from generator.render.rawhtml import Html

if TYPE_CHECKING:
    from generator.model.base import Quote
    from generator.render.text import Linker

__all__ = ["MARKDOWN_SUFFIXES", "highlighted_code", "language_of", "markdown_html", "quote_html"]

MARKDOWN_SUFFIXES = (".md", ".markdown", ".mdx")

# The quoted file's extension → the Pygments lexer that highlights it. Listed, not guessed:
# a lexer is code run on record text, so only these well-used ones run at all.
_LEXERS = {
    ".py": "python",
    ".pyi": "python",
    ".ts": "typescript",
    ".tsx": "tsx",
    ".mts": "typescript",
    ".cts": "typescript",
    ".js": "javascript",
    ".jsx": "javascript",
    ".mjs": "javascript",
    ".cjs": "javascript",
    ".rs": "rust",
    ".go": "go",
    ".java": "java",
    ".kt": "kotlin",
    ".c": "c",
    ".h": "c",
    ".cc": "cpp",
    ".cpp": "cpp",
    ".hpp": "cpp",
    ".rb": "ruby",
    ".sh": "bash",
    ".bash": "bash",
    ".json": "json",
    ".toml": "toml",
    ".yaml": "yaml",
    ".yml": "yaml",
    ".sql": "sql",
}
# Past this many characters a code quotation is shown plain: highlighting is a courtesy,
# and a lexer's patterns are not all proven linear on hostile text.
HIGHLIGHT_CAP = 20_000

_PARSER = MarkdownIt("commonmark", {"html": False, "linkify": False}).enable("table")
# Tags written for the block tokens markdown-it makes (their names come from this table,
# never from the quotation).
_TAGS = {
    "paragraph": "p",
    "bullet_list": "ul",
    "ordered_list": "ol",
    "list_item": "li",
    "blockquote": "blockquote",
    "table": "table",
    "thead": "thead",
    "tbody": "tbody",
    "tr": "tr",
    "th": "th",
    "td": "td",
}
# After these a new line begins (and after every closing tag): the page's HTML reads as
# the quotation's structure, and no piece of inline text is cut by a line end.
_LINE_AFTER = frozenset(
    {
        "bullet_list_open",
        "ordered_list_open",
        "blockquote_open",
        "table_open",
        "thead_open",
        "tbody_open",
        "tr_open",
        "fence",
        "code_block",
        "hr",
    }
)
_ALIGN = {"text-align:left": "left", "text-align:right": "right", "text-align:center": "center"}


def language_of(path: str | None) -> str | None:
    """The Pygments lexer for a quoted file, by its extension; None: shown plain."""
    if not path:
        return None
    name = path.rsplit("/", 1)[-1].lower()
    dot = name.rfind(".")
    return _LEXERS.get(name[dot:]) if dot > 0 else None


def quote_html(linker: Linker, quote: Quote) -> Html:
    """The quotation's text: Markdown read as Markdown, other prose with its lines, code as
    a (highlighted) code block."""
    text = str(quote.text)
    if not quote.is_prose:
        return highlighted_code(textwrap.dedent(text), language_of(quote.path))
    if quote.path and quote.path.lower().endswith(MARKDOWN_SUFFIXES):
        return rawhtml.made_safe(
            f'<blockquote class="kb-quote__markdown">\n{markdown_html(linker, text)}\n</blockquote>'
        )
    return block_quote_lines(text)


def block_quote_lines(text: str) -> Html:
    """Prose that is not Markdown: a block quotation whose lines stay lines (an empty line
    starts a new paragraph)."""
    paragraphs: list[list[str]] = [[]]
    for line in text.strip().split("\n"):
        line = line.strip()
        if line:
            paragraphs[-1].append(str(rawhtml.escape(line)))
        elif paragraphs[-1]:
            paragraphs.append([])
    inner = "\n".join(f"<p>{'<br>'.join(lines)}</p>" for lines in paragraphs if lines)
    return rawhtml.made_safe(f"<blockquote>\n{inner}\n</blockquote>")


def markdown_html(linker: Linker, text: str) -> Html:
    """Markdown text → HTML lines: the blocks markdown-it reads (raw HTML off), the inline
    text of each through the linker."""
    out: list[str] = []
    tokens = _PARSER.parse(text)
    index = 0
    while index < len(tokens):
        token = tokens[index]
        rows = _pipe_rows(tokens, index)
        if rows is not None:  # rows cut from a table, without its header: still a table
            out.append(_rows_table(linker, rows))
            index += 3
            continue
        out.append(_block(linker, token))
        if (token.nesting == -1 and not token.hidden) or token.type in _LINE_AFTER:
            out.append("\n")
        index += 1
    return rawhtml.made_safe("".join(out).strip("\n"))


def _pipe_rows(tokens: Sequence[Token], index: int) -> list[str] | None:
    """The lines of a paragraph that are all table rows (``| a | b |``), or None."""
    if tokens[index].type != "paragraph_open" or index + 2 >= len(tokens):
        return None
    lines = tokens[index + 1].content.split("\n")
    if all(len(line) > 1 and line.startswith("|") and line.endswith("|") for line in lines):
        return lines
    return None


_CELL_SPLIT = re.compile(r"(?<!\\)\|")


def _rows_table(linker: Linker, rows: list[str]) -> str:
    body = "\n".join(
        "<tr>"
        + "".join(f"<td>{linker.inline(cell.strip())}</td>" for cell in _CELL_SPLIT.split(row[1:-1]))
        + "</tr>"
        for row in rows
    )
    return f"<table>\n<tbody>\n{body}\n</tbody>\n</table>"


def _block(linker: Linker, token: Token) -> str:
    kind = token.type
    if kind == "inline":
        return str(linker.inline(token.content))
    if kind in ("fence", "code_block"):
        language = _fence_language(token.info) if kind == "fence" else None
        return str(highlighted_code(token.content, language))
    if kind == "hr":
        return "<hr>"
    if kind.startswith("heading_"):
        # A heading of the quoted file is no heading of this page (nor of its outline).
        return '<p class="kb-quote__heading"><strong>' if kind.endswith("_open") else "</strong></p>"
    base, _, edge = kind.rpartition("_")
    tag = _TAGS.get(base)
    if tag is None or edge not in ("open", "close"):
        return str(rawhtml.escape(token.content)) if token.content else ""
    if token.hidden:  # a tight list's paragraphs: the text alone
        return ""
    if edge == "close":
        return f"</{tag}>"
    if tag == "ol":
        start = token.attrGet("start")
        return f'<ol start="{int(start)}">' if isinstance(start, int) and start != 1 else "<ol>"
    if tag in ("th", "td"):
        align = _ALIGN.get(str(token.attrGet("style") or ""))
        return f'<{tag} style="text-align: {align};">' if align else f"<{tag}>"
    return f"<{tag}>"


def _fence_language(info: str) -> str | None:
    word = info.strip().split(" ", 1)[0].lower() if info.strip() else ""
    if word in _LEXERS.values():
        return word
    return _LEXERS.get(f".{word}")


def highlighted_code(text: str, language: str | None) -> Html:
    """A code block as ``rawhtml.code_block`` writes it, its tokens highlighted by the
    listed lexer for ``language``: each token's text through the one escaper, in a span of
    Pygments' short class name (which the theme colours), no span across a line end."""
    if language is None or len(text) > HIGHLIGHT_CAP:
        return rawhtml.code_block(text)
    from pygments.lexers import get_lexer_by_name
    from pygments.token import STANDARD_TYPES

    lexer = get_lexer_by_name(language, stripnl=False, ensurenl=False)
    lines: list[list[str]] = [[]]
    for token_type, value in lexer.get_tokens(text.rstrip().lstrip("\n")):
        css = STANDARD_TYPES.get(token_type) or STANDARD_TYPES.get(token_type.parent, "")
        for index, piece in enumerate(value.split("\n")):
            if index:
                lines.append([])
            if piece:
                shown = str(rawhtml.escape(piece))
                lines[-1].append(f'<span class="{css}">{shown}</span>' if css else shown)
    rows = ["".join(pieces) for pieces in lines]
    while rows and not rows[-1]:
        rows.pop()
    return rawhtml.made_safe(
        f'<div class="highlight language-{language}"><pre><span></span><code>'
        + "".join(_kept_lines(rows))
        + "</code></pre></div>"
    )


def _kept_lines(lines: Sequence[str]) -> list[str]:
    """HTML lines of a code block with no blank line among them (a raw HTML block ends at
    one): a newline before an empty line is a character reference, trailing white space too
    (the lines' own white space is inside spans or text, so only a line's end is touched)."""
    out: list[str] = []
    for index, line in enumerate(lines):
        body = line.rstrip(" \t")
        tail = "".join(f"&#{ord(ch)};" for ch in line[len(body) :])
        ending = "&#10;" if index + 1 < len(lines) and lines[index + 1] == "" else "\n"
        out.append(body + tail + ending)
    return out
