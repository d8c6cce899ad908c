"""Several runs of one system: a system folder's own run and its further runs below
``runs/<run-id>/``, checked one by one, the current one published at the system's pages
and every earlier one below ``runs/<run-id>/`` of them, with a banner naming the current run."""

from __future__ import annotations

import re
import shutil
from pathlib import Path
from typing import Any

import pytest

from generator.lsp.workspace import RecordsWorkspace
from generator.mkdocs.nav import systems_nav
from generator.pipeline import check_records, run_pipeline

REPO_ROOT = Path(__file__).resolve().parents[2]
TWO_RUNS = REPO_ROOT / "tests" / "fixtures" / "check" / "runs-two-runs-clean" / "records"
FIRST, SECOND = "AAS-2024-05-01-demo-01", "AAS-2024-06-01-demo-02"
REFERENCE = REPO_ROOT.parent / "shared" / "reference" / "AAS-2026-09-26-oh-my-pi-01" / "result.md"


@pytest.fixture
def records(tmp_path: Path) -> Path:
    target = tmp_path / "records"
    shutil.copytree(TWO_RUNS, target)
    return target


def _run_file(records: Path, folder: str = "") -> Path:
    return records / "demo" / (f"runs/{folder}" if folder else "") / "run.yaml"


def _mark_current(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("  summary:", "  current: true\n  summary:", 1), encoding="utf-8")


def test_each_run_is_checked_on_its_own_and_ids_repeat_across_runs(records: Path) -> None:
    systems = check_records(records)
    assert [(s.source.slug, s.source.run_folder) for s in systems] == [("demo", ""), ("demo", SECOND)]
    assert all(not s.errors for s in systems)
    # Both runs declare RTE-1 and CMP-1: IDs are unique within a run, not across runs.
    assert all({"RTE-1", "CMP-1"} <= {r.id for r in s.records.records} for s in systems)


def test_the_latest_run_is_current_and_the_earlier_one_moves_below_runs(records: Path) -> None:
    result = run_pipeline(records)
    assert not result.errors
    assert [g.slug for g in result.graphs] == ["demo"]
    assert result.graphs[0].system.run.run_id == SECOND
    earlier = f"systems/demo/runs/{FIRST.lower()}"
    assert [g.slug for g in result.earlier_runs] == [f"demo/runs/{FIRST.lower()}"]
    assert f"{earlier}/index.md" in result.pages
    # An earlier run has no review: the review is of the current run.
    assert not any(path.startswith(earlier) and path.endswith("review.md") for path in result.pages)
    assert SECOND in result.pages["systems/demo/index.md"]


def test_every_page_of_an_earlier_run_carries_the_banner(records: Path) -> None:
    result = run_pipeline(records)
    earlier = [path for path in result.pages if path.startswith("systems/demo/runs/")]
    assert earlier
    for path in earlier:
        if path.endswith("/changes.md"):
            continue
        text = result.pages[path]
        assert '!!! warning "An earlier run"' in text, path
        assert f"`{FIRST}`" in text and f"`{SECOND}`" in text
    for path, text in result.pages.items():
        if not path.startswith("systems/demo/runs/"):
            assert "An earlier run" not in text, path


def test_the_system_page_lists_every_run_latest_first(records: Path) -> None:
    page = run_pipeline(records).pages["systems/demo/index.md"]
    section = page.split("## Runs", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in section.splitlines() if line.startswith("| [")]
    assert len(rows) == 2
    assert SECOND in rows[0] and "(current)" in rows[0] and "(this page)" in rows[0]
    assert FIRST in rows[1] and "first run" in rows[1]
    assert "2024-06-01" in rows[0] and "complete" in rows[0] and "code-grounded" in rows[0]
    assert re.search(r"\]\(changes\.md\)", rows[0])  # the changes since the run before


def test_current_true_is_a_one_line_edit_that_moves_the_pages(records: Path) -> None:
    _mark_current(_run_file(records))
    result = run_pipeline(records)
    assert not result.errors
    assert result.graphs[0].system.run.run_id == FIRST
    assert [g.slug for g in result.earlier_runs] == [f"demo/runs/{SECOND.lower()}"]
    assert f"systems/demo/runs/{SECOND.lower()}/index.md" in result.pages


