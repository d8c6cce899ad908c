"""``kbgen check <system>/runs/<run-id>``: a further run's folder is checked as that run of
its system, with the rules of the whole records folder's check (the rules across runs see
the system's other runs), and only that run is reported, named ``<system> (runs/<run-id>)``."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from generator.pipeline import check_records

REPO_ROOT = Path(__file__).resolve().parents[2]
CASES_DIR = REPO_ROOT / "tests" / "fixtures" / "check"
TWO_RUNS = CASES_DIR / "runs-two-runs-clean" / "records"
FIRST, SECOND = "AAS-2024-05-01-demo-01", "AAS-2024-06-01-demo-02"
SHIPPED_RUN = "AAS-2026-09-26-oh-my-pi-01"

# Every committed check fixture with a further run: its run folders, by case.
RUN_CASES = sorted(
    (case.name, run.name)
    for case in CASES_DIR.iterdir()
    for run in (case / "records" / "demo" / "runs").glob("*")
    if run.is_dir()
)


def _summary_lines(out: str) -> list[str]:
    return [line for line in out.splitlines() if not line.startswith(("records/", "    hint:"))]


def _diagnostic_lines(out: str) -> list[str]:
    return [line for line in out.splitlines() if line.startswith("records/")]


@pytest.fixture
def two_runs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The clean two-run fixture in a folder of its own, the current folder."""
    shutil.copytree(TWO_RUNS, tmp_path / "records")
    monkeypatch.chdir(tmp_path)
    return tmp_path / "records"


def test_the_fixtures_hold_further_runs_with_findings_across_runs() -> None:
    # The comparison below means something only if some run has findings of the rules
    # across runs (KB309) and of its folder's name (KB308).
    names = {case for case, _ in RUN_CASES}
    assert {"runs-two-runs-clean", "KB309-run-history-same-id", "KB308-run-folder-name"} <= names


@pytest.mark.parametrize(("case", "run"), RUN_CASES)
def test_a_run_folder_reports_what_the_records_folder_check_reports_for_it(
    case: str, run: str, monkeypatch: pytest.MonkeyPatch, kbgen
) -> None:
    monkeypatch.chdir(CASES_DIR / case)
    whole = kbgen("check", "records")
    (expected,) = [s for s in check_records(Path("records")) if s.source.run_folder == run]
    alone = kbgen("check", f"records/demo/runs/{run}")
    assert _diagnostic_lines(alone.out) == [d.as_text() for d in expected.diagnostics]
    # The same lines, and the same summary line, as the whole records folder's check gives the run.
    assert set(_diagnostic_lines(alone.out)) <= set(_diagnostic_lines(whole.out))
    (summary,) = _summary_lines(alone.out)
    assert summary.startswith(f"demo (runs/{run}): ")
    assert summary in _summary_lines(whole.out)
    assert alone.code == (1 if expected.errors else 0)
    as_json = kbgen("check", f"records/demo/runs/{run}", "--format", "json").json()
    assert as_json["systems"] == [
        item
        for item in kbgen("check", "records", "--format", "json").json()["systems"]
        if item.get("run_folder") == run
    ]


def test_a_run_id_two_runs_share_is_reported_on_the_run_checked_alone(
    monkeypatch: pytest.MonkeyPatch, kbgen
) -> None:
    monkeypatch.chdir(CASES_DIR / "KB309-run-history-same-id")
    result = kbgen("check", f"records/demo/runs/{FIRST}")
    assert result.code == 1
    assert _diagnostic_lines(result.out) == [
        f"records/demo/runs/{FIRST}/run.yaml:3:11: error KB309 run-history: run ID {FIRST} is the ID "
        "of the run in records/demo/ too"
    ]


def test_the_shipped_earlier_run_checks_clean_as_itself(tmp_path: Path, monkeypatch, kbgen) -> None:
    shutil.copytree(REPO_ROOT / "records", tmp_path / "records")
    monkeypatch.chdir(tmp_path)
    result = kbgen("check", f"records/oh-my-pi/runs/{SHIPPED_RUN}")
    assert result.code == 0, result.out
    assert "KB303" not in result.out
    (summary,) = _summary_lines(result.out)
    assert summary.startswith(f"oh-my-pi (runs/{SHIPPED_RUN}): ok — ")
    assert summary in _summary_lines(kbgen("check", "records").out)


