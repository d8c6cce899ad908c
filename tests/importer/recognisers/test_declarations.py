"""``recognisers/declarations.py``: the record an ID opens a heading or a paragraph with."""

from __future__ import annotations

import re

import pytest

from generator.importer.recognisers.declarations import declaration, first_outside_code, split_label

# ---------------------------------------------------------------- paragraphs that declare


@pytest.mark.parametrize(
    ("text", "record_id", "label", "rest"),
    [
        pytest.param(
            "CMP-1 — Agent loop. Runs the turns.", "CMP-1", "Agent loop", "Runs the turns.", id="em-dash"
        ),
        pytest.param("CMP-1 – Agent loop. Body", "CMP-1", "Agent loop", "Body", id="en-dash"),
        pytest.param("CMP-1 - Agent loop. Body", "CMP-1", "Agent loop", "Body", id="hyphen"),
        pytest.param("CMP-1 -- Agent loop. Body", "CMP-1", "Agent loop", "Body", id="double-hyphen"),
        pytest.param(
            "CMP-1 — Agent loop: runs the turns", "CMP-1", "Agent loop", "runs the turns", id="colon"
        ),
        pytest.param("**CMP-1 — Agent loop.** Body", "CMP-1", "Agent loop", "Body", id="bold-lead-in"),
        pytest.param("CMP-5 —**Agent loop.** Body", "CMP-5", "Agent loop", "Body", id="bold-label-no-space"),
        pytest.param("CMP-1 — **Agent loop.** Body", "CMP-1", "Agent loop", "Body", id="bold-label"),
        pytest.param("MEM-RTE-store — Store. Body", "MEM-RTE-store", "Store", "Body", id="prefixed-id"),
        pytest.param("CMP-1 — Agent loop.", "CMP-1", "Agent loop", "", id="label-only"),
        pytest.param("CMP-1 — Agent loop.   ", "CMP-1", "Agent loop", "", id="trailing-spaces"),
        pytest.param("CMP-1 — Agent loop.\r", "CMP-1", "Agent loop", "", id="trailing-cr"),
    ],
)
def test_a_paragraph_opening_with_an_id_and_a_dash_declares(text, record_id, label, rest) -> None:
    found = declaration(text, heading=False)
    assert found is not None
    assert (found.record_id, found.label, found.rest) == (record_id, label, rest)
    assert not found.annotation and found.amendment is None


@pytest.mark.parametrize(
    ("text", "rest"),
    [
        pytest.param("**OBJ-1.** The queue of turns.", "The queue of turns.", id="stop-inside-bold"),
        pytest.param("**OBJ-1**. The queue of turns.", "The queue of turns.", id="stop-after-bold"),
        pytest.param("**OBJ-1:** The queue of turns.", "The queue of turns.", id="colon-inside-bold"),
    ],
)
def test_a_bold_id_without_a_label_declares_a_record_without_one(text: str, rest: str) -> None:
    found = declaration(text, heading=False)
    assert found is not None
    assert (found.record_id, found.label, found.rest) == ("OBJ-1", None, rest)


def test_the_id_column_counts_the_bold_markers_before_it() -> None:
    plain, bold = declaration("CMP-1 — A.", heading=False), declaration("**CMP-1 — A.** B", heading=False)
    assert plain is not None and bold is not None
    assert (plain.id_col, bold.id_col) == (1, 3)


@pytest.mark.parametrize(
    "text",
    [
        pytest.param("See CMP-1 — it runs.", id="id-not-first"),
        pytest.param("CMP-1 is the agent loop.", id="no-dash"),
        pytest.param("CMP-1-2 — a range, not an ID.", id="id-runs-on"),
        pytest.param("XYZ-1 — an unknown kind.", id="unknown-kind"),
        pytest.param("cmp-1 — lower case.", id="lower-case"),
        pytest.param("CMP-1 — ", id="dash-and-nothing"),
        pytest.param("CMP-1 ‒ a figure dash.", id="figure-dash"),
        pytest.param("", id="empty"),
        pytest.param("Plain prose without any ID.", id="prose"),
    ],
)
def test_prose_that_does_not_open_with_a_declaration_is_refused(text: str) -> None:
    assert declaration(text, heading=False) is None


