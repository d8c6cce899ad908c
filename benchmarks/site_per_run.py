"""Site bytes per run of one system: the output must grow linearly with a system's runs.

    python3 benchmarks/site_per_run.py            # 1, 10, 40 runs
    python3 benchmarks/site_per_run.py 10 100 200

Each size builds a throwaway project whose one system has that many runs (copies of a
clean fixture run, ``tests/support/many_runs.py``) and prints the site's bytes, the bytes of the
system's pages, bytes per run, files and the build's wall-clock time. Bytes added per
run should stay about the same as the runs grow (a navigation repeating the history on
every page made them grow with the runs: 200 runs built 260 MB). Compare bytes; the
seconds are of a shared, noisy machine.
"""

from __future__ import annotations

import itertools
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "support"))

from many_runs import SiteSize, build_many_runs


def main(sizes: list[int]) -> None:
    found: list[SiteSize] = []
    with tempfile.TemporaryDirectory(prefix="kbgen-runs-") as private:
        for runs in sizes:
            size = build_many_runs(Path(private), runs)
            found.append(size)
            print(
                f"{runs:4d} runs: site {size.total / 1e6:7.2f} MB, system pages {size.system / 1e6:6.2f} MB "
                f"({size.system / runs / 1e3:6.1f} KB per run), {size.files} files, {size.seconds:5.1f} s"
            )
    for before, after in itertools.pairwise(found):
        added = (after.total - before.total) / (after.runs - before.runs)
        print(f"site bytes added per run, {before.runs} → {after.runs} runs: {added / 1e3:.1f} KB")


if __name__ == "__main__":
    main([int(arg) for arg in sys.argv[1:]] or [1, 10, 40])
