"""Worst-case inputs for the text path: time at 10 KB and at 1 MB, and their ratio.

    python3 benchmarks/linear.py

A linear step shows a ratio near 100 (the input grows 100-fold); a quadratic one shows
about 10,000. The constant matters too: compare a hostile row's 1 MB time with the
"words and IDs" row (a flood of image openers is read without the link rules; one
closed at the end keeps them, and costs what dense Markdown prose does). Timings are
the best of a few runs (the machine is shared and noisy); the ratios are what to
compare between revisions. Nothing here asserts a time.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

from generator.graph.system_graph import link_system
from generator.graph.word_diff import word_diff
from generator.importer.build import build
from generator.importer.census import census
from generator.importer.document import _read_blocks, parse_document
from generator.importer.folding import words
from generator.importer.recognisers.amendments import amendment_text
from generator.importer.recognisers.ledger import labelled_lines
from generator.load.records import load_record_text
from generator.lsp.yaml_context import context_at
from generator.model.anchors import find_anchors
from generator.model.ids import grammar, resolve_id
from generator.model.sets import LEDGER_LABELS
from generator.outputs.search import _text_of
from generator.pipeline import run_pipeline
from generator.render.markdown import escape
from generator.render.rawhtml import code_block
from generator.render.registry import PLACEMENT
from generator.render.text import Linker, find_code_spans

ROOT = Path(__file__).resolve().parent.parent
SMALL, LARGE = 10_000, 1_000_000


def _fill(unit: str, size: int) -> str:
    """``unit`` repeated to ``size`` characters; a unit ending in '...' grows its last part instead."""
    if unit.endswith("..."):
        head, tail = unit[:-3].split("|")
        return head + (tail * size)[: size - len(head)]
    return (unit * (size // len(unit) + 1))[:size]


def _ids(text: str) -> None:
    declared = frozenset({"RTE-1", "MEM-RTE-a"})
    for match in grammar().in_text.finditer(text):
        resolve_id(match.group(0), declared)


def _positions_in_folded(text: str) -> None:
    """Every ID of a folded block scalar located back to its line and column."""
    words = text.split(" ")
    lines = [" ".join(words[i : i + 12]) for i in range(0, len(words), 12)]
    loaded, _ = load_record_text("k: >\n" + "".join(f"  {line}\n" for line in lines), "bench.yaml")
    assert loaded is not None
    locate = loaded.locator(("k",))
    for match in grammar().in_text.finditer(loaded.data["k"]):
        locate(match.start())


def _amendment(text: str) -> None:
    """A reconciliation paragraph 'Amendment: <text>' cut into its IDs and labelled parts."""
    amendment_text("Amendment: RTE-1, " + text + " and RTE-2's reads.")


def _ledger_lines(text: str) -> None:
    """A ledger entry's lines read: a 'Route ID:' line, then the text as lines (labels or wraps)."""
    labelled_lines(["Route ID: RTE-1", *text.split("\n")], 1)


