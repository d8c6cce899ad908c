"""Import time of a ~100 KB analysis document, and the ratio 100 KB vs 10 KB (about 10 when linear).

The document is generated: a Markdown memory report whose shared records repeat a route
with labelled fields, statuses, a quotation and a prose paragraph, plus a pipe table that
grows with it. Prints seconds per size and the ratio; asserts nothing (no timed tests).
"""

from __future__ import annotations

import time

from generator.importer import render_files

HEAD = "# Bench memory report\n\n## Boundary and evidence\n\nThe boundary is `SRC-1`.\n\n"
ROW = "| step {n} | `src/mod{n}.py` read in full | MEM-RTE-r{n}. No gap. |\n"
ROUTE = """#### MEM-RTE-r{n} — Route number {n}

Part of: RT-RTE-group
- Endpoints and progression: caller → writer {n} → file → reader {n}.
- implementation conclusion status: wired
- operation conclusion status: uninspected
- Guarantee strength: best effort
- Immediate return: the ID of entry {n}.
- Later read-back: a later reader prints entry {n}.
- Delegated visibility: none.
- Selection predicate: exact key {n}.
- Invalidation or expiry: none shown.
- Activation or effect: printing only; SRC-1 src/mod{n}.py:1-{m}.
- Evidence limits: no run observed.

> value = store.get(key_{n})
> --- `src/mod{n}.py:3-3` @ `0123456789abcdef0123456789abcdef01234567`

Route {n} keeps what the caller wrote; nothing curates it.

"""


def document(target_bytes: int) -> str:
    rows, routes, n = [], [], 0
    size = len(HEAD)
    while size < target_bytes:
        n += 1
        rows.append(ROW.format(n=n))
        routes.append(ROUTE.format(n=n, m=n + 9))
        size += len(rows[-1]) + len(routes[-1])
    table = (
        "| Entry point or operation | Source paths and inspection basis "
        "| Records or unresolved fact and conclusion prevented |\n|---|---|---|\n"
    )
    return HEAD + table + "".join(rows) + "\n## Shared records\n\n### Routes\n\n" + "".join(routes)


def seconds(text: str, repeat: int = 5) -> float:
    """Best of ``repeat`` runs, in CPU seconds of this process (a shared machine's load does not count)."""
    best = float("inf")
    for _ in range(repeat):
        start = time.process_time()
        render_files(text, "bench.md", "bench")
        best = min(best, time.process_time() - start)
    return best


def main() -> None:
    small, large = document(10_000), document(100_000)
    small_s, large_s = seconds(small), seconds(large)
    print(f"import 10 KB  ({len(small):>7} bytes): {small_s:.3f} s CPU")
    print(f"import 100 KB ({len(large):>7} bytes): {large_s:.3f} s CPU")
    print(f"ratio 100 KB / 10 KB: {large_s / small_s:.1f} (about 10 when linear)")


if __name__ == "__main__":
    main()
