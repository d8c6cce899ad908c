"""The one place the site's Markdown links are built.

``link(text, href)`` escapes its text, emits the URL only when the URL policy
(``generator.model.urls``) accepts it — ``http``/``https`` absolute URLs or the site's
own relative links — percent-encodes it, and renders the bare text when it is refused.
"""

from __future__ import annotations

import html
import re

from ..model.urls import encode_href, href_problem
from .markdown import Md, escape

_CLASS = re.compile(r"[a-z0-9][a-z0-9-]*")


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