def _frontmatter_keys(text: str) -> None:
    """A document whose frontmatter holds one key per 10 characters of the text, none a
    record field: each is kept as prose and located at its line."""
    keys = "".join(f"k{i}: v\n" for i in range(len(text) // 10))
    head = "---\ntype: types/agentic-system-analysis-result.md\n"
    build(parse_document(head + keys + "---\n\n# T\n\n## Run identity\n\nA run.\n"), "bench.md", "bench")


def _ledger_section(text: str) -> None:
    """An epistemic member whose ledger section is the text (entries and the prose after them)."""
    head = "---\ntype: agentic-system-epistemic-report\n---\n\n# E\n\n## Authority-route ledger\n\n"
    build(parse_document(head + text), "bench.md", "bench", "epistemic_report")


# One well-formed ledger entry: every label in order, controlled values where needed.
LEDGER_VALUES = {
    "routes": "RTE-1",
    "route_function": "retention",
    "architectural_status": "implemented",
    "content_relation": "no content change",
}
LEDGER_ENTRY = "".join(f"{label}: {LEDGER_VALUES.get(name, 'x')}\n" for name, label in LEDGER_LABELS.items())


def _word_diff_edits(text: str) -> None:
    """kbgen diff of a field whose every seventh word changed."""
    words = text.split(" ")
    word_diff(text, " ".join(w + "x" if i % 7 == 0 else w for i, w in enumerate(words)))


def _word_diff_shuffled(text: str) -> None:
    """kbgen diff of a field against its own words in another order: with words repeating
    in a cycle just under the matcher's 'popular' threshold, its worst case."""
    words = text.split(" ")
    word_diff("a " + text, "b " + " ".join(words[(i * 7) % len(words)] for i in range(len(words))))


# A hundred words in a cycle: at 10 KB each occurs just under the matcher's 'popular' threshold.
CYCLE_OF_WORDS = " ".join(f"w{i}" for i in range(100)) + " "


def _completion_context(text: str) -> None:
    """The key path under a cursor at the end of a record file's last line (kbgen lsp)."""
    lines = text.split("\n")
    context_at(text, len(lines) - 1, len(lines[-1]))


def _linker(html: bool = False) -> Linker:
    records = ROOT / "tests" / "fixtures" / "render" / "records"
    result = run_pipeline(records, ROOT / "tests" / "fixtures" / "render")
    return Linker(link_system(result.systems[0].records, PLACEMENT), "result", html=html)


CENSUS_UNIT = (
    "OBJ-1 — Object\n\n- Status: implementation wired; x.\n- Evidence: `src/a.py` @ "
    "`0123456789abcdef0123456789abcdef01234567`.\n\nFor OBJ-1, read back. SRC-1 `b.py:1-2`.\n\n"
)


def _census(text: str) -> None:
    """The import's census of a records section holding ``text`` (its blocks read afresh)."""
    _read_blocks.cache_clear()
    census("# R\n\n## Shared records\n\n### Operative objects\n\n" + text)


def cases() -> list[tuple[str, Callable[[str], object], str]]:
    linker = _linker()
    html_linker = _linker(html=True)  # raw HTML blocks: HTML escaping, final URLs
    return [
        ("escape: blank lines of spaces", escape, "x\n \n \n"),
        ("escape: setext underline run", escape, "=" * 50 + "x\n"),
        ("code spans: `a", find_code_spans, "`a"),
        ("code spans: ``", find_code_spans, "``"),
        ("code spans: growing unclosed runs", find_code_spans, "".join("`" * k + "a" for k in range(1, 200))),
        ("anchors in text: many paths", find_anchors, "SRC-1 a/b.ts:1-2; "),
        ("anchors in text: one long path", find_anchors, "SRC-1 |a...."),
        ("IDs in text: many IDs", _ids, "RTE-1 MEM-RTE-a "),
        ("IDs in text: one long slug", _ids, "MEM-RTE-|a-..."),
        ("anchors in text: document locators", find_anchors, "SRC-1 §3.1, SRC-2 Table 2; "),
        ("positions in a folded scalar", _positions_in_folded, "RTE-1 word "),
        ("amendment: many amended IDs", _amendment, "RTE-1, MEM-RTE-a, "),
        ("amendment: many labels", _amendment, "RTE-1's x Evidence: y Affected findings: z "),
        ("ledger entry: many wrapped lines", _ledger_lines, "a wrapped value line\n"),
        ("ledger entry: many repeated labels", _ledger_lines, "Gap/limit: x\n"),
        ("ledger section: many entries", _ledger_section, LEDGER_ENTRY + "\n"),
        ("import census: statuses, evidence, follow-ups", _census, CENSUS_UNIT),
        (
            "import census: one evidence clause of many paths",
            _census,
            "Evidence: `a/b.py:1-2`, SRC-1 `c.py` ",
        ),
        ("import words: a run of [", words, "["),
        ("import words: unclosed links", words, "[a]("),
        ("import frontmatter: many kept keys", _frontmatter_keys, "k"),
        ("ledger section: many remarks", _ledger_section, LEDGER_ENTRY + "\n|A remark.\n\n..."),
        ("Linker.text: IDs, anchors, code", linker.text, "See OBJ-1 in SRC-1 src/a.py:1 and `x`.\n \n"),
        ("Linker.cell: paragraphs", linker.cell, "a\n\n"),
        ("HTML Linker.text: IDs, anchors", html_linker.text, "See OBJ-1 in SRC-1 src/a.py:1 and `x`.\n \n"),
        ("HTML Linker.text: Markdown in prose", html_linker.text, "**a** *b* `c` [d](https://e.org) RTE-1 "),
        ("HTML Linker.text: words and IDs", html_linker.text, "See OBJ-1 and words, "),
        ("HTML Linker.text: image openers", html_linker.text, "![a]("),
        ("HTML Linker.text: image openers, closed", lambda text: html_linker.text(text + ")"), "![a]("),
        ("HTML Linker.text: link openers, spaced", html_linker.text, "[a](x "),
        ("Linker.text: image openers", linker.text, "![a]("),
        ("HTML Linker.inline: open brackets", html_linker.inline, "["),
        ("HTML Linker.inline: brackets, links", html_linker.inline, "[[[[[a](b) "),
        ("HTML Linker.inline: unpaired stars", html_linker.inline, "*a"),
        ("HTML Linker.inline: unclosed links", html_linker.inline, "[a]("),
        ("code block (raw HTML): blank lines", code_block, "a  \n\n"),
        ("lsp completion: a line of spaces", _completion_context, "k|    ..."),
        ("lsp completion: spaces, then '#'", _completion_context, "k|          #x: y"),
        ("lsp completion: many nested keys", _completion_context, "  k:\n"),
        ("word diff: every 7th word changed", _word_diff_edits, "alpha beta gamma delta "),
        ("word diff: cyclic words reordered", _word_diff_shuffled, CYCLE_OF_WORDS),
        ("search text: tags left open", _text_of, '<a b="x" '),
        ("search text: open tags, then one '>'", _text_of, '>|<a b="x" ...'),
    ]


def best_of(func: Callable[[str], object], text: str, runs: int = 3) -> float:
    best = float("inf")
    for _ in range(runs):
        start = time.perf_counter()
        func(text)
        best = min(best, time.perf_counter() - start)
    return best


def main() -> None:
    print(f"{'input':40} {'10 KB':>10} {'1 MB':>10} {'ratio':>8}")
    for name, func, unit in cases():
        small = best_of(func, _fill(unit, SMALL))
        large = best_of(func, _fill(unit, LARGE), runs=1)
        print(f"{name:40} {small * 1000:9.2f}ms {large * 1000:9.1f}ms {large / max(small, 1e-9):8.0f}")


if __name__ == "__main__":
    main()
