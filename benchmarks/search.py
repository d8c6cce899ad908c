"""Search figures: index bytes per record and time to first result in headless Chromium.

    python3 benchmarks/search.py             # the shipped site and a 50-system synthetic site
    python3 benchmarks/search.py --systems 10

The synthetic site holds N copies of the shipped oh-my-pi system (folder and run ID
renamed). Time to first result is measured from the moment the search box has been
opened on a loaded page (the index is fetched and loaded in the worker meanwhile) to the
first result of a typed ID; it is the best of three and printed, never asserted.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests" / "browser"))

from browser_support import CHROMIUM, CHROMIUM_ARGS, build_site, serve_directory  # noqa: E402

from generator.outputs.search import SITE_INDEX  # noqa: E402


def synthetic_records(root: Path, systems: int) -> Path:
    """``systems`` copies of records/oh-my-pi's current run, each in a folder of its own name
    (without its earlier runs, whose IDs name the shipped system, as benchmarks/kb_sizes.py)."""
    records = root / "records"
    source = ROOT / "records" / "oh-my-pi"

    def earlier_runs(folder: str, names: list[str]) -> list[str]:
        return ["runs"] if Path(folder) == source and "runs" in names else []

    for number in range(1, systems + 1):
        slug = f"omp-{number:02d}"
        shutil.copytree(source, records / slug, ignore=earlier_runs)
        run = records / slug / "run.yaml"
        text = run.read_text(encoding="utf-8").replace("oh-my-pi", slug)
        run.write_text(text, encoding="utf-8")
    return records


def time_to_first_result(url: str, query: str, repeat: int = 3) -> float:
    from playwright.sync_api import expect, sync_playwright

    timings = []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        for _ in range(repeat):
            page = browser.new_page()
            page.goto(url)
            page.wait_for_load_state("load")
            page.keyboard.press("/")
            start = time.perf_counter()
            box = page.locator("input.md-search__input")
            box.fill(query[:-1])
            box.press(query[-1])  # the theme queries on key-up
            expect(page.locator(".md-search-result__item").first).to_be_visible(timeout=60_000)
            timings.append(time.perf_counter() - start)
            page.close()
        browser.close()
    return min(timings)


def report(name: str, site: Path, records: int) -> None:
    size = (site / SITE_INDEX).stat().st_size
    with serve_directory(site) as url:
        first = time_to_first_result(f"{url}/", "RTE-11")
    per_record = size // records
    print(
        f"{name}: {records} records, index {size} bytes ({per_record} per record), first result {first:.2f} s"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--systems", type=int, default=50)
    args = parser.parse_args()
    os.environ["NO_MKDOCS_2_WARNING"] = "1"
    with tempfile.TemporaryDirectory() as tmp:
        shipped = build_site(Path(tmp) / "shipped")
        report("shipped site", shipped, _record_count(shipped))
        records = synthetic_records(Path(tmp), args.systems)
        synthetic = build_site(Path(tmp) / "synthetic", records)
        report(f"{args.systems}-system site", synthetic, _record_count(synthetic))


def _record_count(site: Path) -> int:
    import json

    return len(json.loads((site / SITE_INDEX).read_text(encoding="utf-8"))["config"]["kb"]["entries"])


if __name__ == "__main__":
    main()
