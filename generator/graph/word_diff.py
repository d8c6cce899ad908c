"""A word-level diff of two texts, in time linear in their length.

Texts are compared word by word (runs of non-space characters; how the words are
spaced is not compared) with ``difflib.SequenceMatcher``. SequenceMatcher is quadratic
or worse on texts built to defeat it (tens of seconds on 20,000 words that repeat in a
cycle), and records are untrusted, so two bounds hold:

- the common head and tail are taken off first (one pass), and a middle longer than
  ``MAX_TOKENS`` words on either side is not compared word by word: it is shown
  deleted whole and inserted whole (``whole=True``);
- the matcher runs on a budget of ``WORK_PER_TOKEN`` inner steps per word of the
  middle. Each search for a longest match costs at most the number of places its words
  occur in the new text, known before it runs; a search that would overrun the budget
  stops the comparison, and the middle is shown replaced whole.

Either way the cost of a field is linear in its words.
"""

from __future__ import annotations

import difflib
import re
from collections import Counter
from dataclasses import dataclass
from itertools import accumulate
from typing import Literal

MAX_TOKENS = 20_000  # words per side of a field's changed middle compared word by word
# The matcher's inner steps allowed per word of the middle: the fields of the shipped
# records need under 2, the 7,000 words of a run's record bodies joined into one text 15.
WORK_PER_TOKEN = 50

_WORD = re.compile(r"\S+")
ELLIPSIS = "…"  # stands for the shared words ``elided`` leaves out

Op = Literal["equal", "delete", "insert"]


@dataclass(frozen=True, slots=True)
class WordOp:
    """A run of words the two texts share (``equal``), or that only the old (``delete``)
    or the new text (``insert``) holds, joined by single spaces."""

    op: Op
    text: str


@dataclass(frozen=True, slots=True)
class WordDiff:
    """The operations that turn the old text into the new; ``whole``: the changed middle
    was too long or too costly to compare word by word and is shown replaced whole."""

    ops: tuple[WordOp, ...]
    whole: bool = False

    @property
    def words_only_equal(self) -> bool:
        """True when the texts hold the same words (they differ in spacing alone)."""
        return all(op.op == "equal" for op in self.ops)


class _OverBudget(Exception):
    """The matcher would overrun its budget of inner steps."""


class _BudgetedMatcher(difflib.SequenceMatcher[str]):
    """A SequenceMatcher that refuses to spend more than ``budget`` inner steps.

    ``find_longest_match`` loops over every place each word of its range of ``a`` occurs
    in ``b``, leaving out the words its automatic junk heuristic calls popular (in a ``b``
    of 200 words or more, a word there more than ``len(b) // 100 + 1`` times): the prefix
    sums of those counts give each call's cost before it runs.
    """

    def __init__(self, a: list[str], b: list[str], budget: int) -> None:
        super().__init__(None, a, b, autojunk=True)
        occurrences = Counter(b)
        popular = len(b) // 100 + 1 if len(b) >= 200 else len(b)
        weights = (count if (count := occurrences[word]) <= popular else 0 for word in a)
        self._cost_before = list(accumulate(weights, initial=0))
        self._words = len(a)
        self._left = budget

    def find_longest_match(
        self, alo: int = 0, ahi: int | None = None, blo: int = 0, bhi: int | None = None
    ) -> difflib.Match:
        end = self._words if ahi is None else ahi
        self._left -= self._cost_before[end] - self._cost_before[alo] + 1
        if self._left < 0:
            raise _OverBudget
        return super().find_longest_match(alo, end, blo, bhi)


def word_diff(old: str | None, new: str | None) -> WordDiff:
    """The word-level diff of two texts (a missing text has no words)."""
    a = _WORD.findall(old or "")
    b = _WORD.findall(new or "")
    head = _common_head(a, b)
    tail = _common_head(a[head:][::-1], b[head:][::-1])
    middle_a, middle_b = a[head : len(a) - tail], b[head : len(b) - tail]
    ops: list[WordOp] = []
    _add(ops, "equal", a[:head])
    whole = False
    if middle_a and middle_b:
        middle, whole = _compare(middle_a, middle_b)
        ops.extend(middle)
    else:
        _add(ops, "delete", middle_a)
        _add(ops, "insert", middle_b)
    _add(ops, "equal", a[len(a) - tail :])
    return WordDiff(tuple(_merged(ops)), whole)


def _common_head(a: list[str], b: list[str]) -> int:
    count = 0
    for mine, theirs in zip(a, b, strict=False):
        if mine != theirs:
            break
        count += 1
    return count


def _compare(a: list[str], b: list[str]) -> tuple[list[WordOp], bool]:
    """The ops of two middles that share neither their first nor their last word."""
    replaced = [WordOp("delete", " ".join(a)), WordOp("insert", " ".join(b))]
    if len(a) > MAX_TOKENS or len(b) > MAX_TOKENS:
        return replaced, True
    matcher = _BudgetedMatcher(a, b, WORK_PER_TOKEN * (len(a) + len(b)))
    try:
        opcodes = matcher.get_opcodes()
    except _OverBudget:
        return replaced, True
    ops: list[WordOp] = []
    for tag, a_start, a_end, b_start, b_end in opcodes:
        if tag == "equal":
            _add(ops, "equal", a[a_start:a_end])
            continue
        _add(ops, "delete", a[a_start:a_end])
        _add(ops, "insert", b[b_start:b_end])
    return ops, False


def _add(ops: list[WordOp], op: Op, words: list[str]) -> None:
    if words:
        ops.append(WordOp(op, " ".join(words)))


def _merged(ops: list[WordOp]) -> list[WordOp]:
    """Adjacent runs of one operation joined (the head, the middle and the tail meet)."""
    merged: list[WordOp] = []
    for op in ops:
        if merged and merged[-1].op == op.op:
            merged[-1] = WordOp(op.op, f"{merged[-1].text} {op.text}")
        else:
            merged.append(op)
    return merged


def elided(ops: tuple[WordOp, ...], context: int) -> list[WordOp]:
    """The ops as a reader sees them: a run of shared words longer than twice ``context``
    keeps ``context`` words beside each change and shows '…' for the rest (the first run
    keeps its end, the last its start)."""
    shown: list[WordOp] = []
    for index, op in enumerate(ops):
        words = op.text.split(" ")
        if op.op != "equal" or len(words) <= 2 * context:
            shown.append(op)
            continue
        head = words[:context] if index > 0 else []
        tail = words[-context:] if index < len(ops) - 1 else []
        shown.append(WordOp("equal", " ".join([*head, ELLIPSIS, *tail])))
    return shown
