"""Keep ``mkdocs serve`` watching the records folder when the folder itself is replaced.

MkDocs' polling watch of a folder stops for good once the folder disappears (a rename
away and back, a checkout that recreates it), and it ignores folder events. A light
non-recursive watch of the parent folder notices the records folder coming back and
registers the records watch again through the server's public ``watch``/``unwatch``.
"""

from __future__ import annotations

import logging
import threading
from pathlib import Path
from typing import Any

from watchdog.events import FileSystemEvent, FileSystemEventHandler
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
