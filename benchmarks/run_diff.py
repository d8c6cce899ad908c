"""Time of ``kbgen diff`` on oh-my-pi's two runs and on a synthetic pair ten times larger.

    python3 benchmarks/run_diff.py          # 10 copies
    python3 benchmarks/run_diff.py 20

The synthetic pair is each of oh-my-pi's runs (its seed run and ``runs/AAS-…-01``) copied
N times into one run: copy k numbers its records from 1000·k on and cites files below
``k/``, so the copies are distinct records citing distinct files, as a larger analysis
would. Pairing by content (``graph/record_match.py``) builds candidates from an inverted
index and assigns per connected group, so the diff should grow about N times, not N²
times: the ratio printed is the larger diff's time over the smaller one's (near N when
linear). The seconds are of a shared, noisy machine; compare ratios.
"""

from __future__ import annotations

import re
import shutil
import sys
import tempfile
import time
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from generator.diagnostics import Severity  # noqa: E402
from generator.graph.run_diff import diff_runs  # noqa: E402
from generator.model import kinds  # noqa: E402
from generator.model.system import SystemRecords  # noqa: E402
from generator.pipeline import check_records, check_system  # noqa: E402

SYSTEM = ROOT / "records" / "oh-my-pi"
LATER = SYSTEM / "runs" / "AAS-2026-09-26-oh-my-pi-01"
_ID = re.compile(r"(?<![A-Za-z0-9-])([A-Z]{3})-(\d+)(?![A-Za-z0-9-])")
_PATH = re.compile(r"(SRC-\d+ )(?=[\w.])")


def _clean(records: SystemRecords, errors: list[str]) -> SystemRecords:
    if errors:
        raise SystemExit("the synthetic run does not check clean:\n" + "\n".join(errors[:10]))
    return records


def _load(folder: Path, run_folder: bool) -> SystemRecords:
    if run_folder:
        checked = check_system(folder, None, None, folder.parent.parent.resolve().name)
    else:
        (checked,) = [s for s in check_records(folder) if not s.source.run_folder]
    errors = [d.as_text() for d in checked.diagnostics if d.severity is Severity.ERROR]
    return _clean(checked.records, errors)


def _copy(text: str, k: int) -> str:
    """Copy k of a file's text: record numbers from 1000·k on, cited paths below ``k/``."""
    if k == 0:
        return text
    text = _ID.sub(lambda m: f"{m.group(1)}-{int(m.group(2)) + 1000 * k}", text)
    return _PATH.sub(lambda m: f"{m.group(1)}c{k}/", text)


def synthetic(source: Path, target: Path, copies: int) -> Path:
    """One run holding ``copies`` copies of the records of ``source`` (the run, documents and
    profile of the first copy alone)."""
    target.mkdir(parents=True)
    for path in sorted(source.glob("*.yaml")):
        merged: dict[str, object] = {}
        for k in range(copies):
            data = yaml.safe_load(_copy(path.read_text(encoding="utf-8"), k))
            for key, value in (data or {}).items():
                if isinstance(value, list) and key in merged and kinds.spec_of_list(key):
                    existing = merged[key]
                    assert isinstance(existing, list)
                    existing.extend(value)
                elif key not in merged:
                    merged[key] = value
        (target / path.name).write_text(yaml.safe_dump(merged, sort_keys=False, allow_unicode=True), "utf-8")
    return target


def _timed(old: SystemRecords, new: SystemRecords) -> float:
    best = float("inf")
    for _ in range(3):
        start = time.perf_counter()
        diff_runs(old, new)
        best = min(best, time.perf_counter() - start)
    return best


def main(copies: int) -> None:
    seed, later = _load(SYSTEM, False), _load(LATER, True)
    small = _timed(seed, later)
    print(f"oh-my-pi, two runs ({len(seed.records)} → {len(later.records)} records): {small:.3f} s")
    with tempfile.TemporaryDirectory(prefix="kbgen-diff-") as private:
        root = Path(private)
        old = synthetic(SYSTEM, root / "old" / "oh-my-pi", copies)
        shutil.copytree(old, root / "system" / "oh-my-pi")
        new = synthetic(LATER, root / "system" / "oh-my-pi" / "runs" / LATER.name, copies)
        big_old, big_new = _load(old, False), _load(new, True)
        large = _timed(big_old, big_new)
    print(
        f"{copies}× synthetic pair ({len(big_old.records)} → {len(big_new.records)} records): {large:.3f} s"
    )
    print(f"ratio: {large / small:.1f} (near {copies} when linear, {copies * copies} when quadratic)")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 10)
