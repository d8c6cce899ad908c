"""``recognisers/fields.py``: labelled fields, status lines, statuses written in prose, and a
paragraph of labelled sentences split into a record's text fields."""

from __future__ import annotations

import pytest

from generator.importer.recognisers.fields import (
    STATUS_VALUES,
    Field,
    field_sentences,
    labelled,
    status_line,
    status_phrase,
    statuses_in_prose,
)
from generator.model.vocab import ConclusionStatus

# ---------------------------------------------------------------- labelled


@pytest.mark.parametrize(
    ("text", "label", "value"),
    [
        pytest.param("Immediate return: the value", "Immediate return", "the value", id="plain"),
        pytest.param("Trigger/principal: the user", "Trigger/principal", "the user", id="slash"),
        pytest.param("Label:   spaced", "Label", "spaced", id="spaces-after-colon"),
        pytest.param("Label: value   ", "Label", "value", id="trailing-spaces"),
        pytest.param("Label: value\r", "Label", "value", id="trailing-cr"),
        pytest.param("Label: line one\nline two", "Label", "line one\nline two", id="two-lines"),
        pytest.param("Étiquette: valeur", None, None, id="non-ascii-first-letter"),
    ],
)
def test_labelled(text: str, label: str | None, value: str | None) -> None:
    found = labelled(text)
    assert ((found.label, found.value) if found else (None, None)) == (label, value)


def test_the_value_column_is_where_the_value_starts() -> None:
    text = "Immediate return: the value"
    found = labelled(text)
    assert found is not None and text[found.value_col :] == "the value"


@pytest.mark.parametrize(
    "text",
    [
        pytest.param("Label:value", id="no-space"),
        pytest.param("Label: ", id="no-value"),
        pytest.param("1abc: x", id="digit-first"),
        pytest.param("no label here", id="prose"),
        pytest.param("A" + " long" * 20 + ": v", id="label-too-long"),
        pytest.param("", id="empty"),
    ],
)
def test_labelled_refuses(text: str) -> None:
    assert labelled(text) is None


# ---------------------------------------------------------------- status lines


@pytest.mark.parametrize(
    ("text", "label", "value", "known"),
    [
        pytest.param(
            "Implementation conclusion status: wired",
            "implementation conclusion status",
            "wired",
            True,
            id="plain",
        ),
        pytest.param(
            "implementation conclusion status: wired.",
            "implementation conclusion status",
            "wired",
            True,
            id="full-stop",
        ),
        pytest.param(
            "Claim conclusion status: wired, conditional on installation.",
            "claim conclusion status",
            "wired, conditional on installation",
            True,
            id="qualified",
        ),
        pytest.param(
            "  Claim conclusion status: **claimed**", "claim conclusion status", "claimed", True, id="bold"
        ),
        pytest.param(
            "Implementation Conclusion Status: WIRED",
            "implementation conclusion status",
            "wired",
            True,
            id="upper-case",
        ),
        pytest.param(
            "Implementation conclusion status: wired\r",
            "implementation conclusion status",
            "wired",
            True,
            id="trailing-cr",
        ),
        pytest.param(
            "Claim conclusion status: wired; default off",
            "claim conclusion status",
            "wired; default off",
            True,
            id="semicolon-qualifier",
        ),
        pytest.param(
            "Claim conclusion status: sort of",
            "claim conclusion status",
            "sort of",
            False,
            id="unknown-value",
        ),
    ],
)
def test_status_line(text: str, label: str, value: str, known: bool) -> None:
    found = status_line(text)
    assert found is not None
    assert (found.label, found.value, found.known) == (label, value, known)


def test_a_status_line_s_offset_points_at_its_value_as_written() -> None:
    text = "  Claim conclusion status: claimed"
    found = status_line(text)
    assert found is not None and text[found.value_offset :] == "claimed"


@pytest.mark.parametrize(
    "text",
    [
        pytest.param("status: wired", id="no-conclusion"),
        pytest.param(
            "Claim conclusion status: wired; guarantee strength: protocol", id="labelled-second-clause"
        ),
        pytest.param("Claim conclusion status wired", id="no-colon"),
        pytest.param("The claim conclusion status: wired. And more.", id="two-sentences"),
    ],
)
def test_status_line_refuses(text: str) -> None:
    assert status_line(text) is None


# ---------------------------------------------------------------- status phrases


