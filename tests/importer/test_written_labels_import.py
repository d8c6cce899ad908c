"""The importer keeps a field's label, a line of two route fields and a typed table's
header as the document wrote them, where they are not the model's titles."""

from __future__ import annotations

import yaml

from generator.importer import render_files
from generator.importer.emit import MODELINE

# One paragraph, as the document writes it: two fields on a line, the second after '; '.
ROUTE = (
    "RTE-1 — Note read. Conclusion status: wired. Immediate return: the note text; later "
    "read-back: the next run reads notes. Delegated visibility: none. Selection: every note. "
    "Invalidation/expiry: never. Activation: printing. Evidence limits: no run observed."
)
DOCUMENT = """---
type: kb/types/agentic-system-analysis-result.md
run-id: AAS-2026-01-01-tiny-01
system: Tiny
run-date: '2026-01-01'
result-disposition: complete
evidence-tier: code-grounded
---

# Tiny agentic-system analysis

## Shared records

### Operative objects

OBJ-1 — Note file. Representational form: Markdown notes. Storage substrate: disk. Conclusion status: wired.

### Routes

{route}

## Reconciliation

| specialist proposal | canonical disposition |
|---|---|
| MEM-OBJ-1 | OBJ-1, registered |

| Specialist proposals | Canonical disposition |
|---|---|
| MEM-OBJ-2 | OBJ-1, merged |
""".replace("{route}", ROUTE)


def _files() -> dict[str, dict]:
    files, _ = render_files(DOCUMENT, "result.md", "tiny", MODELINE)
    return {name: yaml.safe_load(text) for name, text in files.items()}


def test_a_field_keeps_its_label_as_written_and_a_title_is_not_repeated() -> None:
    (obj,) = _files()["objects.yaml"]["objects"]
    assert obj["form"] == "Markdown notes." and obj["labels"] == {"form": "Representational form"}


def test_a_route_field_after_semicolon_keeps_its_label_and_its_line() -> None:
    (route,) = _files()["routes.yaml"]["routes"]
    assert route["fields"]["immediate_return"] == "the note text"
    assert route["fields"]["later_read_back"] == "the next run reads notes."
    assert route["labels"] == {
        "later_read_back": "later read-back",
        "selection_predicate": "Selection",
        "invalidation_or_expiry": "Invalidation/expiry",
        "activation_or_effect": "Activation",
    }
    assert route["same_line"] == ["later_read_back"]


def test_a_typed_table_keeps_a_header_worded_otherwise_than_its_titles() -> None:
    blocks = _files()["result.yaml"]["result"]["reconciliation"]["blocks"]
    tables = [block["table"] for block in blocks if "table" in block]
    assert [table["kind"] for table in tables] == ["proposal-mapping", "proposal-mapping"]
    assert tables[0]["headers"] == ["specialist proposal", "canonical disposition"]
    assert "headers" not in tables[1]  # the titles, as the model has them
