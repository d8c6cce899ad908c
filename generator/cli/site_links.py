"""kbgen linkcheck: every internal link and #anchor of a built site resolves.

The site is read as files, with the standard library's ``html.parser`` (no server, no
network): every ``href`` and ``src`` of every HTML page is resolved against the page's
own location, and must name a file inside the site (a folder means its ``index.html``)
and, with a fragment, an ``id`` (or ``<a name>``) in that page. A root-relative link
(``/assets/…``, as the theme writes in ``404.html``) is resolved against the site root.

External links are not fetched. A link must be ``http``/``https`` (or ``mailto:``), and
an evidence link must have the pinned-revision shape: a link in GitHub's form
(``…/blob/<rev>/<path>`` or ``…/tree/<rev>``) names a hex commit ID, its line fragment
is ``#L<n>`` or ``#L<n>-L<m>``; with the records at hand, a link under a source's
location names that source's pinned revision.

Each problem is located at the page's ``file:line:col``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path, PurePosixPath
from urllib.parse import unquote, urlsplit

from rich.console import Console

from generator.check import CheckedSystem
from generator.render.link_markup import UNLINKED_ANCHOR_CLASS
from generator.util.progress import progress_bar
from generator.util.url_paths import walked

_URL_ATTRIBUTES = {
    "a": "href",
    "link": "href",
    "area": "href",
    "img": "src",
    "script": "src",
    "iframe": "src",
}
_EXTERNAL_SCHEMES = frozenset({"http", "https", "mailto"})
_HEX = re.compile(r"[0-9a-fA-F]{7,64}")
_LINE_FRAGMENT = re.compile(r"L[1-9][0-9]*(?:-L[1-9][0-9]*)?")
_GITHUB_SHAPE = re.compile(r"/(?:blob|tree)/([^/]+)")


@dataclass(frozen=True, order=True)
class LinkProblem:
    """One link that does not resolve, where it is written."""

    file: str
    line: int
    col: int
    href: str
    reason: str

    def as_text(self) -> str:
        return f"{self.file}:{self.line}:{self.col}: broken link {self.href!r}: {self.reason}"


@dataclass
class _Page:
    """What one HTML page offers (its anchors) and cites (its links with positions)."""

    ids: set[str] = field(default_factory=set)
    links: list[tuple[int, int, str]] = field(default_factory=list)
    unlinked_anchors: int = 0  # evidence anchors shown as text that should link (KB412)


class _PageParser(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.page = _Page()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        if UNLINKED_ANCHOR_CLASS in (values.get("class") or "").split():
            self.page.unlinked_anchors += 1
        for name in ("id", "name" if tag == "a" else ""):
            if name and values.get(name):
                self.page.ids.add(str(values[name]))
        wanted = _URL_ATTRIBUTES.get(tag)
        url = values.get(wanted) if wanted else None
        if url is not None:
            line, offset = self.getpos()
            self.page.links.append((line, offset + 1, url.strip()))

    handle_startendtag = handle_starttag


def parse_page(path: Path) -> _Page:
    parser = _PageParser()
    parser.feed(path.read_text(encoding="utf-8", errors="replace"))
    parser.close()
    return parser.page


@dataclass
class SiteLinks:
    """A built site's pages, parsed once each, and the pinned revisions of its sources."""

    root: Path
    pinned: dict[str, set[str]] = field(default_factory=dict)  # location → pinned revisions
    pages: dict[str, _Page] = field(default_factory=dict)  # site-relative posix path → page

    def page(self, relative: str) -> _Page:
        if relative not in self.pages:
            self.pages[relative] = parse_page(self.root / relative)
        return self.pages[relative]

    def check_page(self, relative: str) -> Iterator[LinkProblem]:
        for line, col, href in self.page(relative).links:
            reason = self._problem(relative, href)
            if reason is not None:
                yield LinkProblem((self.root / relative).as_posix(), line, col, href, reason)

    def _problem(self, relative: str, href: str) -> str | None:
        parts = urlsplit(href)
        if parts.scheme or parts.netloc:
            return self._external_problem(href)
        if not parts.path:
            return self._fragment_problem(relative, unquote(parts.fragment))
        base = PurePosixPath("/") if parts.path.startswith("/") else PurePosixPath("/", relative).parent
        target = _normal(base / unquote(parts.path))
        if target is None:
            return "leaves the site"
        found = self._existing(target)
        if found is None:
            return f"no such page or file {target or '/'!s} in the site"
        return self._fragment_problem(found, unquote(parts.fragment)) if parts.fragment else None

    def _existing(self, target: str) -> str | None:
        """The site file a link target names (a folder names its index.html), or None."""
        path = self.root / target if target else self.root
        if path.is_dir():
            index = f"{target}/index.html" if target else "index.html"
            return index if (self.root / index).is_file() else None
        return target if path.is_file() else None

    def _fragment_problem(self, target: str, fragment: str) -> str | None:
        if not fragment or not target.endswith(".html"):
            return None
        if fragment in self.page(target).ids:
            return None
        return f"no anchor #{fragment} in {target}"

    def _external_problem(self, href: str) -> str | None:
        parts = urlsplit(href)
        if parts.scheme not in _EXTERNAL_SCHEMES:
            return f"scheme {parts.scheme or '//'!r} is not http, https or mailto"
        shape = _GITHUB_SHAPE.search(parts.path)
        if shape is not None and not _HEX.fullmatch(unquote(shape.group(1))):
            return f"evidence link names {unquote(shape.group(1))!r}, not a pinned commit ID"
        if shape is not None and parts.fragment and not _LINE_FRAGMENT.fullmatch(parts.fragment):
            return f"evidence link's line fragment #{parts.fragment} is not #L<n> or #L<n>-L<m>"
        for location, revisions in self.pinned.items():
            if href.startswith(location.rstrip("/") + "/") and not any(r in href for r in revisions):
                return f"link under {location} names none of its pinned revisions"
        return None


