"""The kbgen command: exit codes, output formats, --strict, and the scaffold."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from generator.model.kinds import registered

CASES = Path(__file__).resolve().parents[1] / "fixtures" / "check"
# A system's counts: every kind the registry holds, zero when it has none, then the lists
# counted beside the kinds.
NOTHING_COUNTED = {
    **{spec.plural: 0 for spec in registered()},
    "limitations": 0,
    "supplied": 0,
    "annotations": 0,
}


def _in_case(monkeypatch: pytest.MonkeyPatch, name: str) -> None:
    monkeypatch.chdir(CASES / name)


# ---------------------------------------------------------------- exit codes


def test_exit_0_when_clean(kbgen, monkeypatch: pytest.MonkeyPatch) -> None:
    _in_case(monkeypatch, "clean-base")
    result = kbgen("check", "records")
    assert result.code == 0
    assert result.out.splitlines() == ["demo: ok — 1 source, 1 component, 1 route; 0 errors, 0 warnings"]
    assert result.err == ""


def test_exit_1_on_errors(kbgen, monkeypatch: pytest.MonkeyPatch) -> None:
    _in_case(monkeypatch, "KB201-dangling-reference-placement")
    result = kbgen("check", "records")
    assert result.code == 1
    assert result.out.splitlines()[-1].startswith("demo: failed — ")
    assert "1 error, 0 warnings" in result.out


def test_a_system_folder_can_be_checked_on_its_own(kbgen, monkeypatch: pytest.MonkeyPatch) -> None:
    _in_case(monkeypatch, "KB201-dangling-reference-placement")
    result = kbgen("check", "records/demo", "--format", "json")
    assert result.code == 1
    assert [(d["file"], d["code"]) for d in result.json()["diagnostics"]] == [
        ("records/demo/result.yaml", "KB201")
    ]


@pytest.mark.parametrize(
    "argv",
    [
        pytest.param(["check", "no-such-folder"], id="missing-path"),
        pytest.param(["check", "records/demo/run.yaml"], id="path-is-a-file"),
        pytest.param(["check", "records", "--bogus"], id="unknown-option"),
        pytest.param(["check", "records", "--format", "xml"], id="bad-format"),
        pytest.param([], id="no-command"),
        pytest.param(["frobnicate"], id="unknown-command"),
    ],
)
def test_exit_2_on_usage_errors(argv: list[str], kbgen, monkeypatch: pytest.MonkeyPatch) -> None:
    _in_case(monkeypatch, "clean-base")
    result = kbgen(*argv)
    assert result.code == 2
    assert result.out == ""
    assert result.err.strip()
    assert "Traceback" not in result.err


def test_exit_2_when_folder_has_no_systems(kbgen, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "records").mkdir()
    monkeypatch.chdir(tmp_path)
    result = kbgen("check", "records")
    assert result.code == 2
    assert result.err.strip() == "kbgen check: records: no system folders found"


def test_missing_path_message(kbgen, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    result = kbgen("check", "nowhere")
    assert result.err.strip() == "kbgen check: nowhere: no such records folder"


@pytest.mark.parametrize(
    "name",
    [
        "KB001-yaml-syntax",
        "KB004-unsafe-tag-python-object",
        "KB006-not-a-mapping-list",
        "KB007-unreadable-file",
        "multiple-errors-one-file",
    ],
)
def test_no_traceback_for_bad_input(name: str) -> None:
    """The real command, in its own process: bad records give diagnostics and exit 1, never a crash."""
    proc = subprocess.run(
        [sys.executable, "-m", "generator.cli.main", "check", "records"],
        cwd=CASES / name,
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=60,
        check=False,
    )
    assert proc.returncode == 1, proc.stderr
    assert "Traceback" not in proc.stderr + proc.stdout
    assert proc.stderr == ""
    assert " error KB" in proc.stdout


# ---------------------------------------------------------------- strict and warnings


def test_warnings_pass_unless_strict(kbgen, monkeypatch: pytest.MonkeyPatch) -> None:
    _in_case(monkeypatch, "KB205-id-range")
    normal = kbgen("check", "records")
    assert normal.code == 0
    assert "0 errors, 1 warning" in normal.out
    strict = kbgen("check", "records", "--strict")
    assert strict.code == 1
    assert strict.out == normal.out


def test_strict_on_a_clean_system_still_passes(kbgen, monkeypatch: pytest.MonkeyPatch) -> None:
    _in_case(monkeypatch, "clean-references")
    assert kbgen("check", "records", "--strict").code == 0


# ---------------------------------------------------------------- all errors of a file in one run


def test_all_errors_of_one_file_in_one_run(kbgen, monkeypatch: pytest.MonkeyPatch) -> None:
    _in_case(monkeypatch, "multiple-errors-one-file")
    result = kbgen("check", "records", "--format", "json")
    assert result.code == 1
    diagnostics = result.json()["diagnostics"]
    assert {d["file"] for d in diagnostics} == {"records/demo/records.yaml"}
    assert [d["code"] for d in diagnostics] == ["KB103", "KB105", "KB107", "KB104", "KB202", "KB102"]
    lines = [d["line"] for d in diagnostics]
    assert lines == sorted(lines)
    assert len(set(lines)) == len(lines)
    assert result.json()["systems"][0]["errors"] == 6


# ---------------------------------------------------------------- output formats


def test_json_format(kbgen, monkeypatch: pytest.MonkeyPatch) -> None:
    _in_case(monkeypatch, "KB205-id-range")
    result = kbgen("check", "records", "--format", "json")
    payload = json.loads(result.out)
    assert payload["systems"] == [
        {
            "slug": "demo",
            "counts": {**NOTHING_COUNTED, "sources": 1, "components": 1, "routes": 4},
            "errors": 0,
            "warnings": 1,
        }
    ]
    (diagnostic,) = payload["diagnostics"]
    assert diagnostic == {
        "file": "records/demo/records.yaml",
        "line": 25,
        "col": 18,
        "severity": "warning",
        "code": "KB205",
        "rule": "id-range",
        "message": "range RTE-2–RTE-5 spans RTE-4, which nobody declares; list each ID",
        "hint": None,
        "docs": "docs/rules.md#kb205",
    }
    assert result.out.endswith("}\n")


def test_github_format(kbgen, monkeypatch: pytest.MonkeyPatch) -> None:
    _in_case(monkeypatch, "KB201-dangling-reference-placement")
    result = kbgen("check", "records", "--format", "github")
    assert result.code == 1
    assert result.out == (
        "::error file=records/demo/result.yaml,line=16,col=28,title=KB201 dangling-reference::"
        "placement names RTE-9, which nobody declares (hint: see docs/rules.md#kb201)\n"
    )


def test_github_format_warnings_and_hints(kbgen, monkeypatch: pytest.MonkeyPatch) -> None:
    _in_case(monkeypatch, "KB401-anchor-source-prose")
    lines = kbgen("check", "records", "--format", "github").out.splitlines()
    pattern = re.compile(
        r"^::(error|warning) file=records/demo/[a-z]+\.yaml,line=\d+,col=\d+,title=KB\d{3} [a-z-]+::\S.*$"
    )
    assert lines and all(pattern.match(line) for line in lines), lines
    assert lines[0].startswith(
        "::error file=records/demo/records.yaml,line=11,col=7,title=KB401 anchor-source::"
    )
    assert lines[0].endswith(
        "(hint: Declare the source under 'sources:' (or 'supplied:' if another member declares it). "
        "— see docs/rules.md#kb401)"
    )

    _in_case(monkeypatch, "KB205-id-range")
    (warning,) = kbgen("check", "records", "--format", "github").out.splitlines()
    assert warning.startswith(
        "::warning file=records/demo/records.yaml,line=25,col=18,title=KB205 id-range::"
    )


def test_github_format_escapes_property_values(
    kbgen, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "records" / "a,b:c"
    folder.mkdir(parents=True)
    (folder / "x.yaml").write_text("sources:\n  - id: SRC-1\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    out = kbgen("check", "records", "--format", "github").out
    assert "file=records/a%2Cb%3Ac/x.yaml," in out
    assert "file=records/a,b:c/" not in out


def test_human_format_prints_hints(kbgen, monkeypatch: pytest.MonkeyPatch) -> None:
    _in_case(monkeypatch, "KB203-duplicate-id")
    lines = kbgen("check", "records").out.splitlines()
    assert lines[0] == (
        "records/demo/tools.yaml:2:9: error KB203 duplicate-id: "
        "ID CMP-1 is already declared in records/demo/records.yaml"
    )
    _in_case(monkeypatch, "KB202-dangling-reference-in-prose-record-body")
    lines = kbgen("check", "records").out.splitlines()
    assert lines[1] == (
        "    hint: Declare the record, declare it under 'supplied:' if another member owns it, "
        "or correct the ID. A lens-local proposal tag is not a record: list it in a 'proposal-mapping' "
        "table's 'proposals' column (Specialist proposals), where it stays provenance. "
        "— see docs/rules.md#kb202"
    )
    _in_case(monkeypatch, "KB205-id-range")
    lines = kbgen("check", "records").out.splitlines()
    assert lines[1] == "    hint: see docs/rules.md#kb205"  # every diagnostic names its rule's entry


# ---------------------------------------------------------------- kbgen new


def test_new_scaffold_checks_clean(kbgen, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    created = kbgen("new", "demo", "--name", "Demo agent")
    assert created.code == 0, created.err
    folder = tmp_path / "records" / "demo"
    assert sorted(p.name for p in folder.iterdir()) == ["records.yaml", "result.yaml", "run.yaml"]
    assert "run_id: AAS-" in (folder / "run.yaml").read_text(encoding="utf-8")
    for path in folder.iterdir():
        assert b"\r\n" not in path.read_bytes()
    checked = kbgen("check", "records", "--strict", "--format", "json")
    assert checked.code == 0
    assert checked.json()["diagnostics"] == []


def test_new_honours_records_option(kbgen, tmp_path: Path) -> None:
    target = tmp_path / "elsewhere"
    assert kbgen("new", "my-agent", "--records", str(target)).code == 0
    assert (target / "my-agent" / "run.yaml").is_file()
    assert kbgen("check", str(target / "my-agent")).code == 0


def test_new_refuses_an_existing_folder(kbgen, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    folder = tmp_path / "records" / "demo"
    folder.mkdir(parents=True)
    (folder / "run.yaml").write_text("run:\n  system: Mine\n", encoding="utf-8")
    result = kbgen("new", "demo")
    assert result.code == 2
    assert "already exists" in result.err
    assert (folder / "run.yaml").read_text(encoding="utf-8") == "run:\n  system: Mine\n"
    assert sorted(p.name for p in folder.iterdir()) == ["run.yaml"]


@pytest.mark.parametrize("slug", ["Demo", "my_agent", "-demo", "demo-", "a--b", "../escape", ""])
def test_new_refuses_a_bad_slug(slug: str, kbgen, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    result = kbgen("new", "--", slug)
    assert result.code == 2
    assert "is not a slug" in result.err
    assert "Traceback" not in result.err
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("name", ["Demo: the agent", "#1 agent"])
def test_new_scaffold_checks_clean_for_any_display_name(
    name: str, kbgen, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    assert kbgen("new", "demo", "--name", name).code == 0
    checked = kbgen("check", "records", "--format", "json")
    assert checked.json()["diagnostics"] == []
    assert checked.code == 0
