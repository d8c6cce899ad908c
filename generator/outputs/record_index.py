"""The record index's arithmetic: counted terms per document field, and lunr's index of them.

The site ships each document's counted terms (``FieldTerms.as_row``), not a built index:
every score of a lunr index depends on every document's length and every term's document
count, so a built index changes entirely with any edit, and building it was the largest
fixed cost of a ``kbgen serve`` rebuild and grows with the KB. The site's search worker
builds the index from the counts (``kb-search.js``, ``serializedIndex``), with the
formulas of ``serialized_index`` here: BM25, k1 = 1.2, b = 0.75, lunr's idf, scores
rounded to three places, in the same order of operations as lunr's builder. So the
browser's index is lunr's own: ``tests/outputs/test_fast_markdown.py`` compares
``serialized_index`` with lunr.py's builder on the shipped records, and the browser tests
compare the worker's index with ``serialized_index``. ``kbgen search`` queries lunr.py's
own index of the same documents.
"""

from __future__ import annotations

import functools
import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from lunr import __TARGET_JS_VERSION__
from lunr.stemmer import stemmer
from lunr.stop_word_filter import stop_word_filter
from lunr.token import Token
from lunr.trimmer import trimmer

K1 = 1.2
B = 0.75
SEARCH_PIPELINE = ["stemmer"]  # what the site's lunr.js runs on a query (Builder.search_pipeline)


# A word longer than this is no word a reader searches for (a digest, a run of one letter):
# it is neither indexed nor queried (``search.tokens`` leaves it out). lunr's stemmer
# recurses once per character of some suffixes: about a thousand would exhaust the stack.
MAX_TOKEN_CHARS = 200


@functools.lru_cache(maxsize=65536)
def index_term(word: str) -> str | None:
    """What lunr's indexing pipeline (trimmer, stop-word filter, stemmer) makes of one word,
    computed once per word by lunr's own functions; None for a stop word or an over-long word."""
    if len(word) > MAX_TOKEN_CHARS:
        return None
    token = trimmer(Token(word))
    if stop_word_filter(token) is None:
        return None
    return str(stemmer(token))


@dataclass(frozen=True, slots=True)
class FieldTerms:
    """One field of one document: its length in terms and each term's count, in the order
    the terms first occur (lunr numbers terms in that order)."""

    length: int
    counts: dict[str, int]

    def as_row(self) -> list[Any]:
        """The form the site ships: the length, then each term and its count, in order."""
        row: list[Any] = [self.length]
        for term, count in self.counts.items():
            row += (term, count)
        return row

    @classmethod
    def from_row(cls, row: Sequence[Any]) -> FieldTerms:
        return cls(int(row[0]), {str(row[at]): int(row[at + 1]) for at in range(1, len(row) - 1, 2)})

    @classmethod
    def of(cls, words: Sequence[str]) -> FieldTerms:
        terms = [term for term in map(index_term, map(str.lower, words)) if term is not None]
        # Counter keeps first occurrences in order, as lunr numbers the terms.
        return cls(len(terms), dict(Counter(terms)))


def _numbered_postings(
    documents: Sequence[Sequence[FieldTerms]], fields: Sequence[str]
) -> tuple[dict[str, int], dict[str, dict[str, dict[str, Any]]]]:
    """Each term's number (first occurrence) and the documents of each field that hold it."""
    numbers: dict[str, int] = {}
    postings: dict[str, dict[str, dict[str, Any]]] = {}
    for ref, document in enumerate(documents):
        key = str(ref)
        for name, terms in zip(fields, document, strict=True):
            for term in terms.counts:
                posting = postings.get(term)
                if posting is None:
                    numbers[term] = len(numbers)
                    posting = postings[term] = {field: {} for field in fields}
                posting[name][key] = {}
    return numbers, postings


def serialized_index(documents: Sequence[Sequence[FieldTerms]], boosts: dict[str, int]) -> dict[str, Any]:
    """lunr's ``Index.serialize()`` of these documents (refs are their positions)."""
    fields = list(boosts)
    numbers, postings = _numbered_postings(documents, fields)
    count = len(documents)
    average = {
        name: sum(document[n].length for document in documents) / count if count else 0.0
        for n, name in enumerate(fields)
    }
    idf: dict[str, float] = {}
    for term, posting in postings.items():
        having = sum(len(posting[field]) for field in fields)
        idf[term] = math.log(1 + abs((count - having + 0.5) / (having + 0.5)))
    # One lookup per term for its number and idf; each field's norm computed once.
    scored = {term: (numbers[term], idf[term]) for term in numbers}
    vectors: list[list[Any]] = []
    for ref, document in enumerate(documents):
        for name, terms in zip(fields, document, strict=True):
            vectors.append([f"{name}/{ref}", _vector(terms, scored, average[name], boosts[name])])
    inverted = [[term, {**postings[term], "_index": numbers[term]}] for term in sorted(postings)]
    return {
        "version": __TARGET_JS_VERSION__,
        "fields": fields,
        "fieldVectors": vectors,
        "invertedIndex": inverted,
        "pipeline": SEARCH_PIPELINE,
    }


def _vector(
    terms: FieldTerms, scored: dict[str, tuple[int, float]], average: float, boost: int
) -> list[float | int]:
    """One field's BM25 weights as lunr's Vector serializes them: index, score, … by index.

    The same floating-point operations in the same order as lunr's builder (the length
    norm is one subexpression of its formula, computed once per field here)."""
    norm = K1 * (1 - B + B * (terms.length / average))
    weighted = []
    for term, tf in terms.counts.items():
        number, term_idf = scored[term]
        weighted.append((number, round(term_idf * ((K1 + 1) * tf) / (norm + tf) * boost, 3)))
    weighted.sort()
    flat: list[float | int] = []
    for number, score in weighted:
        flat += (number, score)
    return flat
