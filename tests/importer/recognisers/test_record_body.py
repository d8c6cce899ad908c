"""The forms of a record's body written after its declaration: a status line without
'conclusion', evidence written path first, and a paragraph that goes on with a record."""

from __future__ import annotations

import pytest

from generator.importer.recognisers.record_body import bare_status, follow_up, path_evidence

COMMIT = "0123456789abcdef0123456789abcdef01234567"


@pytest.mark.parametrize(
    ("text", "label", "value"),
    [
        (
            "Status: implementation wired; no ingest execution observed.",
            "implementation conclusion status",
            "wired; no ingest execution observed",
        ),
        (
            "Status: wired; caller access policy unobserved.",
            "conclusion status",
            "wired; caller access policy unobserved",
        ),
        ("**Status:** observed", "conclusion status", "observed"),
        (
            "Status: hook behavior wired and described",
            "hook behavior conclusion status",
            "wired and described",
        ),
    ],
)
def test_a_status_line_names_its_layer_before_the_value(text: str, label: str, value: str) -> None:
    found = bare_status(text)
    assert found is not None and found.known
    assert (found.label, found.value) == (label, value)


@pytest.mark.parametrize(
    "text",
    ["Status: pending review", "Statuses: wired", "Report status: complete", "The status: wired", "Status:"],
)
def test_a_line_without_a_controlled_value_is_no_status(text: str) -> None:
    assert bare_status(text) is None


def test_paths_pinned_at_a_commit_wait_for_the_source_at_that_commit() -> None:
    found = path_evidence(f"Evidence: `src/a.rs`, `src/b.rs` @ `{COMMIT}`.")
    assert found is not None
    assert (found.paths, found.source, found.commit) == (("src/a.rs", "src/b.rs"), None, COMMIT)


def test_paths_followed_by_their_source_are_that_source_s() -> None:
    found = path_evidence("Evidence: `run.py`; `lib/model.py` (`SRC-2`).")
    assert found is not None
    assert (found.paths, found.source, found.commit) == (("run.py", "lib/model.py"), "SRC-2", None)


@pytest.mark.parametrize(
    "text",
    [
        "Evidence: SRC-1 `src/a.rs`.",  # the source first: the evidence recogniser's
        "Evidence: `src/a.rs` and more prose.",  # neither a pin nor a source
        f"Evidence: `src/a.rs` @ `{COMMIT[:12]}`.",  # an abbreviated commit pins nothing
        "Notes: `src/a.rs` @ " + COMMIT,
    ],
)
def test_other_evidence_lines_are_not_path_first(text: str) -> None:
    assert path_evidence(text) is None


@pytest.mark.parametrize(
    ("text", "record"),
    [
        ("For OBJ-1, proposed solutions may be derived.", "OBJ-1"),
        ("Memory-specific continuation on RTE-2: the read keeps it.", "RTE-2"),
        ("For `MEM-RTE-knowledge-store`, the store is local.", "MEM-RTE-knowledge-store"),
        ("For OBJ-2, the wired routes supply generation; RTE-4 supplies only a check.", "OBJ-2"),
    ],
)
def test_a_paragraph_naming_one_record_first_goes_on_with_it(text: str, record: str) -> None:
    assert follow_up(text) == record


@pytest.mark.parametrize(
    "text",
    [
        "For CMP-5, CMP-6 and CMP-7, inference use conclusion status: wired.",
        "For BAP-20, the consumers are the model; BAP-21's consumer is the planner.",
        "For example, the loop writes notes.",
        "The loop, for RTE-1, writes notes.",
    ],
)
def test_a_paragraph_naming_several_records_or_none_goes_on_with_none(text: str) -> None:
    assert follow_up(text) is None
