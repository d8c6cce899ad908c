"""The theme's navigation, each part the page is not in rendered once per build.

mkdocs-material prints the whole navigation into every page (``partials/nav.html``, one
``nav-item.html`` macro call per item, recursively), so a KB of n systems renders about n
items on each of about 4n pages. A part of the navigation the page is not in (its item is
not ``active``) is printed the same on every page but for its links, which the ``url``
filter writes relative to the page. So the first page that prints such a part keeps it,
with each link read back into the site path it names (``NavPart``), and every later page
prints it again with its links made relative to that page by MkDocs' own
``get_relative_url``, which is what the ``url`` filter would have written. A part whose
links do not read back exactly (the link made again from the kept path differs from the
one printed) is never kept, and the items the page is in are always rendered.

The theme's templates are not copied: ``NavMemoLoader`` hands Jinja the theme's own
``nav.html`` and ``nav-item.html`` with their item calls routed through ``kb_nav_item``;
a theme whose templates do not hold those calls as written is rendered as it is.
``tests/site/test_nav_memo.py`` builds sites with and without it and finds the same bytes.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable
from typing import Any

from jinja2 import BaseLoader, Environment, pass_context
from jinja2.runtime import Context
from markupsafe import Markup
from mkdocs.utils import get_relative_url

from generator.util.url_paths import walked

__all__ = ["NavMemo", "NavMemoLoader", "install"]

GLOBAL = "kb_nav_item"

# The theme's item calls, as mkdocs-material 9 writes them, and the same routed through
# the memo: the top level in nav.html, each nested item in nav-item.html's macro.
ROUTED: dict[str, tuple[str, str]] = {
    "partials/nav.html": (
        "{{ item.render(nav_item, path, 1) }}",
        f"{{{{ {GLOBAL}(item.render, nav_item, path, 1) }}}}",
    ),
    "partials/nav-item.html": (
        '{{ render(item, path ~ "_" ~ loop.index, level + 1, nav_item) }}',
        f'{{{{ {GLOBAL}(render, item, path ~ "_" ~ loop.index, level + 1, nav_item) }}}}',
    ),
}

# A link as the theme's item templates write it. Only inside a tag: a page title, printed
# as text, may hold 'href="…"' itself (its '<' is escaped, its quotes are not).
_HREF = re.compile(r'<a href="([^"]*)"')
_ABSOLUTE = re.compile(r"^(?:[a-zA-Z][a-zA-Z0-9+.-]*:|/|#)")


class NavMemoLoader(BaseLoader):
    """The theme's loader, with the navigation's item calls routed through the memo."""

    def __init__(self, inner: BaseLoader) -> None:
        self.inner = inner

    def get_source(
        self, environment: Environment, template: str
    ) -> tuple[str, str | None, Callable[[], bool] | None]:
        source, filename, uptodate = self.inner.get_source(environment, template)
        routed = ROUTED.get(template)
        if routed is not None and source.count(routed[0]) == 1:
            source = source.replace(*routed)
        return source, filename, uptodate

    def list_templates(self) -> list[str]:
        return self.inner.list_templates()


def _page_folder(url: str) -> list[str]:
    """The path parts ``get_relative_url`` measures from (a file name is dropped)."""
    folder, _, name = url.rpartition("/")
    return _parts(folder if "." in name else url)


def _parts(path: str) -> list[str]:
    normal = posixpath.normpath("/" + path.lstrip("/"))[1:]
    return normal.split("/") if normal else []


def _site_path(href: str, page_url: str) -> str | None:
    """The site path a link printed on the page at ``page_url`` names, or None."""
    parts = walked(_page_folder(page_url), href.split("/"))
    if parts is None:
        return None
    return "/".join(parts) + ("/" if href.endswith("/") else "")


class NavPart:
    """A part of the navigation as printed on one page: its text between the links, and
    the site path of each link."""

    def __init__(self, pieces: list[str], paths: list[str]) -> None:
        self.pieces = pieces  # one more than the paths: text, link, text, …, text
        self.paths = paths

    @classmethod
    def read(cls, html: str, page_url: str) -> NavPart | None:
        """The part printed on the page, or None when a link does not read back exactly."""
        pieces: list[str] = []
        paths: list[str] = []
        position = 0
        for match in _HREF.finditer(html):
            href = match.group(1)
            if _ABSOLUTE.match(href):
                continue  # printed the same on every page
            path = _site_path(href, page_url)
            if path is None or get_relative_url(path, page_url) != href:
                return None
            pieces.append(html[position : match.start(1)])
            paths.append(path)
            position = match.end(1)
        pieces.append(html[position:])
        return cls(pieces, paths)

    def on(self, page_url: str) -> str:
        """The part as the page at ``page_url`` prints it."""
        out = [self.pieces[0]]
        for path, piece in zip(self.paths, self.pieces[1:], strict=True):
            out.append(get_relative_url(path, page_url))
            out.append(piece)
        return "".join(out)


class NavMemo:
    """The parts of one build's navigation printed so far (an environment holds one)."""

    def __init__(self) -> None:
        self._parts: dict[tuple[Any, ...], NavPart | None] = {}
        self._items: list[Any] = []  # keeps each keyed item alive: its id stays its own

    def __call__(self, context: Context, render: Callable[..., Any], item: Any, *arguments: Any) -> Any:
        page = context.get("page")
        page_url = getattr(page, "url", None)
        if getattr(item, "active", True) or not isinstance(page_url, str):
            return render(item, *arguments)  # the page is in it (or it is no page): as always
        parent = arguments[2] if len(arguments) > 2 else None
        key = (id(item), arguments[:2], getattr(parent, "active", None))
        if key in self._parts:
            part = self._parts[key]
            if part is not None:
                return Markup(part.on(page_url))
            return render(item, *arguments)
        printed = render(item, *arguments)
        self._items.append(item)
        self._parts[key] = NavPart.read(str(printed), page_url)
        return printed


def install(env: Environment) -> NavMemo | None:
    """Route the environment's navigation through a fresh memo (none for an environment
    without a loader); every build's environment gets its own, as its navigation is new."""
    if env.loader is None:
        return None
    if not isinstance(env.loader, NavMemoLoader):
        env.loader = NavMemoLoader(env.loader)
    memo = NavMemo()

    @pass_context
    def nav_item(context: Context, render: Callable[..., Any], item: Any, *arguments: Any) -> Any:
        return memo(context, render, item, *arguments)

    env.globals[GLOBAL] = nav_item
    return memo
