"""``kbgen import SET --system S --as-run``: an analysis set folder becomes a further run of
an existing system (``records/S/runs/<run-id>/``), holding the files its import as a system
holds, checked as ``kbgen check`` checks that run, and published beside the current run
with a changes page between them.

The real set: the 1 October instinctual-memory set, imported as a further run of a copy of
the shipped ``records/instinctual-memory`` (whose current run is the 2 October set)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import yaml

from generator.importer import import_document, import_run
from generator.importer.emit import RUN_MODELINE
from generator.pipeline import check_records, run_pipeline

REPO_ROOT = Path(__file__).resolve().parents[2]
EARLIER_SET = REPO_ROOT.parent / "shared" / "reference" / "AAS-2026-10-01-instinctual-memory-01"
SHIPPED = REPO_ROOT / "records" / "instinctual-memory"
EARLIER_RUN = "AAS-2026-10-01-instinctual-memory-01"
CURRENT_RUN = "AAS-2026-10-02-instinctual-memory-02"

pytestmark = pytest.mark.skipif(
    not EARLIER_SET.is_dir(), reason="the reference sets are not beside the repository"
)


@pytest.fixture
def records(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A records folder holding a copy of the shipped instinctual-memory system."""
    monkeypatch.chdir(tmp_path)
    shutil.copytree(SHIPPED, tmp_path / "records" / "instinctual-memory")
    return tmp_path / "records"


def test_the_set_is_written_as_a_further_run_that_checks_clean(records: Path, kbgen) -> None:
    result = kbgen(
        "import", str(EARLIER_SET), "--system", "instinctual-memory", "--as-run", "--format", "json"
    )
    # The runtime member pins OBJ-1's evidence at a commit no source of that member states
    # (the set's sources are the overview's): the five paths are listed, never given a source.
    assert result.code == 1, result.out + result.err
    payload = result.json()
    run = records / "instinctual-memory" / "runs" / EARLIER_RUN
    assert payload["folder"] == run.relative_to(records.parent).as_posix()
    assert payload["errors"] == 5
    assert {(d["code"], d["line"]) for d in payload["diagnostics"] if d["severity"] == "error"} == {
        ("KB614", 40)
    }
    assert payload["structure"]["records"] == {"stated": 30, "kept": 30}
    assert payload["structure"]["anchors"] == {"stated": 62, "kept": 57}
    assert payload["coverage"]["units"] == payload["coverage"]["kept"]
    [checked] = check_records(run)
    assert checked.errors == []
    assert checked.records.run is not None and checked.records.run.run_id == EARLIER_RUN
    assert checked.records.analysis_set is not None
    assert checked.records.analysis_set.run_id == EARLIER_RUN


def test_the_run_folder_holds_what_the_set_s_import_as_a_system_holds(records: Path, tmp_path: Path) -> None:
    outcome = import_run(EARLIER_SET, "instinctual-memory", records)
    assert outcome.folder == records / "instinctual-memory" / "runs" / EARLIER_RUN
    alone = import_document(EARLIER_SET, "instinctual-memory", tmp_path / "alone")
    assert alone.folder is not None
    as_run = sorted(p.name for p in outcome.folder.iterdir())
    assert as_run == sorted(p.name for p in alone.folder.iterdir())
    assert "set.yaml" in as_run
    for name in as_run:
        text = (outcome.folder / name).read_text(encoding="utf-8")
        # The same records, each file naming the schema from two folders further down.
        assert text.startswith(RUN_MODELINE), name
        assert yaml.safe_load(text) == yaml.safe_load((alone.folder / name).read_text(encoding="utf-8"))
    # The system's own run is untouched.
    assert sorted(p.name for p in (records / "instinctual-memory").iterdir()) == sorted(
        [*(p.name for p in SHIPPED.iterdir()), "runs"]
    )


def test_the_system_is_published_with_both_runs_and_the_changes_between(records: Path, kbgen) -> None:
    assert kbgen("import", str(EARLIER_SET), "--system", "instinctual-memory", "--as-run").code == 1
    result = run_pipeline(records)
    assert result.errors == []
    earlier = f"systems/instinctual-memory/runs/{EARLIER_RUN.lower()}/"
    assert {path for path in result.pages if path.startswith(earlier)} == {
        f"{earlier}{page}.md"
        for page in ("index", "overview", "runtime", "memory-report", "epistemic", "reconciliation")
    }
    changes = result.pages["systems/instinctual-memory/changes.md"]
    assert EARLIER_RUN in changes and CURRENT_RUN in changes
    # The current run is still the system's own: its pages are the system's.
    assert CURRENT_RUN in result.pages["systems/instinctual-memory/overview.md"]
