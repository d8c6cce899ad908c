"""Hostile corpus, fourth round: an analysis set folder imported as a further run
(``kbgen import SET --system S --as-run``).

A set brought in as a run goes through the same doors as a set brought in as a system and
as a document brought in as a run: the manifest pins every member's bytes, the run folder is
named only by a run ID the set's overview states (the run-ID grammar, so no path), it is
written only below an existing system's ``runs/``, never over a run without ``--force``,
and a set folder that is a symlink is not followed. Each refusal writes nothing and names
its rule code, file, line and column; no traceback.
"""

from __future__ import annotations

import hashlib
import os
import shutil
from pathlib import Path

import pytest
import yaml

from generator.importer import import_document

SET_FOLDER = Path(__file__).resolve().parents[1] / "fixtures" / "import-set" / "demo-set"
OWN_RUN = "AAS-2024-05-01-demo-01"
LATER_RUN = "AAS-2024-05-01-demo-02"


def _repin(folder: Path) -> None:
    """Pin the members' current bytes in the set's manifest, as its author would."""
    manifest = folder / "ARTIFACT.yaml"
    data = yaml.safe_load(manifest.read_text(encoding="utf-8"))
    for name in data["members"]:
        data["members"][name]["sha256"] = hashlib.sha256((folder / name).read_bytes()).hexdigest()
    manifest.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")


def _set_stating(tmp_path: Path, run_id: str) -> Path:
    """The demo set, every member stating ``run_id``, pinned again."""
    folder = tmp_path / "sets" / "later"
    shutil.copytree(SET_FOLDER, folder)
    for member in folder.glob("*.md"):
        member.write_text(member.read_text(encoding="utf-8").replace(OWN_RUN, run_id), encoding="utf-8")
    _repin(folder)
    return folder