# ---------------------------------------------------------------- where a label ends


@pytest.mark.parametrize(
    ("text", "label", "rest"),
    [
        pytest.param("CMP-1 — Reads `a.b` then. Body", "Reads `a.b` then", "Body", id="stop-inside-code"),
        pytest.param("CMP-1 — Reads `a. b` then. Body", "Reads `a. b` then", "Body", id="stop-space-in-code"),
        pytest.param("CMP-1 — Keys `x: y` here: body", "Keys `x: y` here", "body", id="colon-inside-code"),
        pytest.param("CMP-1 — Uses e.g. caches. Body", "Uses e.g. caches", "Body", id="abbreviation"),
        pytest.param("CMP-1 — Version 2.0 loop. Body", "Version 2.0 loop", "Body", id="decimal"),
        pytest.param("CMP-1 — Café naïve. Corps", "Café naïve", "Corps", id="unicode-label"),
    ],
)
def test_the_label_ends_at_the_first_full_stop_outside_code(text: str, label: str, rest: str) -> None:
    found = declaration(text, heading=False)
    assert found is not None
    assert (found.label, found.rest) == (label, rest)


@pytest.mark.parametrize(
    ("text", "label", "rest"),
    [
        pytest.param("Label. Body", "Label", "Body", id="full-stop"),
        pytest.param("Label: body. More.", "Label", "body. More.", id="colon-first"),
        pytest.param("A label. With: colon", "A label", "With: colon", id="stop-before-colon"),
        pytest.param("**Bold label.** Body", "Bold label", "Body", id="bold"),
        pytest.param("No end at all", "No end at all", "", id="no-end"),
        pytest.param(
            "Skill metadata → later context; procedure; discovery conclusion status: wired. See RTE-14.",
            "Skill metadata → later context; procedure",
            "discovery conclusion status: wired. See RTE-14.",
            id="status-clause-after-a-semicolon",
        ),
        pytest.param("Reads; writes: body", "Reads; writes", "body", id="other-clause-after-a-semicolon"),
        # A backtick that no backtick closes opens no code span: it is text (CommonMark).
        pytest.param("`open. code", "`open", "code", id="unclosed-backtick-is-text"),
        pytest.param("   ", None, "", id="blank"),
    ],
)
def test_split_label(text: str, label: str | None, rest: str) -> None:
    assert split_label(text) == (label, rest)


def test_a_bold_span_opened_before_the_id_closes_the_label() -> None:
    assert split_label("Agent loop.** Runs.", bold_open=True) == ("Agent loop", "Runs.")


# ---------------------------------------------------------------- headings


@pytest.mark.parametrize(
    ("text", "label", "rest"),
    [
        pytest.param("RTE-4 — Session write", "Session write", "", id="dash-label"),
        pytest.param("RTE-4 — **Session write**", "Session write", "", id="bold-label"),
        pytest.param("RTE-4", None, "", id="bare-id"),
        pytest.param("RTE-4 session write", None, "session write", id="no-dash"),
        pytest.param("RTE-4 — Label. With a stop", "Label. With a stop", "", id="whole-title"),
    ],
)
def test_a_heading_declares_with_its_whole_title_as_label(text: str, label: str | None, rest: str) -> None:
    found = declaration(text, heading=True)
    assert found is not None
    assert (found.record_id, found.label, found.rest) == ("RTE-4", label, rest)


def test_a_heading_that_mentions_an_id_later_declares_nothing() -> None:
    assert declaration("Routes around RTE-4", heading=True) is None


# ---------------------------------------------------------------- annotations and amendments


