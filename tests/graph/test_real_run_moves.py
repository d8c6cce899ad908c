"""On a real history (instinctual-memory's 2026-09-25 result, then its 2026-10-01 set,
imported into a private folder), the moves an analyst reads in both documents are the
ones listed: routes of the single result pair with the memory member's routes that carry
them, no value is ever listed as moved against silence, and the profile's moves are its
values and the bases that changed (not the basis given per value instead of per axis).
Skipped when ``../shared/reference`` is absent."""

from __future__ import annotations

import subprocess
import sys

import pytest
from run_diff_support import REPO_ROOT

from generator.graph.run_diff import RunDiff, diff_runs
from generator.pipeline import check_records, check_system

REFERENCE = REPO_ROOT.parent / "shared" / "reference"
EARLIER = REFERENCE / "AAS-2026-09-25-instinctual-memory-01" / "result.md"
LATER = REFERENCE / "AAS-2026-10-01-instinctual-memory-01"
LATER_RUN = "AAS-2026-10-01-instinctual-memory-01"

pytestmark = pytest.mark.skipif(not LATER.is_dir(), reason="the reference analyses are absent")


@pytest.fixture(scope="module")
def instinctual_memory(tmp_path_factory: pytest.TempPathFactory) -> RunDiff:
    records = tmp_path_factory.mktemp("records")
    for document, extra in ((EARLIER, []), (LATER, ["--as-run"])):
        command = [sys.executable, "-m", "generator.cli.main", "import", str(document)]
        command += ["--system", "instinctual-memory", "--records", str(records), *extra]
        done = subprocess.run(command, cwd=REPO_ROOT, capture_output=True, text=True, check=False)
        # What the import could not keep is listed beside the run (exit 1); the run is written.
        assert f"kbgen import: wrote {records}" in done.stderr, done.stderr
    folder = records / "instinctual-memory"
    (old,) = [s for s in check_records(folder) if not s.source.run_folder]
    new = check_system(folder / "runs" / LATER_RUN, None, None, "instinctual-memory")
    return diff_runs(old.records, new.records)


def test_the_single_results_routes_pair_with_the_memory_members(instinctual_memory: RunDiff) -> None:
    pairs = {r.old.id: r.new.id for r in instinctual_memory.renumbered}
    assert pairs["RTE-1"] == "MEM-RTE-1"  # Ingest/backfill → Ingest source material into the journal
    assert pairs["RTE-2"] == "MEM-RTE-2"  # Consolidation → Consolidate events into facts
    assert pairs["RTE-4"] == "MEM-RTE-4"  # Search/read/history → Requested search, read and history
    assert pairs["RTE-7"] == "MEM-RTE-6"  # Erasure/tidy → Tidy and hard erase
    assert "MEM-RTE-1" not in {ref.id for ref in instinctual_memory.added}


def test_no_value_moves_against_silence(instinctual_memory: RunDiff) -> None:
    assert all(m.old is not None and m.new is not None for m in instinctual_memory.conclusions)
    # The set's records state no status the result stated: each is no longer stated.
    assert instinctual_memory.statements
    kinds = {m.change for m in instinctual_memory.statements}
    assert kinds <= {"no longer stated", "newly stated", "renamed"}


def test_the_profile_moves_an_analyst_reads(instinctual_memory: RunDiff) -> None:
    axes = {axis.axis: axis for axis in instinctual_memory.profile.axes}
    assert axes["behavioral_authority"].values_added == ("learning",)
    assert axes["curation_operations"].values_removed == ("decay",)
    assert axes["read_back_signal"].values_removed == ("identifier",)
    assert axes["trace_source"].values_removed == ("event-streams",)
    # The basis moved from afforded to wired where the earlier run said afforded …
    assert {(m.old, m.new) for m in axes["read_back_direction"].basis} == {("afforded", "wired")}
    # … and the axes whose basis is only given per value now did not move.
    for name in ("storage_substrate", "representational_form", "write_agency"):
        assert axes[name].basis == () and axes[name].reshaped is not None
