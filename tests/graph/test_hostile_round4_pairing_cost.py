"""Pairing stays near-linear whatever the text (round four): candidates are capped on
both sides. Each hostile shape of ``benchmarks/run_diff_adversarial.py`` (labels that
repeat common words on one side, long labels of pooled words, bodies of pooled words
under one shared label) used to make every pair, or a growing share of pairs, a
candidate; its candidates now grow with the records, at most ``2 · MAX_CANDIDATES`` per
record. No time is asserted (the machine is shared): candidate counts are."""

from __future__ import annotations

from types import ModuleType

import pytest
from run_diff_support import REPO_ROOT

from generator.graph.record_match import MAX_CANDIDATES, candidate_count, match_records

BENCHMARKS = REPO_ROOT / "benchmarks"


@pytest.fixture
def adversarial(monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    monkeypatch.syspath_prepend(str(BENCHMARKS))  # the benchmarks import each other as scripts
    import run_diff_adversarial

    return run_diff_adversarial


@pytest.mark.parametrize("shape", ["one-sided", "long labels", "shared text"])
def test_candidates_grow_linearly_with_hostile_labels(adversarial: ModuleType, shape: str) -> None:
    build = adversarial.SHAPES[shape]
    small, large = (candidate_count(*build(n)) for n in (300, 600))
    assert small <= 2 * MAX_CANDIDATES * 300
    assert large <= 2 * MAX_CANDIDATES * 600
    assert large <= 2.2 * small


def test_the_right_pairs_are_still_found_among_hostile_labels(adversarial: ModuleType) -> None:
    """Each record holds a word only its counterpart holds: capped candidates keep it."""
    old, new = adversarial.one_sided(300)
    matching = match_records(old, new)
    own = {pair.old.label.split()[-1] == pair.new.label.split()[-1] for pair in matching.pairs}
    assert own == {True} and len(matching.pairs) == 300
