"""The shipped histories compared as their changes pages compare them: napkin's three
runs and oh-my-pi's two. No value is ever listed as moved against silence; the moves an
analyst reads in both documents (status verdicts, profile values and bases, the written
verdicts of the bounded synthesis) are listed, first on the page, paired with the right
record and linked into both runs' pages."""

from __future__ import annotations

import itertools
import re
import shutil

import pytest
from run_diff_support import REPO_ROOT

from generator.graph.run_diff import RunDiff, diff_runs
from generator.pipeline import PipelineResult, check_records, run_pipeline

NAPKIN = ("AAS-2026-09-27-napkin-01", "AAS-2026-09-27-napkin-04", "AAS-2026-09-27-napkin-05")


def _diffs(slug: str) -> list[RunDiff]:
    """Each run against the run before it, oldest first."""
    systems = check_records(REPO_ROOT / "records" / slug)
    runs = sorted((s.records for s in systems), key=lambda r: (r.run.run_date, r.run.run_id))
    return [diff_runs(old, new) for old, new in itertools.pairwise(runs)]


@pytest.fixture(scope="module")
def napkin() -> list[RunDiff]:
    return _diffs("napkin")


@pytest.fixture(scope="module")
def napkin_site(tmp_path_factory: pytest.TempPathFactory) -> PipelineResult:
    records = tmp_path_factory.mktemp("records")
    shutil.copytree(REPO_ROOT / "records" / "napkin", records / "napkin")
    return run_pipeline(records)


def _no_silence(diff: RunDiff) -> None:
    assert all(move.old is not None and move.new is not None for move in diff.conclusions)
    assert all(move.change == "moved" for move in diff.conclusions)
    assert all(move.change != "moved" for move in diff.statements)


def test_napkin_lists_no_value_against_silence(napkin: list[RunDiff]) -> None:
    assert [(d.old_run_id, d.new_run_id) for d in napkin] == [NAPKIN[:2], NAPKIN[1:]]
    for diff in napkin:
        _no_silence(diff)


def test_napkin_01_to_04_the_moves_an_analyst_reads(napkin: list[RunDiff]) -> None:
    diff = napkin[0]
    moves = {(m.old_record.id, m.new_record.id, m.field): (m.old, m.new) for m in diff.conclusions}
    # The README's progressive-knowledge claim: afforded on the specialist routes, then claimed.
    old, new = moves["CLM-2", "CLM-1", "claim conclusion status"]
    assert old is not None and old.startswith("afforded") and new == "claimed"
    axes = {axis.axis: axis for axis in diff.profile.axes}
    assert axes["lineage"].values_removed == ("imported",)
    assert axes["distilled_form"].values_added == ("symbolic",)
    assert axes["read_back_signal"].assessment is not None
    assert (axes["read_back_signal"].assessment.old, axes["read_back_signal"].assessment.new) == (
        "partial",
        "inapplicable",
    )
    assert {(m.old, m.new) for m in axes["behavioral_authority"].basis} == {("afforded", "wired")}
    # The synthesis: theory-builder conditions all afforded, then criticism and iteration uninspected.
    (verdict,) = diff.verdicts
    assert verdict.change == "status changed"
    assert verdict.old.text.startswith("**Theory-builder conditions 1–4:**")
    assert "actual formulated criticism is uninspected" in verdict.new.text
    assert (verdict.old.verdict, verdict.new.verdict) == ("afforded", "afforded, uninspected")


def test_napkin_04_to_05_the_moves_an_analyst_reads(napkin: list[RunDiff]) -> None:
    diff = napkin[1]
    moves = {(m.old_record.id, m.new_record.id, m.field): (m.old, m.new) for m in diff.conclusions}
    assert moves["RTE-7", "RTE-7", "conclusion status"] == ("wired", "wired, operation uninspected")
    # Reflection: afforded for a complying host, then left unestablished.
    (verdict,) = diff.verdicts
    assert verdict.change == "reversed"
    assert verdict.old.text.startswith("Reflection conclusion status: afforded")
    assert verdict.new.text.endswith("leave that relation unestablished.")


def test_napkin_changes_pages_list_the_moves_first_linked_into_both_runs(napkin_site: PipelineResult) -> None:
    earlier = "runs/aas-2026-09-27-napkin-04"
    for path, old_pages, new_pages in (
        (f"systems/napkin/{earlier}/changes.md", "../../aas-2026-09-27-napkin-01/", "../"),
        ("systems/napkin/changes.md", f"../{earlier}/", "../"),
    ):
        page = napkin_site.pages[path]
        headings = re.findall(r"^## (.+?) \{", page, flags=re.MULTILINE)
        assert headings[:2] == ["Conclusions that moved", "Verdicts that moved"], path
        verdicts = page.split("## Verdicts that moved", 1)[1].split("\n## ", 1)[0]
        assert f'(<a href="{old_pages}result/#bounded-synthesis">Bounded synthesis</a>)' in verdicts, path
        assert f'(<a href="{new_pages}result/#bounded-synthesis">Bounded synthesis</a>)' in verdicts, path
    conclusions = napkin_site.pages["systems/napkin/changes.md"].split("## Conclusions that moved", 1)[1]
    assert f'Old run: <a href="../{earlier}/result/#rte-7">RTE-7</a>' in conclusions
    assert 'new run: <a href="../result/#rte-7">RTE-7</a>' in conclusions


def test_oh_my_pi_lists_no_value_against_silence_and_pairs_the_claims() -> None:
    (diff,) = _diffs("oh-my-pi")
    _no_silence(diff)
    moves = {(m.old_record.id, m.new_record.id): (m.old, m.new) for m in diff.conclusions}
    # The two claims keep 'claimed' and say now what the routes do not establish.
    assert set(moves) == {("CLM-4", "CLM-4"), ("CLM-7", "CLM-5")}
    for old, new in moves.values():
        assert old == "claimed" and new is not None and new.startswith("claimed; ")
    # Its seed run states no verdict of reflection or theory building in its synthesis.
    assert diff.verdicts == ()
    # Every status the seed split into implementation and operation is renamed or no longer
    # stated, never moved against silence.
    assert diff.counts.status_fields_renamed > 0 and diff.counts.conclusions_no_longer_stated > 0
