"""An epistemic member's authority-route ledger: each compact entry (``Route ID:`` then the
ledger's labelled lines in the spec's order) imports as a typed ``LedgerEntry``, the prose
and quotations after it as its remarks and quotes, every value as written.

An entry the importer cannot type (a label missing, out of order or repeated, a value
outside a vocabulary, a route ID that is not an ID) stays prose with a KB601 note located
at the label or value. The shipped ``records/instinctual-memory`` has every entry of the
reference's ledger typed.
"""

from __future__ import annotations

import hashlib
import re
import shutil
from pathlib import Path
from typing import Any

import pytest
import yaml
from set_support import REFERENCE, REPO_ROOT, SET_FOLDER, SHIPPED

from generator.importer import import_document
from generator.model.sets import LEDGER_LABELS
from generator.pipeline import check_records, run_pipeline

# The demo set's ledger entry (three labels only) and the line it starts on.
DEMO_ENTRY = "Route ID: RTE-1\nRoute function: retention\nArchitectural status: implemented\n"
ENTRY_LINE = 20
# A well-formed entry: the ledger's labels in order, values naming the demo set's records.
VALUES = {
    "routes": "RTE-1",
    "route_function": "retention",
    "architectural_status": "implemented",
    "objects": "EPI-OBJ-1",
    "content_relation": "no content change",
    "target": "A note",
    "evaluator": "none",
    "activation": "On request; no observed operation",
    "result": "A stored note",
    "force": "permissive",
    "epistemic_authority": "none",
    "operational_authority": "Makes the note available to later reads",
    "authority_path": "Reader, stored note, permissive, later invocations",
    "evidence": "SRC-1: `src/service.py`",
    "claims": "EPI-CLM-1",
    "mismatch": "none",
    "gap": "No run observed",
}
NAMES = list(LEDGER_LABELS)


def _entry(values: dict[str, str] | None = None, order: list[str] | None = None) -> str:
    written = {**VALUES, **(values or {})}
    return "".join(f"{LEDGER_LABELS[name]}: {written[name]}\n" for name in order or NAMES)


def _set_with_ledger(tmp_path: Path, ledger: str) -> Path:
    """The demo set with its ledger entry replaced by ``ledger``, the manifest re-pinned."""
    folder = tmp_path / "demo-set"
    shutil.copytree(SET_FOLDER, folder)
    member = folder / "epistemic.md"
    text = member.read_text(encoding="utf-8")
    assert text.split("\n")[ENTRY_LINE - 1] == "Route ID: RTE-1"
    member.write_text(text.replace(DEMO_ENTRY, ledger), encoding="utf-8")
    manifest = folder / "ARTIFACT.yaml"
    pinned = yaml.safe_load(manifest.read_text(encoding="utf-8"))
    pinned["members"]["epistemic.md"]["sha256"] = hashlib.sha256(member.read_bytes()).hexdigest()
    manifest.write_text(yaml.safe_dump(pinned, sort_keys=False), encoding="utf-8")
    return folder


def _imported(tmp_path: Path, ledger: str) -> tuple[Any, dict[str, Any], str]:
    """The import's outcome, its ledger section and the epistemic member's display path."""
    folder = _set_with_ledger(tmp_path, ledger)
    outcome = import_document(folder, "demo", tmp_path / "records")
    assert outcome.folder is not None
    text = (outcome.folder / "epistemic-report.yaml").read_text(encoding="utf-8")
    ledger_section = yaml.safe_load(text)["epistemic_report"]["authority_route_ledger"]
    return outcome, ledger_section, f"{folder.as_posix()}/epistemic.md"


def _notes(outcome: Any, display: str) -> set[tuple[str, str, int, int]]:
    return {(d.code, d.file, d.line, d.col) for d in outcome.diagnostics if d.file == display}


def _value_col(name: str) -> int:
    return len(LEDGER_LABELS[name]) + 3  # after "Label: "


