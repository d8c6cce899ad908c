"""``kbgen serve``: MkDocs' per-page work skipped for pages that did not change.

MkDocs' serve rebuilds the whole site on every edit. The HTML of a page's Markdown
depends on the Markdown, the page's place among the site's files and the configuration;
the finished page adds its front matter and the navigation. So both are remembered
between rebuilds under digests of exactly those inputs:

* **converted** (Markdown → HTML, with the table of contents, title and anchors MkDocs
  reads from the conversion), keyed by the page's Markdown (a hand-written page's as
  the macros plugin expanded it), front matter, source and edit path and the
  configuration (``page_key``), and valid while every file its links looked up is still
  found as it was (``LinkLookups``): a system added or removed changes the site's file
  list, but not the conversion of a page that links to none of its files;
* **finished** (the page as written), keyed by that and the navigation (``nav_digest``).

An unchanged page is not converted (MkDocs' ``page.render`` restores its remembered
conversion instead) and, under an unchanged navigation, not rendered through the
theme either (``CACHED_TEMPLATE`` prints the remembered page). What one rebuild made is
kept only when that build succeeded, and only what the latest build used is kept. A
remembered conversion does not repeat the warnings its first conversion logged.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from jinja2 import BytecodeCache
from jinja2.bccache import Bucket
from mkdocs.structure.files import File, Files
from mkdocs.structure.nav import Navigation, Section
from mkdocs.structure.pages import Page
from mkdocs.structure.toc import TableOfContents

from generator import PACKAGE_DIR

THEME_DIR = PACKAGE_DIR / "templates" / "theme"
CACHED_TEMPLATE = "kb-records-cached-page.html"
CACHED_OUTPUT = "kb_cached_output"  # the context variable CACHED_TEMPLATE prints


def _sha(parts: Iterable[str]) -> str:
    digest = hashlib.sha256()
    for part in parts:
        digest.update(part.encode("utf-8", "surrogatepass") + b"\0")
    return digest.hexdigest()


# Extensions that let a page's Markdown pull in another file of docs_dir: with one of
# them configured, no hand-written page is known to depend on its own Markdown alone.
INCLUDE_EXTENSIONS = frozenset({"pymdownx.snippets", "markdown_include.include", "mdx_include"})
PAGE_SUFFIXES = (".md", ".markdown")


def _tree_stats(folder: Path, pages_by_name: bool = False) -> Iterator[str]:
    """Names, sizes and modification times of a folder's files (hand-written pages, theme).

    With ``pages_by_name``, a Markdown page counts by its name only: its content is part of
    its own page key, and no other page reads it.
    """
    for root, dirs, names in os.walk(folder):
        dirs.sort()
        for name in sorted(names):
            path = os.path.join(root, name)
            if pages_by_name and name.endswith(PAGE_SUFFIXES):
                yield path
                continue
            try:
                stat = os.stat(path, follow_symlinks=False)
            except OSError:
                continue
            yield f"{path}:{stat.st_size}:{stat.st_mtime_ns}"


def uses_includes(extensions: Iterable[object]) -> bool:
    """Whether a configured Markdown extension can include one file of docs_dir in another page."""
    return any(isinstance(name, str) and name in INCLUDE_EXTENSIONS for name in extensions)


def config_digest(
    config_file: str | None, folders: Iterable[Path], pages: Path | None = None, includes: bool = False
) -> str:
    """What every page depends on besides its own source: the configuration file, the theme
    folders (``folders``: every file counts) and docs_dir (``pages``: its other files, and
    the names of its Markdown pages; their contents too when ``includes``).

    An edit to one hand-written page thus leaves every other page remembered; a page added,
    removed or renamed changes the digest (and the site's file list).
    """
    text = Path(config_file).read_bytes().hex() if config_file and os.path.isfile(config_file) else ""
    lines = [line for folder in folders if folder.is_dir() for line in _tree_stats(folder)]
    if pages is not None and pages.is_dir():
        lines += ["docs", *_tree_stats(pages, pages_by_name=not includes)]
    return _sha([text, *lines])


# What a page's conversion saw of one file it looked up: None when absent, else the URL
# its links were made with and whether the file is excluded from the site (MkDocs warns).
Found = tuple[str, bool] | None


def _found(file: File | None) -> Found:
    return None if file is None else (file.url, file.inclusion.is_excluded())


class LinkLookups:
    """The files each page's conversion looked up, and what it found.

    MkDocs resolves a page's relative links while converting it, by asking the site's
    ``Files`` for each target (``get_file_from_path``); nothing else of the file list goes
    into the HTML. So while a page converts, the lookups are recorded, and a remembered
    conversion is valid while each lookup finds the same thing.
    """

    def __init__(self) -> None:
        self._page: dict[str, Found] | None = None
        self._files: Files | None = None

    def watch(self, files: Files) -> None:
        """Record lookups made on ``files`` (once per build: MkDocs makes a new list)."""
        if files is self._files:
            return
        self._files = files
        lookup = files.get_file_from_path

        def recording(path: str) -> File | None:
            found = lookup(path)
            if self._page is not None:
                self._page[path] = _found(found)
            return found

        files.get_file_from_path = recording  # type: ignore[method-assign]

    def start(self) -> None:
        """A page's conversion begins: record its lookups."""
        self._page = {}

    def stop(self) -> tuple[tuple[str, Found], ...]:
        """The conversion ended: what it looked up, in order of path."""
        found, self._page = self._page or {}, None
        return tuple(sorted(found.items()))


def lookups_hold(lookups: tuple[tuple[str, Found], ...], files: Files) -> bool:
    """Whether every file a remembered conversion looked up is found as it was then."""
    return all(_found(files.get_file_from_path(path)) == found for path, found in lookups)


def _nav_lines(items: Iterable[Any], depth: int) -> Iterator[str]:
    for item in items:
        kind = type(item).__name__
        yield f"{depth}:{kind}:{item.title}:{getattr(item, 'url', '')}:{getattr(item, 'is_index', '')}"
        if isinstance(item, Section):
            yield from _nav_lines(item.children, depth + 1)


def nav_digest(nav: Navigation) -> str:
    """The navigation every page prints: titles, URLs and nesting (page titles included)."""
    return _sha(_nav_lines(nav.items, 0))


def page_key(site: str, markdown_sha256: str, page: Page) -> str:
    """The page's inputs: the site (configuration and files), the page, its front matter
    (which the theme reads) and the digest of its Markdown."""
    meta = json.dumps(page.meta, sort_keys=True, default=repr, ensure_ascii=False)
    return _sha([site, page.file.src_uri, str(page.file.edit_uri), meta, markdown_sha256])


@dataclass(frozen=True)
class Converted:
    """What MkDocs takes from converting one page's Markdown."""

    html: str
    toc: TableOfContents
    title: str | None
    anchors: frozenset[str]
    links: dict[str, dict[str, str]]  # target source path → {anchor: link as written}
    lookups: tuple[tuple[str, Found], ...] = ()  # the files the conversion looked up (LinkLookups)

    @classmethod
    def of(cls, html: str, page: Page, lookups: tuple[tuple[str, Found], ...] = ()) -> Converted:
        links = {target.src_uri: dict(found) for target, found in (page.links_to_anchors or {}).items()}
        return cls(html, page.toc, page.title, frozenset(page.present_anchor_ids or ()), links, lookups)

    def restore(self, page: Page, files: Files) -> str:
        """Give the page what its conversion would have: HTML, contents, title, anchors."""
        page.toc = self.toc
        page.title = self.title  # a weak property: set, it overrides the rendered title
        page.present_anchor_ids = set(self.anchors)
        targets = {uri: files.get_file_from_path(uri) for uri in self.links}
        page.links_to_anchors = {
            target: dict(found) for uri, found in self.links.items() if (target := targets[uri]) is not None
        }
        return self.html


def restore_on_render(page: Page, known: Converted) -> None:
    """Make MkDocs' ``page.render`` give the page ``known`` instead of converting its Markdown."""
    page.render = functools.partial(_restore_conversion, page, known)  # type: ignore[method-assign]


def _restore_conversion(page: Page, known: Converted, config: Any, files: Files) -> None:
    """``Page.render`` for a page whose conversion is known."""
    page.content = known.restore(page, files)


@dataclass(frozen=True)
class Finished:
    """A page as MkDocs writes it, and the SHA-256 of the bytes written."""

    output: str
    sha256: str

    @classmethod
    def of(cls, output: str) -> Finished:
        # What MkDocs' _build_page writes of a page's output.
        data = output.encode("utf-8", errors="xmlcharrefreplace")
        return cls(output, hashlib.sha256(data).hexdigest())


@dataclass
class PageMemory:
    """Converted and finished pages of the latest successful build; a finished page is kept
    with the SHA-256 of the bytes MkDocs writes of it (the build manifest lists it)."""

    converted: dict[str, Converted] = field(default_factory=dict)
    finished: dict[tuple[str, str], Finished] = field(default_factory=dict)
    # This build: what it used or made, committed by ``succeeded``.
    _converted: dict[str, Converted] = field(default_factory=dict)
    _finished: dict[tuple[str, str], Finished] = field(default_factory=dict)
    _pending: bool = False
    reused_conversions: int = 0
    reused_pages: int = 0

    def start(self) -> None:
        """A build begins: keep what the previous one made if it succeeded."""
        if self._pending:
            self.converted, self.finished = self._converted, self._finished
        self._converted, self._finished, self._pending = {}, {}, False
        self.reused_conversions = self.reused_pages = 0

    def conversion(self, key: str, files: Files | None = None) -> Converted | None:
        """The remembered conversion, kept for the next build too; with ``files``, only
        while its link lookups still hold."""
        found = self.converted.get(key)
        if found is not None and files is not None and not lookups_hold(found.lookups, files):
            return None
        if found is not None:
            self._converted[key] = found
            self.reused_conversions += 1
        return found

    def remember_conversion(self, key: str, converted: Converted) -> None:
        self._converted[key] = converted

    def page(self, key: str, nav: str) -> Finished | None:
        found = self.finished.get((key, nav))
        if found is not None:
            self._finished[(key, nav)] = found
            self.reused_pages += 1
        return found

    def remember_page(self, key: str, nav: str, finished: Finished) -> None:
        self._finished[(key, nav)] = finished

    def succeeded(self) -> None:
        self._pending = True

    def failed(self) -> None:
        """A failed build (strict warnings included) teaches nothing: the next starts afresh
        from the last successful one."""
        self._converted, self._finished, self._pending = {}, {}, False


class TemplateBytecode(BytecodeCache):
    """The theme's compiled templates, kept across rebuilds: MkDocs makes a fresh Jinja
    environment for every build, and compiling the theme is a large share of a rebuild.
    Jinja checks each template's source checksum, so an edited template is compiled anew."""

    def __init__(self) -> None:
        self._compiled: dict[str, bytes] = {}

    def load_bytecode(self, bucket: Bucket) -> None:
        compiled = self._compiled.get(bucket.key)
        if compiled is not None:
            bucket.bytecode_from_string(compiled)

    def dump_bytecode(self, bucket: Bucket) -> None:
        self._compiled[bucket.key] = bucket.bytecode_to_string()


class ThemeListing:
    """The theme's static files as MkDocs lists them, kept across rebuilds.

    Every build, MkDocs lists each file of every theme folder (mkdocs-material ships
    thousands of icons) and matches each name against its exclusion patterns: a large share
    of a rebuild at a hundred systems, for a list that changes only with the theme folders. The
    list is remembered per filter (MkDocs' own, identified by its code), theme folders,
    static templates and the site digest, which covers the files of the custom theme folder.
    """

    def __init__(self) -> None:
        self._kept: dict[tuple[Any, ...], list[str]] = {}

    def install(self, theme: Any, site: str) -> None:
        """Make ``theme.get_env`` hand out environments that list templates from memory."""
        make_env = theme.get_env
        folders = (site, *theme.dirs, *theme.static_templates)

        def get_env() -> Any:
            env = make_env()
            listing = env.list_templates

            def list_templates(extensions: Any = None, filter_func: Any = None) -> list[str]:
                if extensions is not None or filter_func is None:
                    return listing(extensions, filter_func)
                key = (*folders, getattr(filter_func, "__code__", filter_func))
                if key not in self._kept:
                    self._kept = {key: listing(filter_func=filter_func)}
                return list(self._kept[key])

            env.list_templates = list_templates
            return env

        theme.get_env = get_env
