"""Every page URL and anchor of the site: page paths, hrefs between pages, anchors.

Paths come from the page registry's path patterns; an href from one page to another
is the relative path between them, so templates, the linker, the nav and the home
page cannot disagree about where a page lives. Links themselves are built by
``links.link`` from these hrefs.

Markdown links name the target file (``result.md#a``) and MkDocs rewrites them; links
inside raw HTML blocks are not rewritten, so ``url_href`` gives them the final relative
URL MkDocs would have written with directory URLs (``../#a``), computed as MkDocs'
``get_relative_url`` computes it (``relative_url``; a test compares the two on many
pairs of paths, so the renderer needs no MkDocs). The plugin refuses
``use_directory_urls: false``. Zensical is the exception: it rewrites every relative
link of a page as if it named a file, raw HTML included, so ``kbgen render --engine
zensical`` renders under ``raw_html_links("file")`` and raw HTML links name the target
file as Markdown links do.
"""

from __future__ import annotations

import functools
import posixpath
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import PurePosixPath
from typing import Literal

from generator.model.ids import anchor_of, title_anchor
from generator.render.registry import RUN_CHANGES_PAGE, cross_pages, page_spec

__all__ = [
    "HOME",
    "anchor_of",
    "file_href",
    "href",
    "page_path",
    "raw_html_links",
    "reserved_slugs",
    "slugify",
    "system_dir",
    "url_file_href",
    "url_href",
]

# Downloads the site ships beside its pages (written by the kb-records plugin).
KB_JSON = "exports/kb.json"
COMPARISON_CSV = "exports/memory-comparison.csv"
HOME = "index.md"  # the site's hand-written home page (kb/index.md)
SYSTEMS_DIR = "systems"  # where system folders live; a per-system pattern starts with it


def slugify(title: str) -> str:
    """Section anchors: lower-case words joined by '-', like the Markdown toc extension."""
    return title_anchor(title)


def page_path(key: str, slug: str | None = None) -> str:
    """The path below docs_dir of a page type (of the system ``slug`` for a per-system page)."""
    spec = page_spec(key)
    if spec.per_system:
        if slug is None:
            raise ValueError(f"page {key!r} is per-system: a system slug is needed")
        return spec.path.replace("{slug}", slug)
    return spec.path


def site_url(path: str, anchor: str | None = None) -> str:
    """The URL of a page relative to the site root, as MkDocs publishes it with
    directory URLs (``systems/x/result.md`` → ``systems/x/result/``, ``…/index.md`` →
    ``systems/x/``)."""
    folder, _, name = path.rpartition("/")
    stem = name.removesuffix(".md")
    url = (f"{folder}/" if folder else "") + ("" if stem == "index" else f"{stem}/")
    return f"{url}#{anchor}" if anchor else url


def run_changes_path(slug: str) -> str:
    """The changes page of one run of a system, beside the run's pages (``systems/<slug>/``:
    the system's own for its current run, ``…/runs/<run-id>/`` for an earlier one): what
    changed since the run before it."""
    return page_path(RUN_CHANGES_PAGE, slug)


def system_dir(slug: str) -> str:
    """The URL of a system's folder, relative to the site root (``systems/<slug>/``)."""
    return f"{SYSTEMS_DIR}/{slug}/"


def file_href(from_path: str, to_path: str, anchor: str | None = None) -> str:
    """The href from one page to another, always naming the target file."""
    relative = _relative(from_path, to_path)
    return f"{relative}#{anchor}" if anchor else relative


def _relative(from_path: str, to_path: str) -> str:
    """The path of ``to_path`` from the folder of ``from_path`` (both below docs_dir).

    Computed from the segments alone: ``posixpath.relpath`` would consult the working
    folder on every call.
    """
    folder = from_path.split("/")[:-1]
    target = to_path.split("/")
    common = 0
    while common < len(folder) and common < len(target) - 1 and folder[common] == target[common]:
        common += 1
    return "/".join([".."] * (len(folder) - common) + target[common:])


def href(from_path: str, to_path: str, anchor: str | None = None) -> str:
    """The href from one page to another; on the same page, the fragment alone."""
    if from_path == to_path and anchor:
        return f"#{anchor}"
    return file_href(from_path, to_path, anchor)


RawHtmlLinks = Literal["url", "file"]
_RAW_HTML_LINKS: ContextVar[RawHtmlLinks] = ContextVar("raw_html_links", default="url")


@contextmanager
def raw_html_links(form: RawHtmlLinks) -> Iterator[None]:
    """Render raw HTML links as final URLs ("url", for MkDocs and ProperDocs) or as file
    links ("file", for an engine that rewrites links in raw HTML, as Zensical does)."""
    token = _RAW_HTML_LINKS.set(form)
    try:
        yield
    finally:
        _RAW_HTML_LINKS.reset(token)


def raw_html_link_form() -> RawHtmlLinks:
    """The form raw HTML links are written in here (``raw_html_links``)."""
    return _RAW_HTML_LINKS.get()


@functools.lru_cache(maxsize=4096)
def _parts(path: str) -> tuple[str, ...]:
    normal = posixpath.normpath("/" + path.lstrip("/"))[1:]
    return tuple(normal.split("/")) if normal else ()


def relative_url(url: str, other: str) -> str:
    """``url`` relative to ``other``, slash-separated paths as MkDocs relates them
    (``mkdocs.utils.get_relative_url``): the last part of ``other`` is dropped when it
    holds a dot (a file), ``..`` climbs, nothing climbs above the root."""
    dirname, _, basename = other.rpartition("/")
    if "." in basename:
        other = dirname
    base, target = _parts(other), _parts(url)
    common = 0
    for mine, theirs in zip(base, target, strict=False):
        if mine != theirs:
            break
        common += 1
    relative = "/".join([".."] * (len(base) - common) + list(target[common:])) or "."
    return relative + "/" if url.endswith("/") else relative


def url_file_href(from_path: str, to_path: str, anchor: str | None = None) -> str:
    """What MkDocs makes of ``file_href(from_path, to_path, anchor)``: the relative URL
    between the two pages' directory URLs (the same page gives ``./``)."""
    if _RAW_HTML_LINKS.get() == "file":
        return file_href(from_path, to_path, anchor)
    relative = relative_url(site_url(to_path), site_url(from_path))
    return f"{relative}#{anchor}" if anchor else relative


def url_href(from_path: str, to_path: str, anchor: str | None = None) -> str:
    """What MkDocs makes of ``href(from_path, to_path, anchor)``: on the same page, the
    fragment alone; otherwise ``url_file_href``."""
    if from_path == to_path and anchor:
        return f"#{anchor}"
    return url_file_href(from_path, to_path, anchor)


def reserved_slugs() -> frozenset[str]:
    """Names a system folder may not take because a generated page or folder uses them.

    Every cross-system page's file stem (``index``, ``status-matrix``, ``glossary``) and
    the first folder of its path below ``systems/``: a system folder of that name would
    share a URL with it.
    """
    reserved: set[str] = set()
    for spec in cross_pages():
        path = PurePosixPath(spec.path)
        reserved.add(path.stem)
        parts = path.parts
        if len(parts) > 2 and parts[0] == SYSTEMS_DIR:
            reserved.add(parts[1])
    return frozenset(reserved)
