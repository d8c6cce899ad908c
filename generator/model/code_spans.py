"""Inline code spans of record and document text, by CommonMark's rule.

A run of backticks opens a code span that the next run of the same length closes; a run
that no later run of its length closes is literal text: a lone backtick opens nothing,
and a span opened by two backticks may hold one. The record text the renderer shows
and the documents the importer reads share this one reading, so a full stop, a label or
a table's ``|`` inside a span is read the same way everywhere. Everything here is one
pass over the text.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator

__all__ = ["find_code_spans", "outside_code_spans"]

_BACKTICKS = re.compile(r"`+")


def find_code_spans(text: str) -> list[tuple[int, int, str]]:
    """Code spans as (start, end, content), in text order: a backtick run closed by the
    next run of equal length (``end`` is past the closing run; ``content`` is what lies
    between the runs, as written).

    Each run's closer is found from the runs after it, read once from the end (the next
    run of each length), so many unclosed runs cost no rescan of the rest of the text (a
    regex with a lazy body and a back-reference is quadratic on them).
    """
    if "`" not in text:
        return []
    runs = [(m.start(), m.end()) for m in _BACKTICKS.finditer(text)]
    closer: list[int | None] = [None] * len(runs)
    following: dict[int, int] = {}  # run length → index of the next run of that length
    for index in range(len(runs) - 1, -1, -1):
        start, end = runs[index]
        closer[index] = following.get(end - start)
        following[end - start] = index
    spans = []
    index = 0
    while index < len(runs):
        found = closer[index]
        if found is None:
            index += 1
            continue
        start, end = runs[index]
        spans.append((start, runs[found][1], text[end : runs[found][0]]))
        index = found + 1
    return spans


def outside_code_spans(
    spans: list[tuple[int, int, str]], matches: Iterable[re.Match[str]]
) -> Iterator[re.Match[str]]:
    """The matches that start outside every code span (``spans`` from ``find_code_spans``,
    both in text order); one pass over both."""
    index = 0
    for match in matches:
        while index < len(spans) and spans[index][1] <= match.start():
            index += 1
        if index < len(spans) and spans[index][0] <= match.start():
            continue
        yield match
