"""Import time of generated analysis documents at 10 KB and 1 MB, per construct, and the
ratio (about 100 when linear).

Each construct is a document that repeats one form the importer reads (``document-forms.md``)
until it reaches the size: a memory report of routes with labelled fields and quotations,
a result whose records use every declaration and evidence form, and the worst cases for
the recognisers' patterns (one evidence clause of thousands of paths, one paragraph of
thousands of labelled sentences, one line naming thousands of IDs) and for the measure's
(runs of ``[`` and of unclosed links, thousands of frontmatter keys). The time includes
measuring what the import kept. Prints CPU seconds (this process's, so the load of a
shared machine does not count) and ratios; asserts nothing (no timed tests).
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable

from generator.importer import render_measured

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

RESULT_HEAD = """---
type: types/agentic-system-analysis-result.md
run-id: AAS-2026-01-01-bench-01
system: Bench
reviewed-boundary: 0123456789abcdef0123456789abcdef01234567
---

# Bench agentic-system analysis

## Source register

| Source ID | Kind | Identity/location | Revision | Evidence layer |
|---|---|---|---|---|
| SRC-1 | Git | `https://github.com/example/bench` | `{rev}` | Implementation |
| SRC-2 | Git | `https://github.com/example/bench` | `{rev}` | Doctrine/design |

## Shared records

### Components

""".replace("{rev}", "0123456789abcdef0123456789abcdef01234567")
RESULT_RECORDS = """CMP-{a} — Writer {n}. It appends note {n}. \
Conclusion status: wired, conditional on setting {n}. Evidence: SRC-1, `src/w{n}.py`; SRC-2, `docs/w{n}.md`.

> write(note_{n})
> --- `src/w{n}.py` @ `0123456789abcdef0123456789abcdef01234567`

**CMP-{b}.** A reader without a label, number {n}. Inference dispatch: wired. SRC-1 `src/r{n}.py:1-{m}`.

CMP-{c} —**Summarizer {n}; wired storage, external inspection afforded.** It summarizes run {n}. \
Source: SRC-1 `src/s{n}.py:3-9`; `src/t{n}.py:4`.

