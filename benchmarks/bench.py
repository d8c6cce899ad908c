"""Benchmarks that print ratios, never absolute pass/fail thresholds.

    python3 benchmarks/bench.py            # all three measurements
    python3 benchmarks/bench.py --quick    # fewer repetitions
    python3 benchmarks/bench.py --systems 10,50,100   # KBs of many systems (see kb_sizes.py)
    python3 benchmarks/bench.py --plain    # kbgen build and check against MkDocs + Material
                                           # and the C-loader parse (see versus_plain.py)
    python3 benchmarks/bench.py --plain --instructions   # the checks also in instructions

1. ``check`` against a bare libyaml load of the same shipped record files.
2. Growth: ``check`` and rendering on synthetic systems of N, 2N, 4N, 8N records;
   a ratio near 2.0 per doubling means linear growth.
3. ``check`` + rendering as a fraction of the whole MkDocs build of the shipped site.

Timings are the best of several runs (the machine is shared and noisy); the
ratios are what to compare between revisions.
"""

from __future__ import annotations

import argparse
import glob
import os
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import yaml

from generator.pipeline import check_records, run_pipeline

ROOT = Path(__file__).resolve().parent.parent


def best_of(fn: Callable[[], object], repeat: int) -> float:
    timings = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        timings.append(time.perf_counter() - start)
    return min(timings)


def synthetic_system(folder: Path, size: int) -> None:
    """A system of ``size`` objects and ``size`` routes that cite each other and anchors."""
    folder.mkdir(parents=True)
    lines = [
        "run:",
        "  system: Synthetic",
        "sources:",
        "  - id: SRC-1",
        "    source_kind: Git",
        "    identity: https://github.com/example/synthetic",
        "    location: https://github.com/example/synthetic",
        '    revision: "0123456789abcdef0123456789abcdef01234567"',
        "objects:",
    ]
    for n in range(1, size + 1):
        lines += [
            f"  - id: OBJ-{n}",
            f"    label: Object {n}",
            f"    form: Retained text produced by RTE-{n} and read back by RTE-{(n % size) + 1}.",
            "    evidence:",
            f"      - SRC-1 src/module_{n % 97}.py:{n}-{n + 20}",
        ]
    lines.append("routes:")
    for n in range(1, size + 1):
        lines += [
            f"  - id: RTE-{n}",
            f"    label: Route {n}",
            f"    body: OBJ-{n} reaches the model; see SRC-1 src/module_{n % 89}.py:{n}-{n + 9}"
            f" and OBJ-{(n % size) + 1}.",
            "    statuses:",
            "      implementation conclusion status: wired",
            "      operation conclusion status: uninspected",
        ]
    result = [
        "result:",
        "  title: Synthetic analysis",
        "  type: kb/types/agentic-system-analysis-result.md",
    ]
    for key in (
        "run_identity",
        "boundary_and_evidence",
        "runtime_account",
        "lens_scoping",
        "lens_outputs",
        "reconciliation",
        "bounded_synthesis",
        "verification",
    ):
        result += [f"  {key}:", "    blocks:", f"      - Prose of {key} citing RTE-1 and OBJ-{size}."]
    (folder / "records.yaml").write_text("\n".join(lines) + "\n", encoding="utf-8")
    (folder / "result.yaml").write_text("\n".join(result) + "\n", encoding="utf-8")


def bench_check_vs_libyaml(repeat: int) -> None:
    files = sorted(glob.glob(str(ROOT / "records" / "**" / "*.yaml"), recursive=True))
    texts = [Path(f).read_text(encoding="utf-8") for f in files]
    size = sum(len(t.encode()) for t in texts)
    bare = best_of(lambda: [yaml.load(t, Loader=yaml.CSafeLoader) for t in texts], repeat)
    check = best_of(lambda: check_records(ROOT / "records"), repeat)
    print(f"[1] shipped records: {len(files)} files, {size / 1024:.0f} KiB")
    print(f"    bare libyaml load {bare * 1000:7.1f} ms")
    print(f"    kbgen check       {check * 1000:7.1f} ms   ratio check/load = {check / bare:.2f}")


def bench_growth(repeat: int, base: int) -> None:
    print("[2] growth on synthetic systems (records = 2 × size)")
    previous: tuple[float, float] | None = None
    with tempfile.TemporaryDirectory() as tmp:
        for factor in (1, 2, 4, 8):
            size = base * factor
            records = Path(tmp) / f"r{size}"
            synthetic_system(records / "synthetic", size)
            check = best_of(lambda records=records: check_records(records), repeat)
            render = best_of(lambda records=records: run_pipeline(records), max(1, repeat // 2)) - check
            line = f"    size {size:5d}: check {check * 1000:8.1f} ms, render {render * 1000:8.1f} ms"
            if previous:
                line += (
                    f"   ×{check / previous[0]:.2f} check, ×{render / previous[1]:.2f} render per doubling"
                )
            print(line)
            previous = (check, render)


def bench_fraction_of_build(repeat: int) -> None:
    from mkdocs.commands.build import build
    from mkdocs.config import load_config

    os.environ.setdefault("NO_MKDOCS_2_WARNING", "1")
    pipeline = best_of(lambda: run_pipeline(ROOT / "records"), repeat)
    with tempfile.TemporaryDirectory() as tmp:

        def mkdocs_build() -> None:
            config = load_config(str(ROOT / "mkdocs.yml"), site_dir=tmp)
            build(config)

        whole = best_of(mkdocs_build, max(1, repeat // 2))
    print("[3] shipped site")
    print(f"    check + link + render {pipeline * 1000:7.1f} ms")
    print(f"    whole MkDocs build    {whole * 1000:7.1f} ms   fraction = {pipeline / whole:.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--systems", help="comma-separated KB sizes: check, build, serve per size")
    parser.add_argument("--edits", type=int, default=3, help="edits timed per size (median)")
    parser.add_argument("--plain", action="store_true", help="kbgen against MkDocs + Material and libyaml")
    parser.add_argument("--build-sizes", default="10,50", help="KB sizes of --plain's builds")
    parser.add_argument("--check-sizes", default="10,50,100", help="KB sizes of --plain's checks")
    parser.add_argument("--repeat", type=int, default=3, help="runs per --plain figure (best of)")
    parser.add_argument(
        "--instructions", action="store_true", help="--plain's checks also counted in instructions (valgrind)"
    )
    parser.add_argument("--child-build", help=argparse.SUPPRESS)  # kb_sizes.py's timed build
    args = parser.parse_args()
    if args.child_build:
        from kb_sizes import child_build

        child_build(Path(args.child_build))
        return
    if args.plain:
        from versus_plain import bench_versus_plain

        sizes = [[int(size) for size in text.split(",")] for text in (args.build_sizes, args.check_sizes)]
        bench_versus_plain(sizes[0], sizes[1], args.repeat, count_instructions=args.instructions)
        return
    if args.systems:
        from kb_sizes import bench_sizes

        bench_sizes([int(size) for size in args.systems.split(",")], args.edits)
        return
    repeat = 3 if args.quick else 7
    os.chdir(ROOT)
    bench_check_vs_libyaml(repeat)
    bench_growth(repeat, 100 if args.quick else 200)
    bench_fraction_of_build(repeat)


if __name__ == "__main__":
    main()
