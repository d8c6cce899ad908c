"""Walking a URL path's segments, as a browser resolves a relative link."""

from __future__ import annotations

from collections.abc import Iterable

__all__ = ["walked"]


def walked(parts: list[str], segments: Iterable[str]) -> list[str] | None:
    """The path ``parts`` after ``segments``: an empty or '.' segment stays, '..' goes up
    one, any other goes down into it; None when a '..' would climb above the root."""
    found = list(parts)
    for segment in segments:
        if segment in ("", "."):
            continue
        if segment == "..":
            if not found:
                return None
            found.pop()
        else:
            found.append(segment)
    return found