def test_a_run_folder_with_an_error_is_reported_at_its_place_and_alone(two_runs: Path, kbgen) -> None:
    routes = two_runs / "demo" / "runs" / SECOND / "records.yaml"
    text = routes.read_text(encoding="utf-8")
    assert "    owner: CMP-1\n" in text
    routes.write_text(text.replace("    owner: CMP-1\n", "    owner: CMP-9\n", 1), encoding="utf-8")
    line = text[: text.index("    owner: CMP-1\n")].count("\n") + 1
    # The system's own run has an error of its own: not this run's, so not reported with it.
    own = two_runs / "demo" / "run.yaml"
    own.write_text(own.read_text(encoding="utf-8") + "bogus: 1\n", encoding="utf-8")
    result = kbgen("check", f"records/demo/runs/{SECOND}")
    assert result.code == 1
    (finding,) = _diagnostic_lines(result.out)
    assert finding == (
        f"records/demo/runs/{SECOND}/records.yaml:{line}:12: error KB202 dangling-reference-in-prose: "
        "CMP-9 in prose resolves to no record"
    )
    (summary,) = _summary_lines(result.out)
    assert summary.startswith(f"demo (runs/{SECOND}): failed — ") and summary.endswith("1 error, 0 warnings")
    # The system folder's check still checks both runs, each with its own finding.
    whole = kbgen("check", "records/demo")
    assert [s.split(":")[0] for s in _summary_lines(whole.out)] == ["demo", f"demo (runs/{SECOND})"]
    assert finding in _diagnostic_lines(whole.out)
    assert any(" KB103 " in found for found in _diagnostic_lines(whole.out))


@pytest.mark.parametrize("form", ["records/demo/runs/{run}/", "{root}/records/demo/runs/{run}"])
def test_a_run_folder_is_found_however_its_path_is_written(two_runs: Path, form: str, kbgen) -> None:
    path = form.format(run=SECOND, root=two_runs.parent)
    result = kbgen("check", path)
    assert result.code == 0, result.out
    (summary,) = _summary_lines(result.out)
    assert summary.startswith(f"demo (runs/{SECOND}): ok — ")


def test_a_run_folder_checked_from_inside_its_system(two_runs: Path, monkeypatch, kbgen) -> None:
    monkeypatch.chdir(two_runs / "demo")
    for path in (f"runs/{SECOND}", "runs/" + SECOND + "/."):
        result = kbgen("check", path)
        assert result.code == 0, result.out
        assert [s.split(":")[0] for s in _summary_lines(result.out)] == [f"demo (runs/{SECOND})"]
    monkeypatch.chdir(two_runs / "demo" / "runs" / SECOND)
    result = kbgen("check", ".")
    assert [s.split(":")[0] for s in _summary_lines(result.out)] == [f"demo (runs/{SECOND})"]


def test_a_system_folder_of_runs_only_is_checked_as_that_system(two_runs: Path, kbgen) -> None:
    # The system folder's own run moves below runs/: the folder holds nothing but runs/.
    system = two_runs / "demo"
    (system / "runs" / FIRST).mkdir()
    for path in system.glob("*.yaml"):
        path.rename(system / "runs" / FIRST / path.name)
    result = kbgen("check", "records/demo")
    assert result.code == 0, result.out
    assert [s.split(":")[0] for s in _summary_lines(result.out)] == [
        f"demo (runs/{FIRST})",
        f"demo (runs/{SECOND})",
    ]


def test_a_records_folder_inside_a_folder_named_runs_is_still_a_records_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, kbgen
) -> None:
    shutil.copytree(TWO_RUNS, tmp_path / "runs" / "records")
    monkeypatch.chdir(tmp_path)
    result = kbgen("check", "runs/records")
    assert result.code == 0, result.out
    assert [s.split(":")[0] for s in _summary_lines(result.out)] == ["demo", f"demo (runs/{SECOND})"]


def test_a_symlinked_runs_folder_refuses_the_run_given(two_runs: Path, tmp_path: Path, kbgen) -> None:
    elsewhere = tmp_path / "elsewhere"
    shutil.move(two_runs / "demo" / "runs", elsewhere)
    (two_runs / "demo" / "runs").symlink_to(elsewhere)
    result = kbgen("check", f"records/demo/runs/{SECOND}")
    assert result.code == 1
    (refusal,) = _diagnostic_lines(result.out)
    assert refusal.startswith("records/demo/runs/:1:1: error KB008 ")
    assert "symlink" in refusal
