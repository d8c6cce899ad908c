"""``source_cells.py``: the source register's cells that fill a source's nested fields."""

from __future__ import annotations

import pytest

from generator.importer.drafts import Draft
from generator.importer.source_cells import further_layer, layer_entry, revision_value, source_cell
from generator.model.vocab import EvidenceLayer


def _source() -> Draft:
    return Draft("sources", {"id": "SRC-1"}, 1, 1)


# ---------------------------------------------------------------- layer_entry


@pytest.mark.parametrize("layer", [layer.value for layer in EvidenceLayer])
def test_every_evidence_layer_opens_a_layer_cell(layer: str) -> None:
    assert layer_entry(layer) == {"layer": layer}
    assert layer_entry(f"{layer.upper()}; a note") == {"layer": layer, "note": "a note"}


@pytest.mark.parametrize(
    ("cell", "entry"),
    [
        pytest.param(
            "Doctrine/design, with README assertions kept as claims",
            {"layer": "doctrine/design", "note": "with README assertions kept as claims"},
            id="comma-note",
        ),
        pytest.param(
            "doctrine/design — the README", {"layer": "doctrine/design", "note": "the README"}, id="em-dash"
        ),
        pytest.param(
            "implementation (src/ only)", {"layer": "implementation", "note": "(src/ only)"}, id="bracket"
        ),
        pytest.param("  implementation  ", {"layer": "implementation"}, id="spaces"),
        pytest.param("implementations", None, id="longer-word"),
        pytest.param("none", None, id="no-layer"),
        pytest.param("", None, id="empty"),
    ],
)
def test_layer_entry(cell: str, entry: dict[str, str] | None) -> None:
    assert layer_entry(cell) == entry


# ---------------------------------------------------------------- revision_value


@pytest.mark.parametrize(
    ("cell", "value"),
    [
        pytest.param("`0123abc`", "0123abc", id="one-code-span"),
        pytest.param(" sha256:ff ", "sha256:ff", id="spaces"),
        pytest.param("SHA-256 ab12", "SHA-256 ab12", id="phrase"),
        pytest.param("`a` and `b`", "`a` and `b`", id="two-code-spans"),
        pytest.param("Same capture and digest as SRC-1", "Same capture and digest as SRC-1", id="sentence"),
        pytest.param("", "", id="empty"),
    ],
)
def test_revision_value(cell: str, value: str) -> None:
    assert revision_value(cell) == value


# ---------------------------------------------------------------- source_cell


def test_an_identity_cell_gives_the_identity_and_the_url_it_holds() -> None:
    draft = _source()
    assert source_cell(draft, "identity", "Git `https://github.com/o/r`, at HEAD ")
    assert draft.data["identity"] == "Git `https://github.com/o/r`, at HEAD"
    assert draft.data["location"] == "https://github.com/o/r"


def test_a_scope_cell_fills_the_layer_before_it_and_needs_one() -> None:
    draft = _source()
    assert not source_cell(draft, "scope", "src/")  # no layer yet: the caller keeps it as prose
    assert source_cell(draft, "layer", "implementation")
    assert source_cell(draft, "scope", "src/")
    assert draft.data["layers"] == [{"layer": "implementation", "scope": "src/"}]


def test_access_gaps_accumulate() -> None:
    draft = _source()
    assert source_cell(draft, "access_gaps", "no tests")
    assert source_cell(draft, "access_gaps", "no CI")
    assert draft.data["access_gaps"] == [{"gap": "no tests"}, {"gap": "no CI"}]


@pytest.mark.parametrize(
    ("name", "cell"),
    [
        pytest.param("layer", "no such layer", id="unknown-layer"),
        pytest.param("revision", "abc", id="not-a-nested-field"),
        pytest.param("label", "x", id="other-field"),
    ],
)
def test_a_cell_that_fills_no_nested_field_is_refused(name: str, cell: str) -> None:
    draft = _source()
    assert not source_cell(draft, name, cell)
    assert draft.data == {"id": "SRC-1"}