@pytest.mark.parametrize(
    ("text", "phrase"),
    [
        *(pytest.param(value, value, id=value) for value in STATUS_VALUES),
        pytest.param("Wired", "wired", id="capitalised"),
        pytest.param("**wired** storage", "wired storage", id="bold-value-qualified"),
        pytest.param(
            "wired, conditional on installation", "wired, conditional on installation", id="qualified"
        ),
        pytest.param("wiredly", None, id="longer-word"),
        pytest.param("not wired", None, id="negated"),
        pytest.param("", None, id="empty"),
    ],
)
def test_status_phrase(text: str, phrase: str | None) -> None:
    assert status_phrase(text) == phrase


def test_every_conclusion_status_is_a_status_value() -> None:
    assert set(STATUS_VALUES) == {status.value for status in ConclusionStatus}


# ---------------------------------------------------------------- statuses in prose


@pytest.mark.parametrize(
    ("text", "found"),
    [
        pytest.param(
            "Implementation conclusion status: wired. Claim conclusion status: claimed, per README.",
            {"implementation conclusion status": "wired", "claim conclusion status": "claimed, per README"},
            id="two-sentences",
        ),
        pytest.param("Conclusion status: absent", {"conclusion status": "absent"}, id="bare-label"),
        pytest.param(
            "Parameter changes during operation: uninspected; next clause",
            {"parameter changes during operation": "uninspected; next clause"},
            id="semicolon",
        ),
        pytest.param(
            "Conclusion status: wired for the script's return; actual host execution is uninspected. "
            "Trigger: an operator.",
            {"conclusion status": "wired for the script's return; actual host execution is uninspected"},
            id="qualifier-after-the-value-and-a-semicolon",
        ),
        pytest.param(
            "Conclusion status: wired; default off; see RTE-2.",
            {"conclusion status": "wired; default off; see RTE-2"},
            id="two-semicolon-clauses",
        ),
        pytest.param(
            "conclusion status: wired; guarantee strength: no claimed guarantee.",
            {"conclusion status": "wired"},
            id="labelled-clause-ends-the-qualifier",
        ),
        pytest.param(
            "Design: claimed; external implementation: uninspected.",
            {"design": "claimed", "external implementation": "uninspected"},
            id="two-labelled-clauses",
        ),
        pytest.param(
            "Discovery conclusion status: wired, actual uptake conclusion status: uninspected. See RTE-14.",
            {"discovery conclusion status": "wired", "actual uptake conclusion status": "uninspected"},
            id="labelled-status-after-a-comma",
        ),
        pytest.param(
            "(1) notes, conclusion status: afforded; (2) a later round, conclusion status: uninspected.",
            {},
            id="bare-label-after-a-comma-is-not-a-status",
        ),
        pytest.param("Wiring: **wired**.", {"wiring": "wired"}, id="bold"),
        pytest.param(
            "Storage: wired storage, external inspection afforded.",
            {"storage": "wired storage, external inspection afforded"},
            id="joined-phrase",
        ),
        pytest.param("Note: wiredly done.", {}, id="longer-word"),
        pytest.param("Trace `x: wired` here.", {}, id="inside-code"),
        pytest.param("A: wired", {}, id="label-too-short"),
        pytest.param("no colon, wired", {}, id="no-label"),
        pytest.param("", {}, id="empty"),
    ],
)
def test_statuses_in_prose(text: str, found: dict[str, str]) -> None:
    assert statuses_in_prose(text) == found


def test_the_first_statement_of_a_label_wins() -> None:
    text = "Implementation conclusion status: wired. Implementation conclusion status: absent."
    assert statuses_in_prose(text) == {"implementation conclusion status": "wired"}


# ---------------------------------------------------------------- labelled sentences


def _split(list_key: str, text: str) -> tuple[list[Field], str]:
    found = field_sentences(list_key, text)
    assert found is not None
    return found


def test_two_text_fields_in_one_paragraph_are_split() -> None:
    fields, prose = _split("components", "Form: a file. Storage: the disk.")
    assert [(f.label, f.value) for f in fields] == [("Form", "a file."), ("Storage", "the disk.")]
    assert prose == ""


def test_a_text_field_and_a_status_sentence_split_and_the_rest_is_prose() -> None:
    text = "Claimed operation: it does x. Claim conclusion status: claimed. Evidence: SRC-1 a.py."
    fields, prose = _split("claims", text)
    assert [(f.label, f.value) for f in fields] == [("Claimed operation", "it does x.")]
    assert prose == "Claim conclusion status: claimed. Evidence: SRC-1 a.py."


