"""A one-shot build's per-page MkDocs work on two cores.

MkDocs converts every page (``_populate_page``) in one loop and themes every page
(``_build_page``) in another, on one core. In a one-shot build of ``PARALLEL_FROM``
generated pages or more, each loop gets one forked child. The generated pages are shared
from both ends (``SharedEnds``): the build takes them in its order from the first, the
child from the last backwards, and whoever reaches a page first does it, so the two end
together however the machine shares its cores between them. The child sends back what
``kbgen serve`` already knows how to stand in for the work:

* **converting**: forked when the navigation is built (the last event before MkDocs'
  conversion loop), the child converts its pages exactly as ``_populate_page`` does,
  every plugin's hooks included, and sends each page's ``pagecache.Converted``, taken
  as soon as the raw blocks are spliced back (every later ``on_page_content`` hook then
  runs in the build, once). When the build's loop reaches a page the child took, it
  takes the results, and ``page.render`` restores each page's (as in serve);
* **theming**: planned once every page is converted (``on_env``, the last event before
  MkDocs' theming loop) and forked when the build themes its first page, after the
  theme's static pages (so it inherits the theme's templates compiled), the child runs
  the ``on_page_context`` hooks and the theme's template of its pages. Where the
  kb-records plugin's is the only ``on_post_page`` hook (``child_writes``), the child
  writes each page into the site folder as MkDocs' ``_build_page`` would, and sends the
  SHA-256 of the bytes (``Written``: the build manifest lists it); the build prints the
  page empty, which MkDocs skips (its note that it did is left out of the log), so no
  page's megabytes cross the pipe and are written a second time. With another plugin's
  ``on_post_page`` hook, which may keep what it sees, the child sends each page's output
  and the build prints it through ``CACHED_TEMPLATE`` (as serve prints a remembered
  page), so that hook and the write of every page happen in the build.

Only generated pages go to a child: hand-written pages pass through the macros plugin,
whose state lives in the build. A page for which the child logged anything the build
would show (at least WARNING, or the level the build's log prints from when lower), or
raised, or that the child never sent, is converted or themed in the build as if there
were no child, so ``--strict`` and the messages are the same as on one core. A child
prints nothing, writes nothing but the pages it themed (and only when ``child_writes``)
and ends with ``os._exit``. ``kbgen serve`` (which has ``ServeMemory``) and a process
that may not fork (``util.forking.forkable``) do every page in the build itself.
"""

from __future__ import annotations

import hashlib
import logging
import warnings
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from jinja2 import Environment
from mkdocs.commands.build import _populate_page, get_context
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.files import File, Files, InclusionLevel
from mkdocs.structure.nav import Navigation
from mkdocs.structure.pages import Page
from mkdocs.utils import write_file

from generator.mkdocs.pagecache import CACHED_OUTPUT, CACHED_TEMPLATE, THEME_DIR, Converted, restore_on_render
from generator.util.forking import Child, TwoEnds, fork_child, forkable, two_ends

# Generated pages from which a build forks: below it, forking and sending the pages back
# costs about what the second core saves.
PARALLEL_FROM = 24


class SharedEnds:
    """The generated pages of one loop shared between the build and its child
    (``util.forking.TwoEnds``): the build takes them in its order from the first, the child
    from the last backwards, until they meet; the child never takes the first page."""

    def __init__(self, pages: Sequence[Page], ends: TwoEnds) -> None:
        self.pages = list(pages)
        self._index = {page.file.src_uri: at for at, page in enumerate(self.pages)}
        self._ends = ends

    @classmethod
    def of(cls, pages: Sequence[Page]) -> SharedEnds | None:
        """The pages shared, or None where processes cannot share a lock here."""
        ends = two_ends(len(pages))
        return cls(pages, ends) if ends is not None else None

    def build_takes(self, source: str) -> bool | None:
        """Whether the build does the page itself; ``None``: not a shared page. The build
        asks for its pages in their order; once the child has a page, it has the rest."""
        at = self._index.get(source)
        return None if at is None else self._ends.build_takes(at)

    def child_pages(self) -> Iterator[Page]:
        """In the child: its pages from the last backwards, each taken as it is reached,
        while the build has not taken it."""
        return map(self.pages.__getitem__, self._ends.child_items())


