"""Aligning two runs' written conclusions stays linear whatever the text: sentences are
aligned through an inverted index whose postings and candidates are capped, a sentence
is compared by its head, and a role's sentences are capped. Each case counts the
rapidfuzz comparisons made (the costly step) rather than timing a shared machine."""

from __future__ import annotations

from types import SimpleNamespace
from typing import cast

import pytest

from generator.graph import verdict_diff
from generator.graph.verdict_diff import (
    MAX_CANDIDATES,
    MAX_POSTINGS,
    MAX_SENTENCE_CHARS,
    MAX_SENTENCES,
    Sentence,
    align,
    sentences_of,
)
from generator.model.system import SystemRecords


class _Counting:
    """rapidfuzz's ``fuzz`` as verdict_diff calls it, counting the comparisons."""

    def __init__(self) -> None:
        self.calls = 0

    def token_set_ratio(self, a: str, b: str) -> float:
        self.calls += 1
        return 100.0


@pytest.fixture
def counting(monkeypatch: pytest.MonkeyPatch) -> _Counting:
    counter = _Counting()
    monkeypatch.setattr(verdict_diff, "fuzz", counter)
    return counter


def _sentence(text: str) -> Sentence:
    return verdict_diff._sentence("result", "bounded_synthesis", "Bounded synthesis", text)


def _word(n: int) -> str:
    """A distinct word of letters only (digits alone are no content words)."""
    letters = "bcdfghjklmnpqrstvwz"
    word = ""
    while True:
        word = letters[n % len(letters)] + word
        n //= len(letters)
        if not n:
            return "x" + word + "x"


def test_sentences_repeating_common_words_make_no_candidates(counting: _Counting) -> None:
    # Every sentence of both runs holds the same ten words: each is held by more than
    # MAX_POSTINGS sentences, so none makes a candidate.
    common = " ".join(_word(i) for i in range(10))
    before = [_sentence(f"The {common} route is wired.") for _ in range(2_000)]
    after = [_sentence(f"The {common} route is not wired.") for _ in range(2_000)]
    assert list(align(before, after)) == []
    assert counting.calls == 0


def test_pooled_words_under_the_posting_cap_score_few_candidates(counting: _Counting) -> None:
    # Each sentence holds 40 words of a pool sized so that each word is held by about 30
    # sentences (under the cap): every old sentence shares words with hundreds of new ones.
    count, per = 2_000, 40
    pool = count * per // (MAX_POSTINGS - 2)
    texts = [" ".join(_word((i * 7 + k * 13) % pool) for k in range(per)) for i in range(count)]
    before = [_sentence(f"{text} is afforded.") for text in texts]
    after = [_sentence(f"{text} is observed.") for text in texts]
    aligned = list(align(before, after))
    assert counting.calls <= MAX_CANDIDATES * count
    assert len(aligned) == count  # each finds its counterpart, the best-scored candidate


def test_a_huge_sentence_is_compared_by_its_head(counting: _Counting) -> None:
    # One 'sentence' of a million characters without a full stop.
    huge = " ".join(_word(i) for i in range(150_000))
    (sentence,) = [_sentence(f"Reflection is wired {huge}")]
    assert len(verdict_diff._words(sentence)) <= MAX_SENTENCE_CHARS // 2
    list(align([sentence], [_sentence(f"Reflection is not wired {huge}")]))
    assert counting.calls <= 1


def test_a_role_holds_at_most_max_sentences() -> None:
    text = "The route is wired. " * (MAX_SENTENCES * 2)
    system = cast(SystemRecords, SimpleNamespace(result=SimpleNamespace(bounded_synthesis=text)))
    assert len(sentences_of(system, "synthesis")) == MAX_SENTENCES