def test_cross_system_pages_read_the_current_run(records: Path) -> None:
    result = run_pipeline(records)
    index = result.pages["systems/index.md"]
    assert SECOND in index and FIRST not in index


def test_a_system_of_one_run_has_no_history(tmp_path: Path) -> None:
    records = tmp_path / "records"
    shutil.copytree(TWO_RUNS, records)
    shutil.rmtree(records / "demo" / "runs")
    result = run_pipeline(records)
    assert result.graphs[0].history is None and not result.earlier_runs
    assert "## Runs" not in result.pages["systems/demo/index.md"]


def test_a_system_folder_with_only_runs_has_no_run_of_its_own(records: Path) -> None:
    root = records / "demo"
    (root / "runs" / FIRST).mkdir()
    for name in ("records.yaml", "run.yaml", "sources.yaml"):
        (root / name).rename(root / "runs" / FIRST / name)
    systems = check_records(records)
    assert [s.source.run_folder for s in systems] == [FIRST, SECOND]
    assert not any(s.errors for s in systems)


def test_the_nav_lists_the_changes_page_and_no_earlier_run(records: Path) -> None:
    """Every page carries the nav: an earlier run is listed once, on the system page."""
    result = run_pipeline(records)
    nav = systems_nav(result.summaries())
    demo = next(entry["Demo"] for entry in nav if isinstance(entry, dict) and "Demo" in entry)
    assert {"Changes": "systems/demo/changes.md"} in demo
    assert FIRST not in repr(nav) and FIRST.lower() not in repr(nav)
    rows = result.pages["systems/demo/index.md"].split("## Runs", 1)[1]
    assert f"runs/{FIRST.lower()}/index.md" in rows


def test_an_earlier_run_links_the_runs_table_instead_of_repeating_it(records: Path) -> None:
    page = run_pipeline(records).pages[f"systems/demo/runs/{FIRST.lower()}/index.md"]
    assert "## Runs" not in page
    assert "[2 runs](../../index.md#runs)" in page


def test_search_reads_every_run_the_current_ones_first(records: Path, kbgen) -> None:
    """Search finds an earlier run's records too, after the current run's, and names the run:
    the record the ID names first, the current run's then the earlier one's; then the
    records that mention it, again the current run's first."""
    hits = kbgen("search", "SRC-1", "--records", str(records), "--system", "demo", "--json").json()["hits"]
    named = [hit for hit in hits if hit["id"] == "SRC-1"]
    assert hits[: len(named)] == named and ["/runs/" in hit["url"] for hit in named] == [False, True]
    earlier = ["/runs/" in hit["url"] for hit in hits[len(named) :]]
    assert earlier == sorted(earlier)
    assert all(bool(hit["run"]) == ("/runs/" in hit["url"]) for hit in hits)


def test_import_as_run_adds_a_further_run_named_by_its_id(tmp_path: Path, kbgen) -> None:
    if not REFERENCE.is_file():
        pytest.skip(f"{REFERENCE} is absent (CI places shared/ beside the repo clone)")
    records = tmp_path / "records"
    shutil.copytree(
        REPO_ROOT / "records" / "oh-my-pi", records / "oh-my-pi", ignore=shutil.ignore_patterns("runs")
    )
    result = kbgen("import", str(REFERENCE), "--system", "oh-my-pi", "--records", str(records), "--as-run")
    assert result.code == 0, result.err
    run = records / "oh-my-pi" / "runs" / "AAS-2026-09-26-oh-my-pi-01"
    assert (run / "run.yaml").is_file() and (records / "oh-my-pi" / "run.yaml").is_file()
    again = kbgen("import", str(REFERENCE), "--system", "oh-my-pi", "--records", str(records), "--as-run")
    assert again.code != 0 and "KB610" in again.out + again.err
    missing = kbgen("import", str(REFERENCE), "--system", "nobody", "--records", str(records), "--as-run")
    assert missing.code != 0 and not (records / "nobody").exists()


def test_replacing_a_system_folder_keeps_its_further_runs(records: Path, tmp_path: Path) -> None:
    from generator.importer.write import write_folder

    kept = sorted(p.relative_to(records).as_posix() for p in (records / "demo" / "runs").rglob("*"))
    write_folder(records, "demo", {"run.yaml": _run_file(records).read_text(encoding="utf-8")})
    assert sorted(p.relative_to(records).as_posix() for p in (records / "demo" / "runs").rglob("*")) == kept
    assert not (records / "demo" / "records.yaml").exists()  # the system's own run was replaced


