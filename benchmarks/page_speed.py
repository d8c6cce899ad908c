"""Page speed on a slow phone: first contentful paint and total blocking time in Chromium.

    python3 benchmarks/page_speed.py                          # this checkout's site, built now
    python3 benchmarks/page_speed.py --site SITE --before OLD # two built sites, side by side

The heaviest result page (the largest ``result/index.html`` of the site) is opened at
390×844 with the CPU slowed four times (CDP ``Emulation.setCPUThrottlingRate``) and the
network throttled to a 4G link (``Network.emulateNetworkConditions``), on a cold cache,
``--repeat`` times. Printed per site: the median first contentful paint and the median
total blocking time (the part over 50 ms of each long task the page runs from navigation
until it is quiet), and the longest task. With ``--before`` the ratio of the two sites'
blocking times is printed too. Figures are printed, never asserted.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests" / "browser"))

from browser_support import CHROMIUM, CHROMIUM_ARGS, build_site, serve_directory  # noqa: E402

CPU_SLOWDOWN = 4
# Chrome DevTools' "4G" preset: 20 ms round trip, 4 Mbit/s down, 3 Mbit/s up.
NETWORK = {
    "offline": False,
    "latency": 20,
    "downloadThroughput": 4 * 1024 * 1024 / 8,
    "uploadThroughput": 3 * 1024 * 1024 / 8,
}
PHONE = {"width": 390, "height": 844}
LONG_TASK_MS = 50
QUIET_MS = 2_000  # the page is quiet when no long task began for this long after load

# Long tasks are observed from the first script the page runs (buffered entries included).
OBSERVE = """
window.__kbLongTasks = [];
new PerformanceObserver(list => {
  for (const entry of list.getEntries()) window.__kbLongTasks.push([entry.startTime, entry.duration]);
}).observe({type: 'longtask', buffered: true});
"""
FIGURES = """() => {
  const paint = performance.getEntriesByName('first-contentful-paint')[0];
  return {fcp: paint ? paint.startTime : null, tasks: window.__kbLongTasks};
}"""


@dataclass(frozen=True)
class Speed:
    fcp_ms: float
    blocking_ms: float
    longest_ms: float


def heaviest_result_page(site: Path) -> str:
    pages = sorted(site.rglob("result/index.html"), key=lambda path: (-path.stat().st_size, str(path)))
    if not pages:
        raise SystemExit(f"{site}: no result page")
    return pages[0].parent.relative_to(site).as_posix() + "/"


def _load_once(browser: Any, url: str) -> Speed:
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True, service_workers="block")
    page = context.new_page()
    page.add_init_script(OBSERVE)
    cdp = context.new_cdp_session(page)
    cdp.send("Network.enable")
    cdp.send("Network.setCacheDisabled", {"cacheDisabled": True})
    cdp.send("Network.emulateNetworkConditions", NETWORK)
    cdp.send("Emulation.setCPUThrottlingRate", {"rate": CPU_SLOWDOWN})
    page.goto(url, wait_until="load", timeout=120_000)
    seen = -1
    while True:  # wait until no new long task arrives for QUIET_MS
        page.wait_for_timeout(QUIET_MS)
        count = page.evaluate("window.__kbLongTasks.length")
        if count == seen:
            break
        seen = count
    figures = page.evaluate(FIGURES)
    context.close()
    tasks = [duration for _start, duration in figures["tasks"]]
    return Speed(
        fcp_ms=float(figures["fcp"] or 0.0),
        blocking_ms=sum(max(0.0, duration - LONG_TASK_MS) for duration in tasks),
        longest_ms=max(tasks, default=0.0),
    )


def measure(site: Path, repeat: int) -> tuple[str, Speed]:
    from playwright.sync_api import sync_playwright

    path = heaviest_result_page(site)
    with serve_directory(site) as base, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        runs = [_load_once(browser, f"{base}/{path}") for _ in range(repeat)]
        browser.close()
    return path, Speed(
        fcp_ms=statistics.median(run.fcp_ms for run in runs),
        blocking_ms=statistics.median(run.blocking_ms for run in runs),
        longest_ms=statistics.median(run.longest_ms for run in runs),
    )


def _line(name: str, path: str, speed: Speed) -> str:
    return (
        f"{name:<7} {path:<52} FCP {speed.fcp_ms:7.0f} ms   total blocking {speed.blocking_ms:7.0f} ms"
        f"   longest task {speed.longest_ms:6.0f} ms"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--site", type=Path, help="a built site (default: build this checkout's)")
    parser.add_argument("--before", type=Path, help="another built site to print beside it (today's main)")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    if not CHROMIUM.exists():
        raise SystemExit(f"{CHROMIUM} is not installed")
    with tempfile.TemporaryDirectory() as scratch:
        site = args.site or build_site(Path(scratch) / "site")
        conditions = f"CPU {CPU_SLOWDOWN}x slower, 4G network, 390x844, cold cache"
        print(f"slow phone: {conditions}, median of {args.repeat}")
        after_path, after = measure(site, args.repeat)
        if args.before is not None:
            before_path, before = measure(args.before, args.repeat)
            print(_line("before", before_path, before))
        print(_line("after", after_path, after))
        if args.before is not None and before.blocking_ms > 0:
            print(f"blocking time after / before: {after.blocking_ms / before.blocking_ms:.2f}")


if __name__ == "__main__":
    main()