@pytest.fixture
def records(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """``records/demo``: the demo set imported as a system (its own run is ``OWN_RUN``)."""
    monkeypatch.chdir(tmp_path)
    outcome = import_document(SET_FOLDER, "demo", tmp_path / "records")
    assert outcome.folder is not None
    return tmp_path / "records"


def _tree(folder: Path) -> list[str]:
    return sorted(str(path.relative_to(folder)) for path in folder.rglob("*"))


def _as_run(kbgen, folder: Path, *more: str):
    return kbgen("import", str(folder), "--system", "demo", "--as-run", "--format", "json", *more)


def test_the_later_set_is_a_clean_further_run(records: Path, tmp_path: Path, kbgen) -> None:
    """The baseline the refusals below depart from."""
    result = _as_run(kbgen, _set_stating(tmp_path, LATER_RUN))
    assert result.code == 0, result.out
    assert (records / "demo" / "runs" / LATER_RUN / "set.yaml").is_file()


def test_a_member_edited_after_it_was_pinned_writes_no_run(records: Path, tmp_path: Path, kbgen) -> None:
    folder = _set_stating(tmp_path, LATER_RUN)
    memory = folder / "memory.md"
    memory.write_text(
        memory.read_text(encoding="utf-8") + "\nA sentence added after pinning.\n", encoding="utf-8"
    )
    before = _tree(records)
    result = _as_run(kbgen, folder)
    assert result.code == 1
    [(code, file, line, col)] = [
        (d["code"], d["file"], d["line"], d["col"]) for d in result.json()["diagnostics"]
    ]
    assert (code, file, line, col) == ("KB611", f"{folder.as_posix()}/memory.md", 1, 1)
    assert _tree(records) == before


def test_a_member_smuggled_in_beside_the_pinned_ones_writes_no_run(
    records: Path, tmp_path: Path, kbgen
) -> None:
    folder = _set_stating(tmp_path, LATER_RUN)
    (folder / "extra.md").write_text("# Extra\n\nRTE-9 — A route no manifest pins.\n", encoding="utf-8")
    before = _tree(records)
    result = _as_run(kbgen, folder)
    assert result.code == 1
    assert result.diagnostic_lines() == [
        f"{folder.as_posix()}:1:1: error KB611 import-set-manifest: extra.md is in the set folder but not "
        "pinned by the manifest"
    ]
    assert _tree(records) == before


@pytest.mark.parametrize(
    "stated",
    [
        "../../../escaped",  # a path out of runs/ and the records folder
        "AAS-2024-05-01-demo-02/../../../escaped",  # a run ID with a path behind it
        "AAS-2024-05-01-demo-02\n",  # a run ID with a line break after it
    ],
)
def test_a_run_id_that_is_a_path_names_no_folder(records: Path, tmp_path: Path, kbgen, stated: str) -> None:
    folder = _set_stating(tmp_path, LATER_RUN)
    overview = folder / "overview.md"
    overview.write_text(
        overview.read_text(encoding="utf-8").replace(
            f"run-id: {LATER_RUN}", f"run-id: {stated!r}".replace("'", '"')
        ),
        encoding="utf-8",
    )
    _repin(folder)
    before = _tree(tmp_path)
    result = _as_run(kbgen, folder)
    assert result.code == 2
    refusals = [d for d in result.json()["diagnostics"] if d["code"] == "KB610"]
    assert [(d["file"], d["line"], d["col"], d["message"]) for d in refusals] == [
        (
            folder.as_posix(),
            1,
            1,
            "the set's overview states no run ID (AAS-YYYY-MM-DD-<system>-NN); nothing written",
        )
    ]
    assert _tree(tmp_path) == before
    assert not (tmp_path / "escaped").exists()


def test_a_set_without_a_run_id_writes_no_run(records: Path, tmp_path: Path, kbgen) -> None:
    folder = _set_stating(tmp_path, LATER_RUN)
    overview = folder / "overview.md"
    overview.write_text(
        overview.read_text(encoding="utf-8").replace(f"run-id: {LATER_RUN}\n", ""), encoding="utf-8"
    )
    _repin(folder)
    result = _as_run(kbgen, folder)
    assert result.code == 2
    assert "KB610" in {d["code"] for d in result.json()["diagnostics"]}
    assert not (records / "demo" / "runs").exists()


def test_a_run_folder_already_there_is_not_replaced_without_force(
    records: Path, tmp_path: Path, kbgen
) -> None:
    folder = _set_stating(tmp_path, LATER_RUN)
    assert _as_run(kbgen, folder).code == 0
    run = records / "demo" / "runs" / LATER_RUN
    (run / "set.yaml").write_text("# the analyst's edit\n", encoding="utf-8")
    result = _as_run(kbgen, folder)
    assert result.code == 2
    assert result.diagnostic_lines()[-1].startswith(f"records/demo/runs/{LATER_RUN}:1:1: error KB610 ")
    assert (run / "set.yaml").read_text(encoding="utf-8") == "# the analyst's edit\n"


def test_the_set_stating_the_system_s_own_run_is_an_error_across_runs(records: Path, kbgen) -> None:
    result = _as_run(kbgen, SET_FOLDER)
    assert result.code == 1
    assert [d for d in result.diagnostic_lines() if " error " in d] == [
        f"records/demo/runs/{OWN_RUN}/set.yaml:4:11: error KB309 run-history: run ID {OWN_RUN} is the ID of "
        "the run in records/demo/ too"
    ]


def test_a_set_folder_that_is_a_symlink_is_not_followed(records: Path, tmp_path: Path, kbgen) -> None:
    link = tmp_path / "linked-set"
    os.symlink(_set_stating(tmp_path, LATER_RUN), link)
    result = _as_run(kbgen, link)
    assert result.code != 0
    assert {d["code"] for d in result.json()["diagnostics"]} == {"KB008"}
    assert not (records / "demo" / "runs").exists()


def test_a_set_for_a_system_that_is_not_there_writes_nothing(records: Path, tmp_path: Path, kbgen) -> None:
    folder = _set_stating(tmp_path, LATER_RUN)
    result = kbgen("import", str(folder), "--system", "absent", "--as-run", "--format", "json")
    assert result.code == 2
    assert result.diagnostic_lines() == [
        "records/absent:1:1: error KB610 import-target: there is no system folder to add a run to"
    ]
    assert not (records / "absent").exists()
