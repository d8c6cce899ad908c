"""The run table shows a run's companion files; both records of a supersession say so.

Rendered from the check fixtures ``clean-run-references`` and ``clean-supersession``."""

from __future__ import annotations

import re
from pathlib import Path

from generator.pipeline import run_pipeline

CHECK_FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "check"
DIGEST = "593207c1ea92222094a13a53fe6ec704326cdd7ebeebec964c97a1a8b2178d23"
RUN_STATE = "kb/reports/state/agentic-system-analysis/AAS-2024-05-01-demo-01/run-state.md"


def _pages(name: str) -> dict[str, str]:
    folder = CHECK_FIXTURES / name
    result = run_pipeline(folder / "records", folder)
    assert not result.errors
    return result.pages


def test_the_run_table_lists_the_runs_companion_files() -> None:
    text = _pages("clean-run-references")["systems/demo/index.md"]
    rows = [line for line in text.splitlines() if line.startswith("| ")]
    tier = next(i for i, row in enumerate(rows) if row.startswith("| Evidence tier |"))
    assert rows[tier + 1 : tier + 4] == [
        f"| Run state | `{RUN_STATE}` |",
        "| Generated review | `kb/agentic-systems/reviews/demo.md` |",
        "| Memory analysis report | "
        "`kb/reports/state/agentic-system-analysis/AAS-2024-05-01-demo-01/memory-report.md`, "
        f"SHA-256 `{DIGEST}` |",
    ]
    # A path of the method's repository is text: the site links none of them.
    assert f"]({RUN_STATE}" not in text and "reviews/demo.md)" not in text


def test_the_result_page_s_run_table_lists_them_too() -> None:
    """The result page's run table is a raw HTML table (its headings are all the Markdown
    the page leaves to the converter), with the same rows."""
    text = _pages("clean-run-references")["systems/demo/result.md"]
    cells = re.findall(r"(?m)^<td>(.*)</td>$", text)
    tier = cells.index("Evidence tier")
    assert cells[tier + 2] == "Route contract"  # the run's identity, then its companion files
    tier += 2
    assert cells[tier + 2 : tier + 8] == [
        "Run state",
        f"<code>{RUN_STATE}</code>",
        "Generated review",
        "<code>kb/agentic-systems/reviews/demo.md</code>",
        "Memory analysis report",
        "<code>kb/reports/state/agentic-system-analysis/AAS-2024-05-01-demo-01/memory-report.md</code>, "
        f"SHA-256 <code>{DIGEST}</code>",
    ]
    assert "<a" not in "".join(cells[tier + 2 : tier + 8])


def test_both_records_of_a_supersession_say_so() -> None:
    text = _pages("clean-supersession")["systems/demo/index.md"]
    superseded = text[text.index("{ #obj-1 ") : text.index("{ #obj-2 ")]
    assert (
        '<p class="kb-supersession__by"><strong>Superseded by</strong> '
        '<a href="#obj-2">OBJ-2</a>, <a href="#obj-3">OBJ-3</a></p>'
    ) in superseded
    assert "Supersedes" not in superseded
    for record, following in (("obj-2", "{ #obj-3 "), ("obj-3", None)):
        start = text.index(f"{{ #{record} ")
        part = text[start : text.index(following) if following else None]
        assert (
            '<p class="kb-supersession__of"><strong>Supersedes</strong> <a href="#obj-1">OBJ-1</a></p>'
            in part
        )
        assert "Superseded by" not in part
