"""The one place the site's links are built, as Markdown and as HTML.

``link(text, href)`` (Markdown) and ``html_link(text, href)`` (inside raw HTML blocks)
escape their text, emits the URL only when the URL policy
(``generator.model.url_policy``) accepts it — ``http``/``https`` absolute URLs or the site's
own relative links — percent-encodes it, and renders the bare text when it is refused.
``web_target(href)`` is the same policy for a link offered outside the site (the editor's
document links), where only an absolute ``http``/``https`` URL means anything.
"""

from __future__ import annotations

import html
import re

from generator.model.url_policy import encode_href, href_problem, web_url_problem
from generator.render import rawhtml
from generator.render.markdown import Md, escape
from generator.render.rawhtml import Html

_CLASS = re.compile(r"[a-z0-9][a-z0-9-]*")

# An evidence anchor's path shown as text where it should link (its source states no
# location or no revision, KB412): marked so ``kbgen linkcheck`` can count it.
UNLINKED_ANCHOR_CLASS = "kb-anchor-unlinked"


def link(text: str | Md, href: str | None, classes: tuple[str, ...] = (), title: str | None = None) -> Md:
    """``[text](href){ .class title="…" }``, or the escaped text alone when href is refused."""
    shown = text if isinstance(text, Md) else escape(text)
    if href is None or href_problem(href) is not None:
        return shown
    attrs = [f".{name}" for name in classes if _CLASS.fullmatch(name)]
    if title is not None:
        # Inside a quoted attribute-list value: no quote, brace or newline may survive.
        attrs.append(
            'title="' + html.escape(title, quote=True).replace("{", "&#123;").replace("}", "&#125;") + '"'
        )
    suffix = "{ " + " ".join(attrs) + " }" if attrs else ""
    return Md(f"[{shown}]({encode_href(href)}){suffix}")


def html_link(
    text: str | Html,
    href: str | None,
    classes: tuple[str, ...] = (),
    title: str | None = None,
    data: dict[str, str] | None = None,
) -> Html:
    """``<a class="…" href="…" title="…">text</a>`` for raw HTML, or the escaped text alone
    when href is refused: the same URL policy and encoding as ``link``. Site links must
    already be the final URLs (``urls.url_href``): MkDocs rewrites links only in Markdown.
    ``data`` adds ``data-*`` attributes (names without the prefix), for the page's scripts."""
    shown = text if isinstance(text, Html) else rawhtml.escape(text)
    if href is None or href_problem(href) is not None:
        return shown
    attrs: dict[str, str] = {}
    names = [name for name in classes if _CLASS.fullmatch(name)]
    if names:
        attrs["class"] = " ".join(names)
    attrs["href"] = encode_href(href)
    if title is not None:
        attrs["title"] = title
    for name, value in (data or {}).items():
        if _CLASS.fullmatch(name):
            attrs[f"data-{name}"] = value
    return rawhtml.element("a", shown, attrs)


def web_target(href: str | None) -> str | None:
    """The target of a link shown outside the site (an editor's document link): an absolute
    ``http``/``https`` URL the policy accepts, encoded as ``link`` encodes it; else None.
    An editor acts on any scheme it knows (``command:`` runs a command), so nothing else
    may reach it."""
    if href is None or web_url_problem(href) is not None:
        return None
    return encode_href(href)


def unlinked_anchor(text: str) -> Md:
    """An evidence anchor's path that should link and cannot, in Markdown: escaped text in
    a marked ``<span>`` (Python-Markdown keeps an inline tag and reads what is inside)."""
    return Md(f'<span class="{UNLINKED_ANCHOR_CLASS}">{escape(text)}</span>')


def html_unlinked_anchor(text: str) -> Html:
    """``unlinked_anchor`` inside a raw HTML block."""
    return rawhtml.element("span", rawhtml.escape(text), {"class": UNLINKED_ANCHOR_CLASS})
