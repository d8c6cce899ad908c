"""Helpers for the browser tests: kbgen in-process, a static site server, a fenced browser.

Chromium is Debian's (``/usr/bin/chromium``); Playwright never downloads a browser.
Every request that does not go to the local server is blocked, except the evidence
host (``https://github.com/``), which is answered with a tiny local page so that a
click on an evidence link can be followed without the network.
"""

from __future__ import annotations

import contextlib
import functools
import http.server
import os
import re
import shutil
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from generator.cli.main import main

REPO_ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-quic",
    "--no-first-run",
    "--disable-component-update",
    "--disable-sync",
]
VIEWPORT = {"width": 1400, "height": 900}  # wide enough for both sidebars (the TOC shows)
EVIDENCE_HOST = "https://github.com/"
EVIDENCE_STUB = "<!doctype html><title>evidence stub</title><p>evidence host stub</p>"
LOCAL_HOSTS = ("127.0.0.1", "localhost")


@contextlib.contextmanager
def in_repo_root() -> Iterator[None]:
    """Run kbgen from the repository root; undo its process-wide environment changes."""
    cwd, env = Path.cwd(), dict(os.environ)
    os.chdir(REPO_ROOT)
    try:
        yield
    finally:
        os.chdir(cwd)
        os.environ.clear()
        os.environ.update(env)


def run_kbgen(*argv: str) -> int:
    """``generator.cli.main.main`` in-process, from the repository root."""
    with in_repo_root():
        return main(list(argv))


def build_site(site_dir: Path, records: Path | None = None) -> Path:
    argv = ["build", "--site-dir", str(site_dir)]
    if records is not None:
        argv += ["--records", str(records)]
    code = run_kbgen(*argv)
    assert code == 0, f"kbgen {' '.join(argv)} exited {code}"
    assert (site_dir / "index.html").is_file()
    return site_dir


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        pass


CLEAN_DEMO = Path(__file__).resolve().parents[1] / "fixtures" / "check" / "clean-run" / "records" / "demo"


def build_planted_site(root: Path, plant: Callable[[Path], None]) -> Path:
    """Build the clean demo system after ``plant`` rewrote its files (a hostile site)."""
    system = root / "records" / "demo"
    shutil.copytree(CLEAN_DEMO, system)
    plant(system)
    return build_site(root / "site", records=root / "records")


@contextlib.contextmanager
def serve_directory(directory: Path) -> Iterator[str]:
    """Serve a built site on 127.0.0.1 (a free port) in a thread; yields the base URL."""
    handler = functools.partial(_QuietHandler, directory=str(directory))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, name="kb-site-server", daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=10)


@dataclass
class Traffic:
    """What pages asked for outside localhost: evidence-host hits and blocked requests."""

    evidence: list[str] = field(default_factory=list)
    blocked: list[str] = field(default_factory=list)


def is_local(url: str) -> bool:
    match = re.match(r"^[a-z][a-z0-9+.-]*://([^/:?#]+)", url)
    if match is None:  # data:, blob:, about: carry no host
        return not url.startswith(("http:", "https:", "ws:", "wss:"))
    return match.group(1) in LOCAL_HOSTS


def open_context(browser: Any, traffic: Traffic) -> Any:
    """A browser context whose requests reach only localhost."""
    context = browser.new_context(viewport=VIEWPORT, service_workers="block")
    context.set_default_timeout(15_000)

    def only_local(route: Any) -> None:
        url = route.request.url
        if is_local(url):
            route.continue_()
        else:
            traffic.blocked.append(url)
            route.abort("blockedbyclient")

    context.route("**/*", only_local)
    return context


def stub_evidence_host(page: Any, traffic: Traffic) -> None:
    """Answer the evidence host locally (a page route wins over the context's blocking route)."""

    def fulfil(route: Any) -> None:
        traffic.evidence.append(route.request.url)
        route.fulfill(status=200, content_type="text/html; charset=utf-8", body=EVIDENCE_STUB)

    page.route(f"{EVIDENCE_HOST}**", fulfil)


# JavaScript: is the element with this id on screen, below the sticky header, and the
# topmost element at its own position (not covered by the header or anything else)?
LANDED_JS = """(id) => {
  const el = document.getElementById(id);
  if (!el) return false;
  const box = el.getBoundingClientRect();
  const header = document.querySelector('.md-header');
  const below = header ? header.getBoundingClientRect().bottom : 0;
  if (box.height === 0 || box.top < below - 1 || box.top >= window.innerHeight) return false;
  const x = box.left + Math.min(box.width / 2, 40), y = box.top + Math.min(box.height / 2, 8);
  const hit = document.elementFromPoint(x, y);
  return !!hit && (hit === el || el.contains(hit));
}"""


MAPS_DRAWN = "document.documentElement.dataset.kbMaps === 'drawn'"


def draw_maps(page: Any, timeout: int = 20_000) -> None:
    """Bring a system page's route maps into view (kb-maps.js fetches Mermaid only when a
    map nears the viewport) and wait until they are drawn."""
    page.evaluate(
        "() => { const maps = document.querySelector('.kb-route-maps'); if (maps) maps.scrollIntoView(); }"
    )
    page.wait_for_function(MAPS_DRAWN, timeout=timeout)


# JavaScript: each table of the article with the box it scrolls in (its nearest ancestor
# that scrolls sideways): whether kb-scroll.js watches that box, whether another box
# around it scrolls too (two boxes, one without the cue), whether the table is wider than
# the box and the line above the box says so; then, scrolled to its end, how far each
# row's first cell stands from the box's left edge (0: the first column stayed in view).
TABLE_SCROLL_BOXES = """() => {
  const scrolls = el => ['auto', 'scroll'].includes(getComputedStyle(el).overflowX);
  const boxOf = el => {
    for (let at = el; at && at.tagName !== 'ARTICLE'; at = at.parentElement) if (scrolls(at)) return at;
    return null;
  };
  return [...document.querySelectorAll('article table')].map(table => {
    const box = boxOf(table.parentElement);
    if (!box) return {box: false};
    const cue = box.previousElementSibling;
    const state = {
      box: true,
      watched: box.hasAttribute('data-kb-scroll'),
      nested: boxOf(box.parentElement) !== null,
      overflows: box.scrollWidth > box.clientWidth + 1,
      cue: !!cue && cue.classList.contains('kb-scroll-cue') && !cue.hidden
           && cue.getBoundingClientRect().height > 0 && /scroll the table sideways/.test(cue.textContent),
    };
    const before = box.scrollLeft;
    box.scrollLeft = box.scrollWidth;
    const edge = box.getBoundingClientRect().left;
    state.offsets = [...table.rows].filter(row => row.cells.length > 1)
      .map(row => Math.round(row.cells[0].getBoundingClientRect().left - edge));
    state.scrolled = box.scrollLeft > 0;
    box.scrollLeft = before;
    return state;
  });
}"""
