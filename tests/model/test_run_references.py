"""A run's references to its companion files, and a record's supersession, as the models hold them."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from generator.model.files import Run
from generator.model.records import Claim
from generator.model.vocab import RunReferenceRole

DIGEST = "593207c1ea92222094a13a53fe6ec704326cdd7ebeebec964c97a1a8b2178d23"


def test_a_run_holds_its_references_in_order() -> None:
    run = Run.model_validate(
        {
            "system": "Demo",
            "references": [
                {"role": "run state", "path": "kb/reports/state/run-state.md"},
                {"role": "memory analysis report", "path": "kb/m.md", "sha256": DIGEST},
                {"role": "generated review", "sha256": DIGEST},
            ],
        }
    )
    assert [ref.role for ref in run.references] == [
        RunReferenceRole.RUN_STATE,
        RunReferenceRole.MEMORY_ANALYSIS_REPORT,
        RunReferenceRole.GENERATED_REVIEW,
    ]
    assert run.references[1].sha256 == DIGEST
    assert Run.model_validate({"system": "Demo"}).references == []


@pytest.mark.parametrize(
    ("reference", "error"),
    [
        ({"role": "run state"}, "missing"),  # neither a path nor a digest
        ({"role": "run log", "path": "a.md"}, "enum"),  # not a role the specs name
        ({"role": "run state", "path": "two words.md"}, "run_path"),
        ({"role": "run state", "path": "a|b.md"}, "run_path"),
        ({"role": "run state", "sha256": DIGEST.upper()}, "sha256"),
        ({"role": "run state", "sha256": DIGEST + "\n"}, "sha256"),
        ({"role": "run state", "sha256": "sha256:" + DIGEST}, "sha256"),
    ],
)
def test_a_reference_the_model_refuses(reference: dict[str, str], error: str) -> None:
    with pytest.raises(ValidationError) as raised:
        Run.model_validate({"system": "Demo", "references": [reference]})
    assert [e["type"] for e in raised.value.errors()] == [error]


def test_a_record_names_the_records_that_supersede_it() -> None:
    claim = Claim.model_validate({"id": "CLM-3", "label": "Old reading", "superseded_by": ["CLM-7", "CLM-8"]})
    assert claim.superseded_by == ["CLM-7", "CLM-8"]
    with pytest.raises(ValidationError):
        Claim.model_validate({"id": "CLM-3", "superseded_by": ["not an ID"]})
