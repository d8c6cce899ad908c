"""Live preview: ``kbgen serve`` rebuilds on record edits, reloads the open page, lists new
systems in the navigation and, while the records have errors, keeps the last good page.
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from browser_support import REPO_ROOT, run_kbgen

pytestmark = pytest.mark.browser

MEMORY_REPORT = "systems/decapod/memory-report/"
ROUTES = Path("decapod") / "routes.yaml"
RECORD = "mem-rte-knowledge-store"
LABEL = "label: Knowledge admission and requested retrieval"
PROSE = "progression: 'CLI add or RPC knowledge upsert"
START_TIMEOUT = 60.0
CHANGE_TIMEOUT = 30.0
LAST_GOOD = "kb-records: showing the last good pages"


def expect(target: Any) -> Any:
    from playwright.sync_api import expect as playwright_expect

    return playwright_expect(target)


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _get(url: str, timeout: float) -> tuple[int, str]:
    with urllib.request.urlopen(url, timeout=timeout) as response:
        return response.status, response.read().decode("utf-8", "replace")


def _poll(condition: Callable[[], bool], timeout: float, interval: float = 0.25) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(interval)
    return condition()


@dataclass
class LiveServer:
    process: subprocess.Popen[bytes]
    url: str
    records: Path
    log: Path

    def output(self) -> str:
        return self.log.read_text(encoding="utf-8", errors="replace")

    def edit(self, old: str, new: str) -> None:
        path = self.records / ROUTES
        text = path.read_text(encoding="utf-8")
        assert text.count(old) == 1, f"{old!r} is not in {path} exactly once"
        path.write_text(text.replace(old, new), encoding="utf-8")

    def wait_for_output(self, needle: str, after: int, timeout: float = CHANGE_TIMEOUT) -> str:
        found = _poll(lambda: needle in self.output()[after:], timeout)
        assert found, f"{needle!r} not in the server output within {timeout:.0f}s:\n{self.output()[after:]}"
        return self.output()[after:]


def _start(records: Path, log: Path) -> LiveServer:
    env = {k: v for k, v in os.environ.items() if k != "KBGEN_RECORDS"}
    env.update(PYTHONUNBUFFERED="1", NO_MKDOCS_2_WARNING="1", COLUMNS="200")
    for _attempt in range(3):  # a free port can be taken between probe and bind
        port = _free_port()
        command = [sys.executable, "-m", "generator.cli.main", "serve", "--records", str(records)]
        command += ["--dev-addr", f"127.0.0.1:{port}"]
        with log.open("wb") as sink:
            process = subprocess.Popen(
                command, cwd=REPO_ROOT, env=env, stdout=sink, stderr=subprocess.STDOUT, start_new_session=True
            )
        server = LiveServer(process, f"http://127.0.0.1:{port}", records, log)
        deadline = time.monotonic() + START_TIMEOUT
        while time.monotonic() < deadline and process.poll() is None:
            try:
                if _get(f"{server.url}/", timeout=2)[0] == 200:
                    return server
            except (OSError, urllib.error.URLError):
                time.sleep(0.25)
        if process.poll() is None:
            _stop(process)
            pytest.fail(f"kbgen serve did not answer within {START_TIMEOUT:.0f}s:\n{server.output()}")
        if "Address already in use" not in server.output():
            pytest.fail(f"kbgen serve exited with {process.returncode}:\n{server.output()}")
    pytest.fail("kbgen serve found no free port in three attempts")


def _stop(process: subprocess.Popen[bytes]) -> None:
    """Interrupt the server's process group (MkDocs cleans up its temp site), then insist."""
    for sig, grace in ((signal.SIGINT, 10), (signal.SIGTERM, 5), (signal.SIGKILL, 5)):
        if process.poll() is not None:
            return
        try:
            os.killpg(process.pid, sig)
        except ProcessLookupError:
            return
        try:
            process.wait(timeout=grace)
            return
        except subprocess.TimeoutExpired:
            continue


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """``kbgen serve`` on a copy of records/ and a free localhost port."""
    root = tmp_path_factory.mktemp("live")
    records = root / "records"
    shutil.copytree(REPO_ROOT / "records", records)
    server = _start(records, root / "serve.log")
    try:
        yield server
    finally:
        _stop(server.process)


