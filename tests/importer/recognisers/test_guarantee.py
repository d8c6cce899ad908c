"""``recognisers/guarantee.py``: a route's ``Strength: …`` clause as guarantee entries."""

from __future__ import annotations

import pytest

from generator.importer.recognisers.guarantee import guarantee_clause
from generator.model.vocab import GuaranteeStrength


@pytest.mark.parametrize("strength", [s.value for s in GuaranteeStrength])
def test_every_strength_is_recognised(strength: str) -> None:
    assert guarantee_clause(f"Strength: {strength}.") == [{"strength": strength}]


@pytest.mark.parametrize(
    ("text", "entries"),
    [
        pytest.param(
            "Strength: protocol for scheduling, best effort for correction.",
            [
                {"strength": "protocol", "scope": "scheduling"},
                {"strength": "best effort", "scope": "correction"},
            ],
            id="two-scoped",
        ),
        pytest.param(
            "Strength: protocol; policy at runtime.",
            [{"strength": "protocol"}, {"strength": "policy", "scope": "runtime"}],
            id="semicolon",
        ),
        pytest.param(
            "Strength: policy/protocol.",
            [{"strength": "policy"}, {"strength": "protocol"}],
            id="slash-joined",
        ),
        pytest.param("Strength: invariant with caveats.", [{"strength": "invariant"}], id="with-drops-scope"),
        pytest.param(
            "Strength: retries are best effort.",
            [{"strength": "best effort", "scope": "retries are"}],
            id="value-last",
        ),
        pytest.param(
            "Runs the loop. Strength: protocol for loop progression, no correctness guarantee. SRC-1 a.py.",
            [{"strength": "protocol", "scope": "loop progression"}],
            id="inside-prose-negation-dropped",
        ),
    ],
)
def test_guarantee_clause(text: str, entries: list[dict[str, str]]) -> None:
    assert guarantee_clause(text) == entries


@pytest.mark.parametrize(
    "text",
    [
        pytest.param("Strength: not protocol.", id="negated"),
        pytest.param("Strength: none.", id="no-value"),
        pytest.param("strength: protocol.", id="lower-case-label"),
        pytest.param("Strength: protocol", id="no-full-stop"),
        pytest.param("No strength here.", id="no-clause"),
        pytest.param("", id="empty"),
    ],
)
def test_no_guarantee(text: str) -> None:
    assert guarantee_clause(text) == []


def test_no_claimed_guarantee_is_a_strength_of_its_own() -> None:
    # Its leading 'no' is the strength's own word, not a negation of the part.
    assert guarantee_clause("Strength: no claimed guarantee.") == [{"strength": "no claimed guarantee"}]
    assert guarantee_clause("Strength: protocol for x; no claimed guarantee for y.") == [
        {"strength": "protocol", "scope": "x"},
        {"strength": "no claimed guarantee", "scope": "y"},
    ]


@pytest.mark.parametrize(
    ("text", "count"),
    [
        pytest.param("Strength: " + "protocol for x, " * 20_000 + ".", 20_000, id="many-entries"),
        pytest.param("Strength: " + "a " * 100_000 + ".", 0, id="many-words"),
        pytest.param("Strength: " + "protocol/" * 20_000 + "x.", 20_000, id="slash-flood"),
    ],
)
def test_a_large_clause_is_read_once(text: str, count: int) -> None:
    assert len(guarantee_clause(text)) == count
