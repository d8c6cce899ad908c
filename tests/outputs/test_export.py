"""``kbgen export``: the JSON of every record and profile (with its schema), the comparison
CSV, atomic output, and the copies the built site ships for download."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import jsonschema
import pytest
from hostile_support import CLEAN_SYSTEM, make_records

from generator.model.profile import ALL_AXES
from generator.outputs.export import (
    ExportRecord,
    ExportSystem,
    csv_header,
    export_csv,
    export_json,
    export_memo,
    export_schema_text,
    site_exports,
)
from generator.pipeline import run_pipeline

TESTS = Path(__file__).resolve().parents[1]
REPO_ROOT = TESTS.parent
FIXTURE = TESTS / "fixtures" / "profile"
SCHEMA = REPO_ROOT / "schemas" / "export.schema.json"
CLEAN_PROFILE = TESTS / "fixtures" / "check" / "clean-memory-comparison-profile" / "records" / "demo"


@pytest.fixture
def in_fixture(monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(FIXTURE)
    return FIXTURE


def _schema() -> dict:
    return json.loads(SCHEMA.read_text(encoding="utf-8"))


def test_committed_export_schema_matches_the_models() -> None:
    assert SCHEMA.read_text(encoding="utf-8") == export_schema_text(), (
        "run 'kbgen export --schema --out schemas/export.schema.json'"
    )


def test_json_export_validates_against_its_schema(in_fixture: Path, kbgen) -> None:
    result = kbgen("export", "--format", "json")
    assert result.code == 0, result.err
    document = json.loads(result.out)
    jsonschema.Draft202012Validator.check_schema(_schema())
    jsonschema.Draft202012Validator(_schema()).validate(document)
    assert document["version"] == 1
    assert [system["slug"] for system in document["systems"]] == ["alpha", "beta", "gamma"]


def test_json_export_of_the_shipped_records_validates() -> None:
    result = run_pipeline(REPO_ROOT / "records", REPO_ROOT)
    jsonschema.Draft202012Validator(_schema()).validate(json.loads(export_json(result)))


def test_json_export_resolves_references(in_fixture: Path, kbgen) -> None:
    document = kbgen("export", "--system", "beta").json()
    (beta,) = document["systems"]
    route = next(record for record in beta["records"] if record["id"] == "RTE-1")
    assert route["url"] == "systems/beta/#rte-1"
    assert route["statuses"] == [{"label": "implementation conclusion status", "value": "wired"}]
    assert route["references"] == [
        {"id": "OBJ-1", "kind": "operative object", "label": "Notes file", "url": "systems/beta/#obj-1"}
    ]
    notes = next(record for record in beta["records"] if record["id"] == "OBJ-1")
    assert notes["evidence"] == [
        {
            "source": "SRC-1",
            "path": "src/notes.py",
            "locator": "",
            "lines": [[1, 20]],
            "url": "https://github.com/example/demo/blob/0123456789abcdef/src/notes.py#L1-L20",
        }
    ]
    assert beta["supplied"][0] == {
        "id": "RT-RTE-resolve",
        "kind": "declared elsewhere",
        "label": "Context resolution",
        "url": "systems/beta/#rt-rte-resolve",
    }
    assert beta["profile"]["axes"]["trace_learning"]["values"] == ["yes"]
    assert beta["profile"]["axes"]["storage_substrate"]["evidence"]["files"]["basis"] == "wired"


def test_csv_header_and_one_row(in_fixture: Path, kbgen) -> None:
    result = kbgen("export", "--format", "csv")
    assert result.code == 0, result.err
    rows = list(csv.reader(io.StringIO(result.out)))
    assert rows[0] == csv_header()
    assert rows[0][:9] == [
        "system",
        "name",
        "run_id",
        "evidence_tier",
        "scope",
        "storage_substrate.assessment",
        "storage_substrate.values",
        "storage_substrate.basis",
        "storage_substrate.records",
    ]
    assert rows[0][-2:] == ["report_page", "report_sha256"]
    assert len(rows[0]) == 5 + len(ALL_AXES) * 4 + 2  # the ten axes and the four a result may add
    assert [row[0] for row in rows[1:]] == ["alpha", "beta"]  # gamma has no profile
    beta = dict(zip(rows[0], rows[2], strict=True))
    assert beta["run_id"] == "AAS-2024-05-01-beta-01"
    assert beta["evidence_tier"] == "doc-grounded"
    assert beta["storage_substrate.values"] == "in-memory files"
    assert beta["storage_substrate.basis"] == "in-memory=wired files=wired"
    assert beta["storage_substrate.records"] == "OBJ-1 RTE-1"
    assert beta["curation_operations.assessment"] == "absent"
    assert beta["trace_learning.values"] == "yes"
    pipeline = run_pipeline(FIXTURE / "records", FIXTURE)
    import hashlib

    expected = hashlib.sha256(pipeline.pages["systems/beta/index.md"].encode("utf-8")).hexdigest()
    assert (beta["report_page"], beta["report_sha256"]) == ("systems/beta/index.md", expected)
    alpha = dict(zip(rows[0], rows[1], strict=True))
    assert alpha["report_page"] == "systems/alpha/memory-report.md"


def test_export_is_deterministic(in_fixture: Path) -> None:
    first = run_pipeline(FIXTURE / "records", FIXTURE)
    second = run_pipeline(FIXTURE / "records", FIXTURE)
    assert export_json(first) == export_json(second)
    assert export_csv(first) == export_csv(second)
    assert "\r" not in export_csv(first)


def test_out_file_is_written_atomically(in_fixture: Path, kbgen, tmp_path: Path) -> None:
    target = tmp_path / "out" / "kb.csv"
    result = kbgen("export", "--format", "csv", "--out", str(target))
    assert result.code == 0, result.err
    assert target.read_text(encoding="utf-8").startswith("system,name,")
    assert [p.name for p in target.parent.iterdir()] == ["kb.csv"]  # no temporary file left


def test_out_dash_prints_to_stdout(in_fixture: Path, kbgen) -> None:
    result = kbgen("export", "--format", "csv", "--out", "-")
    assert result.out.startswith("system,name,")


def test_unknown_system_is_a_usage_error(in_fixture: Path, kbgen) -> None:
    result = kbgen("export", "--system", "nope")
    assert result.code == 2
    assert "no system 'nope'" in result.err
    assert result.out == ""


def test_records_with_errors_are_not_exported(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, kbgen) -> None:
    make_records(tmp_path, {"broken.yaml": "routes: [\n"})
    monkeypatch.chdir(tmp_path)
    result = kbgen("export")
    assert result.code == 1
    assert "has errors" in result.err
    assert result.out == ""


def test_formula_in_the_scope_stays_text_in_the_csv(tmp_path: Path) -> None:
    files: dict[str, str | bytes | None] = {path.name: None for path in CLEAN_SYSTEM.iterdir()}
    files.update({path.name: path.read_text(encoding="utf-8") for path in CLEAN_PROFILE.iterdir()})
    profile = str(files["profile.yaml"]).replace(
        '"Notes retained across runs and the route that reads them back."', '"=HYPERLINK(\\"http://x\\")"', 1
    )
    files["profile.yaml"] = profile
    records = make_records(tmp_path, files)
    rows = list(csv.reader(io.StringIO(export_csv(run_pipeline(records, tmp_path)))))
    assert rows[1][4] == '\'=HYPERLINK("http://x")'


def test_site_ships_both_exports(in_fixture: Path) -> None:
    result = run_pipeline(FIXTURE / "records", FIXTURE)
    shipped = site_exports(result)
    assert sorted(shipped) == ["exports/kb.json", "exports/memory-comparison.csv"]
    assert shipped["exports/kb.json"] == export_json(result).encode("utf-8")
    assert shipped["exports/memory-comparison.csv"] == export_csv(result)


def test_json_export_is_what_json_dumps_writes(in_fixture: Path) -> None:
    # The document is assembled from per-system entries; it must be json.dumps' own bytes.
    result = run_pipeline(FIXTURE / "records", FIXTURE)
    text = export_json(result)
    assert len(json.loads(text)["systems"]) > 1
    assert text == json.dumps(json.loads(text), indent=2, ensure_ascii=False) + "\n"
    empty = export_json(result, system="no-such-system")
    assert empty == json.dumps({"version": 1, "systems": []}, indent=2) + "\n"


def test_remembered_entries_give_the_same_export(in_fixture: Path) -> None:
    result = run_pipeline(FIXTURE / "records", FIXTURE)
    memo = export_memo()
    first = site_exports(result, memo)
    assert site_exports(result, memo) == first == site_exports(result)
    only_one = sorted(g.slug for g in result.graphs)[0]
    assert export_json(result, only_one, memo) == export_json(result, only_one)


def test_an_entry_is_written_as_json_dumps_writes_it() -> None:
    # The export serializes each system with pydantic; the bytes must stay those of
    # json.dumps(indent=2, ensure_ascii=False), whatever record text holds.
    hostile = "".join(map(chr, range(0x20))) + '"\\/ <>&\x7f\x85\u00e9\u2028\u2029\ufeff\U0001f600 {{ x }}'
    fields = {
        "body": hostile,
        "empty_list": [],
        "empty_map": {},
        "nested": [{"a": [1, 2, {"b": None}]}, True, False, 0, -7],
        hostile: [hostile],
    }
    record = ExportRecord(
        id="RTE-1",
        kind="route",
        label=hostile,
        anchor="rte-1",
        url="systems/x/result/#rte-1",
        statuses=[],
        fields=fields,
        evidence=[],
        references=[],
    )
    system = ExportSystem(
        slug="x",
        name=hostile,
        run_id=None,
        evidence_tier=None,
        run={},
        pages={},
        records=[record],
        supplied=[],
        profile=None,
    )
    expected = json.dumps(system.model_dump(mode="json"), indent=2, ensure_ascii=False)
    assert system.model_dump_json(indent=2) == expected


def test_an_earlier_contracts_run_exports_its_contract_and_findings() -> None:
    case = TESTS / "fixtures" / "check" / "clean-route-contract-earlier"
    (system,) = json.loads(export_json(run_pipeline(case / "records", case)))["systems"]
    jsonschema.Draft202012Validator(_schema()).validate({"version": 1, "systems": [system]})
    assert system["run"]["contract"] == "six-fields-free-wording"
    assert system["contract_findings"] == [
        "RTE-10 states 4 of 7 route fields; lacks Delegated visibility, Activation or effect, Evidence limits"
    ]
    today = TESTS / "fixtures" / "check" / "clean-run"
    (system,) = json.loads(export_json(run_pipeline(today / "records", today)))["systems"]
    assert "contract" not in system["run"] and system["contract_findings"] == []


def test_a_status_s_qualifier_and_renamed_label_are_exported() -> None:
    """Each status as (label, controlled value, qualifier); the record's fields as written."""
    exported = {}
    for name in ("clean-statuses-semicolon-qualifier", "clean-statuses-renamed-label", "clean-statuses-none"):
        case = TESTS / "fixtures" / "check" / name
        document = json.loads(export_json(run_pipeline(case / "records", case)))
        jsonschema.Draft202012Validator(_schema()).validate(document)
        exported[name] = {record["id"]: record for record in document["systems"][0]["records"]}
    claim = exported["clean-statuses-semicolon-qualifier"]["CLM-1"]
    assert claim["statuses"] == [
        {"label": "claim conclusion status", "value": "claimed", "qualifier": "default off"}
    ]
    assert claim["fields"]["conclusion_status"] == "claimed; default off"
    route = exported["clean-statuses-semicolon-qualifier"]["RTE-1"]
    assert [(s["label"], s["value"], s["qualifier"]) for s in route["statuses"]] == [
        ("implementation conclusion status", "wired", "default off"),
        ("operation conclusion status", "uninspected", "no run observed"),
    ]
    renamed = exported["clean-statuses-renamed-label"]["RTE-1"]
    assert renamed["statuses"][1]["label"] == "learning conclusion status"
    assert exported["clean-statuses-none"]["CLM-1"]["statuses"] == []
