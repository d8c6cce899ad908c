"""``kbgen import DOC --system S --as-run``: the new run folder is checked as ``kbgen check``
checks that run (with the system's other runs), and the summary line and the JSON count
its own findings: not the system's other runs', and not without the rules across runs.
Its record files name the editor schema from their depth (``runs/<run-id>/``)."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from generator.importer.emit import MODELINE, RUN_MODELINE
from generator.model.runs import run_history
from generator.pipeline import check_records

REPO_ROOT = Path(__file__).resolve().parents[2]
DOCUMENT = REPO_ROOT / "tests" / "fixtures" / "import" / "forms-result" / "document.md"
RUN_ID = "AAS-2026-01-01-tiny-01"
OTHER_RUN_ID = "AAS-2026-01-01-tiny-02"


@pytest.fixture
def tiny(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, kbgen) -> Path:
    """``records/tiny/``: the document imported as the system's own run, which checks clean."""
    monkeypatch.chdir(tmp_path)
    result = kbgen("import", str(DOCUMENT), "--system", "tiny")
    assert result.code == 0, result.out + result.err
    return tmp_path / "records" / "tiny"


def _second_document(tmp_path: Path) -> Path:
    """The same document under another run ID: a run of its own, clean beside the first."""
    second = tmp_path / "second.md"
    second.write_text(DOCUMENT.read_text(encoding="utf-8").replace(RUN_ID, OTHER_RUN_ID), encoding="utf-8")
    return second


def _summary(err: str) -> str:
    (line,) = [line for line in err.splitlines() if line.startswith("kbgen import: wrote ")]
    return line


def _break_the_own_run(system: Path) -> None:
    run = system / "run.yaml"
    run.write_text(run.read_text(encoding="utf-8") + "bogus: 1\n", encoding="utf-8")


def test_the_current_run_s_error_is_not_the_imported_run_s(tiny: Path, tmp_path: Path, kbgen) -> None:
    _break_the_own_run(tiny)
    assert [d.code for s in check_records(tiny) for d in s.errors] == ["KB103"]
    result = kbgen("import", str(_second_document(tmp_path)), "--system", "tiny", "--as-run")
    assert result.code == 0, result.out + result.err
    assert _summary(result.err).endswith("; it checks clean")
    assert "KB103" not in result.out
    assert (tiny / "runs" / OTHER_RUN_ID / "run.yaml").is_file()


def test_the_imported_run_s_error_across_runs_is_counted(tiny: Path, kbgen) -> None:
    # The same document again: the new run states the run ID of the system's own run
    # (KB309), an error only the check of the system's runs together sees.
    result = kbgen("import", str(DOCUMENT), "--system", "tiny", "--as-run")
    assert result.code == 1
    assert result.out.splitlines()[-1] == (
        f"records/tiny/runs/{RUN_ID}/run.yaml:4:11: error KB309 run-history: run ID {RUN_ID} is the ID "
        "of the run in records/tiny/ too"
    )
    assert _summary(result.err).endswith("; 1 error: the folder does not check clean")


def test_the_json_counts_the_imported_run_s_own_findings(tiny: Path, tmp_path: Path, kbgen) -> None:
    _break_the_own_run(tiny)
    clean = kbgen(
        "import", str(_second_document(tmp_path)), "--system", "tiny", "--as-run", "--format", "json"
    )
    assert clean.code == 0
    payload = clean.json()
    assert payload["folder"] == f"records/tiny/runs/{OTHER_RUN_ID}"
    assert payload["errors"] == 0
    assert not [d for d in payload["diagnostics"] if d["severity"] == "error"]
    assert payload["warnings"] == len(payload["diagnostics"])
    assert _summary(clean.err).endswith("; it checks clean")
    # Now the new run has an error of its own and the system's own run still has its own.
    failing = kbgen("import", str(DOCUMENT), "--system", "tiny", "--as-run", "--format", "json")
    assert failing.code == 1
    payload = failing.json()
    errors = [d for d in payload["diagnostics"] if d["severity"] == "error"]
    assert [(d["code"], d["file"], d["line"], d["col"]) for d in errors] == [
        ("KB309", f"records/tiny/runs/{RUN_ID}/run.yaml", 4, 11)
    ]
    assert payload["errors"] == 1
    assert _summary(failing.err).endswith("; 1 error: the folder does not check clean")


def _schema_target(path: Path) -> Path:
    first = path.read_text(encoding="utf-8").split("\n", 1)[0]
    prefix = "# yaml-language-server: $schema="
    assert first.startswith(prefix)
    return path.parent / first[len(prefix) :]


def test_every_file_names_the_schema_from_its_own_folder(tiny: Path, tmp_path: Path, kbgen) -> None:
    schemas = tmp_path / "schemas"
    schemas.mkdir()
    shutil.copy(REPO_ROOT / "schemas" / "records.schema.json", schemas)
    # Two further runs: the current one (-02, the latest) and an earlier one (-00).
    assert kbgen("import", str(_second_document(tmp_path)), "--system", "tiny", "--as-run").code == 0
    earlier = tmp_path / "earlier.md"
    earlier.write_text(
        DOCUMENT.read_text(encoding="utf-8").replace(RUN_ID, "AAS-2026-01-01-tiny-00"), encoding="utf-8"
    )
    assert kbgen("import", str(earlier), "--system", "tiny", "--as-run").code == 0
    history = run_history("tiny", [(s.source.run_folder, s.records) for s in check_records(tiny)])
    assert history.current.folder == OTHER_RUN_ID
    assert [run.folder for run in history.runs] == ["AAS-2026-01-01-tiny-00", "", OTHER_RUN_ID]
    files = sorted(tiny.rglob("*.yaml"))
    assert {path.parent.name for path in files} == {"tiny", OTHER_RUN_ID, "AAS-2026-01-01-tiny-00"}
    for path in files:
        target = _schema_target(path)
        assert os.path.exists(target), path
        assert Path(os.path.normpath(target)) == schemas / "records.schema.json"
        in_run = path.parent.parent.name == "runs"
        assert path.read_text(encoding="utf-8").startswith(RUN_MODELINE if in_run else MODELINE)


def test_the_shipped_records_name_the_schema_from_their_folders() -> None:
    for path in sorted((REPO_ROOT / "records").rglob("*.yaml")):
        if path.read_text(encoding="utf-8").startswith("# yaml-language-server:"):
            assert _schema_target(path).resolve() == REPO_ROOT / "schemas" / "records.schema.json", path
