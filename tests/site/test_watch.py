"""kbgen serve's file events: a change is an event, reading a file is not (MkDocs rebuilds on
any event it is handed, so a build reading the records would start the next build)."""

from __future__ import annotations

import contextlib
import queue
import time
from pathlib import Path

from watchdog.events import FileSystemEvent, FileSystemEventHandler

from generator.mkdocs.watch import EventWatchingServer, _ChangeObserver, event_watching


class _Collect(FileSystemEventHandler):
    def __init__(self) -> None:
        self.events: queue.Queue[FileSystemEvent] = queue.Queue()

    def on_any_event(self, event: FileSystemEvent) -> None:
        self.events.put(event)


def _drain(events: queue.Queue[FileSystemEvent], seconds: float) -> list[FileSystemEvent]:
    found, deadline = [], time.monotonic() + seconds
    while time.monotonic() < deadline:
        with contextlib.suppress(queue.Empty):
            found.append(events.get(timeout=0.05))
    return found


def test_reading_is_no_change_and_writing_is(tmp_path: Path) -> None:
    record = tmp_path / "records.yaml"
    record.write_text("routes: []\n", encoding="utf-8")
    handler, observer = _Collect(), _ChangeObserver()
    observer.schedule(handler, str(tmp_path), recursive=True)
    observer.start()
    try:
        _drain(handler.events, 0.3)
        for _ in range(3):
            record.read_text(encoding="utf-8")
        assert _drain(handler.events, 0.5) == []
        record.write_text("routes: [x]\n", encoding="utf-8")
        changed = _drain(handler.events, 1.0)
        assert any(event.src_path == str(record) and not event.is_directory for event in changed)
    finally:
        observer.stop()
        observer.join()


def test_serve_builds_the_event_watching_server_unless_polling() -> None:
    import mkdocs.commands.serve as serve_module

    original = serve_module.LiveReloadServer
    with event_watching():
        assert serve_module.LiveReloadServer is EventWatchingServer
    assert serve_module.LiveReloadServer is original
    with event_watching(enabled=False):
        assert serve_module.LiveReloadServer is original


def test_serve_offers_polling(kbgen) -> None:
    result = kbgen("serve", "--help")
    assert "--poll" in result.out