def test_a_field_s_value_column_points_at_its_value() -> None:
    text = "Form: a file. Storage: the disk."
    fields, _ = _split("components", text)
    assert [text[f.value_col :].startswith(f.value) for f in fields] == [True, True]


def test_a_route_s_fields_may_open_a_clause_after_a_semicolon() -> None:
    fields, _ = _split("routes", "Immediate return: x; later read-back: y.")
    assert [(f.label, f.value) for f in fields] == [("Immediate return", "x"), ("later read-back", "y.")]


def test_an_authority_path_s_fields_may_follow_one_another_in_clauses() -> None:
    text = "Consumer: dispatch; channel: policy; force: enforcement; horizon: one call. Status: wired."
    fields, prose = _split("authority_paths", text)
    assert [(f.label, f.value) for f in fields] == [
        ("Consumer", "dispatch"),
        ("channel", "policy"),
        ("force", "enforcement"),
        ("horizon", "one call."),
    ]
    assert prose == "Status: wired."


@pytest.mark.parametrize(
    ("list_key", "text"),
    [
        pytest.param("authority_paths", "Consumer: a; see the channel: b. Force: c.", id="not-a-label"),
        pytest.param("authority_paths", "Consumer: a; `channel: b`. Force: c.", id="in-code"),
        pytest.param("components", "Storage: files; form: text. Authority: none.", id="other-kind"),
        pytest.param("authority_paths", "Intro: x; channel: b. Force: c.", id="after-another-label"),
    ],
)
def test_a_clause_label_after_a_semicolon_needs_an_authority_field_before_it(
    list_key: str, text: str
) -> None:
    found = field_sentences(list_key, text)
    fields = found[0] if found else []
    assert [f.label for f in fields if f.label.islower()] == []


def test_a_label_inside_a_code_span_starts_no_field() -> None:
    fields, _ = _split("components", "Form: uses `a. Storage: c` then. Storage: disk.")
    assert [(f.label, f.value) for f in fields] == [
        ("Form", "uses `a. Storage: c` then."),
        ("Storage", "disk."),
    ]


def test_a_label_inside_a_double_backtick_code_span_starts_no_field() -> None:
    fields, _ = _split("components", "Form: uses ``a. Storage: b`` here. Storage: disk.")
    assert [(f.label, f.value) for f in fields] == [
        ("Form", "uses ``a. Storage: b`` here."),
        ("Storage", "disk."),
    ]


@pytest.mark.parametrize(
    ("list_key", "text"),
    [
        pytest.param("components", "Form: a file.", id="one-field"),
        pytest.param("components", "Intro. Form: a. Storage: b.", id="not-opening-with-a-label"),
        pytest.param("components", "Just prose: with one colon. And: another", id="no-text-field"),
        pytest.param("components", "Form: a file. Evidence: SRC-1 a.py.", id="one-field-and-evidence"),
        pytest.param("components", "", id="empty"),
    ],
)
def test_field_sentences_refuses(list_key: str, text: str) -> None:
    assert field_sentences(list_key, text) is None


# ---------------------------------------------------------------- hostile input, read once


@pytest.mark.parametrize(
    ("text", "statuses"),
    [
        pytest.param("x: wired " * 20_000, 0, id="status-floods-short-label"),
        pytest.param("a. " * 50_000 + "b: ", 0, id="sentence-floods"),
        pytest.param("Label a: " + "wired, " * 20_000, 1, id="qualifier-flood"),
        pytest.param("A" + " conclusion status" * 10_000, 0, id="label-words"),
        pytest.param("Label: wired. " * 20_000, 1, id="one-label-repeated"),
        pytest.param(" ".join(f"Label {i}: wired." for i in range(20_000)), 20_000, id="many-labels"),
    ],
)
def test_a_large_hostile_paragraph_is_read_once(text: str, statuses: int) -> None:
    assert len(statuses_in_prose(text)) == statuses
    assert status_line(text) is None


@pytest.mark.parametrize(
    ("list_key", "text", "fields"),
    [
        pytest.param("components", "Form: a. Storage: b. " * 5_000, 10_000, id="many-fields"),
        # The backticks pair across sentences: every other label is inside code.
        pytest.param("components", "Form: `a. Storage: b. " * 5_000, 5_000, id="backticks-across-sentences"),
        pytest.param("routes", "Immediate return: x; " * 5_000, 5_000, id="route-clauses"),
    ],
)
def test_a_large_paragraph_of_labelled_sentences_is_split_whole(
    list_key: str, text: str, fields: int | None
) -> None:
    found = field_sentences(list_key, text)
    assert (len(found[0]) if found else None) == fields
