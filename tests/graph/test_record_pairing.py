"""Pairing by content (``record_match``): a shipped run renumbered and edited pairs every
record with its true counterpart; unrelated systems pair (almost) nothing; and on real
runs analysed independently, the pairs an analyst would make are made."""

from __future__ import annotations

from pathlib import Path

import pytest
from renumbered_run import copy_run, edit_a_third, permutation, renumber
from run_diff_support import REPO_ROOT, checked

from generator.cli.main import main
from generator.graph import record_match
from generator.graph.record_features import ranges_overlap
from generator.graph.record_match import match_records
from generator.graph.run_diff import diff_runs
from generator.model.anchors import LineRange
from generator.model.system import SystemRecords
from generator.pipeline import check_records

SHARED = REPO_ROOT.parent / "shared"
NAPKIN = SHARED / "reference"


def _pairs(old: SystemRecords, new: SystemRecords) -> dict[str, str]:
    return {pair.old.id: pair.new.id for pair in match_records(old, new).pairs}


@pytest.mark.parametrize("seed", [7, 2026])
def test_a_renumbered_and_edited_run_pairs_every_record_with_its_counterpart(
    tmp_path: Path, seed: int
) -> None:
    old = copy_run(REPO_ROOT / "records" / "oh-my-pi", tmp_path / "old")
    new = copy_run(REPO_ROOT / "records" / "oh-my-pi", tmp_path / "new")
    before = checked(old)
    mapping = permutation([record.id for record in before.records], seed)
    assert sum(1 for a, b in mapping.items() if a != b) > len(mapping) // 2
    renumber(new, mapping)
    edited = edit_a_third(new, seed)
    assert len(edited) == len(mapping) // 3
    after = checked(new)
    matching = match_records(before, after)
    found = {pair.old.id: pair.new.id for pair in matching.pairs}
    wrong = {old_id: new_id for old_id, new_id in found.items() if mapping[old_id] != new_id}
    assert wrong == {}
    assert found == mapping  # every record paired, with its true counterpart
    assert matching.added == () and matching.removed == ()
    diff = diff_runs(before, after)
    assert diff.counts.renumbered == sum(1 for a, b in mapping.items() if a != b)
    assert diff.counts.possible_different_referents == 0
    # The old text is read as renumbered: the records edited are the records changed, and
    # a mention that only follows the renumbering (sources' too) is no change.
    assert {change.new.id for change in diff.changed} == edited  # the new run's IDs
    assert diff.conclusions == () and not diff.limitations and not diff.annotations


