"""The supersession recogniser: which records a record's own text says replace it."""

from __future__ import annotations

import pytest

from generator.importer.recognisers.supersession import superseded_by

NAPKIN_05_OBJ_9 = (
    "Proposal kind: operative object, superseded. This ID keeps its original aggregate referent and is "
    "no longer an operative comparison witness. The replacement parts are the objects OBJ-10, OBJ-11, "
    "OBJ-12 and OBJ-13. These separately registered objects replace the aggregate."
)


def test_a_superseded_record_naming_its_replacement_parts() -> None:
    label = "Superseded aggregate of auxiliary records"
    assert superseded_by("OBJ-9", label, NAPKIN_05_OBJ_9) == ["OBJ-10", "OBJ-11", "OBJ-12", "OBJ-13"]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Superseded by: CLM-7.", ["CLM-7"]),
        ("**Superseded by:** CLM-7 and CLM-8", ["CLM-7", "CLM-8"]),
        ("The claim held. This claim is superseded by CLM-7.", ["CLM-7"]),
        ("CLM-3 is superseded by CLM-7, CLM-8 and CLM-9.", ["CLM-7", "CLM-8", "CLM-9"]),
    ],
)
def test_the_forms_of_a_supersession(text: str, expected: list[str]) -> None:
    assert superseded_by("CLM-3", None, text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "MEM-RTE-3 is superseded by RT-RTE-7.",  # another record's supersession
        "The replacement is CLM-7.",  # a replacement, but the record does not call itself superseded
        "Tend retires superseded notes into trash.",  # the word alone
        "Superseded by: CLM-3.",  # the record itself
    ],
)
def test_what_is_not_a_supersession_of_this_record(text: str) -> None:
    assert superseded_by("CLM-3", None, text) == []
