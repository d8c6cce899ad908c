"""Safe HTML: the ``Html`` type and the escaping path for record text inside raw HTML blocks.

Generated pages keep as Markdown only what MkDocs must see (front matter, headings with
their attribute lists); record blocks and route maps are raw HTML, which
Python-Markdown stashes untouched instead of running its inline patterns over it. Text
inside raw HTML is never Markdown-escaped (a ``\\*`` would show its backslash): every
character HTML would act on becomes an entity, and so do braces (macros) and backticks
(a line starting with a fence would confuse the page tidier). Every function here is
linear in its input.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import StrEnum

from markupsafe import Markup

__all__ = [
    "Html",
    "block_quote",
    "code_block",
    "code_span",
    "element",
    "escape",
    "html_value",
    "made_safe",
    "one_block",
    "table",
]


class Html(Markup):
    """HTML that is already safe to emit inside a raw HTML block.

    Distinct from ``markdown.Md``: a Markdown value inside raw HTML would show its
    backslash escapes, so ``html_value`` refuses one.
    """

    __slots__ = ()


# Each character HTML would act on, and its entity; "&" first, since the others' entities
# hold one. A replace per character the text holds: str.translate with a table of strings
# looks every character up in Python, and record text rarely holds any of these.
_ENTITIES = (
    ("&", "&amp;"),
    ("<", "&lt;"),
    (">", "&gt;"),
    ('"', "&quot;"),
    ("'", "&#x27;"),
    ("{", "&#123;"),
    ("}", "&#125;"),
    ("`", "&#96;"),
    # A line of record text opening with ~~~ would open a fence to Python-Markdown's
    # fenced-code preprocessor, which runs before raw HTML blocks are set aside (a
    # planted Mermaid diagram); like the backtick, the tilde is written as an entity.
    ("~", "&#126;"),
)


def made_safe(text: str) -> Html:
    """Text the caller made safe itself, as ``Html``. Markup's constructor first asks its
    argument for ``__html__``; record text passes here tens of thousands of times a page."""
    return str.__new__(Html, text)


def escape(text: str) -> Html:
    """Text shown literally inside raw HTML (element content or a quoted attribute value)."""
    if type(text) is not str:  # the text's own characters: Markup's replace escapes its arguments
        text = str.__str__(text)
    for character, entity in _ENTITIES:
        if character in text:
            text = text.replace(character, entity)
    return made_safe(text)


def html_value(value: object) -> Html:
    """A template value printed inside raw HTML: Html passes, text is escaped, Markdown is refused."""
    if isinstance(value, Html):
        return value
    if isinstance(value, Markup):
        raise TypeError("a Markdown value was printed inside raw HTML; build it with the HTML linker")
    if isinstance(value, StrEnum):
        return escape(value.value)
    if isinstance(value, str):
        return escape(value)
    if isinstance(value, bool | int | float):
        return Html(str(value))
    raise TypeError(f"a template printed a {type(value).__name__} inside raw HTML")


def element(tag: str, content: Html, attrs: dict[str, str] | None = None) -> Html:
    """``<tag attr="…">content</tag>``; attribute values are escaped, content is already safe."""
    shown = "".join(f' {name}="{escape(value)}"' for name, value in (attrs or {}).items())
    return made_safe(f"<{tag}{shown}>{content}</{tag}>")


def code_span(text: str) -> Html:
    """Inline code as the Markdown code span shows it: on one line, trimmed (Python-Markdown
    strips a backtick span's content; the ``<code>`` form used for text holding ``<`` does not)."""
    text = text.replace("\r", " ").replace("\n", " ")
    return element("code", escape(text if "<" in text else text.strip()))


def code_block(text: str) -> Html:
    """A literal code block as superfences writes a ``text`` fence, with no blank line inside.

    A raw HTML block must not hold a blank line, and the page tidier strips trailing
    whitespace: a newline before an empty line and a line's trailing whitespace are
    written as character references, which the browser shows exactly as before.
    """
    lines = text.rstrip().lstrip("\n").split("\n")
    out: list[str] = []
    for index, line in enumerate(lines):
        body = line.rstrip(" \t")
        tail = "".join(f"&#{ord(ch)};" for ch in line[len(body) :])
        ending = "&#10;" if index + 1 < len(lines) and lines[index + 1] == "" else "\n"
        out.append(str(escape(body)) + tail + ending)  # str: Markup's + would escape the references
    return Html('<div class="highlight"><pre><span></span><code>' + "".join(out) + "</code></pre></div>")


def one_block(html: str) -> Html:
    """Raw HTML blocks the template wrote one after another, as one block (the blank lines
    between them dropped), so an element can hold them all (``<details>``). Each piece
    holds no blank line of its own (``code_block`` writes a code block's as a reference)."""
    return made_safe("\n".join(line for line in str(html).strip().split("\n") if line.strip()))


def block_quote(text: str) -> Html:
    """A block quotation as the Markdown ``>`` form shows it: lines trimmed, an empty line
    starts a new paragraph."""
    paragraphs: list[list[str]] = [[]]
    for line in text.strip().split("\n"):
        line = line.strip()
        if line:
            paragraphs[-1].append(str(escape(line)))
        elif paragraphs[-1]:
            paragraphs.append([])
    inner = "\n".join(f"<p>{chr(10).join(lines)}</p>" for lines in paragraphs if lines)
    return Html(f"<blockquote>\n{inner}\n</blockquote>")


def table(
    headers: Sequence[Markup],
    rows: Sequence[Sequence[Markup]],
    one_cell_per_line: bool = False,
    right_from: int | None = None,
) -> Html:
    """A table as the Markdown tables extension writes one; the cells are HTML already
    (``Markup`` for typing: the HTML linker's values). ``one_cell_per_line`` writes each tag
    on a line of its own, as Python-Markdown's serializer does: a table that was Markdown
    keeps the bytes it had. ``right_from``: the columns from this one on are aligned right,
    as a Markdown table's ``---:`` aligns them (one cell per line only)."""
    if one_cell_per_line:

        def cell(tag: str, column: int, content: Markup) -> str:
            if right_from is not None and column >= right_from:
                return f'<{tag} style="text-align: right;">{content}</{tag}>'
            return f"<{tag}>{content}</{tag}>"

        head = "\n".join(cell("th", column, content) for column, content in enumerate(headers))
        body = "\n".join(
            "<tr>\n" + "\n".join(cell("td", at, content) for at, content in enumerate(row)) + "\n</tr>"
            for row in rows
        )
        return Html(f"<table>\n<thead>\n<tr>\n{head}\n</tr>\n</thead>\n<tbody>\n{body}\n</tbody>\n</table>")
    if right_from is not None:
        raise ValueError("right-aligned columns are written one cell per line")
    head = "".join(f"<th>{cell}</th>" for cell in headers)
    body = "\n".join("<tr>" + "".join(f"<td>{cell}</td>" for cell in row) + "</tr>" for row in rows)
    return Html(f"<table>\n<thead>\n<tr>{head}</tr>\n</thead>\n<tbody>\n{body}\n</tbody>\n</table>")
