"""The MkDocs plugin: each event hands off to the collaborator that does one job.

* ``RecordPublisher`` (``publishing.py``): the check each build starts with, the
  generated pages and downloads as virtual files, the record macros;
* ``RawHtmlSplicer`` (``splice.py``): a generated page's raw HTML blocks kept out of
  Python-Markdown and put back after it;
* ``DirectPages`` (``direct.py``): what is left of such a page, when it is only headings,
  converted without Python-Markdown;
* ``ServeMemory`` (``serve_memory.py``, in ``serve`` only): what rebuilds reuse;
* ``ParallelPages`` (``parallel_pages.py``, in a one-shot build only): the generated
  pages' conversion and theming shared with a forked child;
* ``SiteOutputs`` (``site_outputs.py``): the record index, the site marker and the
  build manifest, written after MkDocs;
* ``site_guard.py``: the site folder is never a source; ``nav.py``: the 'Systems'
  section of the navigation; ``watch.py``: serve's watch of the records folder.

Generated pages stay out of mkdocs-material's page index in every build: the record
index replaces it.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from mkdocs.config import config_options as c
from mkdocs.config.base import Config
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.plugins import BasePlugin, CombinedEvent, event_priority
from mkdocs.structure.files import Files
from mkdocs.structure.nav import Navigation
from mkdocs.structure.pages import Page

from generator.mkdocs import kept_site, nav_memo
from generator.mkdocs.direct import DirectPages
from generator.mkdocs.macros import RecordMacros
from generator.mkdocs.pagecache import Finished
from generator.mkdocs.parallel_pages import ParallelPages
from generator.mkdocs.publishing import RecordPublisher, require_config
from generator.mkdocs.serve_memory import ServeMemory
from generator.mkdocs.site_guard import guard_site_dir
from generator.mkdocs.site_outputs import SiteOutputs
from generator.mkdocs.splice import RawHtmlSplicer
from generator.outputs.export import site_exports
from generator.pipeline import PipelineResult
from generator.render.environment import cache_templates_outside
from generator.util.template_cache import caching

if TYPE_CHECKING:
    from generator.mkdocs.watch import RecordsWatch


class RecordsConfig(Config):
    records_dir = c.Type(str, default="records")
    max_diagnostics = c.Type(int, default=50)
    # The records' warnings fail the build too, as they fail 'kbgen check --strict'.
    strict_records = c.Type(bool, default=False)


class RecordsPlugin(BasePlugin[RecordsConfig]):
    """Turns records/<system>/ into result, memory-report, review and system pages."""

    def __init__(self) -> None:
        self.command: str = "build"
        self.records: Path | None = None
        self.publisher = RecordPublisher()
        self.splicer = RawHtmlSplicer()
        self.memory: ServeMemory | None = None  # serve only
        self.direct: DirectPages | None = None  # generated pages MkDocs need not convert
        self.parallel = ParallelPages()
        self.outputs = SiteOutputs()
        self._watch: RecordsWatch | None = None
        self._hidden: dict[str, str] = {}  # generated pages' HTML while the search plugin runs

    @property
    def result(self) -> PipelineResult | None:
        """The latest check of the records, errors or not."""
        return self.publisher.result

    def records_folder(self, config: MkDocsConfig) -> Path:
        """The records folder: ``records_dir`` relative to the configuration file's folder."""
        base = Path(config.config_file_path or ".").resolve().parent
        records = Path(self.config.records_dir)
        return records if records.is_absolute() else base / records

    def macros_for(self, env: Any) -> RecordMacros:
        """The record macros of hand-authored pages (``generator.mkdocs.macros.define_env`` asks)."""
        return self.publisher.macros_for(env)

    def on_startup(self, *, command: Literal["build", "gh-deploy", "serve"], dirty: bool) -> None:
        # Defining on_startup keeps this instance across the rebuilds of one serve.
        self.command = command
        self.publisher = RecordPublisher(serving=command == "serve")
        if self.memory is not None:
            kept_site.uninstall(self.memory.site)
            self.memory.front_matter.uninstall()
        self.memory = ServeMemory() if command == "serve" else None
        if self.memory is not None:
            kept_site.install(self.memory.site)
            self.memory.front_matter.install()
        self.splicer.remember(command == "serve")
        self.parallel = ParallelPages(enabled=command != "serve")

    def on_shutdown(self) -> None:
        self.parallel.stop()
        if self.memory is not None:
            kept_site.uninstall(self.memory.site)
            self.memory.front_matter.uninstall()
        if self._watch is not None:
            self._watch.stop()
            self._watch = None

    @event_priority(100)  # first: the search plugin's configuration renders theme templates
    def _cache_theme_templates(self, config: MkDocsConfig) -> MkDocsConfig:
        # Every environment the theme makes this build (MkDocs' own, and the search
        # plugin's for its translations) and the page templates' keep their compiled
        # templates in the machine's cache, unless it is inside the project or its records.
        untrusted = (Path(config.config_file_path or ".").resolve().parent, self.records_folder(config))
        cache_templates_outside(untrusted)
        config.theme.get_env = caching(config.theme.get_env, untrusted)  # type: ignore[method-assign]
        return config

    def _configure(self, config: MkDocsConfig) -> MkDocsConfig:
        require_config(config)
        self.records = self.records_folder(config)
        if self.command != "serve":  # serve builds into a temporary folder of its own
            guard_site_dir(config, self.records)
        self.splicer.reset()
        self.outputs.reset()
        self.direct = DirectPages(config)
        self.parallel.configure(config)
        if self.memory is not None:
            self.memory.configure(config)
        systems = self.memory.systems if self.memory is not None else None
        # A build: the record index and export parts come with the pages (serve keeps its own).
        alongside = self.outputs.per_system_parts() if self.memory is None else ()
        self.publisher.publish(
            self.records, systems, self.config.max_diagnostics, alongside, strict=self.config.strict_records
        )
        return self.publisher.configure_site(config)

    on_config = CombinedEvent(_cache_theme_templates, _configure)

    def on_files(self, files: Files, *, config: MkDocsConfig) -> Files:
        assert self.publisher.published is not None
        memory = self.memory
        # The downloads linked from the comparison page, built from the same pages.
        downloads = site_exports(
            self.publisher.published,
            memory.exports if memory is not None else self.outputs.export_parts,
            memory.digests if memory is not None else None,
        )
        return self.publisher.add_files(files, config, downloads)

    @event_priority(-100)  # last: the key is the Markdown every other plugin has seen
    def on_page_markdown(self, markdown: str, *, page: Page, config: MkDocsConfig, files: Files) -> str:
        source = page.file.src_uri
        generated = self.publisher.is_generated(source)
        if generated:
            # The record index makes generated pages findable; mkdocs-material's page
            # index, which would parse every page's HTML, leaves them out.
            page.meta["search"] = {**(page.meta.get("search") or {}), "exclude": True}
        # serve: a hand-written page is remembered like a generated one, under the Markdown
        # the macros plugin expanded (what it shows of the records is in that Markdown).
        if self.memory is not None and self.memory.before_conversion(page, markdown, files):
            return markdown
        if not generated:
            return markdown
        if self.parallel.stands_in(page):  # converted by a forked child
            return markdown
        taken_out = self.splicer.take_out(source, markdown)
        if self.splicer.enabled and self.direct is not None:
            return self.direct.stand_in(page, taken_out, self.splicer.marker_of(source))
        return taken_out

    @event_priority(100)  # first: every other plugin sees the whole page
    def _splice_content(self, html: str, *, page: Page, config: MkDocsConfig, files: Files) -> str:
        html, page.present_anchor_ids = self.splicer.put_back(
            page.file.src_uri, html, page.present_anchor_ids
        )
        self.parallel.spliced(page, html)
        return html

    @event_priority(-100)
    def _check_and_remember_content(
        self, html: str, *, page: Page, config: MkDocsConfig, files: Files
    ) -> str:
        self.publisher.raise_macro_problems()
        if self.memory is not None:
            self.memory.after_conversion(page, html)
        return html

    on_page_content = CombinedEvent(_splice_content, _check_and_remember_content)

    @event_priority(-100)  # last: MkDocs converts the pages next, and a child forks here
    def on_nav(self, nav: Navigation, *, config: MkDocsConfig, files: Files) -> Navigation:
        if self.memory is not None:
            self.memory.nav_built(nav)
        if self.publisher.published is not None:
            self.parallel.fork_conversion(nav, config, files, self.publisher.published.pages)
        return nav

    @event_priority(-100)  # last: MkDocs themes the pages next, and a child forks here
    def on_env(self, env: Any, *, config: MkDocsConfig, files: Files) -> Any:
        nav_memo.install(env)
        if self.memory is not None and self.publisher.published is not None:
            self.memory.pick_replayed(env, files, self.publisher.published.pages)
        if self.publisher.published is not None:
            # Another plugin's on_post_page hook sees every page in the build: the child sends them.
            hooks = config.plugins.events["post_page"]
            child_writes = all(getattr(hook, "__self__", None) is self for hook in hooks)
            self.parallel.fork_theming(env, config, files, self.publisher.published.pages, child_writes)
        return env

    @event_priority(100)  # first: what the other plugins see of a page a child themed
    def _take_themed(self, context: Any, *, page: Page, config: MkDocsConfig, nav: Navigation) -> Any:
        self.parallel.before_context(page)
        return context

    # mkdocs-material's search plugin (priority 0) runs a pattern over the whole HTML of
    # every page it is handed, index or not, to drop its own attributes, which no
    # generated page has: at a hundred systems, a second and a half of a build. A generated
    # page, which its index leaves out, reaches it empty and gets its HTML back after.
    @event_priority(1)
    def _hide_from_page_index(
        self, context: Any, *, page: Page, config: MkDocsConfig, nav: Navigation
    ) -> Any:
        if page.content and self.publisher.is_generated(page.file.src_uri):
            self._hidden[page.file.src_uri] = page.content
            page.content = ""
        return context

    @event_priority(-1)
    def _show_after_page_index(
        self, context: Any, *, page: Page, config: MkDocsConfig, nav: Navigation
    ) -> Any:
        hidden = self._hidden.pop(page.file.src_uri, None)
        if hidden is not None:
            page.content = hidden
        return context

    @event_priority(-100)
    def _print_known(self, context: Any, *, page: Page, config: MkDocsConfig, nav: Navigation) -> Any:
        if self.memory is not None:
            return self.memory.page_context(context, page)
        return self.parallel.page_context(context, page)

    on_page_context = CombinedEvent(_take_themed, _hide_from_page_index, _show_after_page_index, _print_known)

    @event_priority(-100)  # last: what is remembered is what gets written
    def on_post_page(self, output: str, *, page: Page, config: MkDocsConfig) -> str:
        written = self.parallel.written_elsewhere(page)
        if written is not None:  # the theming child wrote it; printed empty, MkDocs skips it
            self.outputs.page_written(page.file.src_uri, written)
            return ""
        generated = self.publisher.is_generated(page.file.src_uri)
        remembered = self.memory is not None and self.memory.remembers(page)
        # MkDocs writes no page of whitespace only (``isspace`` stops at the first letter,
        # where ``strip`` would copy a page of megabytes).
        if not (generated or remembered) or not output or output.isspace():
            return output
        finished = self.memory.finished(page, output) if self.memory is not None else Finished.of(output)
        if generated:
            self.outputs.page_written(page.file.src_uri, finished.sha256)  # the manifest lists it
        if self.memory is not None and self.memory.on_disk(page, finished):
            return ""  # the served folder holds it already: MkDocs skips an empty page
        return output

    def on_build_error(self, *, error: Exception) -> None:
        self.parallel.stop()
        self.splicer.reset()
        # A page whose theming failed between hiding and giving back its HTML leaves none
        # behind for a page of the same name in the next build.
        self._hidden = {}
        if self.memory is not None:
            self.memory.build_failed()

    def _write_outputs(self, *, config: MkDocsConfig) -> None:
        self.parallel.stop()
        memory = self.memory
        self.outputs.write(
            config,
            self.publisher.published,
            memory.index if memory is not None else self.outputs.index_parts,
            memory.digests if memory is not None else None,
        )
        if memory is not None:
            memory.build_succeeded()
        self.splicer.reset()

    @event_priority(-100)  # last: every plugin has written what it writes
    def _sweep_served_folder(self, *, config: MkDocsConfig) -> None:
        if self.memory is not None:
            self.memory.site.sweep()

    on_post_build = CombinedEvent(_write_outputs, _sweep_served_folder)

    def on_serve(self, server: Any, *, config: MkDocsConfig, builder: Any) -> Any:
        # Imported here: a one-shot build needs neither the live-reload server nor watchdog.
        from generator.mkdocs.watch import RecordsWatch

        if self.records is not None and self._watch is None:
            self._watch = RecordsWatch(server, self.records)
        return server
