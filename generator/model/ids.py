"""Record ID grammar.

Two grammars name records: numbered (``RTE-11``) and analyst-prefixed slugs
(``MEM-RTE-knowledge-store``). Both carry a kind code that fixes the record kind.
"""

from __future__ import annotations

import re
from enum import StrEnum


class RecordKind(StrEnum):
    """The kinds of record a system can declare, by the code in their IDs."""

    SOURCE = "SRC"
    COMPONENT = "CMP"
    OBJECT = "OBJ"
    ROUTE = "RTE"
    CLAIM = "CLM"
    ABSENCE = "ABS"
    AUTHORITY_PATH = "BAP"


KIND_NAMES: dict[RecordKind, tuple[str, str]] = {
    RecordKind.SOURCE: ("source", "sources"),
    RecordKind.COMPONENT: ("component", "components"),
    RecordKind.OBJECT: ("operative object", "operative objects"),
    RecordKind.ROUTE: ("route", "routes"),
    RecordKind.CLAIM: ("claim", "claims"),
    RecordKind.ABSENCE: ("evidenced absence", "evidenced absences"),
    RecordKind.AUTHORITY_PATH: ("behavioral-authority path", "behavioral-authority paths"),
}

# The top-level list (and 'Shared records' subsection) each kind is declared in.
LIST_KINDS: dict[str, RecordKind] = {
    "sources": RecordKind.SOURCE,
    "components": RecordKind.COMPONENT,
    "objects": RecordKind.OBJECT,
    "routes": RecordKind.ROUTE,
    "claims": RecordKind.CLAIM,
    "absences": RecordKind.ABSENCE,
    "authority_paths": RecordKind.AUTHORITY_PATH,
}

_KINDS = "|".join(kind.value for kind in RecordKind)
_SLUG = r"[a-z0-9]+(?:-[a-z0-9]+)*"
_PREFIX = r"[A-Z]{2,5}"

NUMBERED_ID = re.compile(rf"^(?P<kind>{_KINDS})-(?P<number>[1-9][0-9]*)$")
PREFIXED_ID = re.compile(rf"^(?P<prefix>{_PREFIX})-(?P<kind>{_KINDS})-(?P<slug>{_SLUG})$")

# Finds ID-shaped tokens in prose. The slug part is greedy; the linker shortens a
# candidate segment by segment until it meets a declared ID, so the longest
# declared ID wins (``MEM-RTE-knowledge-store`` is never cut to a shorter ID).
ID_IN_TEXT = re.compile(rf"(?<![A-Za-z0-9_.-])(?:{_PREFIX}-)?(?:{_KINDS})-(?:[0-9]+|{_SLUG})(?![A-Za-z0-9_])")

# ``RTE-21–RTE-29``: a range written with an en or em dash between two IDs.
ID_RANGE_IN_TEXT = re.compile(
    rf"(?P<first>(?:{_PREFIX}-)?(?:{_KINDS})-[0-9]+)\s*[–—]\s*(?P<last>(?:{_PREFIX}-)?(?:{_KINDS})-[0-9]+)"
)

ID_PATTERN = rf"^(?:(?:{_KINDS})-[1-9][0-9]*|{_PREFIX}-(?:{_KINDS})-{_SLUG})$"


def kind_of(record_id: str) -> RecordKind | None:
    """Return the record kind an ID names, or None when it matches neither grammar."""
    match = NUMBERED_ID.match(record_id) or PREFIXED_ID.match(record_id)
    return RecordKind(match.group("kind")) if match else None


def is_valid_id(record_id: str) -> bool:
    """True when the ID follows one of the two grammars."""
    return kind_of(record_id) is not None


def anchor_of(record_id: str) -> str:
    """The page anchor of a record: its lower-cased ID."""
    return record_id.lower()


def sort_key(record_id: str) -> tuple[str, str, int, str]:
    """Sort IDs by prefix, kind, then number, so RTE-2 precedes RTE-10."""
    numbered = NUMBERED_ID.match(record_id)
    if numbered:
        return ("", numbered.group("kind"), int(numbered.group("number")), "")
    prefixed = PREFIXED_ID.match(record_id)
    if prefixed:
        return (prefixed.group("prefix"), prefixed.group("kind"), 0, prefixed.group("slug"))
    return ("~", "", 0, record_id)