"""


def memory_report(target: int) -> str:
    rows, routes, n = [], [], 0
    size = len(HEAD)
    while size < target:
        n += 1
        rows.append(ROW.format(n=n))
        routes.append(ROUTE.format(n=n, m=n + 9))
        size += len(rows[-1]) + len(routes[-1])
    table = (
        "| Entry point or operation | Source paths and inspection basis "
        "| Records or unresolved fact and conclusion prevented |\n|---|---|---|\n"
    )
    return HEAD + table + "".join(rows) + "\n## Shared records\n\n### Routes\n\n" + "".join(routes)


def result_forms(target: int) -> str:
    parts, n, size = [RESULT_HEAD], 0, len(RESULT_HEAD)
    while size < target:
        n += 1
        parts.append(RESULT_RECORDS.format(n=n, a=3 * n - 2, b=3 * n - 1, c=3 * n, m=n + 9))
        size += len(parts[-1])
    return "".join(parts)


def _repeat(head: str, unit: str, tail: str, target: int) -> str:
    count = max(1, (target - len(head) - len(tail)) // len(unit))
    return head + unit * count + tail


def evidence_clause(target: int) -> str:
    """One list item holding an evidence clause of thousands of path-like words, then a
    continuation line: the form that once made the importer quadratic."""
    head = "# Bench memory report\n\n## Shared records\n\n### Routes\n\n#### MEM-RTE-x — One route\n\n- "
    return _repeat(head, "Evidence: SRC-1, a.b ", "\n  continued\n", target)


def labelled_sentences(target: int) -> str:
    """One paragraph of thousands of 'Label: value.' sentences after one declaration."""
    head = "# Bench memory report\n\n## Shared records\n\n### Components\n\nMEM-CMP-x — One component. "
    return _repeat(head, "Consumer: a model. Conclusion status: wired, via a route. ", "\n", target)


def many_ids(target: int) -> str:
    """One line naming thousands of IDs, most of them declared nowhere."""
    head = "# Bench memory report\n\n## Boundary and evidence\n\n"
    return _repeat(head, "RTE-1, MEM-OBJ-a-b-c and `SRC-2` ", "\n", target)


RECORDS_HEAD = "# Bench agentic-system analysis\n\n## Shared records\n\n### Components\n\n"


def kind_level_records(target: int) -> str:
    """Record headings at their kind heading's level, each with a wrapped paragraph and a
    route's seven labelled fields in one paragraph (napkin's runs write both)."""
    unit = (
        "### CMP-{n} — Component {n}\n\nImplementation conclusion status: wired. It runs step {n}\n"
        "and returns. Evidence: SRC-1 `src/c{n}.py:1-9`.\n\n"
    )
    parts, n, size = [RECORDS_HEAD], 0, len(RECORDS_HEAD)
    while size < target:
        n += 1
        parts.append(unit.format(n=n))
        size += len(parts[-1])
    return "".join(parts)


def separator_spaces(target: int) -> str:
    """A table row shaped like a separator, then a long run of spaces and text: the pattern
    that was quadratic in the table reader and the measure."""
    return _repeat(RECORDS_HEAD + "| a |\n|---", " ", "x|\n", target)


def heading_spaces(target: int) -> str:
    """A heading of spaces, and one of ``#`` runs: the heading patterns that were quadratic."""
    return _repeat(RECORDS_HEAD + "# a", " ", "b\n", target // 2) + _repeat("## a", " #", "x\n", target // 2)


def link_openings(target: int) -> str:
    """A paragraph of ``[`` and one of unclosed links (``[a](``): the link pattern of the
    measure once started an attempt at each ``[`` that read to the line's end."""
    return _repeat(RECORDS_HEAD, "[", "\n\n", target // 2) + _repeat("", "[a](", "\n", target // 2)


def frontmatter_keys(target: int) -> str:
    """A frontmatter of keys no record field holds, each kept as prose at its line: the
    key's line was once found by splitting the frontmatter again for each key."""
    keys, n, size = [], 0, 0
    while size < target:
        keys.append(f"key-{n}: value {n}\n")
        size += len(keys[-1])
        n += 1
    return "---\ntype: types/agentic-system-analysis-result.md\n" + "".join(keys) + "---\n\n" + RECORDS_HEAD


def record_bodies(target: int) -> str:
    """Records whose body follows in list items and paragraphs, and follow-ups naming them:
    the record-body forms, and the census that counts their statuses and evidence."""
    commit = "0123456789abcdef0123456789abcdef01234567"
    unit = (
        "OBJ-{n} — Object {n}\n\n- Status: implementation wired; nothing observed.\n"
        "- Evidence: `src/o{n}.py`, `src/p{n}.py` @ `" + commit + "`.\n\n"
        "For OBJ-{n}, the object is read back. Operation conclusion status: uninspected.\n\n"
    )
    head = RECORDS_HEAD.replace("### Components", "### Operative objects")
    parts, n, size = [head], 0, len(head)
    while size < target:
        n += 1
        parts.append(unit.format(n=n))
        size += len(parts[-1])
    return "".join(parts)


CONSTRUCTS: dict[str, Callable[[int], str]] = {
    "record bodies, status and evidence items, follow-ups": record_bodies,
    "memory report (routes, fields, quotations)": memory_report,
    "result (every declaration and evidence form)": result_forms,
    "one evidence clause of many paths": evidence_clause,
    "one paragraph of labelled sentences": labelled_sentences,
    "one line of many IDs": many_ids,
    "record headings at the kind's level": kind_level_records,
    "a separator-shaped row of spaces": separator_spaces,
    "headings of spaces and of # runs": heading_spaces,
    "runs of [ and of unclosed links": link_openings,
    "many frontmatter keys kept as prose": frontmatter_keys,
}


def seconds(text: str, repeat: int) -> float:
    """Best of ``repeat`` runs, in CPU seconds of this process."""
    best = float("inf")
    for _ in range(repeat):
        start = time.process_time()
        render_measured(text, "bench.md", "bench")
        best = min(best, time.process_time() - start)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--small", type=int, default=10_000, help="bytes of the small document")
    parser.add_argument("--large", type=int, default=1_000_000, help="bytes of the large document")
    args = parser.parse_args()
    ratio_linear = args.large / args.small
    print(f"{'construct':<46} {'small':>9} {'large':>9} {'ratio':>7}  (about {ratio_linear:.0f} when linear)")
    for name, build in CONSTRUCTS.items():
        small, large = build(args.small), build(args.large)
        small_s, large_s = seconds(small, 5), seconds(large, 1)
        print(f"{name:<46} {small_s:>8.3f}s {large_s:>8.3f}s {large_s / small_s:>7.1f}")


if __name__ == "__main__":
    main()
