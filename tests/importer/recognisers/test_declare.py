"""``declare.py``: the one place a record's draft is made, refused once its ID was declared."""

from __future__ import annotations

import pytest

from generator.importer.context import Gathered
from generator.importer.declare import declare


def _codes(gathered: Gathered) -> list[str]:
    return [d.as_text().split()[2] for d in gathered.diagnostics]


def test_a_declaration_makes_a_draft_with_its_id_label_and_place() -> None:
    gathered = Gathered("doc.md")
    draft = declare(gathered, "CMP-1", "components", 7, 3, "Agent loop")
    assert draft is not None and gathered.drafts == {"CMP-1": draft}
    assert (draft.list_key, draft.data, draft.line, draft.col) == (
        "components",
        {"id": "CMP-1", "label": "Agent loop"},
        7,
        3,
    )
    assert gathered.diagnostics == []


def test_a_declaration_without_a_label_has_none() -> None:
    draft = declare(Gathered("doc.md"), "OBJ-1", "objects", 1, 1, None)
    assert draft is not None and draft.data == {"id": "OBJ-1"}


def test_an_id_of_no_kind_is_a_warning_and_no_draft() -> None:
    gathered = Gathered("doc.md")
    assert declare(gathered, "XYZ-1", None, 4, 2, "Label") is None
    assert gathered.drafts == {}
    assert _codes(gathered) == ["KB601"]
    assert "doc.md:4:2:" in gathered.diagnostics[0].as_text()


def test_a_second_declaration_is_an_error_and_the_first_is_kept() -> None:
    gathered = Gathered("doc.md")
    first = declare(gathered, "CMP-1", "components", 3, 1, "First")
    assert declare(gathered, "CMP-1", "components", 9, 1, "Second") is None
    assert gathered.drafts == {"CMP-1": first}
    assert _codes(gathered) == ["KB605"]
    assert "line 3" in gathered.diagnostics[0].as_text()


@pytest.mark.parametrize(
    ("list_key", "label", "data"),
    [
        pytest.param(
            "components",
            "Session continuity; wired",
            {"label": "Session continuity", "statuses": {"conclusion status": "wired"}},
            id="status-after-semicolon",
        ),
        pytest.param(
            "components",
            "Session continuity; wired, conditional on install",
            {
                "label": "Session continuity",
                "statuses": {"conclusion status": "wired, conditional on install"},
            },
            id="qualified-status",
        ),
        pytest.param(
            "components", "Reads; writes", {"label": "Reads; writes"}, id="no-status-after-semicolon"
        ),
        pytest.param("components", "; wired", {"label": "; wired"}, id="nothing-before"),
        pytest.param("absences", "No cache; absent", {"label": "No cache; absent"}, id="absence-kept-whole"),
        pytest.param("components", "Loop;wired", {"label": "Loop;wired"}, id="no-space"),
    ],
)
def test_a_status_after_the_label_s_last_semicolon(list_key: str, label: str, data: dict) -> None:
    draft = declare(Gathered("doc.md"), "ABS-1" if list_key == "absences" else "CMP-1", list_key, 1, 1, label)
    assert draft is not None
    assert {k: v for k, v in draft.data.items() if k != "id"} == data
