"""A record's body without the opening sentences that restate its status line.

Analysts often open a record's prose with its status ("Conclusion status: wired; see
RTE-17."), which the page already shows as the status line under the heading. Those
sentences are left out of the body shown when, read as words (case, punctuation and
spacing aside), they say exactly what the status line says; anything else is kept as
written. Linear in the body.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from generator.model.fields import Shown

__all__ = ["status_words", "without_restated_status"]

# Where a sentence ends: a full stop, question or exclamation mark and white space.
_SENTENCE_END = re.compile(r"[.!?]+(?:\s+|\Z)")
_NOT_A_WORD = re.compile(r"[^0-9a-z]+")


def _words(text: str) -> str:
    return _NOT_A_WORD.sub(" ", text.lower()).strip()


def status_words(badges: Sequence[Shown]) -> str:
    """The status line's statuses as words: each label, value and qualifier in order."""
    parts = [
        f"{badge.label} {badge.value} {badge.qualifier or ''}"
        for badge in badges
        if badge.rendering in ("status", "vocab")
    ]
    return _words(" ".join(str(part) for part in parts))


def without_restated_status(body: str, badges: Sequence[Shown]) -> str:
    """``body`` from the first sentence on that the status line does not already say; the
    whole body when its opening sentences do not say exactly that."""
    target = status_words(badges)
    if not target or not body:
        return body
    said = ""
    for match in _SENTENCE_END.finditer(body):
        said = _words(body[: match.end()])
        if said == target:
            return body[match.end() :]
        if not target.startswith(said):
            return body
    return "" if _words(body) == target else body
