"""Hostile inputs at 10 KB, 1 MiB and 2 MiB: ``kbgen check`` time and its growth.

    python3 benchmarks/bench_hostile.py

Each case plants one file into a copy of the clean demo system and checks it in
process (human output to a null console, as a terminal would see it), less the time
the clean system alone takes. From 10 KB to 1 MiB the input grows about 100-fold: a
linear check shows a ratio near 100, a quadratic one about 10,000. A ratio near 2.0
per doubling (1 to 2 MiB) means linear growth; quadratic growth shows as about 4.0. Times are
the best of two runs on a shared, noisy machine: compare ratios, not seconds.
"""

from __future__ import annotations

import shutil
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from rich.console import Console

from generator.check.report import print_human
from generator.pipeline import check_records

ROOT = Path(__file__).resolve().parent.parent
CLEAN = ROOT / "tests" / "fixtures" / "check" / "clean-run" / "records" / "demo"
MIB = 1024 * 1024


def dangling_ids_in_prose(size: int) -> tuple[str, str]:
    return "flood.md", "RTE-999 " * (size // 8)


def dangling_ids_in_yaml(size: int) -> tuple[str, str]:
    return "flood.yaml", "components:\n  - id: CMP-9\n    label: x\n    body: " + "RTE-999 " * (size // 8 - 8)


def many_small_keys(size: int) -> tuple[str, str]:
    return "bomb.yaml", "".join(f"k{index}: 1\n" for index in range(size // 12))


def open_brackets(size: int) -> tuple[str, str]:
    return "deep.yaml", "a: " + "[" * (size - 4)


CASES: dict[str, Callable[[int], tuple[str, str]]] = {
    "dangling IDs in prose": dangling_ids_in_prose,
    "dangling IDs in a YAML string": dangling_ids_in_yaml,
    "many small keys": many_small_keys,
    "open brackets": open_brackets,
}


def timed_check(make: Callable[[int], tuple[str, str]], size: int) -> float:
    with tempfile.TemporaryDirectory() as tmp:
        system = Path(tmp) / "records" / "demo"
        shutil.copytree(CLEAN, system)
        name, text = make(size)
        (system / name).write_text(text, encoding="utf-8")
        console = Console(file=open("/dev/null", "w"), width=120)  # noqa: SIM115 - closed below
        best = float("inf")
        try:
            for _ in range(2):
                start = time.perf_counter()
                print_human(check_records(system.parent, Path(tmp)), console)
                best = min(best, time.perf_counter() - start)
        finally:
            console.file.close()
        return best


def main() -> None:
    base = timed_check(lambda _size: ("empty.yaml", "{}\n"), 0)
    sizes = (10_000, MIB, 2 * MIB - 64)
    print(f"clean system alone: {base * 1000:.0f} ms (subtracted below)")
    print(f"{'case':32} {'10 KB':>9} {'1 MiB':>9} {'2 MiB':>9}  {'1 MiB/10 KB':>11} {'2/1 MiB':>8}")
    for label, make in CASES.items():
        times = [max(timed_check(make, size) - base, 1e-4) for size in sizes]
        print(
            f"{label:32} {times[0]:9.3f} {times[1]:9.2f} {times[2]:9.2f}  "
            f"{times[1] / times[0]:11.0f} {times[2] / times[1]:8.2f}"
        )


if __name__ == "__main__":
    main()
