"""``kbgen serve`` keeps its site folder between rebuilds and writes only the pages that changed.

MkDocs' serve builds into a folder of its own and empties it before every rebuild, then
writes every page again. At a hundred systems that is over a hundred megabytes a rebuild,
most of it pages printed as remembered (``serve_memory``): emptying the folder, stripping
and encoding each page's text and writing it took a fifth of a rebuild after a one-record
edit. So while a serve runs, emptying its site folder only notes when the build began, a
page whose output is the very one written to its file before is handed back empty (MkDocs
then skips it, and the note it logs of that is left out), and once the build is done every
file it did not write or keep is deleted, as emptying the folder would have: the folder
ends as a clean build leaves it.

MkDocs offers no hook before it empties the folder, so ``mkdocs.utils.clean_directory``
(which ``mkdocs.commands.build`` calls by that name) is replaced while a keeper is installed;
it empties any folder no keeper claims as it always did.
"""

from __future__ import annotations

import logging
import os
import tempfile
import weakref
from collections.abc import Callable
from pathlib import Path

import mkdocs.utils

from generator.mkdocs.pagecache import Finished

# What MkDocs logs of a page whose output is empty: "Page skipped: '<source>'. Generated empty output."
_SKIPPED_NOTE = "Page skipped: '"
_BUILD_LOG = "mkdocs.commands.build"


class KeptSiteFolder:
    """One serve's site folder: what was last written to each page file, and this build's start."""

    def __init__(self) -> None:
        self.folder: str | None = None
        self._since: int | None = None  # this build's start on the folder's clock (ns); None: not kept
        self._written: dict[str, Finished] = {}  # page file → the page last written to it
        self._kept: set[str] = set()  # page files left as they were by this build
        self._kept_sources: set[str] = set()  # and their pages' sources, for the log filter

    def configure(self, site_dir: str) -> None:
        """A build begins; it serves from ``site_dir``."""
        self.folder = os.path.abspath(site_dir)
        self._since = None
        self._kept, self._kept_sources = set(), set()

    def claims(self, directory: str) -> bool:
        return self.folder is not None and os.path.abspath(directory) == self.folder

    def begin(self) -> None:
        """In place of emptying the folder: note the time on the folder's own clock (a file
        made there now), which every file this build writes will be as late as or later than."""
        assert self.folder is not None
        os.makedirs(self.folder, exist_ok=True)
        handle, probe = tempfile.mkstemp(dir=self.folder, prefix=".kb-build-start-")
        try:
            self._since = os.fstat(handle).st_mtime_ns
        finally:
            os.close(handle)
            os.unlink(probe)

    def keep(self, source: str, path: str, finished: Finished) -> bool:
        """Whether the page's file already holds ``finished`` (the page is then not written)."""
        if self._since is not None and self._written.get(path) is finished and os.path.isfile(path):
            self._kept.add(path)
            self._kept_sources.add(source)
            return True
        self._written[path] = finished
        return False

    def was_kept(self, source: str) -> bool:
        return source in self._kept_sources

    @property
    def kept_pages(self) -> frozenset[str]:
        """The sources of the pages this build left as they were in the folder."""
        return frozenset(self._kept_sources)

    def sweep(self) -> list[str]:
        """Delete what this build neither wrote nor kept, as emptying the folder first would
        have (hidden entries at its top stay, as there); returns the files deleted."""
        if self._since is None or self.folder is None:
            return []
        since, deleted = self._since, []
        for top in os.scandir(self.folder):
            if top.name.startswith("."):
                continue
            if top.is_dir(follow_symlinks=False):
                deleted += self._sweep_folder(Path(top.path), since)
            elif top.stat(follow_symlinks=False).st_mtime_ns < since and top.path not in self._kept:
                os.unlink(top.path)
                deleted.append(top.path)
        gone = set(deleted)
        self._written = {path: page for path, page in self._written.items() if path not in gone}
        self._since = None
        return deleted

    def _sweep_folder(self, folder: Path, since: int) -> list[str]:
        deleted = []
        for root, folders, files in os.walk(folder, topdown=False):
            for name in files:
                path = os.path.join(root, name)
                if os.lstat(path).st_mtime_ns < since and path not in self._kept:
                    os.unlink(path)
                    deleted.append(path)
            for name in folders:
                with_path = os.path.join(root, name)
                if not os.path.islink(with_path) and not os.listdir(with_path):
                    os.rmdir(with_path)
        if not os.listdir(folder):
            os.rmdir(folder)
        return deleted


class _SkippedPages(logging.Filter):
    """Leaves out MkDocs' note of a page skipped for empty output when a keeper kept it."""

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        if not message.startswith(_SKIPPED_NOTE):
            return True
        source = message[len(_SKIPPED_NOTE) :].partition("'")[0]
        return not any(keeper.was_kept(source) for keeper in list(_KEEPERS))


_KEEPERS: weakref.WeakSet[KeptSiteFolder] = weakref.WeakSet()
_FILTER = _SkippedPages()
_emptied: Callable[[str], None] | None = None  # MkDocs' own clean_directory while replaced


def _clean_directory(directory: str) -> None:
    for keeper in list(_KEEPERS):
        if keeper.claims(directory):
            keeper.begin()
            return
    assert _emptied is not None
    _emptied(directory)


def install(keeper: KeptSiteFolder) -> None:
    """From now on, emptying the keeper's folder only notes when the build began."""
    global _emptied
    if _emptied is None:
        _emptied = mkdocs.utils.clean_directory
        mkdocs.utils.clean_directory = _clean_directory
        logging.getLogger(_BUILD_LOG).addFilter(_FILTER)
    _KEEPERS.add(keeper)


def uninstall(keeper: KeptSiteFolder) -> None:
    global _emptied
    _KEEPERS.discard(keeper)
    if not _KEEPERS and _emptied is not None:
        # setattr: mypy holds the attribute to the function, the saved one is typed as a callable
        setattr(mkdocs.utils, "clean_directory", _emptied)  # noqa: B010
        logging.getLogger(_BUILD_LOG).removeFilter(_FILTER)
        _emptied = None
