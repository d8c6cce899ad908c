"""Resolve an ID-shaped token from prose to a declared ID: the longest declared one wins."""

from __future__ import annotations

from collections.abc import Container


def resolve_id(candidate: str, declared: Container[str]) -> str | None:
    """Return the declared ID the token names, shortening it segment by segment.

    Prose may run a word onto an ID (``MEM-RTE-knowledge-store-backed``); the longest
    declared prefix that ends at a segment boundary is the reference.
    """
    token = candidate
    while True:
        if token in declared:
            return token
        head, sep, _ = token.rpartition("-")
        if not sep or head.count("-") < 1:
            return None
        token = head
