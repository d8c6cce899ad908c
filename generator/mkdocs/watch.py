"""How ``kbgen serve`` notices edits.

MkDocs' live-reload server polls every watched folder twice a second. At a hundred
systems, walking the records folder costs CPU the rebuild running beside it needs, and
an edit waits up to half a second to be seen. ``kbgen serve`` therefore gives the server
the system's file events (watchdog's native observer: inotify on Linux) unless asked to
``--poll``.

A watch of a folder stops for good once the folder disappears (a rename away and back,
a checkout that recreates it), and MkDocs ignores folder events. A light non-recursive
watch of the parent folder notices the records folder coming back and registers the
records watch again through the server's public ``watch``/``unwatch``.
"""

from __future__ import annotations

import contextlib
import logging
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from mkdocs.livereload import LiveReloadServer
from watchdog.events import (
    DirCreatedEvent,
    DirDeletedEvent,
    DirModifiedEvent,
    DirMovedEvent,
    FileClosedEvent,
    FileCreatedEvent,
    FileDeletedEvent,
    FileModifiedEvent,
    FileMovedEvent,
    FileSystemEvent,
    FileSystemEventHandler,
)
from watchdog.observers import Observer
from watchdog.observers.polling import PollingObserver

log = logging.getLogger("mkdocs.plugins.kb-records")

POLL_SECONDS = 0.5


class _Reappearance(FileSystemEventHandler):
    """Watches the records' parent: a rename, deletion or creation there may replace the folder."""

    def __init__(self, keeper: RecordsWatch) -> None:
        self.keeper = keeper

    def on_any_event(self, event: FileSystemEvent) -> None:
        records, parent = str(self.keeper.records), str(self.keeper.records.parent)
        paths = {str(event.src_path), str(getattr(event, "dest_path", "") or "")}
        # The records folder merely modified (a file added in it) is the records watch's business;
        # the parent modified means its entries changed, even when a quick rename-and-back
        # left no other trace for this poll to see.
        replaced = records in paths and event.event_type != "modified"
        if replaced or (event.src_path == parent and event.event_type == "modified"):
            self.keeper.rewatch()


class RecordsWatch:
    """The server's watch of one records folder, renewed whenever the folder reappears."""

    def __init__(self, server: Any, records: Path) -> None:
        self.server = server
        self.records = records.absolute()
        self._lock = threading.Lock()
        self._observer = PollingObserver(timeout=POLL_SECONDS)
        server.watch(str(self.records))
        self._observer.schedule(_Reappearance(self), str(self.records.parent), recursive=False)
        self._observer.daemon = True
        self._observer.start()

    def rewatch(self) -> None:
        """Renew the watch: MkDocs' watch of a folder that vanished for a moment is dead."""
        with self._lock:
            if not self.records.is_dir():
                return  # gone: watched again when it comes back
            self.server.unwatch(str(self.records))
            self.server.watch(str(self.records))
        log.debug(f"kb-records: watching {self.records} again")

    def stop(self) -> None:
        self._observer.stop()


# The events that mean a change. Opening and closing a file unwritten are events too, and
# MkDocs rebuilds on any file event: a build reading the records would start the next one.
CHANGES: list[type[FileSystemEvent]] = [
    FileCreatedEvent,
    FileModifiedEvent,
    FileDeletedEvent,
    FileMovedEvent,
    FileClosedEvent,
    DirCreatedEvent,
    DirModifiedEvent,
    DirDeletedEvent,
    DirMovedEvent,
]


class _ChangeObserver(Observer):  # type: ignore[misc,valid-type]  # the platform's native observer
    """Watches for changes only, whatever the caller asks for."""

    def schedule(self, event_handler: Any, path: Any, **options: Any) -> Any:
        return super().schedule(event_handler, path, **{**options, "event_filter": CHANGES})


class EventWatchingServer(LiveReloadServer):
    """MkDocs' live-reload server, with the system's file events instead of its polling
    observer (replaced before anything is watched)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.observer = _ChangeObserver()  # any watchdog observer serves


@contextlib.contextmanager
def event_watching(enabled: bool = True) -> Iterator[None]:
    """While ``mkdocs.commands.serve.serve`` runs, make it build ``EventWatchingServer``
    (it constructs its server by this module-level name)."""
    import mkdocs.commands.serve as serve_module

    if not enabled:
        yield
        return
    original = serve_module.LiveReloadServer
    serve_module.LiveReloadServer = EventWatchingServer  # type: ignore[misc]
    try:
        yield
    finally:
        serve_module.LiveReloadServer = original  # type: ignore[misc]
