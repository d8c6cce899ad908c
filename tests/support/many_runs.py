"""A system of many runs, for the tests and the benchmark of output size per run.

The clean two-run fixture's own run is the current one (``current: true``); each further
run is a copy of it below ``runs/<run-id>/``, one day apart in an earlier year, so its
run ID, date and cutoff agree (KB302) and no two share an ID (KB309).
"""

from __future__ import annotations

import datetime
import os
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from site_support import make_project

TESTS = Path(__file__).resolve().parents[1]
FIXTURE = TESTS / "fixtures" / "check" / "runs-two-runs-clean" / "records" / "demo"
_OWN_DATE = "2024-05-01"
_FIRST_EARLIER = datetime.date(2023, 1, 1)


def earlier_run_id(index: int) -> str:
    """The run ID of the ``index``-th further run (0-based), oldest first."""
    return f"AAS-{_FIRST_EARLIER + datetime.timedelta(days=index)}-demo-01"


def make_many_runs(records: Path, runs: int) -> Path:
    """``records/demo`` with ``runs`` runs in all: its own (current) and ``runs - 1`` further
    ones. Returns the system folder."""
    system = records / "demo"
    shutil.copytree(FIXTURE, system, ignore=shutil.ignore_patterns("runs"))
    own = (system / "run.yaml").read_text(encoding="utf-8")
    (system / "run.yaml").write_text(
        own.replace("  summary:", "  current: true\n  summary:", 1), encoding="utf-8"
    )
    for index in range(runs - 1):
        run_id = earlier_run_id(index)
        date = run_id[4:14]
        folder = system / "runs" / run_id
        shutil.copytree(FIXTURE, folder, ignore=shutil.ignore_patterns("runs"))
        text = own.replace("AAS-2024-05-01-demo-01", run_id).replace(_OWN_DATE, date)
        (folder / "run.yaml").write_text(text, encoding="utf-8")
    return system


@dataclass(frozen=True)
class SiteSize:
    """What ``kbgen build`` wrote for a system of ``runs`` runs."""

    runs: int
    total: int  # bytes of the whole site
    system: int  # bytes below site/systems/demo/: the pages of every run
    files: int
    oldest_page: int  # bytes of the oldest run's system page (0 for a system of one run)
    seconds: float  # wall clock of the build (printed by the benchmark, never asserted)


def build_many_runs(root: Path, runs: int) -> SiteSize:
    """Build a throwaway project whose one system has ``runs`` runs; measure its site."""
    project = make_project(root / f"runs-{runs}", git=False)
    shutil.rmtree(project / "records" / "demo")
    make_many_runs(project / "records", runs)
    env = {k: v for k, v in os.environ.items() if k not in ("KBGEN_RECORDS", "SOURCE_DATE_EPOCH")}
    env["NO_MKDOCS_2_WARNING"] = "1"
    started = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "generator.cli.main", "build", "--site-dir", "site"],
        cwd=project,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    seconds = time.perf_counter() - started
    if done.returncode != 0:
        raise RuntimeError(f"the build of {runs} runs failed:\n{done.stdout}{done.stderr}")
    site = project / "site"
    files = [path for path in site.rglob("*") if path.is_file()]
    below = site / "systems" / "demo"
    oldest = below / "runs" / earlier_run_id(0).lower() / "index.html"
    return SiteSize(
        runs,
        sum(path.stat().st_size for path in files),
        sum(path.stat().st_size for path in files if below in path.parents),
        len(files),
        oldest.stat().st_size if runs > 1 else 0,
        seconds,
    )
