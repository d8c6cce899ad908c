"""Pairing two runs whose text is built against it: time, peak memory and candidates of
``diff_runs`` at 1k, 2k and 4k records a side, and each doubling's ratios.

    python3 benchmarks/run_diff_adversarial.py             # 1000 2000 4000
    python3 benchmarks/run_diff_adversarial.py 500 1000

Records pair by candidates drawn from an inverted index (``graph/record_match.py``): a
run whose labels repeat common words used to make every pair a candidate. Each shape
below is one way of trying:

- ``one-sided``: every old label holds 40 common words, each new label one of them (a
  word held by few new records and by a thousand old ones);
- ``long labels``: every label of both runs holds 60 words of a pool sized so that each
  word is held by about 30 records of each run (under the posting cap, many per record);
- ``shared text``: every body holds 40 words of such a pool, and every label the same
  three words.

Each record also holds a word of its own that its counterpart in the other run holds
too, so there is a right pairing to find. The diff should grow about twice per doubling
(at most 2.5× in time and memory); the seconds are of a shared, noisy machine, compare
ratios.
"""

from __future__ import annotations

import gc
import sys
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from generator.graph.record_match import candidate_count  # noqa: E402
from generator.graph.run_diff import diff_runs  # noqa: E402
from generator.model.records import Claim  # noqa: E402
from generator.model.system import SystemRecords  # noqa: E402

PER_WORD = 30  # records of a run holding each pooled word


def _word(n: int) -> str:
    """A made-up word, letters only (digits alone are not content words)."""
    letters = "bcdfghjklmnpqrstvwxz"
    text = ""
    n += 1
    while n:
        n, digit = divmod(n - 1, len(letters))
        text += letters[digit] + "a"
    return text + "x"


def _own(k: int) -> str:
    return "own" + _word(k)


def _run(slug: str, labels: list[str], bodies: list[str]) -> SystemRecords:
    records = [
        Claim.model_validate({"id": f"CLM-{k + 1}", "label": label, "body": body or label})
        for k, (label, body) in enumerate(zip(labels, bodies, strict=True))
    ]
    return SystemRecords(slug=slug, records=list(records))


def one_sided(n: int, words: int = 40) -> tuple[SystemRecords, SystemRecords]:
    common = [_word(w) for w in range(max(words, n // PER_WORD))]

    def label(k: int) -> str:
        return " ".join([*(common[(k + i) % len(common)] for i in range(words)), _own(k)])

    old = _run("adv", [label(k) for k in range(n)], [""] * n)
    new = _run("adv", [f"{common[k % len(common)]} {_own(n - 1 - k)}" for k in range(n)], [""] * n)
    return old, new


def long_labels(n: int, words: int = 60) -> tuple[SystemRecords, SystemRecords]:
    pool = max(words, n * words // PER_WORD)

    def label(k: int, shift: int) -> str:
        return " ".join([*(_word((k * words + i + shift) % pool) for i in range(words)), _own(k)])

    old = _run("adv", [label(k, 0) for k in range(n)], [""] * n)
    new = _run("adv", [label(n - 1 - k, 7) for k in range(n)], [""] * n)
    return old, new


def shared_text(n: int, words: int = 40) -> tuple[SystemRecords, SystemRecords]:
    pool = max(words, n * words // PER_WORD)

    def body(k: int, shift: int) -> str:
        return " ".join([*(_word((k * words + i + shift) % pool) for i in range(words)), _own(k)])

    old = _run("adv", ["memory route step"] * n, [body(k, 0) for k in range(n)])
    new = _run("adv", ["memory route step"] * n, [body(n - 1 - k, 3) for k in range(n)])
    return old, new


SHAPES: dict[str, Callable[[int], tuple[SystemRecords, SystemRecords]]] = {
    "one-sided": one_sided,
    "long labels": long_labels,
    "shared text": shared_text,
}


def measure(old: SystemRecords, new: SystemRecords) -> tuple[float, float]:
    """Seconds (best of two) and peak MiB traced of one diff."""
    best = float("inf")
    for _ in range(2):
        gc.collect()
        start = time.perf_counter()
        diff_runs(old, new)
        best = min(best, time.perf_counter() - start)
    gc.collect()
    tracemalloc.start()
    diff_runs(old, new)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return best, peak / 2**20


def main(sizes: list[int]) -> None:
    for name, shape in SHAPES.items():
        before: tuple[float, float] | None = None
        for n in sizes:
            old, new = shape(n)
            seconds, mib = measure(old, new)
            line = f"{name}, {n} records a side: {seconds:.2f} s, {mib:.1f} MiB peak, "
            line += f"{candidate_count(old, new)} candidates"
            if before is not None:
                line += f" (×{seconds / before[0]:.2f} time, ×{mib / before[1]:.2f} memory)"
            print(line, flush=True)
            before = (seconds, mib)


if __name__ == "__main__":
    main([int(arg) for arg in sys.argv[1:]] or [1000, 2000, 4000])