def _normal(path: PurePosixPath) -> str | None:
    """A '/'-rooted path with '.' and '..' resolved, made site-relative; None above the root."""
    parts = walked([], path.parts[1:])
    return None if parts is None else "/".join(parts)


def html_pages(root: Path) -> list[str]:
    """Every HTML page of the site, as sorted site-relative posix paths."""
    return sorted(p.relative_to(root).as_posix() for p in root.rglob("*.html") if p.is_file())


def check_site(root: Path, pinned: dict[str, set[str]], console: Console) -> list[LinkProblem]:
    """Every broken link of the site under ``root``, sorted by place."""
    return site_report(root, pinned, console).problems


@dataclass
class SiteReport:
    """What the link check found: the broken links, sorted by place, and how many evidence
    anchors are shown as text where they should link."""

    problems: list[LinkProblem]
    unlinked_anchors: int


def site_report(root: Path, pinned: dict[str, set[str]], console: Console) -> SiteReport:
    """The link check of the site under ``root``: its broken links and its unlinked anchors."""
    site = SiteLinks(root, pinned)
    pages = html_pages(root)
    found: list[LinkProblem] = []
    with progress_bar(console, "checking links", len(pages)) as (progress, task):
        for relative in pages:
            found.extend(site.check_page(relative))
            progress.advance(task)
    unlinked = sum(site.page(relative).unlinked_anchors for relative in pages)
    return SiteReport(sorted(found), unlinked)


def pinned_revisions(systems: Iterable[CheckedSystem]) -> dict[str, set[str]]:
    """location → pinned revisions of every source the records declare or supply."""
    pinned: dict[str, set[str]] = {}
    for system in systems:
        for source in system.records.source_records().values():
            if source.location is not None and source.revision:
                location = str(source.location).removesuffix(".git")
                pinned.setdefault(location, set()).add(source.revision)
    return pinned