def shown_from() -> int:
    """The lowest level a log record is printed at by a handler of this process (WARNING at
    most: ``--strict`` counts warnings)."""
    loggers = [logging.getLogger(), *logging.Logger.manager.loggerDict.values()]
    levels = [
        handler.level
        for logger in loggers
        if isinstance(logger, logging.Logger)
        for handler in logger.handlers
    ]
    return min([logging.WARNING, *levels])


class _Noted(logging.Handler):
    """A child's only log handler: notes that the current page logged something the build
    would show, and prints nothing."""

    def __init__(self, level: int) -> None:
        super().__init__(level)
        self.noted = False

    def emit(self, record: logging.LogRecord) -> None:
        self.noted = True


def _silence(level: int) -> _Noted:
    """Replace every log handler of a child by one that notes (Python's warnings too)."""
    noted = _Noted(level)
    root = logging.getLogger()
    for logger in [root, *logging.Logger.manager.loggerDict.values()]:
        if isinstance(logger, logging.Logger):
            ends = logger is root or not logger.propagate
            logger.handlers = [noted] if ends else []
    logging.lastResort = noted

    def note_warning(*args: object, **kwargs: object) -> None:
        noted.noted = True

    warnings.showwarning = note_warning
    return noted


def _fork(work: Callable[[_Noted], dict[str, Any]]) -> Child:
    """Run ``work`` in a forked child that prints nothing, notes what it would have logged,
    and sends back what ``work`` returns."""
    level = shown_from()
    return fork_child(lambda: work(_silence(level)))


@dataclass(frozen=True)
class Written:
    """A page the theming child wrote into the site folder: the SHA-256 of its bytes."""

    sha256: str


def write_page(page: Page, output: str) -> Written | None:
    """Write a themed page's output as MkDocs' ``_build_page`` writes it; None where the
    build must see to the page itself (MkDocs writes no blank page; the write failed)."""
    if not output or output.isspace():
        return None
    data = output.encode("utf-8", errors="xmlcharrefreplace")
    try:
        write_file(data, page.file.abs_dest_path)
    except OSError:
        return None
    return Written(hashlib.sha256(data).hexdigest())


class _SkippedNotLogged(logging.Filter):
    """Leaves out MkDocs' note that it skipped a page the theming child wrote (the build
    prints such a page empty, and MkDocs skips an empty page)."""

    def __init__(self, written: Mapping[str, str]) -> None:
        super().__init__()
        self.written = written

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        if not message.startswith("Page skipped: '"):
            return True
        return message[len("Page skipped: '") :].partition("'")[0] not in self.written


# MkDocs' logger of its build loop, where a skipped page is noted.
_BUILD_LOG = logging.getLogger("mkdocs.commands.build")


def theme_page(
    page: Page, config: MkDocsConfig, doc_files: Sequence[File], nav: Navigation, env: Environment
) -> str:
    """What MkDocs' ``_build_page`` renders of a page, before ``on_post_page`` and the write."""
    config._current_page = page
    page.active = True
    try:
        context = get_context(nav, doc_files, config, page)
        template = env.get_template(page.meta.get("template", "main.html"))
        context = config.plugins.on_page_context(context, page=page, config=config, nav=nav)
        return template.render(context)
    finally:
        page.active = False
        config._current_page = None


