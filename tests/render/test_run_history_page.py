"""The history page (``run_history_page``): a system of three runs or more gets one, beside
its current run's pages and after its changes page in the navigation; it opens with the
conclusions that moved (each value linked to the record in its run), then the profile
and every record across the runs. A system of two runs has none; record text stays text."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from many_runs import earlier_run_id, make_many_runs

from generator.mkdocs.nav import systems_nav
from generator.pipeline import PipelineResult, run_pipeline

HOSTILE = "<script>alert(1)</script> {{ 7*7 }} [x](javascript:alert(1))"
HISTORY = "systems/demo/history.md"


def _three_runs(records: Path) -> Path:
    """demo with three runs: RTE-1's status moves from the oldest to the middle run and
    again to the current one; the middle run's component label is hostile."""
    system = make_many_runs(records, 3)
    oldest, middle = (system / "runs" / earlier_run_id(index) for index in (0, 1))
    text = (middle / "records.yaml").read_text(encoding="utf-8")
    moved = text.replace(
        "label: Prompt to answer\n    progression: User prompt, then CMP-1, then the answer.\n"
        "    owner: CMP-1\n    statuses:\n      implementation conclusion status: wired",
        "label: Prompt to answer\n    progression: User prompt, then CMP-1, then the answer.\n"
        "    owner: CMP-1\n    statuses:\n      implementation conclusion status: claimed",
    )
    assert moved != text
    (middle / "records.yaml").write_text(
        moved.replace("label: Agent loop", f"label: '{HOSTILE}'"), encoding="utf-8"
    )
    current = (system / "records.yaml").read_text(encoding="utf-8")
    (system / "records.yaml").write_text(
        current.replace(
            "implementation conclusion status: wired\n    guarantee",
            "implementation conclusion status: observed\n    guarantee",
        ),
        encoding="utf-8",
    )
    assert (oldest / "records.yaml").is_file()
    return system


@pytest.fixture(scope="module")
def result(tmp_path_factory: pytest.TempPathFactory) -> PipelineResult:
    records = tmp_path_factory.mktemp("history") / "records"
    _three_runs(records)
    found = run_pipeline(records)
    assert not found.errors
    return found


def test_a_system_of_three_runs_has_a_history_page(result: PipelineResult) -> None:
    page = result.pages[HISTORY]
    assert "# demo: history of 3 runs { #top }" in page or "history of 3 runs" in page
    heads = re.findall(r"^## .*\{ #([a-z-]+) \}", page, re.M)
    assert heads == ["conclusions-that-moved", "records-across-the-runs", "runs"]


def test_the_moved_conclusion_has_a_value_per_run_each_linked_to_its_run(result: PipelineResult) -> None:
    page = result.pages[HISTORY]
    moved = page[page.index("{ #conclusions-that-moved }") : page.index("{ #records-across-the-runs }")]
    row = re.search(r"<tr><td>.*?RTE-1.*?</tr>", moved)
    assert row is not None
    cells = re.findall(r"<td>(.*?)</td>", row.group(0))
    assert cells[1] == "implementation conclusion status"
    values = [re.sub(r"<[^>]+>", "", cell) for cell in cells[2:]]
    assert values == ["wired", "claimed", "observed"]
    targets = [re.search(r'href="([^"]+)"', cell).group(1) for cell in cells[2:]]  # type: ignore[union-attr]
    # Raw HTML links are final URLs from the history page's own URL (systems/demo/history/).
    assert targets == [
        f"../runs/{earlier_run_id(0).lower()}/#rte-1",
        f"../runs/{earlier_run_id(1).lower()}/#rte-1",
        "../#rte-1",
    ]
    # Only RTE-1 moved: CMP-1's label changed, its status did not.
    assert moved.count("<tr><td>") == 1


def test_the_history_is_listed_after_the_changes_page_and_on_the_system_page(result: PipelineResult) -> None:
    (section,) = [
        entry["Demo"]
        for entry in systems_nav(result.summaries())
        if isinstance(entry, dict) and "Demo" in entry
    ]
    titles = [next(iter(item)) for item in section if isinstance(item, dict)]
    assert titles[-2:] == ["Changes", "History"]
    assert section[-1] == {"History": HISTORY}
    system_page = result.pages["systems/demo/index.md"]
    assert "[the history of the 3 runs](history.md)" in system_page
    oldest = result.pages[f"systems/demo/runs/{earlier_run_id(0).lower()}/index.md"]
    assert "[the history page](../../history.md)" in oldest


def test_hostile_record_text_stays_text(result: PipelineResult) -> None:
    page = result.pages[HISTORY]
    assert (
        "<script>" not in page
        and "{{" not in page
        and "javascript:" not in page.replace("javascript&#58;", "")
    )
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page


def test_a_system_of_two_runs_has_none(tmp_path: Path) -> None:
    make_many_runs(tmp_path / "records", 2)
    found = run_pipeline(tmp_path / "records")
    assert "systems/demo/changes.md" in found.pages and HISTORY not in found.pages
    assert "history" not in found.pages["systems/demo/index.md"].lower()


def test_the_page_is_deterministic(tmp_path: Path, result: PipelineResult) -> None:
    records = tmp_path / "records"
    _three_runs(records)
    assert run_pipeline(records).pages[HISTORY] == result.pages[HISTORY]
