"""One committed fixture per user-facing check error (STYLE.md points 7-8).

Each folder of tests/fixtures/check/ holds a tiny ``records/demo/`` tree and
``expected.txt``: the exact diagnostic lines of ``kbgen check records`` run from that
folder (``file:line:col: severity CODE rule: message``). An empty ``expected.txt`` is
a clean system. Goldens change only through ``pytest --update-goldens``.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from rule_catalogue import declared_rules

import generator.load.readfs

CASES_DIR = Path(__file__).resolve().parents[1] / "fixtures" / "check"
CASES = sorted(p.name for p in CASES_DIR.iterdir() if p.is_dir())

# Per-case adjustments that cannot live in the records tree itself.
MAX_FILE_BYTES = {"KB005-file-too-large": 1000}

# Fixtures whose golden holds the correct location but the generator reports another;
# each is a strict xfail so a fix shows up as XPASS and must be acknowledged.
KNOWN_BUGS: dict[str, str] = {}


def _params() -> list:
    return [
        pytest.param(
            name, marks=pytest.mark.xfail(strict=True, raises=AssertionError, reason=KNOWN_BUGS[name])
        )
        if name in KNOWN_BUGS
        else name
        for name in CASES
    ]


def _expected(name: str) -> list[str]:
    text = (CASES_DIR / name / "expected.txt").read_text(encoding="utf-8")
    return [line for line in text.splitlines() if line.strip()]


@pytest.fixture
def in_case(monkeypatch: pytest.MonkeyPatch):
    def enter(name: str) -> Path:
        folder = CASES_DIR / name
        monkeypatch.chdir(folder)
        if name in MAX_FILE_BYTES:
            monkeypatch.setattr(generator.load.readfs, "MAX_FILE_BYTES", MAX_FILE_BYTES[name])
        return folder

    return enter


@pytest.mark.parametrize("name", _params())
def test_check_case(name: str, in_case, kbgen, update_goldens: bool) -> None:
    folder = in_case(name)
    result = kbgen("check", "records", "--format", "json")
    lines = result.diagnostic_lines()
    if update_goldens and name not in KNOWN_BUGS:
        (folder / "expected.txt").write_text("".join(f"{line}\n" for line in lines), encoding="utf-8")
    expected = _expected(name)
    assert lines == expected
    has_error = any(" error KB" in line for line in expected)
    assert result.code == (1 if has_error else 0)
    assert result.err == ""


@pytest.mark.parametrize("name", _params())
def test_human_output_matches_golden(name: str, in_case, kbgen) -> None:
    """The default (human) format prints the same lines, each followed by an optional hint."""
    in_case(name)
    result = kbgen("check", "records")
    printed = [
        line
        for line in result.out.splitlines()
        if line.startswith("records/") and not line.startswith("    hint:")
    ]
    assert printed == _expected(name)
    summary = result.out.splitlines()[-1]
    slug = next((CASES_DIR / name / "records").iterdir()).name  # demo, or a misnamed folder
    assert summary.startswith((f"{slug}: ", f"{slug} (runs/"))  # a further run is named
    assert ("ok" if result.code == 0 else "failed") in summary


# Codes whose cases cannot be committed; tests/load/test_hostile_loader.py builds them instead.
NO_FIXTURE = {
    "KB008": "symlinks, FIFOs and devices are refused; a checkout would not keep them faithfully",
    "KB009": "hard links are not kept by git",
}


def test_every_check_rule_has_a_fixture() -> None:
    """Every rule except the git rules (KB5xx), the import rules (KB6xx: their fixtures are
    documents, under tests/fixtures/import) and usage (KB900) has a failing fixture."""
    rules = declared_rules()
    wanted = {code for code in rules if not code.startswith(("KB5", "KB6", "KB9"))} - NO_FIXTURE.keys()
    covered = {name.split("-", 1)[0] for name in CASES if name.startswith("KB")}
    assert wanted <= covered, sorted(wanted - covered)
    assert covered <= set(rules)


@pytest.mark.parametrize("name", [n for n in CASES if n.startswith("KB")])
def test_failing_fixture_reports_its_own_code(name: str) -> None:
    """A case named after a rule reports that rule, located in a record file of the case."""
    code = name.split("-", 1)[0]
    expected = _expected(name)
    assert any(f" {code} {declared_rules()[code].name}: " in line for line in expected), expected
    for line in expected:
        file, line_no, col, _ = line.split(":", 3)
        assert (CASES_DIR / name / file).exists()  # a file, or a system folder (KB306, KB307)
        assert int(line_no) >= 1 and int(col) >= 1


@pytest.mark.parametrize("name", [n for n in CASES if n.startswith("clean-")])
def test_clean_fixture_has_no_diagnostics(name: str) -> None:
    assert _expected(name) == []


def test_diagnostics_sorted_by_place_within_a_file() -> None:
    lines = _expected("multiple-errors-one-file")
    places = [(line.split(":")[0], int(line.split(":")[1]), int(line.split(":")[2])) for line in lines]
    assert places == sorted(places)
