"""The MkDocs plugin: a thin wrapper that adds the rendered record pages as virtual files.

Nothing is written into ``docs_dir``: pages are ``File.generated`` objects, so
``mkdocs serve`` never sees its own output change (no reload loops). The plugin owns
the check: records with errors fail ``build``; in ``serve`` their errors are printed
and the last good pages are published again, so the preview never stalls.

In ``serve`` every rebuild reuses what the edit cannot have changed: unchanged systems
are not loaded, checked, linked or rendered again (``incremental.py``), unchanged
generated pages are neither converted nor themed again (``pagecache.py``), and the
record index and the JSON export keep each unchanged system's part (``incremental.PerGraph``).
Generated pages stay out of mkdocs-material's page index in every build: the record
index replaces it, and parsing every page's HTML for it was a tenth of a build.
"""

from __future__ import annotations

import functools
import html
import logging
import os
from pathlib import Path
from typing import Any, Literal

from mkdocs.config import config_options as c
from mkdocs.config.base import Config
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.plugins import BasePlugin, CombinedEvent, event_priority
from mkdocs.structure.files import File, Files
from mkdocs.structure.nav import Navigation
from mkdocs.structure.pages import Page

from generator.check.report import capped
from generator.diagnostics import Diagnostic
from generator.load.fingerprint import TextDigests
from generator.mkdocs.macros import MacroProblems, RecordMacros
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
    uses_includes,
)
from generator.mkdocs.site_manifest import write_manifest
from generator.mkdocs.splice import Spliced, split_raw_blocks
from generator.mkdocs.watch import RecordsWatch
from generator.outputs.export import export_memo, site_exports
from generator.outputs.search import GraphParts, site_index_memo, write_site_index
from generator.pipeline import PerGraph, PipelineResult, SystemCache, run_pipeline
from generator.render.registry import Nav, PageSpec, cross_pages, page_spec
from generator.util.output_guard import mark_site, protected_paths, site_dir_refusal

log = logging.getLogger("mkdocs.plugins.kb-records")

# The start of the message a build fails with when the records have errors; kbgen
# prints its own report of them instead.
RECORD_ERRORS = "kb-records: the records have errors"

# Markdown extensions the generated pages are written for (badges use attr_list and
# md_in_html; route diagrams the mermaid fence of superfences).
REQUIRED_EXTENSIONS = ("attr_list", "md_in_html", "toc", "tables", "admonition", "pymdownx.superfences")


class RecordsConfig(Config):
    records_dir = c.Type(str, default="records")
    max_diagnostics = c.Type(int, default=50)


def _nav_entry(spec: PageSpec, path: str) -> Any:
    return path if spec.nav is Nav.SECTION_INDEX else {spec.title: path}


def systems_nav(summaries: list[dict[str, Any]]) -> list[Any]:
    """The generated 'Systems' section, from the page registry: the section's index page, one
    section per system (its pages in registry order), then the other cross-system pages."""
    cross = [spec for spec in cross_pages() if spec.nav is not Nav.NONE]
    entries: list[Any] = [_nav_entry(spec, spec.path) for spec in cross if spec.nav is Nav.SECTION_INDEX]
    for summary in summaries:
        pages = [
            _nav_entry(spec, page["path"])
            for page in summary["pages"]
            if (spec := page_spec(page["key"])).nav is not Nav.NONE
        ]
        # The theme prints nav titles unescaped: a system name is data, so escape it.
        entries.append({html.escape(str(summary["name"])): pages})
    entries.extend(_nav_entry(spec, spec.path) for spec in cross if spec.nav is Nav.ENTRY)
    return entries


def systems_index() -> PageSpec:
    """The page the 'Systems' nav entry of mkdocs.yml points at: the section's index page."""
    return next(spec for spec in cross_pages() if spec.nav is Nav.SECTION_INDEX)


