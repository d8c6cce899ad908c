"""``recognisers/amendments.py``: a reconciliation's ``Amendment: <IDs> …`` paragraphs."""

from __future__ import annotations

import pytest

from generator.importer.recognisers.amendments import amendment_text, leading_ids


@pytest.mark.parametrize(
    ("text", "targets", "body", "evidence", "affected"),
    [
        pytest.param(
            "Amendment: RTE-4's description is widened. Evidence: SRC-1 a.py. Affected findings: F-2.",
            ["RTE-4"],
            "RTE-4's description is widened.",
            "SRC-1 a.py.",
            "F-2.",
            id="all-parts",
        ),
        pytest.param(
            "Amendment: RTE-4’s label changes. Affected findings: all",
            ["RTE-4"],
            "RTE-4’s label changes.",
            None,
            "all",
            id="curly-possessive-affected-only",
        ),
        pytest.param(
            "Amendment: RTE-2 and RTE-3 are merged.",
            ["RTE-2", "RTE-3"],
            "RTE-2 and RTE-3 are merged.",
            None,
            None,
            id="and",
        ),
        pytest.param(
            "Amendment: RTE-2, RTE-3, and RTE-5 change.",
            ["RTE-2", "RTE-3", "RTE-5"],
            "RTE-2, RTE-3, and RTE-5 change.",
            None,
            None,
            id="serial-comma",
        ),
        pytest.param(
            "Amendment: MEM-RTE-store is kept.   ",
            ["MEM-RTE-store"],
            "MEM-RTE-store is kept.",
            None,
            None,
            id="prefixed-trailing-spaces",
        ),
        pytest.param(
            "Amendment: RTE-4 is x. Evidence:  ",
            ["RTE-4"],
            "RTE-4 is x. Evidence:",
            None,
            None,
            id="empty-evidence",
        ),
    ],
)
def test_an_amendment_paragraph_is_cut_into_its_parts(text, targets, body, evidence, affected) -> None:
    found = amendment_text(text)
    assert found is not None
    assert (found.targets, found.body, found.evidence, found.affected) == (targets, body, evidence, affected)


@pytest.mark.parametrize(
    "text",
    [
        pytest.param("Amendment: RTE-2/RTE-4 merge.", id="slash-joined-ids"),
        pytest.param("Amendment: the routes change.", id="no-leading-id"),
        pytest.param("Amendment: RTE-4", id="id-alone"),
        pytest.param("Not an amendment: RTE-1 is x", id="other-label"),
        pytest.param("amendment: RTE-1 is x", id="lower-case-label"),
        pytest.param("", id="empty"),
    ],
)
def test_amendment_text_refuses(text: str) -> None:
    assert amendment_text(text) is None


@pytest.mark.parametrize(
    ("text", "ids", "rest"),
    [
        pytest.param("CMP-1, CMP-2 and CMP-3 rest", ["CMP-1", "CMP-2", "CMP-3"], " rest", id="list"),
        pytest.param("nothing here", [], "nothing here", id="none"),
        pytest.param("CMP-1/CMP-2", ["CMP-1"], "/CMP-2", id="slash-stops"),
    ],
)
def test_leading_ids(text: str, ids: list[str], rest: str) -> None:
    assert leading_ids(text) == (ids, rest)


@pytest.mark.parametrize(
    ("text", "targets"),
    [
        pytest.param("Amendment: " + "RTE-1, " * 30_000 + "RTE-2 is x.", 30_001, id="many-ids"),
        pytest.param("Amendment: " + "RTE-1 and " * 30_000, 30_000, id="ids-joined-by-and"),
        pytest.param("Amendment: RTE-1 is " + "Evidence: " * 30_000, 1, id="label-flood"),
    ],
)
def test_a_large_amendment_is_read_once(text: str, targets: int | None) -> None:
    found = amendment_text(text)
    assert (len(found.targets) if found else None) == targets