# ---------------------------------------------------------------- further_layer


def test_a_further_layer_row_adds_a_layer_with_what_differs() -> None:
    draft = _source()
    source_cell(draft, "identity", "Git https://github.com/o/r")
    draft.data["revision"] = "abc"
    added = further_layer(
        draft,
        {
            "layer": "doctrine/design",
            "identity": "Git https://github.com/o/r",
            "revision": "`def`",
            "scope": "",
        },
    )
    assert added
    assert draft.data["layers"] == [{"layer": "doctrine/design", "revision": "def"}]


def test_a_row_naming_no_layer_is_no_further_layer() -> None:
    draft = _source()
    assert not further_layer(draft, {"layer": "nonsense", "identity": "x"})
    assert not further_layer(draft, {})
    assert "layers" not in draft.data


# ---------------------------------------------------------------- cells naming more than one field


def test_a_cell_naming_several_layers_gives_one_layer_each_and_the_scope_to_the_first() -> None:
    draft = _source()
    cell = "Implementation: Python; doctrine/design: prompt templates. No run observed."
    assert source_cell(draft, "layer", cell)
    assert source_cell(draft, "scope", "`src/`, `prompts/`")
    assert draft.data["layers"] == [
        {"layer": "implementation", "note": "Python", "scope": "`src/`, `prompts/`"},
        {"layer": "doctrine/design", "note": "prompt templates."},
    ]
    assert draft.prose_before == ["No run observed."]


def test_a_kind_and_identity_column_gives_both() -> None:
    draft = _source()
    cell = "Paper capture, `https://example.org/p`; local `/captures/p.md`"
    assert source_cell(draft, "identity", cell, "Kind and identity/location")
    assert draft.data["source_kind"] == "Paper capture"
    assert draft.data["identity"] == "`https://example.org/p`; local `/captures/p.md`"
    assert draft.data["location"] == "https://example.org/p"


def test_a_capture_digest_is_the_revision_and_the_cell_is_kept_when_it_says_more() -> None:
    draft = _source()
    digest = "ab" * 32
    assert source_cell(draft, "revision", f"SHA-256 {digest}; 90009 bytes", "Revision or capture")
    assert draft.data["revision"] == f"sha256:{digest}"
    assert draft.prose_before == [f"Revision or capture: SHA-256 {digest}; 90009 bytes"]
    alone = _source()
    assert source_cell(alone, "revision", f"SHA-256 `{digest}`", "Revision or capture")
    assert alone.data["revision"] == f"sha256:{digest}" and not alone.prose_before


def test_same_capture_as_another_source_takes_its_revision_and_location_with_a_note() -> None:
    first = _source()
    first.data.update(revision="sha256:" + "cd" * 32, location="https://example.org/p")
    second = Draft("sources", {"id": "SRC-2"}, 2, 1)
    cell = "Same capture and digest as SRC-1"
    assert source_cell(second, "revision", cell, "Revision or capture", {"SRC-1": first})
    assert (second.data["revision"], second.data["location"]) == (
        "sha256:" + "cd" * 32,
        "https://example.org/p",
    )
    assert second.prose_before == ["Revision or capture: Same capture and digest as SRC-1"]


@pytest.mark.parametrize(
    "declared",
    [
        pytest.param({}, id="undeclared"),
        pytest.param({"SRC-1": Draft("sources", {"id": "SRC-1"}, 1, 1)}, id="declared-without-revision"),
    ],
)
def test_same_as_a_source_without_a_revision_is_left_to_the_caller(declared: dict[str, Draft]) -> None:
    draft = Draft("sources", {"id": "SRC-2"}, 2, 1)
    assert not source_cell(draft, "revision", "Same capture and digest as SRC-1", "Revision", declared)
    assert draft.data == {"id": "SRC-2"} and not draft.prose_before