def test_a_group_too_large_for_the_optimal_assignment_is_paired_greedily(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    old = copy_run(REPO_ROOT / "records" / "oh-my-pi", tmp_path / "old")
    new = copy_run(REPO_ROOT / "records" / "oh-my-pi", tmp_path / "new")
    before = checked(old)
    mapping = permutation([record.id for record in before.records], 11)
    renumber(new, mapping)
    edit_a_third(new, 11)
    monkeypatch.setattr(record_match, "MAX_ASSIGNMENT", 4)
    assert _pairs(before, checked(new)) == mapping


def test_two_unrelated_systems_pair_almost_nothing() -> None:
    (decapod,) = (s.records for s in check_records(REPO_ROOT / "records" / "decapod"))
    (cheatsheet,) = (s.records for s in check_records(REPO_ROOT / "records" / "dynamic-cheatsheet"))
    assert len(_pairs(decapod, cheatsheet)) <= 2
    assert len(_pairs(cheatsheet, decapod)) <= 2


# ---------------------------------------------------------------- oh-my-pi's two runs

# (kind, old ID in the seed run AAS-2026-09-05-oh-my-pi-02, new ID in -01): the same thing
# as an analyst reading both documents names it.
OH_MY_PI_PAIRS = [
    ("SRC", "SRC-1", "SRC-1"),  # the oh-my-pi repository at be6cb82, the operational root in both
    ("CMP", "CMP-5", "CMP-4"),  # ExtensionRuntime/ExtensionToolWrapper → "Extension runtime"; loader.ts
    ("CMP", "CMP-21", "CMP-7"),  # Sharpshooter extraction/consolidation models; sharpshooter/*.ts
    ("CMP", "CMP-23", "CMP-6"),  # Mnemopi embedding model → "Mnemopi extractor and embedding models"
    ("OBJ", "OBJ-3", "OBJ-2"),  # tool result / command output → current tool calls and results
    ("OBJ", "OBJ-6", "OBJ-6"),  # advisor note and severity → advisor note plus severity levels
    ("OBJ", "OBJ-43", "OBJ-10"),  # autoresearch notes/playbook/ideas; update-notes.ts
    ("OBJ", "OBJ-42", "OBJ-11"),  # managed skill catalog → managed SKILL.md procedures; skills.ts
    ("RTE", "RTE-1", "RTE-1"),  # prompt → provider → tools → next turn; agent-loop.ts
    ("RTE", "RTE-2", "RTE-2"),  # tool-call admission through the extension wrapper
    ("RTE", "RTE-6", "RTE-7"),  # advisor note scheduling → advisor note admission and delivery
    ("RTE", "RTE-8", "RTE-10"),  # autoresearch benchmark execution and measurement
    ("RTE", "RTE-9", "RTE-11"),  # experiment keep/discard judgment and its log
    ("RTE", "RTE-10", "RTE-9"),  # TTSR match → interruption and reminder
    ("RTE", "RTE-25", "RTE-18"),  # Mnemopi retention, extraction and maintenance
    ("RTE", "RTE-26", "RTE-19"),  # Hindsight retention and recall
    ("RTE", "RTE-28", "RTE-20"),  # Sharpshooter extraction, consolidation and decisions
]


def test_the_pairs_an_analyst_makes_between_oh_my_pis_runs() -> None:
    seed, later = (s.records for s in check_records(REPO_ROOT / "records" / "oh-my-pi"))
    found = _pairs(seed, later)
    missed = [(kind, a, b, found.get(a)) for kind, a, b in OH_MY_PI_PAIRS if found.get(a) != b]
    assert missed == []


# ---------------------------------------------------------------- napkin -04 → -05

# (kind, old ID in AAS-2026-09-27-napkin-04, new ID in -05), read from the two documents.
NAPKIN_PAIRS = [
    ("SRC", "SRC-1", "SRC-1"),  # github.com/Michaelliv/napkin at 7582d6a in both
    ("CMP", "CMP-2", "CMP-1"),  # benchmark responder and judge models → answering and judging model
    ("OBJ", "OBJ-1", "OBJ-1"),  # Markdown notes and frontmatter; crud.ts, daily.ts, properties.ts
    ("OBJ", "OBJ-2", "OBJ-2"),  # NAPKIN.md project context (now "mutable")
    ("OBJ", "OBJ-3", "OBJ-3"),  # derived search/overview structures; search.ts, search-cache.ts
    ("OBJ", "OBJ-4", "OBJ-6"),  # operational configuration → vault configuration; config.ts
    ("OBJ", "OBJ-9", "OBJ-10"),  # canvas content → JSON Canvas content; canvas.ts
    ("OBJ", "OBJ-10", "OBJ-11"),  # bookmark selections → Obsidian bookmark records; bookmarks.ts
    ("OBJ", "OBJ-7", "OBJ-12"),  # Bases view definitions → persisted base-view definitions
    ("RTE", "RTE-2", "RTE-2"),  # caller-directed mutation (and withdrawal → durable)
    ("RTE", "RTE-3", "RTE-3"),  # skill-afforded → skill-directed distillation; distill/SKILL.md
    ("RTE", "RTE-4", "RTE-4"),  # skill tending; tend/SKILL.md
    ("RTE", "RTE-6", "RTE-5"),  # package update (admission); commands/update.ts
    ("RTE", "RTE-5", "RTE-8"),  # configuration (and scaffold) admission; config.ts, vault.ts
    ("RTE", "RTE-10", "RTE-12"),  # requested auxiliary views; bases, bookmarks, canvas
    ("CLM", "CLM-2", "CLM-2"),  # reported retrieval benchmark accuracy/performance
    ("BAP", "BAP-4", "BAP-4"),  # configuration force → configuration consumer
    ("BAP", "BAP-5", "BAP-3"),  # evaluation score → benchmark evaluator; longmemeval-eval.ts
]


@pytest.fixture(scope="module")
def napkin_runs(tmp_path_factory: pytest.TempPathFactory) -> tuple[SystemRecords, SystemRecords]:
    if not NAPKIN.is_dir():
        pytest.skip(f"the napkin reference documents are not here ({NAPKIN} is absent)")
    records = tmp_path_factory.mktemp("napkin") / "records"
    for number, as_run in (("04", False), ("05", True)):
        document = NAPKIN / f"AAS-2026-09-27-napkin-{number}" / "result.md"
        argv = ["import", str(document), "--system", "napkin", "--records", str(records)]
        assert main(argv + ["--as-run"] * as_run) == 0
    systems = {s.records.run.run_id: s.records for s in check_records(records / "napkin") if s.records.run}
    return systems["AAS-2026-09-27-napkin-04"], systems["AAS-2026-09-27-napkin-05"]


def test_the_pairs_an_analyst_makes_between_napkin_04_and_05(
    napkin_runs: tuple[SystemRecords, SystemRecords],
) -> None:
    found = _pairs(*napkin_runs)
    missed = [(kind, a, b, found.get(a)) for kind, a, b in NAPKIN_PAIRS if found.get(a) != b]
    assert missed == []
    # The component the ID-first pairing never paired with its counterpart.
    diff = diff_runs(*napkin_runs)
    (renumbered,) = [pair for pair in diff.renumbered if pair.old.id == "CMP-2"]
    assert renumbered.new.id == "CMP-1" and "1 shared cited file: bench/longmemeval-eval.ts" in renumbered.why


def test_line_ranges_overlap_in_one_sweep() -> None:
    """Two anchors' line ranges are compared by one sweep over both, sorted: thousands of
    ranges on each side cost no more than sorting them (every range against every other
    would be hundreds of millions of comparisons here)."""
    assert ranges_overlap([LineRange(1, 5)], [LineRange(5, 9)])
    assert not ranges_overlap([LineRange(1, 4)], [LineRange(5, 9)])
    assert ranges_overlap([LineRange(10, 20), LineRange(1, 2)], [LineRange(3, 4), LineRange(15, 15)])
    assert not ranges_overlap([LineRange(10, 20), LineRange(1, 2)], [LineRange(3, 4), LineRange(21, 30)])
    assert ranges_overlap([], [LineRange(1, 1)])  # a whole file shares every line
    evens = [LineRange(2 * i, 2 * i) for i in range(20_000)]
    odds = [LineRange(2 * i + 1, 2 * i + 1) for i in range(20_000)]
    assert not ranges_overlap(evens, odds)
