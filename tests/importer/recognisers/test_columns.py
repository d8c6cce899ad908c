"""``columns.py``: which field a column title or a line's label fills, and which paragraphs
after a paragraph declaration are still its record's text."""

from __future__ import annotations

import pytest

from generator.importer.columns import continues_record, field_of, list_key_of_id, route_field_of
from generator.model import kinds
from generator.model.records import ROUTE_FIELD_LABELS

# ---------------------------------------------------------------- continues_record


@pytest.mark.parametrize(
    "text",
    [
        pytest.param("Amendment (memory lens): widens the scope", id="amendment-with-lens"),
        pytest.param("Amendment: widens the scope", id="amendment"),
        pytest.param("amendment (x): y", id="lower-case"),
        pytest.param("**Amendment:** widens", id="bold"),
        pytest.param("Retained reasons: kept for audit", id="retained-reasons"),
        pytest.param("Retained reason: kept", id="retained-reason"),
        pytest.param("Superseded by: RTE-2", id="superseded"),
        pytest.param("  Retained   reasons: spaced", id="spaces"),
    ],
)
def test_a_continuation_label_continues_the_record(text: str) -> None:
    assert continues_record(text)


@pytest.mark.parametrize(
    "text",
    [
        pytest.param("Amendments: several", id="plural"),
        pytest.param("Amendment", id="no-colon"),
        pytest.param("Evidence: SRC-1 a.py", id="other-label"),
        pytest.param("CMP-2 — Next record.", id="declaration"),
        pytest.param("A" * 90 + ": amendment", id="label-too-long"),
        pytest.param("", id="empty"),
    ],
)
def test_other_paragraphs_do_not_continue_the_record(text: str) -> None:
    assert not continues_record(text)


def test_a_long_line_is_read_once() -> None:
    assert not continues_record("Amendment" + " (" * 100_000 + ": x")
    assert not continues_record("x" * 200_000)


# ---------------------------------------------------------------- field_of


@pytest.mark.parametrize(
    ("list_key", "title", "field"),
    [
        pytest.param("sources", "Source ID", "id", id="source-id"),
        pytest.param("sources", "Identity/location", "identity", id="identity-location"),
        pytest.param("sources", "  REVISION or CAPTURE ", "revision", id="case-and-spaces"),
        pytest.param("sources", "Access gaps and conclusion prevented", "access_gaps", id="access-gaps"),
        pytest.param("routes", "Endpoints/progression", "progression", id="route-alias"),
        pytest.param("components", "Source-native object and lineage", "source_native", id="prefix"),
        pytest.param("claims", "Label", "label", id="every-list"),
        pytest.param("sources", "nonsense", None, id="unknown"),
        pytest.param("routes", "Source-native route", None, id="prefix-only-for-some-lists"),
    ],
)
def test_field_of(list_key: str, title: str, field: str | None) -> None:
    assert field_of(list_key, title) == field


@pytest.mark.parametrize("spec", kinds.registered(), ids=lambda spec: spec.list_key)
def test_every_kind_s_label_column_is_its_label(spec: kinds.KindSpec) -> None:
    assert field_of(spec.list_key, "Label") == "label"


# ---------------------------------------------------------------- route_field_of


@pytest.mark.parametrize(("field", "title"), list(ROUTE_FIELD_LABELS.items()))
def test_every_route_field_is_known_by_its_title(field: str, title: str) -> None:
    assert route_field_of(title) == field
    assert route_field_of(title.upper()) == field


@pytest.mark.parametrize(
    ("label", "field"),
    [
        pytest.param("Selection", "selection_predicate", id="selection"),
        pytest.param("Invalidation/expiry", "invalidation_or_expiry", id="invalidation-expiry"),
        pytest.param("later read back", "later_read_back", id="no-hyphen"),
        pytest.param("Evidence", None, id="not-a-route-field"),
    ],
)
def test_earlier_wordings_of_route_fields(label: str, field: str | None) -> None:
    assert route_field_of(label) == field


# ---------------------------------------------------------------- list_key_of_id


@pytest.mark.parametrize("spec", kinds.registered(), ids=lambda spec: spec.code)
def test_every_kind_s_ids_name_its_list(spec: kinds.KindSpec) -> None:
    assert list_key_of_id(f"{spec.code}-1") == spec.list_key
    assert list_key_of_id(f"MEM-{spec.code}-notes") == spec.list_key


@pytest.mark.parametrize("text", ["XYZ-1", "CMP-12x", "CMP-0", "cmp-1", ""])
def test_what_is_no_id_names_no_list(text: str) -> None:
    assert list_key_of_id(text) is None
