"""A run's written conclusions are compared too: a sentence of one run's synthesis whose
claim reverses or whose status word changes in the next run's is a moved verdict, shown
with both sentences in the diff, its JSON and text, and on the changes page, linked to the
section on both runs' pages. A verdict kept, and a sentence that states no verdict, are
not listed: silence is not a move."""

from __future__ import annotations

from pathlib import Path

from run_diff_support import checked, edit, run_copy

from generator.graph.run_diff import RunDiff, diff_runs
from generator.outputs.run_diff_output import as_json, as_text
from generator.render.run_changes import render_run_changes

OLD_SYNTHESIS = [
    "Reflection is wired narrowly for consolidation progress in the curator loop.",
    "Checkpoint publication is afforded by the wrapper scripts for each batch.",
    "Retention of accepted facts is wired through the journal store and checkpoint files.",
    "Deletion of stale entries does not reach the exported snapshot files.",
]
NEW_SYNTHESIS = [
    "Reflection is not established for consolidation progress in the curator loop.",
    "Checkpoint publication is observed in the wrapper scripts for each batch.",
    "Retention of accepted facts is wired through the journal store and checkpoint files.",
    "Deletion of stale entries reaches some exported snapshot files.",  # states no verdict
]


def _synthesis(folder: Path, sentences: list[str]) -> None:
    def change(data: dict) -> None:
        data["result"]["bounded_synthesis"] = {"blocks": [" ".join(sentences)]}

    edit(folder, "result.yaml", change)


def _diff(tmp_path: Path) -> RunDiff:
    old, new = run_copy(tmp_path, "old"), run_copy(tmp_path, "new")
    _synthesis(old, OLD_SYNTHESIS)
    _synthesis(new, NEW_SYNTHESIS)
    return diff_runs(checked(old), checked(new))


def test_a_reversed_claim_and_a_changed_status_are_moved_verdicts(tmp_path: Path) -> None:
    diff = _diff(tmp_path)
    moves = {(m.old.text, m.new.text): m for m in diff.verdicts}
    assert set(moves) == {(OLD_SYNTHESIS[0], NEW_SYNTHESIS[0]), (OLD_SYNTHESIS[1], NEW_SYNTHESIS[1])}
    reflection = moves[OLD_SYNTHESIS[0], NEW_SYNTHESIS[0]]
    assert (reflection.role, reflection.change) == ("synthesis", "reversed")
    assert (reflection.old.verdict, reflection.new.verdict) == ("wired", "not established")
    checkpoint = moves[OLD_SYNTHESIS[1], NEW_SYNTHESIS[1]]
    assert (checkpoint.change, checkpoint.old.asserted, checkpoint.new.asserted) == (
        "status changed",
        ("afforded",),
        ("observed",),
    )
    assert (checkpoint.old.document, checkpoint.old.section) == ("result", "bounded_synthesis")
    assert diff.counts.verdicts_moved == 2


def test_verdicts_in_json_text_and_on_the_changes_page(tmp_path: Path) -> None:
    diff = _diff(tmp_path)
    document = as_json(diff)
    assert [v["change"] for v in document["verdicts"]] == ["reversed", "status changed"]
    assert list(document).index("verdicts") == list(document).index("conclusions") + 1
    text = as_text(diff)
    assert "Verdicts that moved (the runs' written conclusions)" in text
    head = "  ~ synthesis: Bounded synthesis (result) → Bounded synthesis (result), reversed: "
    head += "wired → not established"
    assert head in text.split("\n")
    assert f"      old: {OLD_SYNTHESIS[0]}" in text and f"      new: {NEW_SYNTHESIS[0]}" in text

    def old_section(document: str, key: str) -> str:
        return f"../old/result/#{key}"

    def new_section(document: str, key: str) -> str:
        return f"../new/result/#{key}"

    page = render_run_changes(diff, lambda _: None, lambda _: None, sections=(old_section, new_section))
    assert "## Verdicts that moved { #verdicts-that-moved }" in page
    assert page.index("#verdicts-that-moved }") < page.index("## Documents")
    assert '<a href="../old/result/#bounded_synthesis">Bounded synthesis</a>' in page
    assert '<a href="../new/result/#bounded_synthesis">Bounded synthesis</a>' in page
    assert "Reflection is not established" in page
    assert '<a href="#verdicts-that-moved">verdicts moved: 2</a>' in page


def test_kept_verdicts_and_silence_are_not_listed(tmp_path: Path) -> None:
    diff = _diff(tmp_path)
    listed = {m.old.text for m in diff.verdicts}
    assert OLD_SYNTHESIS[2] not in listed  # the same verdict, kept
    assert OLD_SYNTHESIS[3] not in listed  # the new sentence states no verdict
    old, new = run_copy(tmp_path, "same-old"), run_copy(tmp_path, "same-new")
    _synthesis(old, OLD_SYNTHESIS)
    _synthesis(new, OLD_SYNTHESIS)
    assert diff_runs(checked(old), checked(new)).verdicts == ()
