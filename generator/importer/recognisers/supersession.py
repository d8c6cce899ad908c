"""A record's supersession within one result: which records of the same run replace it.

A result marks a record it keeps declared but no longer relies on in its own text, in one
of these forms (the record's text is kept as written; only the IDs are read):

- a labelled sentence, ``Superseded by: OBJ-10 and OBJ-11.``;
- a sentence about the record itself, ``This object is superseded by OBJ-10.``,
  ``OBJ-9 is superseded by OBJ-10.`` (its own ID);
- a record that calls itself superseded (``Proposal kind: operative object, superseded.``,
  or its label ``Superseded aggregate of …``) and names its replacements,
  ``The replacement parts are the objects OBJ-10, OBJ-11, OBJ-12 and OBJ-13.``
  (napkin -05's OBJ-9).

A sentence about another record (``MEM-RTE-3 is superseded by RT-RTE-7`` in a record that
is not MEM-RTE-3) is not read.
"""

from __future__ import annotations

import re
from functools import lru_cache

from generator.importer.recognisers.amendments import leading_ids
from generator.model.ids import grammar

# Where a sentence starts: the text's start, or white space after a full stop.
_SENTENCE_START = r"(?:\A|(?<=[.!?])\s+)"
_SUPERSEDED_WORD = re.compile(r"\bsuperseded\b", re.I)
_IDS_READ = 2000  # characters after a form in which its list of IDs is read


@lru_cache(maxsize=8)
def _forms(in_text: str) -> tuple[re.Pattern[str], re.Pattern[str]]:
    by = re.compile(
        _SENTENCE_START
        + r"(?:\*\*)?(?:Superseded by:(?:\*\*)?\s+|(?:This|The) [a-z]+(?: [a-z]+)? is superseded by\s+"
        + r"|(?P<own>"
        + in_text
        + r") is superseded by\s+)"
    )
    replacement = re.compile(
        _SENTENCE_START
        + r"The replacements?(?: parts?| records?)? (?:is|are) (?:the )?(?:[a-z]+ ){0,2}?(?=[A-Z])"
    )
    return by, replacement


def superseded_by(record_id: str, label: str | None, text: str) -> list[str]:
    """The IDs that supersede ``record_id`` as its own text states them, in order, each once;
    empty when the text states no supersession of this record."""
    by, replacement = _forms(grammar().in_text.pattern)
    found: list[str] = []
    for match in by.finditer(text):
        if match.group("own") is not None and match.group("own") != record_id:
            continue
        found.extend(leading_ids(text[match.end() : match.end() + _IDS_READ])[0])
    if _SUPERSEDED_WORD.search(label or "") or _SUPERSEDED_WORD.search(text):
        for match in replacement.finditer(text):
            found.extend(leading_ids(text[match.end() : match.end() + _IDS_READ])[0])
    return [target for target in dict.fromkeys(found) if target != record_id]
