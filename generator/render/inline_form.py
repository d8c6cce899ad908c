"""Inline Markdown of record text → safe Markdown or safe HTML, one token at a time.

The parser (``generator.model.inline_markup``) gives a flat token list; this module writes
it in one of two forms: Markdown for Markdown lines (``**``/``*`` around escaped text,
code spans by ``markdown.code_span``, links by ``link_markup.link``) or HTML for raw HTML
blocks (``<strong>``/``<em>`` elements, ``rawhtml.code_span``, ``link_markup.html_link``).
Text is escaped by the form's one escaper; no href is written here, every link goes
through the one link builder with a target the caller chose. A label (one line: a
heading, a list entry) is written without links: a link shows its text. Every step is
linear in the tokens.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import NamedTuple

from markdown_it.token import Token
from markupsafe import Markup

from generator.model.inline_markup import normalized, parse_inline
from generator.render import rawhtml, urls
from generator.render.link_markup import html_link, html_unlinked_anchor, link, unlinked_anchor
from generator.render.markdown import Md, code_span, escape
from generator.render.rawhtml import Html

__all__ = ["HTML", "MARKDOWN", "Form", "Inline", "html_label", "html_unlinked", "label", "write"]


class Form(NamedTuple):
    """How text is written: Markdown for Markdown lines, HTML for raw HTML blocks."""

    safe: Callable[[str], Markup]  # wraps already-safe text in the form's type
    escape: Callable[[str], Markup]
    code: Callable[[str], Markup]
    link: Callable[..., Markup]
    href: Callable[[str, str, str | None], str]  # from page path, to page path, anchor
    strong: Callable[[Markup], Markup]
    em: Callable[[Markup], Markup]
    unlinked_anchor: Callable[[str], Markup]  # an anchor's path that should link and cannot


MARKDOWN = Form(
    Md,
    escape,
    code_span,
    link,
    urls.href,
    lambda inner: Md(f"**{inner}**"),
    lambda inner: Md(f"*{inner}*"),
    unlinked_anchor,
)
HTML = Form(
    rawhtml.made_safe,
    rawhtml.escape,
    rawhtml.code_span,
    html_link,
    urls.url_href,
    lambda inner: rawhtml.element("strong", Html(inner)),
    lambda inner: rawhtml.element("em", Html(inner)),
    html_unlinked_anchor,
)


class Inline(NamedTuple):
    """What a writer asks of its caller while it walks a paragraph's tokens."""

    span: Callable[[int, bool], Markup]  # a protected span (index), inside a link or not
    code: Callable[[str, bool], Markup]  # a code span's content, inside a link or not
    target: Callable[[str], str | None]  # a link's href from this page, or None: text
    # Whether a link that leads nowhere shows its target after its text (a label does not).
    shows_targets: bool = True


def write(form: Form, tokens: Sequence[Token], inline: Inline | None) -> Markup:
    """The tokens in ``form``; without ``inline`` (a label) links show their text only."""
    frames: list[list[str]] = [[]]
    opened: list[tuple[str, str, str | None]] = []  # (kind, target as written, href or None)
    in_link = 0  # inside a link that is written as one: IDs and code there are no links
    for token in tokens:
        kind = token.type
        if kind == "hardbreak":  # an escaped line end: the line break, not the backslash
            frames[-1].append(form.escape("\n"))
        elif kind == "code_inline":
            frames[-1].append(inline.code(token.content, in_link > 0) if inline else form.code(token.content))
        elif kind == "kb_span" and inline is not None:
            frames[-1].append(inline.span(int(token.meta["index"]), in_link > 0))
        elif kind in ("strong_open", "em_open", "link_open"):
            target = str(token.attrs.get("href", ""))
            href = inline.target(target) if inline is not None and kind == "link_open" else None
            opened.append((kind, target, href))
            frames.append([])
            in_link += href is not None
        elif kind in ("strong_close", "em_close", "link_close") and opened:
            start, target, href = opened.pop()
            inner = form.safe("".join(frames.pop()))
            if start == "strong_open":
                frames[-1].append(form.strong(inner))
            elif start == "em_open":
                frames[-1].append(form.em(inner))
            elif href is not None:
                in_link -= 1
                frames[-1].append(form.link(inner, href))
            else:
                shows = inline is not None and inline.shows_targets
                frames[-1].append(_unlinked(form, inner, target, shows))
        elif token.content:  # text, or a token of no rule enabled here: escaped, never dropped
            frames[-1].append(form.escape(token.content))
    while opened:  # the parser closes what it opens; a cut token list is closed here
        opened.pop()
        unclosed = "".join(frames.pop())
        frames[-1].append(unclosed)
    return form.safe("".join(frames[0]))


# A link target that names a scheme (``javascript:``, ``file:``, ``mailto:``): one the KB
# refused is shown after the link's text, so a reader sees what it would have opened.
_SCHEME = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*:")
# The class of a link's text whose target, a file of the analysed document's own tree,
# the KB does not publish; the target is its tooltip.
UNPUBLISHED_TARGET_CLASS = "kb-unpublished-link"


def _unlinked(form: Form, inner: Markup, target: str, with_target: bool) -> Markup:
    """A link the KB cannot follow: its text. A relative target (a file beside the analysed
    document, an anchor of no record) is the text's tooltip; any other (a scheme, another
    host) is shown as code after the text (a label shows the text alone)."""
    if not with_target or not target:
        return inner
    if _SCHEME.match(target) is None and not target.startswith(("//", "\\\\")):
        title = _inert_attribute(target)
        return form.safe(f'<span class="{UNPUBLISHED_TARGET_CLASS}" title="{title}">{inner}</span>')
    return form.safe(inner + form.safe(" (") + form.code(target) + form.safe(")"))


def _inert_attribute(text: str) -> str:
    """An attribute value escaped for HTML, with every character a Markdown inline pattern
    acts on (before Python-Markdown sets inline HTML aside) written as a reference too."""
    return "".join(f"&#{ord(ch)};" if ch in _MARKDOWN_ACTIVE else ch for ch in str(rawhtml.escape(text)))


_MARKDOWN_ACTIVE = frozenset(("[", "]", "(", ")", "\\", "*", "_", "!"))


def label(text: str) -> Md:
    """A label on a Markdown line (a heading): one line, formatted, no links."""
    return Md(write(MARKDOWN, parse_inline(_one_line(text)), None))


def html_label(text: str) -> Html:
    """A label inside a raw HTML block: one line, formatted, no links."""
    return Html(write(HTML, parse_inline(_one_line(text)), None))


def html_unlinked(text: str) -> Html:
    """Text inside a raw HTML block, formatted but linking nothing: each link is its text
    and its target (a word diff shows what changed in either)."""
    unlinked = Inline(
        lambda index, in_link: HTML.safe(""), lambda content, in_link: HTML.code(content), _nowhere
    )
    return Html(write(HTML, parse_inline(normalized(text)), unlinked))


def _nowhere(target: str) -> None:
    return None


def _one_line(text: str) -> str:
    return " ".join(normalized(text).split("\n"))
