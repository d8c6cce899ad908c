"""Build time and peak memory per engine, for the shipped KB and a synthetic 50-system one.

    python3 benchmarks/bench_engines.py              # shipped KB and 50 systems
    python3 benchmarks/bench_engines.py --systems 10

Engines: MkDocs with the kb-records plugin (``kbgen build``: check, render and build in
one run), and ProperDocs and Zensical building the output of ``kbgen render`` (timed
apart: the render, then the engine's build). The synthetic KB holds renamed copies of the
shipped systems (oh-my-pi and decapod in turn). Every step runs as a child process; its
wall time and peak resident memory (``wait4``'s rusage of that child) are printed, never
asserted (the machine is shared).
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SHIPPED = ("oh-my-pi", "decapod")


def synthetic_records(root: Path, systems: int) -> Path:
    """``systems`` renamed copies of the shipped systems, each in a folder of its own name."""
    records = root / "records"
    for number in range(1, systems + 1):
        original = SHIPPED[(number - 1) % len(SHIPPED)]
        slug = f"{original}-{number:02d}"
        shutil.copytree(ROOT / "records" / original, records / slug)
        run = records / slug / "run.yaml"
        run.write_text(run.read_text(encoding="utf-8").replace(original, slug), encoding="utf-8")
    return records


def measured(command: list[str], cwd: Path) -> tuple[float, float]:
    """Run ``command``; its wall time in seconds and peak resident memory in MiB."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), "NO_MKDOCS_2_WARNING": "1", "SOURCE_DATE_EPOCH": "0"}
    start = time.perf_counter()
    child = subprocess.Popen(command, cwd=cwd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(child.pid, 0)
    elapsed = time.perf_counter() - start
    child.returncode = os.waitstatus_to_exitcode(status)
    if child.returncode != 0:
        raise SystemExit(f"{command} failed: {child.stderr.read().decode() if child.stderr else ''}")
    return elapsed, usage.ru_maxrss / 1024  # ru_maxrss is in KiB on Linux


def kbgen(*args: str) -> list[str]:
    return [sys.executable, "-m", "generator.cli.main", *args, "-f", str(ROOT / "mkdocs.yml")]


def bench(name: str, records: Path, work: Path) -> None:
    """Print one line per engine for the KB in ``records``."""
    work.mkdir(parents=True)
    site = work / "site"
    seconds, peak = measured(kbgen("build", "--records", str(records), "--site-dir", str(site)), ROOT)
    print(f"{name}: mkdocs (kbgen build) {seconds:.2f} s, peak {peak:.0f} MiB")
    engines = {
        "properdocs": [sys.executable, "-m", "properdocs", "build", "-q", "-f", "mkdocs.yml"],
        "zensical": [sys.executable, "-m", "zensical", "build"],
    }
    for engine, command in engines.items():
        # Each engine builds the render made for it (Zensical: file links inside raw HTML).
        project = work / engine
        render = kbgen("render", "--records", str(records), "--out", str(project), "--engine", engine)
        seconds, peak = measured(render, ROOT)
        print(f"{name}: kbgen render --engine {engine} {seconds:.2f} s, peak {peak:.0f} MiB")
        seconds, peak = measured(command, project)
        print(f"{name}: {engine} build {seconds:.2f} s, peak {peak:.0f} MiB")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--systems", type=int, default=50)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        bench("shipped KB", ROOT / "records", Path(tmp) / "shipped")
        records = synthetic_records(Path(tmp) / "synthetic-records", args.systems)
        bench(f"{args.systems}-system KB", records, Path(tmp) / "synthetic")


if __name__ == "__main__":
    main()