def test_the_editor_checks_a_further_run_as_its_own(records: Path) -> None:
    workspace = RecordsWorkspace(base=records.parent, records=records)
    path = records / "demo" / "runs" / SECOND / "run.yaml"
    folder = workspace.system_of(path)
    assert folder == (records / "demo" / "runs" / SECOND).resolve()
    assert workspace.system_of(records / "demo" / "run.yaml") == (records / "demo").resolve()
    analysis = workspace.analysis(folder)
    assert analysis.checked.records.run.run_id == SECOND and not analysis.checked.errors


def test_the_changes_page_links_each_record_to_each_run(records: Path) -> None:
    # The later run relabels its route: a changed record, linked in both runs' pages.
    routes = records / "demo" / "runs" / SECOND / "records.yaml"
    routes.write_text(
        routes.read_text(encoding="utf-8").replace(
            "label: Prompt to answer", "label: Prompt to final answer"
        ),
        encoding="utf-8",
    )
    result = run_pipeline(records)
    page = result.pages["systems/demo/changes.md"]
    assert f"Changes from {FIRST} to {SECOND}" in page
    changed = page.split("## Changed records", 1)[1]
    # The demo has no result page: its records are on the system page.
    # Raw HTML: the links are the final URLs, from the changes page's own (systems/demo/changes/).
    assert f'<a href="../runs/{FIRST.lower()}/#rte-1">RTE-1</a>' in changed
    assert '<a href="../#rte-1">RTE-1</a>' in changed
    assert '<ins class="kb-diff__ins">final</ins>' in changed
    # The first run has no run before it: no changes page of its own.
    assert f"systems/demo/runs/{FIRST.lower()}/changes.md" not in result.pages


def test_an_unchanged_run_s_changes_page_says_so(records: Path) -> None:
    page = run_pipeline(records).pages["systems/demo/changes.md"]
    # Only the run's own fields moved: no record is added, removed or changed.
    assert "## Run" in page and "unchanged: 3</p>" in page
    assert "Conclusions moved: 0 · verdicts moved: 0 · statuses newly stated: 0 · no longer stated: 0" in page
    assert "newly found: 0 · no longer stated: 0 · renumbered: 0 · changed: 0" in page
    assert "## Changed records" not in page and "## Added records" not in page


def test_kbgen_diff_finds_runs_by_their_ids(records: Path, kbgen) -> None:
    by_id = kbgen("diff", FIRST, SECOND, "--records", str(records), "--format", "json")
    assert by_id.code == 0, by_id.err
    by_folder = kbgen(
        "diff", str(records / "demo"), str(records / "demo" / "runs" / SECOND), "--format", "json"
    )
    assert by_folder.code == 0, by_folder.err
    assert by_id.json() == by_folder.json()
    assert by_id.json()["counts"]["changed"] == 0
    unknown = kbgen("diff", "AAS-2024-05-01-demo-09", SECOND, "--records", str(records))
    assert unknown.code == 2 and "no run of" in unknown.err


def test_the_editor_s_page_urls_are_where_the_site_publishes_each_run(records: Path) -> None:
    workspace = RecordsWorkspace(base=records.parent, records=records)
    earlier = workspace.analysis((records / "demo").resolve())
    current = workspace.analysis((records / "demo" / "runs" / SECOND).resolve())
    assert earlier.page_url("RTE-1") == f"systems/demo/runs/{FIRST.lower()}/#rte-1"
    assert current.page_url("RTE-1") == "systems/demo/#rte-1"


HOSTILE_NAME = '<script>alert(1)</script> & "Demo"'