def expand_nav(nav: list[Any], summaries: list[dict[str, Any]]) -> list[Any]:
    """Replace the nav entry that points at the systems index by the generated section.

    The navigation is rebuilt from the records on every build, so it is never stale.
    """
    spec = systems_index()
    index = spec.path
    expanded: list[Any] = []
    for item in nav:
        if item == index:
            expanded.append({spec.title: systems_nav(summaries)})
        elif isinstance(item, dict) and len(item) == 1:
            ((title, value),) = item.items()
            if value == index:
                expanded.append({title: systems_nav(summaries)})
            elif isinstance(value, list):
                expanded.append({title: expand_nav(value, summaries)})
            else:
                expanded.append(item)
        else:
            expanded.append(item)
    return expanded


def _extension_name(name: str) -> str:
    return name.removeprefix("markdown.extensions.")


def missing_extension(config: MkDocsConfig) -> str | None:
    """The first Markdown extension (or the mermaid fence) the generated pages need but lack."""
    enabled = {_extension_name(name) for name in config.markdown_extensions}
    for name in REQUIRED_EXTENSIONS:
        if name not in enabled:
            return name
    options = {_extension_name(k): v for k, v in config.mdx_configs.items()}
    fences = (options.get("pymdownx.superfences") or {}).get("custom_fences") or []
    if not any(isinstance(fence, dict) and fence.get("name") == "mermaid" for fence in fences):
        return "pymdownx.superfences (custom fence 'mermaid')"
    return None


def located_lines(diagnostics: list[Diagnostic], cap: int) -> list[str]:
    """The one-line forms, capped per rule and file like ``kbgen check``, then at ``cap`` lines."""
    lines = [item if isinstance(item, str) else item.as_text() for item in capped(diagnostics)]
    more = len(lines) - cap
    return lines[:cap] + ([f"… and {more} more lines"] if more > 0 else [])