class ParallelPages:
    """The build's side of the two children: forks them, takes their results, and stands
    them in for the pages' work (see the module note)."""

    def __init__(self, enabled: bool = False) -> None:
        self.enabled = enabled  # a one-shot build
        self._nav: Navigation | None = None
        self._child: Child | None = None
        self._deferred: Callable[[_Noted], dict[str, Any]] | None = None  # the theming child's work
        self._converting: SharedEnds | None = None  # the pages shared with the conversion child
        self._converted: dict[str, Converted] | None = None  # what it sent, once taken
        self._spliced: dict[str, Converted] | None = None  # in the conversion child: each page
        self._theming: dict[str, str] = {}  # the pages the theming child may theme → their template
        self._theming_ends: SharedEnds | None = None
        self._themed: dict[str, str | Written] | None = None  # what it sent, once taken
        self._env: Environment | None = None
        # The pages the child wrote and the build prints empty → the SHA-256 of what was written.
        self._written: dict[str, str] = {}
        self._skipped_filter = _SkippedNotLogged(self._written)
        # The pages whose child's work stood in (for tests and measurements).
        self.converted_elsewhere: list[str] = []
        self.themed_elsewhere: list[str] = []

    def configure(self, config: MkDocsConfig) -> None:
        """A build begins: CACHED_TEMPLATE joins the theme (last: it never shadows a template)."""
        self.stop()
        self._nav, self._env = None, None
        self._converting, self._converted, self._theming, self._themed = None, None, {}, None
        self._theming_ends = None
        self._written.clear()
        self.converted_elsewhere, self.themed_elsewhere = [], []
        if self.enabled and str(THEME_DIR) not in config.theme.dirs:
            config.theme.dirs.append(str(THEME_DIR))

    def _generated(self, files: Files, generated: Mapping[str, str]) -> list[Page]:
        return [
            file.page
            for file in files.documentation_pages(inclusion=InclusionLevel.is_included)
            if file.src_uri in generated and file.page is not None
        ]

    # ------------------------------------------------------------------ converting

    def fork_conversion(
        self, nav: Navigation, config: MkDocsConfig, files: Files, generated: Mapping[str, str]
    ) -> None:
        """The navigation is built and MkDocs converts the pages next: fork the child that
        converts the generated pages from the last backwards."""
        self._nav = nav
        pages = self._generated(files, generated)
        if not self.enabled or len(pages) < PARALLEL_FROM or not forkable():
            return
        ends = SharedEnds.of(pages)
        if ends is None:
            return

        def convert(noted: _Noted) -> dict[str, Any]:
            self._converting, self._spliced = None, {}
            done: dict[str, Converted] = {}
            for page in ends.child_pages():
                noted.noted = False
                try:
                    _populate_page(page, config, files)
                except Exception:
                    break  # the build converts this page and the rest, and says why
                known = self._spliced.pop(page.file.src_uri, None)
                if known is not None and not noted.noted:
                    done[page.file.src_uri] = known
            return done

        self._child = _fork(convert)
        self._converting = ends
        self._converted = None

    def spliced(self, page: Page, html: str) -> None:
        """A page's raw blocks are back in its HTML: the conversion child keeps what it sends."""
        if self._spliced is not None:
            self._spliced[page.file.src_uri] = Converted.of(html, page)

    def stands_in(self, page: Page) -> bool:
        """Whether the child's conversion stands in for converting the page (``page.render``
        then restores it); the first of the child's pages takes its results."""
        source = page.file.src_uri
        if self._converting is None or self._converting.build_takes(source) is not False:
            return False
        if self._converted is None:
            self._converted = self._take()
        known = self._converted.pop(source, None)
        if known is None:
            return False
        restore_on_render(page, known)
        self.converted_elsewhere.append(source)
        return True

    # ------------------------------------------------------------------ theming

    def fork_theming(
        self,
        env: Environment,
        config: MkDocsConfig,
        files: Files,
        generated: Mapping[str, str],
        child_writes: bool = False,
    ) -> None:
        """Every page is converted and MkDocs themes them next: plan the child that themes
        the generated pages from the last backwards; the build prints them through
        CACHED_TEMPLATE. With ``child_writes`` (no ``on_post_page`` hook but the kb-records
        plugin's), the child writes its pages itself."""
        self.stop()
        pages = self._generated(files, generated)
        nav = self._nav
        if not self.enabled or nav is None or len(pages) < PARALLEL_FROM or not forkable():
            return
        ends = SharedEnds.of(pages)
        if ends is None:
            return
        doc_files = files.documentation_pages(inclusion=InclusionLevel.is_included)

        def theme(noted: _Noted) -> dict[str, Any]:
            templates, self._theming = self._theming, {}
            # Forked while the build themes its first page: that page is not this child's.
            building = config._current_page
            if building is not None:
                building.active = False
            done: dict[str, str | Written] = {}
            for page in ends.child_pages():
                page.meta["template"] = templates[page.file.src_uri]  # the build prints it
                noted.noted = False
                try:
                    output = theme_page(page, config, doc_files, nav, env)
                except Exception:
                    break  # the build themes this page and the rest, and says why
                if noted.noted:
                    continue
                written = write_page(page, output) if child_writes else None
                if written is not None or not child_writes:
                    done[page.file.src_uri] = written or output
            return done

        # Forked when the first page is themed: by then the build has rendered the theme's
        # static pages (404.html extends main.html), and the child inherits the theme's
        # templates compiled instead of compiling them a second time.
        self._deferred = theme
        self._env, self._themed, self._theming_ends = env, None, ends
        # MkDocs looks a page's template up before its context hooks, where the build learns
        # whether the child has the page: every page the child may theme is printed through
        # CACHED_TEMPLATE, which prints the page's own template rendered here when the
        # build themes it (``page_context``).
        for page in pages[1:]:
            self._theming[page.file.src_uri] = page.meta.get("template", "main.html")
            page.meta["template"] = CACHED_TEMPLATE
        if child_writes:
            _BUILD_LOG.addFilter(self._skipped_filter)

    def before_context(self, page: Page) -> None:
        """A page's ``on_page_context`` hooks begin: the first of the child's pages takes its
        results. A page the child themed hands the search plugin no content (as a page
        serve prints as remembered): its per-page rewrite of it has nothing to scan."""
        work, self._deferred = self._deferred, None
        if work is not None and forkable():
            self._child = _fork(work)
        source = page.file.src_uri
        if source not in self._theming:
            return
        ends = self._theming_ends
        if ends is not None and ends.build_takes(source):
            page.meta["template"] = self._theming[source]
            return
        if self._themed is None:
            self._themed = self._take()
        if source in self._themed:
            page.content = ""
        else:
            page.meta["template"] = self._theming[source]

    def page_context(self, context: Any, page: Page) -> Any:
        """The last ``on_page_context`` hook: CACHED_TEMPLATE prints the child's output, or,
        for a page the child did not theme, the theme's template rendered here."""
        source = page.file.src_uri
        template = self._theming.pop(source, None)
        if template is None:
            return context
        output = self._themed.pop(source, None) if self._themed is not None else None
        if output is None:
            assert self._env is not None
            output = self._env.get_template(template).render(context)
        else:
            self.themed_elsewhere.append(source)
        if isinstance(output, Written):
            self._written[source] = output.sha256
            output = ""  # written: MkDocs skips an empty page
        context[CACHED_OUTPUT] = output
        return context

    def written_elsewhere(self, page: Page) -> str | None:
        """The SHA-256 of the page as the theming child wrote it; None if it did not."""
        return self._written.get(page.file.src_uri)

    @property
    def written(self) -> list[str]:
        """The pages the theming child wrote, in the order the build reached them."""
        return list(self._written)

    # ------------------------------------------------------------------ the children

    def _take(self) -> dict[str, Any]:
        child, self._child = self._child, None
        found = child.take({}) if child is not None else {}
        return found if isinstance(found, dict) else {}

    def stop(self) -> None:
        """The build ends or fails: a child still running is stopped."""
        self._deferred = None
        _BUILD_LOG.removeFilter(self._skipped_filter)
        if self._child is not None:
            self._child.abandon()
            self._child = None
