"""Resolve an ID-shaped token from prose to a declared ID: the longest declared one wins."""

from __future__ import annotations

from collections.abc import Collection
from functools import lru_cache


@lru_cache(maxsize=8)
def _longest(declared: frozenset[str]) -> int:
    # A frozenset caches its hash, so this lookup costs nothing after the first.
    return max(map(len, declared), default=0)


def resolve_id(candidate: str, declared: Collection[str]) -> str | None:
    """Return the declared ID the token names, shortening it segment by segment.

    Prose may run a word onto an ID (``MEM-RTE-knowledge-store-backed``); the longest
    declared prefix that ends at a segment boundary is the reference. Only the first
    ``longest declared ID + 1`` characters can matter, so a token of a million
    segments is cut first: shortening it one segment at a time would be quadratic.
    """
    longest = _longest(declared) if isinstance(declared, frozenset) else max(map(len, declared), default=0)
    token = candidate[: longest + 1]
    while True:
        if token in declared:
            return token
        head, sep, _ = token.rpartition("-")
        if not sep or head.count("-") < 1:
            return None
        token = head