def test_well_formed_entry_becomes_a_typed_entry(tmp_path: Path) -> None:
    outcome, ledger, display = _imported(tmp_path, _entry())
    assert _notes(outcome, display) == set()
    [entry] = ledger["entries"]
    assert entry == {**VALUES, "routes": ["RTE-1"]}
    assert "blocks" not in ledger
    [checked] = check_records(outcome.folder, tmp_path)
    assert checked.errors == []
    typed = checked.records.epistemic_report.authority_route_ledger.entries[0]
    assert typed.route_function == "retention" and typed.architectural_status.value == "implemented"


def test_wrapped_value_and_several_route_ids_are_read_as_written(tmp_path: Path) -> None:
    wrapped = "Gap/limit: No run\nobserved\n"
    text = _entry({"routes": "RTE-1, RTE-2"}).replace("Gap/limit: No run observed\n", wrapped)
    outcome, ledger, display = _imported(tmp_path, text)
    assert _notes(outcome, display) == set()
    [entry] = ledger["entries"]
    assert entry["routes"] == ["RTE-1", "RTE-2"]
    assert entry["gap"] == "No run observed"


def test_controlled_value_written_as_inline_code_is_the_value(tmp_path: Path) -> None:
    outcome, ledger, display = _imported(tmp_path, _entry({"route_function": "`retention`"}))
    assert _notes(outcome, display) == set()
    assert ledger["entries"][0]["route_function"] == "retention"


@pytest.mark.parametrize("missing", ["route_function", "force", "gap"])
def test_entry_with_a_missing_label(missing: str, tmp_path: Path) -> None:
    order = [name for name in NAMES if name != missing]
    outcome, ledger, display = _imported(tmp_path, _entry(order=order))
    index = NAMES.index(missing)
    # At the label standing where the missing one belongs, else at the entry's last line.
    line = ENTRY_LINE + min(index, len(order) - 1)
    assert ("KB601", display, line, 1) in _notes(outcome, display)
    assert "entries" not in ledger
    second = "Architectural" if missing == "route_function" else "Route function:"
    assert ledger["blocks"][0].startswith(f"Route ID: RTE-1 {second}")


@pytest.mark.parametrize(
    ("first", "second"), [("objects", "content_relation"), ("route_function", "architectural_status")]
)
def test_entry_with_labels_out_of_order(first: str, second: str, tmp_path: Path) -> None:
    order = list(NAMES)
    i, j = order.index(first), order.index(second)
    order[i], order[j] = order[j], order[i]
    outcome, ledger, display = _imported(tmp_path, _entry(order=order))
    assert ("KB601", display, ENTRY_LINE + i, 1) in _notes(outcome, display)
    assert "entries" not in ledger


def test_entry_with_a_repeated_label(tmp_path: Path) -> None:
    outcome, ledger, display = _imported(tmp_path, _entry() + "Gap/limit: again\n")
    assert ("KB601", display, ENTRY_LINE + len(NAMES), 1) in _notes(outcome, display)
    assert "entries" not in ledger


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("route_function", "learning"),
        ("architectural_status", "wired"),
        ("content_relation", "truth-apt transformation: guess"),
        ("content_relation", "non-truth-apt policy/content update:"),
        ("routes", "the tidy route"),
        ("routes", "RTE-1/RTE-2"),
    ],
)
def test_entry_with_a_value_outside_its_vocabulary(name: str, value: str, tmp_path: Path) -> None:
    outcome, ledger, display = _imported(tmp_path, _entry({name: value}))
    located = {(d.line, d.col) for d in outcome.diagnostics if d.code == "KB601" and d.file == display}
    assert located == {(ENTRY_LINE + NAMES.index(name), _value_col(name))}
    assert "entries" not in ledger
    assert f"{LEDGER_LABELS[name]}: {value}" in ledger["blocks"][0]