def test_a_hostile_system_name_is_text_on_the_banner_and_the_changes_page(records: Path) -> None:
    for path in (_run_file(records), _run_file(records, SECOND)):
        text = path.read_text(encoding="utf-8").replace("  system: Demo\n", f"  system: '{HOSTILE_NAME}'\n")
        path.write_text(text, encoding="utf-8")
    result = run_pipeline(records)
    assert not result.errors
    changes = result.pages["systems/demo/changes.md"]
    front = changes.split("---\n", 2)[1]
    assert "<script>" not in front and "&lt;script&gt;" in front  # the theme prints the title raw
    banner = result.pages[f"systems/demo/runs/{FIRST.lower()}/index.md"].split("!!! warning", 1)[1]
    banner = banner.split("\n\n", 2)[1]
    assert "<script>" not in banner and "&lt;script&gt;" in banner


def test_a_symlinked_runs_folder_or_run_is_refused_and_not_read(records: Path, tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere"
    shutil.copytree(records / "demo" / "runs" / SECOND, elsewhere / SECOND)
    (records / "demo" / "runs" / "AAS-2024-07-01-demo-03").symlink_to(elsewhere / SECOND)
    systems = check_records(records, records.parent)
    refused = [d for s in systems for d in s.diagnostics if d.code == "KB308"]
    assert [(d.file, d.line, d.col) for d in refused] == [("records/demo/runs/AAS-2024-07-01-demo-03", 1, 1)]
    assert "not a run folder" in refused[0].message
    assert [s.source.run_folder for s in systems if not s.errors] == ["", SECOND]
    shutil.rmtree(records / "demo" / "runs")
    (records / "demo" / "runs").symlink_to(elsewhere)
    systems = check_records(records, records.parent)
    (link,) = [d for s in systems for d in s.diagnostics if d.file == "records/demo/runs/"]
    assert (link.code, link.line, link.col) == ("KB008", 1, 1)
    assert [s.source.run_folder for s in systems if not s.errors] == [""]  # nothing read through it


def test_a_failed_replacement_puts_the_further_runs_back(records: Path, monkeypatch: Any) -> None:
    import os

    from generator.importer import write

    kept = sorted(p.relative_to(records).as_posix() for p in (records / "demo").rglob("*"))
    real = os.rename

    def failing(source: object, target: object) -> None:
        if str(target) == str(records / "demo") and ".import-" in str(source):  # the new folder into place
            raise OSError("disk full")
        real(source, target)  # type: ignore[arg-type]

    monkeypatch.setattr(write.os, "rename", failing)
    with pytest.raises(OSError):
        write.write_folder(records, "demo", {"run.yaml": "run: {}\n"})
    assert sorted(p.relative_to(records).as_posix() for p in (records / "demo").rglob("*")) == kept
    assert [p.name for p in records.iterdir()] == ["demo"]  # no staging folder left


def test_import_as_run_refuses_a_document_without_a_run_id(tmp_path: Path, kbgen) -> None:
    records = tmp_path / "records"
    shutil.copytree(TWO_RUNS, records)
    document = tmp_path / "result.md"
    document.write_text("# An analysis\n\n## Bounded synthesis\n\nA paragraph.\n", encoding="utf-8")
    result = kbgen("import", str(document), "--system", "demo", "--records", str(records), "--as-run")
    assert result.code != 0
    assert f"{document.as_posix()}:1:1: error KB610 " in result.out + result.err
    assert "states no run ID" in result.out + result.err
    assert sorted(p.name for p in (records / "demo" / "runs").iterdir()) == [SECOND]


def test_serve_makes_a_changes_page_again_only_when_a_run_changed(records: Path, monkeypatch) -> None:
    from generator.pipeline import SystemCache
    from generator.render import pages

    made: list[str] = []
    real = pages.run_page

    def counted(spec, path, runs):  # type: ignore[no-untyped-def]
        made.append(path)
        return real(spec, path, runs)

    monkeypatch.setattr(pages, "run_page", counted)
    cache = SystemCache()
    first = run_pipeline(records, cache=cache).pages["systems/demo/changes.md"]
    assert run_pipeline(records, cache=cache).pages["systems/demo/changes.md"] is first
    assert made == ["systems/demo/changes.md"]
    routes = records / "demo" / "runs" / SECOND / "records.yaml"
    text = routes.read_text(encoding="utf-8")
    routes.write_text(text.replace("Prompt to answer", "Prompt to reply"), encoding="utf-8")
    again = run_pipeline(records, cache=cache).pages["systems/demo/changes.md"]
    assert made == ["systems/demo/changes.md"] * 2 and "reply" in again
