"""What ``kbgen serve`` keeps between rebuilds, as one object the plugin hands each event to.

MkDocs' serve rebuilds the whole site on every edit. ``ServeMemory`` lets a rebuild
reuse what the edit cannot have changed: unchanged systems are not loaded, checked,
linked or rendered again (``pipeline.SystemCache``); an unchanged page is neither
converted nor themed again (``pagecache.PageMemory``, keyed by ``pagecache.page_key``
and ``pagecache.nav_digest``); the record index and the JSON export keep each unchanged
system's part (``pipeline.PerGraph``); the theme's compiled templates and file list are
kept (``TemplateBytecode``, ``ThemeListing``). What one rebuild made is kept only when
that build succeeded. A one-shot build has no ``ServeMemory``.
"""

from __future__ import annotations

from collections.abc import Container
from pathlib import Path
from typing import Any

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.files import Files
from mkdocs.structure.nav import Navigation
from mkdocs.structure.pages import Page

from generator.load.fingerprint import TextDigests
from generator.mkdocs.front_matter import FrontMatterMemo
from generator.mkdocs.kept_site import KeptSiteFolder
from generator.mkdocs.pagecache import (
    CACHED_OUTPUT,
    CACHED_TEMPLATE,
    THEME_DIR,
    Converted,
    Finished,
    LinkLookups,
    PageMemory,
    TemplateBytecode,
    ThemeListing,
    config_digest,
    nav_digest,
    page_key,
    restore_on_render,
    uses_includes,
)
from generator.outputs.export import export_memo
from generator.outputs.search import GraphParts, site_index_memo
from generator.pipeline import PerGraph, SystemCache


class ServeMemory:
    """Every cache of a serve session, and this build's bookkeeping of the pages."""

    def __init__(self) -> None:
        self.systems = SystemCache()  # unchanged systems' stages
        self.pages = PageMemory()  # converted and finished pages
        self.index: PerGraph[GraphParts] = site_index_memo()  # each system's indexed terms
        self.exports: PerGraph[bytes] = export_memo()  # each system's serialized export
        self.digests = TextDigests()  # the generated pages' Markdown digests
        self.bodies = TextDigests()  # the digests of what each page converts
        self.bytecode = TemplateBytecode()
        self.theme_listing = ThemeListing()
        self.lookups = LinkLookups()
        self.site = KeptSiteFolder()  # installed by the plugin for as long as it serves
        self.front_matter = FrontMatterMemo()  # likewise
        self._site = ""  # digest of the configuration, the theme folder and docs_dir's page names
        self._nav: Navigation | None = None
        self._nav_key = ""
        self._keys: dict[str, str] = {}  # page source path → its page key
        self._restored: set[str] = set()  # pages given their remembered conversion
        self._replayed: dict[str, Finished] = {}  # pages printed as remembered
        # The pages the latest successful build restored and printed as remembered.
        self.last_restored: frozenset[str] = frozenset()
        self.last_replayed: frozenset[str] = frozenset()

    def configure(self, config: MkDocsConfig) -> None:
        """A build begins: keep what the previous one made if it succeeded, and digest the site."""
        self.pages.start()
        self._keys, self._restored, self._replayed = {}, set(), {}
        self._nav = None
        config.theme.dirs.append(str(THEME_DIR))  # CACHED_TEMPLATE, last: never shadows the theme
        theme = [Path(config.theme.custom_dir)] if config.theme.custom_dir else []
        includes = uses_includes(config.markdown_extensions)
        self._site = config_digest(config.config_file_path, theme, Path(config.docs_dir), includes)
        self.theme_listing.install(config.theme, self._site)
        self.site.configure(config.site_dir)

    def before_conversion(self, page: Page, markdown: str, files: Files) -> bool:
        """Whether the page's remembered conversion stands in for converting it (MkDocs then
        calls ``page.render``, which restores it); else its link lookups are recorded."""
        key = page_key(self._site, self.bodies.of(page.file.src_uri, markdown), page)
        self._keys[page.file.src_uri] = key
        known = self.pages.conversion(key, files)
        if known is not None:
            restore_on_render(page, known)
            self._restored.add(page.file.src_uri)
            return True
        self.lookups.watch(files)
        self.lookups.start()  # MkDocs converts the page next: its link lookups are recorded
        return False

    def after_conversion(self, page: Page, html: str) -> None:
        """Remember a page MkDocs just converted (a restored one is remembered already)."""
        key = self._keys.get(page.file.src_uri)
        if key is None or page.file.src_uri in self._restored:
            return
        self.pages.remember_conversion(key, Converted.of(html, page, self.lookups.stop()))

    def nav_built(self, nav: Navigation) -> None:
        self._nav = nav

    def pick_replayed(self, env: Any, files: Files, generated: Container[str]) -> None:
        """Every page is converted and titled now: pick the pages printed as remembered."""
        self._replayed = {}
        if self._nav is None:
            return
        env.bytecode_cache = self.bytecode
        self._nav_key = nav_digest(self._nav)
        for file in files.documentation_pages():
            key = self._keys.get(file.src_uri)
            finished = self.pages.page(key, self._nav_key) if key is not None else None
            if finished is None or file.page is None:
                continue
            file.page.meta["template"] = CACHED_TEMPLATE
            # The remembered page already holds this content as every plugin left it;
            # emptied, the search plugin's per-page rewrite of it has nothing to scan. A
            # hand-written page keeps it: the theme's search indexes its sections.
            if file.src_uri in generated:
                file.page.content = ""
            self._replayed[file.src_uri] = finished

    def page_context(self, context: Any, page: Page) -> Any:
        """The theme's context of a page printed as remembered carries the remembered page."""
        finished = self._replayed.get(page.file.src_uri)
        if finished is not None:
            context[CACHED_OUTPUT] = finished.output
        return context

    def remembers(self, page: Page) -> bool:
        return page.file.src_uri in self._keys

    def finished(self, page: Page, output: str) -> Finished:
        """The page as written; remembered for the next build when it was made anew."""
        source = page.file.src_uri
        replayed = self._replayed.get(source)
        if replayed is not None and replayed.output == output:
            return replayed
        finished = Finished.of(output)
        key = self._keys.get(source)
        if key is not None and replayed is None:
            self.pages.remember_page(key, self._nav_key, finished)
        return finished

    def on_disk(self, page: Page, finished: Finished) -> bool:
        """Whether the page's file in the served folder holds this page already (then it is
        not written again, see ``kept_site``)."""
        return self.site.keep(page.file.src_uri, page.file.abs_dest_path, finished)

    def build_failed(self) -> None:
        """A failed build (strict warnings included) teaches nothing."""
        self._restored = set()
        self.lookups.stop()
        self.pages.failed()
        self.front_matter.build_done()

    def build_succeeded(self) -> None:
        self.pages.succeeded()
        self.front_matter.build_done()
        self.digests.next_build()
        self.bodies.next_build()
        self.last_replayed = frozenset(self._replayed)
        self.last_restored = frozenset(self._restored)
        self._keys, self._replayed, self._restored = {}, {}, set()