def test_live_preview_reloads_lists_new_systems_and_survives_errors(browsing, live):
    page = browsing.page
    record = page.locator(f'[id="{RECORD}"]')
    page.goto(f"{live.url}/{MEMORY_REPORT}")
    expect(record).to_contain_text("Knowledge admission and requested retrieval")

    # 1. An edit reloads the open page by itself and shows the change.
    marker = f"LIVE-{uuid.uuid4().hex[:10]}"
    page.evaluate("window.__kbBeforeEdit = true")
    live.edit(LABEL, f"label: Knowledge admission {marker}")
    expect(record).to_contain_text(marker, timeout=CHANGE_TIMEOUT * 1000)
    assert page.evaluate("typeof window.__kbBeforeEdit") == "undefined", "the page was not reloaded"
    assert page.url == f"{live.url}/{MEMORY_REPORT}"

    # 2. A new system folder appears in the navigation (the nav is never stale).
    slug = f"fresh-{uuid.uuid4().hex[:8]}"
    name = f"Fresh system {slug[6:]}"
    assert run_kbgen("new", slug, "--name", name, "--records", str(live.records)) == 0
    nav = page.locator("nav.md-nav--primary")

    def nav_lists_it() -> bool:
        try:
            page.reload(wait_until="load")
            return nav.get_by_text(name).count() > 0
        except Exception:  # a live-reload navigation raced ours; try again
            return False

    assert _poll(nav_lists_it, CHANGE_TIMEOUT, interval=0.5), f"{name!r} is not in the navigation"
    expect(nav.locator(f'a[href$="{slug}/"]').first).to_be_attached()
    status, html = _get(f"{live.url}/systems/{slug}/", timeout=CHANGE_TIMEOUT)
    assert status == 200 and name in html

    # 3. A dangling ID in prose: the error is printed, located, and the last good pages are
    #    published again, so the open page keeps showing the last good build.
    page.goto(f"{live.url}/{MEMORY_REPORT}")
    expect(record).to_contain_text(marker)
    offset = len(live.output())
    live.edit(PROSE, "progression: 'See RTE-999. CLI add or RPC knowledge upsert")
    output = live.wait_for_output(LAST_GOOD, after=offset)
    assert re.search(r"routes\.yaml:\d+:\d+: error KB202 .*RTE-999", output), output
    output = live.wait_for_output("Reloading browsers", after=offset)
    assert "An error happened during the rebuild" not in output
    assert live.process.poll() is None, f"the server died:\n{live.output()[offset:]}"
    expect(record).to_contain_text(marker)
    expect(page.locator("h1")).to_be_visible()
    assert "Traceback" not in live.output(), live.output()

    # 4. Fixing the records rebuilds and reloads again.
    fixed = f"FIXED-{uuid.uuid4().hex[:10]}"
    live.edit("progression: 'See RTE-999. CLI add", "progression: 'CLI add")
    live.edit(f"label: Knowledge admission {marker}", f"label: Knowledge admission {fixed}")
    expect(record).to_contain_text(fixed, timeout=CHANGE_TIMEOUT * 1000)
    assert "Traceback" not in live.output(), live.output()
    assert browsing.traffic.evidence == []


def test_a_fresh_request_gets_the_last_good_page_while_records_have_errors(live):
    url = f"{live.url}/{MEMORY_REPORT}"
    status, before = _get(url, timeout=CHANGE_TIMEOUT)  # waits out a rebuild in progress
    assert status == 200 and "Knowledge admission" in before
    offset = len(live.output())
    live.edit(PROSE, "progression: 'See RTE-998. CLI add or RPC knowledge upsert")
    try:
        output = live.wait_for_output(LAST_GOOD, after=offset)
        assert "KB202" in output and "An error happened during the rebuild" not in output
        # A reader pressing reload now: the last good page should come back promptly.
        status, html = _get(url, timeout=5)
        assert status == 200
        assert re.search(r"Knowledge admission", html)
    finally:
        live.edit("progression: 'See RTE-998. CLI add", "progression: 'CLI add")
        recovered = len(live.output())
        live.wait_for_output("Reloading browsers", after=recovered)
        assert _get(url, timeout=CHANGE_TIMEOUT)[0] == 200


def test_records_renamed_away_and_back_are_still_watched(live):
    """``mv records records.bak && mv records.bak records`` once left edits unseen for good."""
    url = f"{live.url}/{MEMORY_REPORT}"
    assert _get(url, timeout=CHANGE_TIMEOUT)[0] == 200
    away = live.records.with_name("records.bak")
    live.records.rename(away)
    time.sleep(1.5)  # every watcher polls (0.5 s) while the folder is gone
    away.rename(live.records)
    time.sleep(1.5)  # … and again once it is back
    marker = f"RENAMED-{uuid.uuid4().hex[:10]}"
    live.edit(PROSE, f"progression: '{marker} CLI add or RPC knowledge upsert")
    try:
        assert _poll(lambda: marker in _get(url, timeout=CHANGE_TIMEOUT)[1], CHANGE_TIMEOUT), (
            f"the edit after the rename was never rebuilt:\n{live.output()}"
        )
    finally:
        live.edit(f"progression: '{marker} CLI add", "progression: 'CLI add")
    assert "Traceback" not in live.output(), live.output()
