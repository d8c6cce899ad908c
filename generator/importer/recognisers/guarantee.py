"""A route's guarantee strength written as a clause: ``Strength: protocol for scheduling, best
effort for correction.`` Each comma- or semicolon-separated part that names a strength gives
one entry; the words around the strength are its scope."""

from __future__ import annotations

import re
from typing import Any

from generator.model.vocab import GuaranteeStrength

_CLAUSE = re.compile(r"\bStrength: (?P<clause>[^.]*)\.")
_VALUES = sorted((g.value for g in GuaranteeStrength), key=len, reverse=True)
_VALUE = "|".join(re.escape(v) for v in _VALUES)
_NEGATION = re.compile(r"^(?:no|not|neither)\b")


def _entries(part: str) -> list[dict[str, Any]]:
    part = part.strip()
    if not part:
        return []
    # A part opening with a strength is that strength, one that says none is claimed
    # included ('no claimed guarantee'); any other part opening with a negation names none.
    lead = re.match(rf"^(?P<values>(?:{_VALUE})(?:/(?:{_VALUE}))*)(?P<rest>.*)\Z", part)
    if lead is None and _NEGATION.match(part):
        return []
    if lead:
        rest = lead.group("rest").strip()
        if rest.startswith("with "):
            rest = ""
        scope = re.sub(r"^(?:for|at)\s+", "", rest)
        values = lead.group("values").split("/")
    else:
        inner = re.search(rf"\b(?P<value>{_VALUE})\b", part)
        if inner is None:
            return []
        values = [inner.group("value")]
        scope = part[: inner.start()].strip() if inner.end() == len(part) else part
    return [{"strength": value, **({"scope": scope} if scope else {})} for value in values]


def guarantee_clause(text: str) -> list[dict[str, Any]]:
    """The guarantee entries of the first ``Strength: …`` clause in a route's text."""
    match = _CLAUSE.search(text)
    if match is None:
        return []
    return [entry for part in re.split(r"[,;]", match.group("clause")) for entry in _entries(part)]
