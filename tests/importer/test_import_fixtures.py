"""One hand-made document per construct and per broken form, under ``tests/fixtures/import/``.

Each case folder holds ``document.md`` or ``document.txt`` and ``expected.txt``: the import's
structure figures (``structure records KEPT/STATED …``: the declared records, their labels,
statuses, anchors, quotations and revisions the records keep), its coverage figure
(``coverage KEPT/UNITS``: sentences, list items, table cells, headings, quotation lines and
frontmatter values the records keep) and the diagnostics it must
give, one ``CODE line:col`` per line (sorted). A construct case (a
folder not named after a rule code) also keeps the record files the import writes in
``expected/``. ``pytest --update-goldens`` rewrites both; review the diff.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "import"
CASES = sorted(path.name for path in FIXTURES.iterdir() if path.is_dir())


def _document(case: Path) -> Path:
    (document,) = [p for p in case.iterdir() if p.name.startswith("document.")]
    return document


def _located(payload: dict, document: str) -> list[str]:
    return sorted(
        f"{d['code']} {d['line']}:{d['col']}" for d in payload["diagnostics"] if d["file"] == document
    )


@pytest.mark.parametrize("name", CASES)
def test_import_fixture(name, tmp_path, monkeypatch, kbgen, update_goldens) -> None:
    case = FIXTURES / name
    document = _document(case)
    shutil.copy(document, tmp_path / document.name)
    monkeypatch.chdir(tmp_path)
    result = kbgen("import", document.name, "--system", "tiny", "--format", "json")
    payload = result.json()
    coverage = payload["coverage"]
    shape = " ".join(
        f"{name} {figure['kept']}/{figure['stated']}"
        for name, figure in payload["structure"].items()
        if figure["stated"]
    )
    found = [
        f"structure {shape or 'none'}",
        f"coverage {coverage['kept']}/{coverage['units']}",
        *_located(payload, document.name),
    ]
    expected_file = case / "expected.txt"
    written = {
        p.name: p.read_text(encoding="utf-8") for p in sorted((tmp_path / "records" / "tiny").glob("*.yaml"))
    }
    if update_goldens:
        expected_file.write_text("".join(f"{line}\n" for line in found), encoding="utf-8")
        if not name.startswith("KB"):
            shutil.rmtree(case / "expected", ignore_errors=True)
            (case / "expected").mkdir()
            for file_name, text in written.items():
                (case / "expected" / file_name).write_text(text, encoding="utf-8")
    assert found == expected_file.read_text(encoding="utf-8").splitlines()
    if name.startswith("KB"):
        code = name.split("-", 1)[0]
        assert any(line.startswith(code) for line in found), f"{name} does not give {code}"
    else:
        expected = {p.name: p.read_text(encoding="utf-8") for p in sorted((case / "expected").glob("*.yaml"))}
        assert written == expected


def test_every_import_rule_has_a_fixture() -> None:
    from rule_catalogue import declared_rules

    # KB610: see test_import_cli; KB611 (a set folder's manifest): see test_set_import;
    # KB615 (the file system refuses the folder): see test_hostile_import and test_import_cli
    # KB616, KB617 (a run's import findings, which 'kbgen check' checks): see
    # tests/check/test_import_findings_check.py
    wanted = {code for code in declared_rules() if code.startswith("KB6")} - {
        "KB610",
        "KB611",
        "KB615",
        "KB616",
        "KB617",
    }
    covered = {name.split("-", 1)[0] for name in CASES if name.startswith("KB")}
    assert wanted <= covered, sorted(wanted - covered)
