"""Labels and headers as the document wrote them: a record's ``labels`` (field → the label
written for it), a typed table's ``headers`` and the limitations section's ``headers``;
each optional, validated, and shown on the page instead of the model's titles."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from generator.model.fields import record_fields
from generator.model.prose import TYPED_TABLES, LimitationsSection
from generator.model.records import Component, Route, Source

_FIELDS = {
    "immediate_return": "the note",
    "later_read_back": "the next run",
    "delegated_visibility": "none",
    "selection_predicate": "every note",
    "invalidation_or_expiry": "never",
    "activation_or_effect": "printing",
    "evidence_limits": "no run observed",
}


def _labels_shown(record: Component | Route | Source) -> dict[str, object]:
    shown: dict[str, object] = {}
    for item in record_fields(record) + record_fields(record, after_body=True):
        if item.rendering == "labelled-list":
            shown.update({sub.label: sub.value for line in item.value for sub in line})
        elif item.rendering == "entries":
            shown.update({part.label: part.value for entry in item.value for part in entry})
        else:
            shown[item.label] = item.value
    return shown


def test_a_record_without_labels_shows_the_model_s_titles() -> None:
    component = Component(id="CMP-1", form="Markdown files", storage="disk")
    assert component.labels == {}
    assert _labels_shown(component) == {
        "Form, storage and role": "Markdown files",
        "Storage substrate": "disk",
    }


def test_a_field_is_shown_under_the_label_written_for_it() -> None:
    component = Component(
        id="CMP-1", form="Markdown files", storage="disk", labels={"form": "Representational form"}
    )
    assert _labels_shown(component) == {
        "Representational form": "Markdown files",
        "Storage substrate": "disk",
    }


def test_a_label_may_name_a_field_of_the_record_s_entries() -> None:
    """A route's labelled fields and a source's layers and gaps are fields of its entries."""
    route = Route(
        id="RTE-1",
        progression="read → print",
        fields=_FIELDS,
        labels={"progression": "Progression", "selection_predicate": "Selection"},
    )
    shown = _labels_shown(route)
    assert shown["Progression"] == "read → print" and shown["Selection"] == "every note"
    assert "Endpoints/progression" not in shown and "Selection predicate" not in shown
    source = Source(
        id="SRC-1",
        source_kind="Git",
        identity="tiny",
        revision="0123456",
        layers=[{"layer": "implementation", "scope": "src/"}],
        access_gaps=[{"gap": "no run"}],
        labels={"revision": "revision or capture", "scope": "inspected scope", "gap": "access gaps"},
    )
    shown = _labels_shown(source)
    assert shown["revision or capture"] == "0123456"
    assert shown["inspected scope"] == "src/" and shown["access gaps"] == "no run"


@pytest.mark.parametrize(
    ("labels", "error"),
    [
        pytest.param({"colour": "Colour"}, "'colour' names no field of the record", id="no-such-field"),
        pytest.param({"remarks": "Notes"}, "'remarks' names no field of the record", id="a-common-field"),
        pytest.param({"form": "Form\nand role"}, "one line of plain text", id="two-lines"),
        pytest.param({"form": " Form"}, "one line of plain text", id="surrounding-space"),
        pytest.param({"form": ""}, "at least 1 character", id="empty"),
    ],
)
def test_a_label_names_a_field_of_the_kind_in_one_line(labels: dict[str, str], error: str) -> None:
    with pytest.raises(ValidationError, match=error):
        Component(id="CMP-1", form="Markdown files", labels=labels)


def _mapping_table() -> type:
    return next(table for table in TYPED_TABLES if table.__name__ == "ProposalMappingTable")


def test_a_typed_table_keeps_one_header_per_column_as_written() -> None:
    table = _mapping_table()
    rows = [{"proposals": "MEM-OBJ-1", "disposition": "OBJ-1, registered"}]
    assert table(kind="proposal-mapping", rows=rows).headers is None
    written = table(
        kind="proposal-mapping", rows=rows, headers=["specialist proposal", "canonical disposition"]
    )
    assert written.headers == ["specialist proposal", "canonical disposition"]
    with pytest.raises(ValidationError, match="1 headers for a table of 2 columns"):
        table(kind="proposal-mapping", rows=rows, headers=["specialist proposal"])
    with pytest.raises(ValidationError, match="one line of plain text"):
        table(kind="proposal-mapping", rows=rows, headers=["specialist\nproposal", "disposition"])


def test_the_limitations_section_keeps_one_header_per_limitation_field() -> None:
    assert LimitationsSection().headers is None
    headers = ["limitation", "affected IDs", "inspected boundary", "conclusion prevented", "evidence"]
    assert LimitationsSection(headers=headers).headers == headers
    with pytest.raises(ValidationError, match="4 headers for a table of 5 columns"):
        LimitationsSection(headers=headers[:4])


def test_a_field_written_after_semicolon_is_shown_on_the_line_of_the_field_before() -> None:
    route = Route(
        id="RTE-1",
        fields=_FIELDS,
        labels={"later_read_back": "later read-back"},
        same_line=["later_read_back"],
    )
    (listed,) = [item for item in record_fields(route, after_body=True) if item.rendering == "labelled-list"]
    lines = [[(sub.label, sub.value) for sub in line] for line in listed.value]
    assert len(lines) == 6
    assert lines[0] == [("Immediate return", "the note"), ("later read-back", "the next run")]
    assert Route(id="RTE-1", fields=_FIELDS).same_line == []


@pytest.mark.parametrize(
    ("same_line", "error"),
    [
        pytest.param(["progression"], "'progression' names no labelled field", id="not-a-listed-field"),
        pytest.param(["colour"], "'colour' names no labelled field", id="no-such-field"),
        pytest.param(["later_read_back", "later_read_back"], "a field is named twice", id="twice"),
    ],
)
def test_same_line_names_each_labelled_field_once(same_line: list[str], error: str) -> None:
    with pytest.raises(ValidationError, match=error):
        Route(id="RTE-1", progression="read", fields=_FIELDS, same_line=same_line)