@pytest.mark.parametrize(
    ("text", "heading", "label"),
    [
        pytest.param("On RT-RTE-loop", False, None, id="paragraph"),
        pytest.param("On RT-RTE-loop — the loop", True, "the loop", id="heading-with-label"),
    ],
)
def test_on_an_id_annotates_a_record_declared_elsewhere(text: str, heading: bool, label: str | None) -> None:
    found = declaration(text, heading=heading)
    assert found is not None
    assert (found.record_id, found.label, found.annotation) == ("RT-RTE-loop", label, True)
    assert found.id_col == 4  # after "On "


def test_an_amendment_paragraph_names_its_amendment_and_keeps_its_body() -> None:
    found = declaration("RTE-10 memory amendment — Now also writes notes.", heading=False)
    assert found is not None
    assert (found.record_id, found.amendment, found.label, found.rest) == (
        "RTE-10",
        "memory amendment",
        None,
        "Now also writes notes.",
    )


def test_an_amendment_heading_is_no_amendment() -> None:
    found = declaration("RTE-10 memory amendment — notes", heading=True)
    assert found is not None and found.amendment is None


# ---------------------------------------------------------------- first_outside_code


@pytest.mark.parametrize(
    ("text", "start"),
    [
        pytest.param("a. b", 1, id="plain"),
        pytest.param("`a. b` c. d", 8, id="after-code"),
        pytest.param("`a. b` `c. d`", None, id="all-in-code"),
    ],
)
def test_first_outside_code(text: str, start: int | None) -> None:
    found = first_outside_code(re.compile(r"\.(?=\s)"), text)
    assert (found.start() if found else None) == start


# A code span may be opened by two backticks (CommonMark) and then hold a full stop or a
# single backtick: the label ends after the span, not inside it.
@pytest.mark.parametrize(
    ("text", "label", "rest"),
    [
        pytest.param("CMP-1 — Reads ``a. b`` then. Body", "Reads ``a. b`` then", "Body", id="stop-in-double"),
        pytest.param("CMP-1 — Reads `` ` `` then. Body", "Reads `` ` `` then", "Body", id="backtick-in-code"),
    ],
)
def test_a_full_stop_inside_a_double_backtick_code_span_does_not_end_the_label(
    text: str, label: str, rest: str
) -> None:
    found = declaration(text, heading=False)
    assert found is not None
    assert (found.label, found.rest) == (label, rest)


# ---------------------------------------------------------------- hostile input, read once


def _content(text: str) -> int:
    return sum(not char.isspace() for char in text)


@pytest.mark.parametrize(
    "text",
    [
        pytest.param("CMP-1 — " + "`a. " * 50_000, id="code-spans-holding-stops"),
        pytest.param("CMP-1 — " + "e.g. " * 50_000, id="abbreviations"),
        pytest.param("**CMP-1 — **" + "a" * 200_000, id="bold-without-label"),
        pytest.param("CMP-1 — " + " " * 200_000 + "x. y", id="spaces"),
        pytest.param("CMP-1 — " + "a: " * 50_000, id="colons"),
        pytest.param("**" * 100_000 + "CMP-1 — x", id="bold-markers-before"),
    ],
)
def test_a_large_hostile_declaration_is_read_whole(text: str) -> None:
    found = declaration(text, heading=False)
    assert found is not None and found.record_id == "CMP-1"
    # Label and body keep everything after the dash but the one mark that ends the label.
    assert _content(found.label or "") + _content(found.rest) >= _content(text.split("— ", 1)[1]) - 1


@pytest.mark.parametrize(
    "text",
    [
        pytest.param("CMP-1 " + "a amendment" * 20_000, id="amendment-words-without-dash"),
        pytest.param("CMP-1" + "-" * 200_000, id="id-running-into-dashes"),
    ],
)
def test_a_large_hostile_paragraph_that_declares_nothing(text: str) -> None:
    assert declaration(text, heading=False) is None
