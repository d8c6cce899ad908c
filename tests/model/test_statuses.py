"""Conclusion statuses as documents state them: none, one or several per record, each a
controlled value with the qualifier written after it, under one label per field."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from generator.model.kinds import qualified_status_fields
from generator.model.records import (
    STATUS_LABEL_ALIASES,
    Claim,
    QualifiedStatus,
    Route,
    split_status,
    status_label,
)
from generator.model.vocab import ConclusionStatus


@pytest.mark.parametrize(
    ("written", "value", "qualifier", "dumped"),
    [
        pytest.param("wired", "wired", None, "wired", id="value-alone"),
        pytest.param("wired; default off", "wired", "default off", "wired; default off", id="semicolon"),
        pytest.param(
            "wired, conditional on installation",
            "wired",
            "conditional on installation",
            "wired, conditional on installation",
            id="comma",
        ),
        pytest.param(
            "wired for the return channel",
            "wired",
            "for the return channel",
            "wired for the return channel",
            id="after-the-value",
        ),
        pytest.param(
            "Claimed;  default off", "claimed", "default off", "claimed; default off", id="case-spaces"
        ),
        pytest.param(
            "causally supported (in one trial)",
            "causally supported",
            "in one trial",
            "causally supported (in one trial)",
            id="parenthesised",
        ),
    ],
)
def test_a_status_is_its_value_and_its_qualifier_dumped_as_written(
    written: str, value: str, qualifier: str | None, dumped: str
) -> None:
    status = QualifiedStatus.model_validate(written)
    assert (status.value, status.qualifier) == (ConclusionStatus(value), qualifier)
    assert status.model_dump() == dumped == str(status)


def test_a_status_written_as_keys_dumps_as_one_phrase() -> None:
    status = QualifiedStatus.model_validate({"value": "uninspected", "qualifier": "no run observed"})
    assert status.model_dump() == "uninspected, no run observed"


@pytest.mark.parametrize("written", ["proven", "not wired", "wiredly", "; wired", ""])
def test_a_status_without_a_controlled_value_opening_it_is_refused(written: str) -> None:
    assert split_status(written) is None
    with pytest.raises(ValidationError) as raised:
        QualifiedStatus.model_validate(written)
    assert raised.value.errors()[0]["type"] == "enum"


def test_a_claim_holds_no_status_one_qualified_status_or_several_labelled_ones() -> None:
    assert qualified_status_fields(Claim(id="CLM-1", claim="It remembers.")) == []
    one = Claim(id="CLM-1", conclusion_status="claimed; default off")
    assert qualified_status_fields(one) == [("claim conclusion status", "claimed", "default off")]
    assert one.model_dump(exclude_defaults=True)["conclusion_status"] == "claimed; default off"
    assert Claim(id="CLM-1", conclusion_status=ConclusionStatus.CLAIMED).conclusion_status == QualifiedStatus(
        value=ConclusionStatus.CLAIMED
    )
    several = Claim(
        id="CLM-1",
        statuses={
            "design conclusion status": "claimed",
            "external implementation conclusion status": "uninspected",
        },
    )
    assert [(label, value) for label, value, _ in qualified_status_fields(several)] == [
        ("design conclusion status", "claimed"),
        ("external implementation conclusion status", "uninspected"),
    ]


@pytest.mark.parametrize(
    ("written", "current"), [*STATUS_LABEL_ALIASES.items(), ("Learning", "learning conclusion status")]
)
def test_a_label_renamed_between_contract_versions_is_its_current_label(written: str, current: str) -> None:
    assert status_label(written) == current
    route = Route(id="RTE-1", statuses={written: "uninspected, no capacity comparison"})
    assert list(route.statuses) == [current]
    assert route.statuses[current].qualifier == "no capacity comparison"


def test_other_labels_are_kept_as_written() -> None:
    assert status_label("API invocation") == "API invocation"
    assert list(Route(id="RTE-1", statuses={"API invocation": "wired"}).statuses) == ["API invocation"]


def test_two_labels_of_one_field_are_refused_not_merged() -> None:
    with pytest.raises(ValidationError) as raised:
        Route(id="RTE-1", statuses={"learning": "uninspected", "learning conclusion status": "wired"})
    (error,) = raised.value.errors()
    assert error["type"] == "status_label_twice" and error["loc"] == ("statuses",)
    assert "'learning' and 'learning conclusion status' name one field" in error["msg"]