def test_prose_and_quotation_after_an_entry_are_its_remarks_and_quotes(tmp_path: Path) -> None:
    after = "The passage below shows the write.\n\n> store(note)\n> --- `src/service.py:3-4` @ `0123456`\n"
    outcome, ledger, display = _imported(tmp_path, _entry() + "\n" + after)
    assert _notes(outcome, display) == set()
    [entry] = ledger["entries"]
    assert entry["remarks"] == "The passage below shows the write."
    quote = {"text": "store(note)", "path": "src/service.py", "source": "SRC-1", "lines": [[3, 4]]}
    assert entry["quotes"] == [quote]


def test_prose_before_the_first_entry_stays_the_section_prose(tmp_path: Path) -> None:
    _, ledger, _ = _imported(tmp_path, "Every entry is implemented.\n\n" + _entry())
    assert ledger["blocks"] == ["Every entry is implemented."]
    assert len(ledger["entries"]) == 1


def test_list_after_an_entry_is_kept_before_the_entries_with_a_note(tmp_path: Path) -> None:
    outcome, ledger, display = _imported(tmp_path, _entry() + "\n- a listed remark\n")
    assert ("KB601", display, ENTRY_LINE + len(NAMES) + 1, 1) in _notes(outcome, display)
    assert ledger["blocks"] == [{"items": ["a listed remark"]}]


def test_markup_in_a_value_is_shown_literally(tmp_path: Path) -> None:
    hostile = "<script>alert(1)</script> [x](javascript:alert(1)) {{ config }} *em*"
    _, ledger, _ = _imported(tmp_path, _entry({"gap": hostile}))
    assert ledger["entries"][0]["gap"] == hostile
    result = run_pipeline(tmp_path / "records", tmp_path)
    assert result.errors == []
    page = result.pages["systems/demo/epistemic.md"]
    gap = page[page.index("<strong>Gap/limit:</strong>") :].split("\n", 1)[0]
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in gap
    assert "<script>" not in page and 'href="javascript' not in page


# ---------------------------------------------------------------- the shipped set


def _reference_routes() -> list[str]:
    if not REFERENCE.is_dir():
        pytest.skip(f"reference set not found at {REFERENCE}")
    text = (REFERENCE / "epistemic.md").read_text(encoding="utf-8")
    return re.findall(r"^Route ID: (.+)$", text, re.M)


def test_shipped_epistemic_member_has_every_reference_entry_typed() -> None:
    routes = _reference_routes()
    assert len(routes) == 21
    report = yaml.safe_load((SHIPPED / "epistemic-report.yaml").read_text(encoding="utf-8"))
    ledger = report["epistemic_report"]["authority_route_ledger"]
    assert [", ".join(entry["routes"]) for entry in ledger["entries"]] == routes
    prose = [block for block in ledger["blocks"] if isinstance(block, str)]
    assert not any("Route ID:" in block for block in prose)


def test_shipped_epistemic_page_shows_the_typed_ledger() -> None:
    result = run_pipeline(REPO_ROOT / "records", REPO_ROOT)
    assert result.errors == []
    page = result.pages["systems/instinctual-memory/epistemic.md"]
    found = re.findall(r"^### (.+?) — (.+) \{ #(ledger-\d+) \.kb-ledger-entry \}$", page, re.M)
    routes = [route for route, _, _ in found]
    assert len(routes) == 21
    assert routes[0] == "[RTE-10](runtime.md#rte-10)"
    assert "[RTE-5](runtime.md#rte-5), [RTE-8](runtime.md#rte-8)" in routes
    # RTE-3 heads six entries: each heading names its function and target, so the page and
    # its table of contents tell them apart, and each has an anchor of its own.
    assert routes.count("[RTE-3](runtime.md#rte-3)") == 6
    assert len({(route, title) for route, title, _ in found}) == 21
    assert len({anchor for _, _, anchor in found}) == 21
    assert found[2][1] == "content transformation: LLM standing-fact statement and evidence selection"
    badge = 'kb-badge--implemented" href="../../../glossary/#epistemic-architectural-status-implemented"'
    assert page.count(badge) >= 21
