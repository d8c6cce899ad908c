"""The reference memory report imports into a system that checks clean, and the shipped
``records/dynamic-cheatsheet/`` (made by ``kbgen import`` from it) is faithful to it.

Faithfulness, like ``test_seeds.py``: every ID the document writes is declared (as a record
or a supplied record), every sentence and table cell of its body appears on the rendered
pages of the system, every quotation is a record's quotation, and the frontmatter's
memory-comparison profile is the system's profile, unchanged.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
import yaml
from test_seeds import markdown_to_text

from generator.diagnostics import Severity
from generator.importer import import_document, render_files
from generator.model.ids import grammar
from generator.pipeline import PipelineResult, check_records, run_pipeline

REPO_ROOT = Path(__file__).resolve().parents[2]
REFERENCE = REPO_ROOT.parent / "shared" / "reference" / "AAS-2026-10-03-dynamic-cheatsheet-02" / "memory.md"
SLUG = "dynamic-cheatsheet"
SHIPPED = REPO_ROOT / "records" / SLUG


def _reference() -> str:
    if not REFERENCE.is_file():
        pytest.skip(f"{REFERENCE} is absent (CI places shared/ beside the repo clone)")
    return REFERENCE.read_text(encoding="utf-8")


def _front_and_body(text: str) -> tuple[dict[str, Any], list[tuple[int, str]]]:
    lines = text.split("\n")
    end = lines.index("---", 1)
    return yaml.safe_load("\n".join(lines[1:end])), list(enumerate(lines[end + 1 :], end + 2))


@pytest.fixture(scope="module")
def imported(tmp_path_factory: pytest.TempPathFactory) -> Path:
    records = tmp_path_factory.mktemp("reference") / "records"
    outcome = import_document(REFERENCE if REFERENCE.is_file() else Path(_reference()), SLUG, records)
    assert outcome.folder is not None
    return outcome.folder


@pytest.fixture(scope="module")
def pipeline() -> PipelineResult:
    return run_pipeline(REPO_ROOT / "records", REPO_ROOT)


def _load(folder: Path, name: str) -> dict[str, Any]:
    return yaml.safe_load((folder / name).read_text(encoding="utf-8"))


def test_reference_import_checks_clean(imported: Path) -> None:
    (system,) = check_records(imported)
    assert [d.as_text() for d in system.diagnostics if d.severity is Severity.ERROR] == []


def test_reference_import_keeps_the_profile_unchanged(imported: Path) -> None:
    front, _ = _front_and_body(_reference())
    assert _load(imported, "profile.yaml") == {"memory_comparison": front["memory-comparison"]}


def test_reference_import_structures_records_annotations_and_tables(imported: Path) -> None:
    routes = {r["id"]: r for r in _load(imported, "routes.yaml")["routes"]}
    assert list(routes) == ["MEM-RTE-1", "MEM-RTE-2", "MEM-RTE-3", "MEM-RTE-4"]
    assert routes["MEM-RTE-1"]["part_of"] == "RT-RTE-1"
    assert routes["MEM-RTE-1"]["statuses"] == {
        "implementation conclusion status": "wired",
        "operation conclusion status": "uninspected",
    }
    assert routes["MEM-RTE-4"]["fields"]["selection_predicate"].startswith("top-k similarity")
    assert routes["MEM-RTE-4"]["quotes"][0]["lines"] == [[533, 536]]
    annotations = _load(imported, "annotations.yaml")["annotations"]
    assert [a["target"] for a in annotations] == ["RT-OBJ-1", "RT-OBJ-2", "RT-RTE-1", "RT-RTE-2"]
    supplied = {s["id"]: s for s in _load(imported, "run.yaml")["supplied"]}
    assert supplied["RT-OBJ-1"]["label"] == "Cumulative cheatsheet text"
    assert supplied["SRC-1"]["revision"] == "5cfe3c37e8e52b1d858d0f3df46e7f17c50991b9"
    report = _load(imported, "report.yaml")["memory_report"]
    (table,) = [
        b["table"] for b in report["boundary_and_evidence"]["blocks"] if isinstance(b, dict) and "table" in b
    ]
    assert table["columns"][0] == "Entry point or operation" and len(table["rows"]) == 8


def test_shipped_folder_is_what_the_importer_writes() -> None:
    """records/dynamic-cheatsheet is the importer's output, byte for byte (nothing edited by hand)."""
    files, _ = render_files(_reference(), REFERENCE.as_posix(), SLUG)
    shipped = {path.name: path.read_text(encoding="utf-8") for path in SHIPPED.glob("*.yaml")}
    assert shipped == files


def test_every_id_of_the_reference_is_declared(pipeline: PipelineResult) -> None:
    (graph,) = [g for g in pipeline.graphs if g.slug == SLUG]
    written = {m.group(0) for m in grammar().in_text.finditer(_reference())}
    assert sorted(token for token in written if not graph.is_declared(token)) == []


def _units(body: list[tuple[int, str]]) -> list[tuple[int, str]]:
    """(line, sentence) for every sentence and table cell of the document body."""
    units = []
    for number, raw in body:
        line = raw.strip()
        if not line or line.startswith("#") or re.fullmatch(r"\|[-| ]+\|", line) or line.startswith("> ---"):
            continue
        line = re.sub(r"^(?:>\s?|- |[0-9]+\. )", "", line).strip()
        cells = [c.strip() for c in line.strip("|").split("|")] if raw.lstrip().startswith("|") else [line]
        for cell in cells:
            text = markdown_to_text(cell)
            label = re.match(r"^[A-Za-z][\w /-]{0,40}: ", text)
            if label and not text.startswith(("Part of: ",)):
                text = text[label.end() :]  # the page shows the model's title for the label
            for sentence in text.split(". "):
                sentence = " ".join(sentence.split()).rstrip(".")
                if sentence and sentence not in ("Part of: RT-OBJ-2",):
                    units.append((number, sentence))
    return units


def test_every_sentence_of_the_reference_reaches_the_site(pipeline: PipelineResult) -> None:
    _, body = _front_and_body(_reference())
    pages = {p: md for p, md in pipeline.pages.items() if p.startswith(f"systems/{SLUG}/")}
    rendered = " ".join(" ".join(markdown_to_text(md).split()) for md in pages.values())
    missing = [f"{n}: {s}" for n, s in _units(body) if s not in rendered]
    assert missing == []