class RecordsPlugin(BasePlugin[RecordsConfig]):
    """Turns records/<system>/ into result, memory-report, review and system pages."""

    def __init__(self) -> None:
        self.command: str = "build"
        self.result: PipelineResult | None = None  # the latest check, errors or not
        self.published: PipelineResult | None = None  # the pages of this build
        self.last_good: PipelineResult | None = None  # serve: the last clean result
        self.records: Path | None = None
        self._watch: RecordsWatch | None = None
        self.macro_problems = MacroProblems()
        # serve: what rebuilds reuse (unchanged systems, converted and finished pages).
        self.systems: SystemCache | None = None
        self.memory: PageMemory | None = None
        self._site = ""  # digest of the configuration, the theme folder and docs_dir's page names
        self._nav: Navigation | None = None
        self._keys: dict[str, str] = {}  # serve: page source path → its page_key
        self._replayed: dict[str, Finished] = {}  # source path → finished page, printed as it is
        self._html_sha256: dict[str, str] = {}  # generated page → SHA-256 of the HTML written
        self.last_replayed: frozenset[str] = frozenset()
        self.last_restored: frozenset[str] = frozenset()
        self._spliced: dict[str, Spliced] = {}  # source path → its raw blocks, out of the Markdown
        self._restored: set[str] = set()  # serve: pages given their remembered conversion
        # Off for ``kbgen render``, which hands the pages' whole Markdown to another engine.
        self.splice_raw_html = True
        self._nav_key = ""
        self._index: PerGraph[GraphParts] | None = None  # serve: each system's indexed terms
        self._exports: PerGraph[bytes] | None = None  # serve: each system's serialized export
        self._digests: TextDigests | None = None  # serve: the pages' Markdown digests
        self._bodies: TextDigests | None = None  # serve: the digests of what each page converts
        self._bytecode = TemplateBytecode()  # serve: the theme's compiled templates
        self._theme_listing = ThemeListing()  # serve: the theme's static files
        self._lookups = LinkLookups()  # serve: the files each page's conversion looked up

    def on_startup(self, *, command: Literal["build", "gh-deploy", "serve"], dirty: bool) -> None:
        # Defining on_startup keeps this instance across the rebuilds of one serve.
        self.command = command
        self.result = self.published = self.last_good = None
        incremental = command == "serve"
        self.systems = SystemCache() if incremental else None
        self.memory = PageMemory() if incremental else None
        self._index = site_index_memo() if incremental else None
        self._exports = export_memo() if incremental else None
        self._digests = TextDigests() if incremental else None
        self._bodies = TextDigests() if incremental else None
        self._bytecode = TemplateBytecode()
        self._theme_listing = ThemeListing()
        self._lookups = LinkLookups()

    def on_shutdown(self) -> None:
        if self._watch is not None:
            self._watch.stop()
            self._watch = None

    def records_folder(self, config: MkDocsConfig) -> Path:
        """The records folder: ``records_dir`` relative to the configuration file's folder."""
        base = Path(config.config_file_path or ".").resolve().parent
        records = Path(self.config.records_dir)
        return records if records.is_absolute() else base / records

    def on_config(self, config: MkDocsConfig) -> MkDocsConfig:
        missing = missing_extension(config)
        if missing is not None:
            raise PluginError(
                f"kb-records: the generated pages need the Markdown extension {missing}; "
                "enable it under markdown_extensions in the MkDocs configuration"
            )
        if not config.use_directory_urls:
            # Links inside the generated pages' raw HTML blocks are final directory URLs
            # (MkDocs rewrites links in Markdown only), as are the record index and exports.
            raise PluginError(
                "kb-records: the generated pages link with directory URLs; "
                "set use_directory_urls: true in the MkDocs configuration"
            )
        self.records = self.records_folder(config)
        if self.command != "serve":
            self._guard_site_dir(config, self.records)
        self._keys, self._replayed, self._spliced, self._restored = {}, {}, {}, set()
        self._html_sha256 = {}
        if self.memory is not None:
            self.memory.start()
            config.theme.dirs.append(str(THEME_DIR))  # CACHED_TEMPLATE, last: never shadows the theme
            theme = [Path(config.theme.custom_dir)] if config.theme.custom_dir else []
            includes = uses_includes(config.markdown_extensions)
            self._site = config_digest(config.config_file_path, theme, Path(config.docs_dir), includes)
            self._theme_listing.install(config.theme, self._site)
        self.published = self._publishable(self._check(config, self.records))
        config.extra["kb_systems"] = self.published.summaries()
        if config.nav is not None:
            config.nav = expand_nav(config.nav, self.published.summaries())
        return config

    def _guard_site_dir(self, config: MkDocsConfig, records: Path) -> None:
        base = Path(config.config_file_path or ".").resolve().parent
        custom_dir = config.theme.custom_dir
        protected = protected_paths(
            base, records, Path(config.docs_dir), Path(custom_dir) if custom_dir else None
        )
        refusal = site_dir_refusal(Path(config.site_dir), protected)
        if refusal is not None:
            raise PluginError(f"kb-records: {refusal}")

    def _check(self, config: MkDocsConfig, records: Path) -> PipelineResult | str:
        """The pipeline's result, or why there is none (a missing records folder)."""
        if not records.is_dir():
            return f"kb-records: records folder {records} does not exist"
        # Diagnostics name files relative to the working folder, as kbgen check does.
        self.result = run_pipeline(records, cache=self.systems)
        warnings = [d for d in self.result.diagnostics if d.severity.value == "warning"]
        for line in located_lines(warnings, self.config.max_diagnostics):
            log.info(line)
        return self.result

    def _publishable(self, outcome: PipelineResult | str) -> PipelineResult:
        """The result to publish: this one when clean; in serve, else the last good one."""
        if isinstance(outcome, PipelineResult) and not outcome.errors:
            if self.command == "serve":
                self.last_good = outcome
            return outcome
        if isinstance(outcome, str):
            lines = [outcome]
        else:
            lines = [
                f"{RECORD_ERRORS}: {len(outcome.errors)} error(s)",
                *located_lines(outcome.errors, self.config.max_diagnostics),
            ]
        if self.command == "serve" and self.last_good is not None:
            # Logged at INFO: a warning would fail the strict rebuild and stall the preview.
            log.info("\n".join([*lines, "kb-records: showing the last good pages"]), extra={"kb_error": True})
            return self.last_good
        raise PluginError("\n".join([*lines, "nothing was built; run 'kbgen check' for hints"]))

    def macros_for(self, env: Any) -> RecordMacros:
        """The record macros of hand-authored pages (``generator.mkdocs.macros.define_env`` asks)."""
        self.macro_problems.take()
        return RecordMacros(env, self.published.graphs if self.published else [], self.macro_problems)

    def on_files(self, files: Files, *, config: MkDocsConfig) -> Files:
        assert self.published is not None
        edits = self.published.edit_paths()
        docs = Path(config.docs_dir)
        for path, markdown in self.published.pages.items():
            existing = files.get_file_from_path(path)
            if existing is not None:
                raise PluginError(f"kb-records: {path} is generated from records; remove it from docs_dir")
            file = File.generated(config, path, content=markdown)
            # The edit link opens the record file the page is rendered from (none for
            # cross-system pages), relative to docs_dir as edit_uri expects.
            source = edits.get(path)
            file.edit_uri = _relative_posix(source, docs) if source is not None else None
            files.append(file)
        # The set manifests, and the downloads linked from the comparison page (built from
        # the same pages, so the CSV's page digests are those of this build).
        exports = site_exports(self.published, self._exports, self._digests)
        for path, text in {**self.published.artifacts, **exports}.items():
            files.append(File.generated(config, path, content=text))
        return files

    @event_priority(-100)  # last: the key is the Markdown every other plugin has seen
    def on_page_markdown(self, markdown: str, *, page: Page, config: MkDocsConfig, files: Files) -> str:
        generated = self.published is not None and page.file.src_uri in self.published.pages
        if generated:
            # The record index (search/search_index.json) makes generated pages findable;
            # mkdocs-material's page index, which would parse every page's HTML, is dropped.
            page.meta["search"] = {**(page.meta.get("search") or {}), "exclude": True}
        # serve: a hand-written page is remembered like a generated one, under the Markdown
        # the macros plugin expanded (what it shows of the records is in that Markdown).
        if self.memory is not None:
            assert self._bodies is not None
            key = page_key(self._site, self._bodies.of(page.file.src_uri, markdown), page)
            self._keys[page.file.src_uri] = key
            known = self.memory.conversion(key, files)
            if known is not None:
                # An unchanged page is not converted again. MkDocs calls ``page.render``
                # between this event and on_page_content; for this page it restores the
                # remembered conversion instead of making a Markdown converter (a tenth of
                # a rebuild, for the pages nobody edited).
                page.render = functools.partial(_restore_conversion, page, known)  # type: ignore[method-assign]
                self._restored.add(page.file.src_uri)
                return markdown
            self._lookups.watch(files)
            self._lookups.start()  # MkDocs converts the page next: its link lookups are recorded
        if not generated or not self.splice_raw_html:
            return markdown
        # Python-Markdown sees the page without its raw HTML blocks (see splice.py).
        spliced = split_raw_blocks(markdown)
        self._spliced[page.file.src_uri] = spliced
        return spliced.markdown

    @event_priority(100)  # first: every other plugin sees the whole page
    def _splice_content(self, html: str, *, page: Page, config: MkDocsConfig, files: Files) -> str:
        spliced = self._spliced.pop(page.file.src_uri, None)
        if spliced is None:
            return html
        # MkDocs found the anchors of the Markdown parts; those of the raw blocks join them.
        page.present_anchor_ids = (page.present_anchor_ids or set()) | spliced.anchors
        return spliced.splice(html)

    @event_priority(-100)
    def _check_and_remember_content(
        self, html: str, *, page: Page, config: MkDocsConfig, files: Files
    ) -> str:
        # Macros ran on this page's Markdown just before: a broken reference fails the build.
        problems = self.macro_problems.take()
        if problems:
            raise PluginError(
                "kb-records: a macro names something that does not exist:\n" + "\n".join(problems)
            )
        key = self._keys.get(page.file.src_uri)
        if self.memory is None or key is None or page.file.src_uri in self._restored:
            return html
        self.memory.remember_conversion(key, Converted.of(html, page, self._lookups.stop()))
        return html

    on_page_content = CombinedEvent(_splice_content, _check_and_remember_content)

    def on_nav(self, nav: Navigation, *, config: MkDocsConfig, files: Files) -> Navigation:
        self._nav = nav
        return nav

    def on_env(self, env: Any, *, config: MkDocsConfig, files: Files) -> Any:
        """Every page is converted and titled now: pick the pages printed as remembered."""
        self._replayed = {}
        if self.memory is None or self._nav is None:
            return env
        env.bytecode_cache = self._bytecode
        nav = nav_digest(self._nav)
        for file in files.documentation_pages():
            key = self._keys.get(file.src_uri)
            finished = self.memory.page(key, nav) if key is not None else None
            if finished is not None and file.page is not None:
                file.page.meta["template"] = CACHED_TEMPLATE
                # The remembered page already holds this content as every plugin left it;
                # emptied, the search plugin's per-page rewrite of it (a regex over the
                # whole HTML of every page, a tenth of a rebuild) has nothing to scan. A
                # hand-written page keeps it: the theme's search indexes its sections.
                if self.published is not None and file.src_uri in self.published.pages:
                    file.page.content = ""
                self._replayed[file.src_uri] = finished
        self._nav_key = nav
        return env

    @event_priority(-100)
    def on_page_context(self, context: Any, *, page: Page, config: MkDocsConfig, nav: Navigation) -> Any:
        finished = self._replayed.get(page.file.src_uri)
        if finished is not None:
            context[CACHED_OUTPUT] = finished.output
        return context

    @event_priority(-100)  # last: what is remembered is what gets written
    def on_post_page(self, output: str, *, page: Page, config: MkDocsConfig) -> str:
        source = page.file.src_uri
        key = self._keys.get(source)
        generated = self.published is not None and source in self.published.pages
        remember = self.memory is not None and key is not None
        if not (generated or remember) or not output.strip():  # MkDocs writes no empty page
            return output
        replayed = self._replayed.get(source)
        finished = replayed if replayed is not None and replayed.output == output else Finished.of(output)
        if self.memory is not None and key is not None and replayed is None:
            self.memory.remember_page(key, self._nav_key, finished)
        if generated:
            self._html_sha256[source] = finished.sha256  # the build manifest lists it
        return output

    def on_build_error(self, *, error: Exception) -> None:
        self._spliced, self._restored = {}, set()
        self._lookups.stop()
        if self.memory is not None:
            self.memory.failed()

    def on_post_build(self, *, config: MkDocsConfig) -> None:
        if self.published is not None:
            # The search plugin's on_post_build has written its index (it is listed first).
            write_site_index(Path(config.site_dir), self.published.graphs, self._index)
        mark_site(Path(config.site_dir))
        pin_problems = (
            write_manifest(
                config, self.published.pages, self.published.artifacts, self._html_sha256, self._digests
            )
            if self.published
            else []
        )
        if pin_problems:
            raise PluginError("kb-records: " + "; ".join(pin_problems))
        if self.memory is not None:
            self.memory.succeeded()
        for digests in (self._digests, self._bodies):
            if digests is not None:
                digests.next_build()
        self.last_replayed = frozenset(self._replayed)  # serve: the pages printed as remembered
        self.last_restored = frozenset(self._restored)  # serve: the pages not converted again
        self._keys, self._replayed, self._spliced, self._restored = {}, {}, {}, set()
        self._html_sha256 = {}

    def on_serve(self, server: Any, *, config: MkDocsConfig, builder: Any) -> Any:
        if self.records is not None and self._watch is None:
            self._watch = RecordsWatch(server, self.records)
        return server


def _restore_conversion(page: Page, known: Converted, config: MkDocsConfig, files: Files) -> None:
    """``Page.render`` for a page whose conversion is remembered."""
    page.content = known.restore(page, files)


def _relative_posix(path: Path, start: Path) -> str:
    return Path(os.path.relpath(path.resolve(), start.resolve())).as_posix()
