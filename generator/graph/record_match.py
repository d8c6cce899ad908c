"""Which record of one run is which record of the other.

Records are matched by ID first. An ID that only one run declares may have been
renumbered: such records are matched by kind and normalised label (case folded,
punctuation and runs of spaces made one space), when exactly one record of each run
has that kind and label; a label shared by several records of a run matches none.

A pair with the same ID whose labels share few words may name different things (IDs
are meant never to change referent; a renumbered analysis may break that). Its labels'
overlap is the share of content words (case folded, punctuation dropped, a plural 's'
dropped, a few function words left out) that the shorter label has in common with the
other: below ``REFERENT_OVERLAP`` the pair is flagged, and still compared as one record.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

T = TypeVar("T")

# A pair of labels sharing less than half of the shorter one's content words is flagged.
REFERENT_OVERLAP = 0.5

_PUNCTUATION = re.compile(r"[\W_]+")
_FUNCTION_WORDS = frozenset(
    {"a", "an", "and", "as", "at", "by", "for", "from", "in", "into", "is", "its", "of", "on", "or"}
    | {"the", "then", "to", "via", "with"}
)


def normalised(label: str) -> str:
    """A label as matching compares it: case folded, punctuation and spaces one space."""
    return _PUNCTUATION.sub(" ", label.casefold()).strip()


def content_words(label: str) -> frozenset[str]:
    """The words a label's overlap counts: no function words, a plural 's' dropped."""
    words = (word for word in normalised(label).split() if word not in _FUNCTION_WORDS)
    return frozenset(word[:-1] if len(word) > 3 and word.endswith("s") else word for word in words)


def label_overlap(old: str | None, new: str | None) -> float | None:
    """The share of the shorter label's content words the other has; None when either
    label has none (nothing to compare)."""
    a, b = content_words(old or ""), content_words(new or "")
    if not a or not b:
        return None
    return len(a & b) / min(len(a), len(b))


def possibly_different(old: str | None, new: str | None) -> float | None:
    """The labels' overlap when it is low enough to flag the pair, else None."""
    overlap = label_overlap(old, new)
    return overlap if overlap is not None and overlap < REFERENT_OVERLAP else None


@dataclass(frozen=True, slots=True)
class Matching(Generic[T]):
    """Pairs by ID, pairs matched by kind and label, and what is left on each side."""

    same_id: tuple[tuple[T, T], ...]
    renumbered: tuple[tuple[T, T], ...]
    removed: tuple[T, ...]
    added: tuple[T, ...]


def match_records(
    old: Sequence[T],
    new: Sequence[T],
    ident: Callable[[T], str],
    kind_and_label: Callable[[T], tuple[str, str] | None],
) -> Matching[T]:
    """Match two runs' records: by ID, then the rest by unique (kind, normalised label).

    ``kind_and_label`` gives a record's kind code and label, or None when it has no label
    to match by. The first record of an ID counts (IDs are unique in a clean run).
    """
    old_by_id = _first_by(old, ident)
    new_by_id = _first_by(new, ident)
    same_id = tuple((item, new_by_id[key]) for key, item in old_by_id.items() if key in new_by_id)
    old_only = [item for key, item in old_by_id.items() if key not in new_by_id]
    new_only = [item for key, item in new_by_id.items() if key not in old_by_id]
    old_keys = _unique_keys(old_only, kind_and_label)
    new_keys = _unique_keys(new_only, kind_and_label)
    renumbered = tuple((item, new_keys[key]) for key, item in old_keys.items() if key in new_keys)
    paired_old = {id(pair[0]) for pair in renumbered}
    paired_new = {id(pair[1]) for pair in renumbered}
    return Matching(
        same_id,
        renumbered,
        tuple(item for item in old_only if id(item) not in paired_old),
        tuple(item for item in new_only if id(item) not in paired_new),
    )


def _first_by(items: Sequence[T], key: Callable[[T], str]) -> dict[str, T]:
    found: dict[str, T] = {}
    for item in items:
        found.setdefault(key(item), item)
    return found


def _unique_keys(
    items: Sequence[T], kind_and_label: Callable[[T], tuple[str, str] | None]
) -> dict[tuple[str, str], T]:
    """Records by (kind, normalised label), leaving out every key more than one holds."""
    found: dict[tuple[str, str], T] = {}
    shared: set[tuple[str, str]] = set()
    for item in items:
        named = kind_and_label(item)
        if named is None or not normalised(named[1]):
            continue
        key = (named[0], normalised(named[1]))
        if key in found:
            shared.add(key)
        found[key] = item
    return {key: item for key, item in found.items() if key not in shared}
