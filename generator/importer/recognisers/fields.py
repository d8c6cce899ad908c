"""Labelled fields (``Immediate return: …``) and status lines (``… conclusion status: wired``)."""

from __future__ import annotations

import re
from dataclasses import dataclass

from ...model.vocab import ConclusionStatus

_LABELLED = re.compile(r"^(?P<label>[A-Za-z][\w ,/()'→-]{0,80}?):\s+(?P<value>\S.*)$", re.S)
STATUS_VALUES = tuple(sorted((s.value for s in ConclusionStatus), key=len, reverse=True))
_STATUS_LINE = re.compile(
    r"^(?P<label>[A-Za-z][\w ,/()'-]*?conclusion status):\s*(?P<value>[^.;]*?)\.?$", re.I
)
# A status stated inside prose: "Implementation conclusion status: wired." or
# "Parameter changes during operation: uninspected;" — a label, then a status value that
# ends the clause.
_STATUS_IN_PROSE = re.compile(
    r"(?:^|(?<=\. )|(?<=; ))(?P<label>[A-Za-z][\w ,/()'-]{2,90}?):\s(?P<value>"
    + "|".join(re.escape(v) for v in STATUS_VALUES)
    + r")(?=[.;]|$)"
)


@dataclass(frozen=True)
class Field:
    label: str
    value: str
    value_col: int  # 0-based offset of the value in the text


def labelled(text: str) -> Field | None:
    """``Label: value`` → the field, or None."""
    match = _LABELLED.match(text)
    if not match:
        return None
    return Field(match.group("label").strip(), match.group("value").strip(), match.start("value"))


@dataclass(frozen=True)
class StatusLine:
    label: str
    value: str
    known: bool
    value_offset: int


def status_line(text: str) -> StatusLine | None:
    """A whole line that states a conclusion status: ``implementation conclusion status: wired``."""
    match = _STATUS_LINE.match(text.strip())
    if not match:
        return None
    value = match.group("value").strip()
    known = value.lower() in STATUS_VALUES
    offset = len(text) - len(text.lstrip()) + match.start("value")
    return StatusLine(match.group("label").strip().lower(), value.lower() if known else value, known, offset)


def statuses_in_prose(text: str) -> dict[str, str]:
    """Every ``label: status`` clause written in prose, label lower-cased, in order."""
    found: dict[str, str] = {}
    for match in _STATUS_IN_PROSE.finditer(text):
        found.setdefault(match.group("label").strip().lower(), match.group("value"))
    return found


_TEXT_FIELDS = frozenset(
    {
        "consumer",
        "channel",
        "force",
        "horizon",
        "source_native",
        "form",
        "storage",
        "producer_consumer",
        "authority",
        "fixity",
        "progression",
        "owner",
        "claim",
        "boundary",
    }
)
_SENTENCE_LABEL = re.compile(r"(?:^|(?<=\. ))(?P<label>[A-Z][\w /-]{0,40}): ")


def field_sentences(list_key: str, text: str) -> tuple[list[Field], str] | None:
    """Split a paragraph of several ``Label: value.`` sentences into fields, or None.

    Only labels that name a field of the record's kind count, and at least two must; each
    value runs to the next such label, the last one to the end of its first sentence, and
    what follows it is returned as prose.
    """
    from ..columns import field_of

    if text.count(": ") < 2:
        return None
    starts = [
        m for m in _SENTENCE_LABEL.finditer(text) if field_of(list_key, m.group("label")) in _TEXT_FIELDS
    ]
    if len(starts) < 2 or starts[0].start() != 0:
        return None
    fields = []
    for index, match in enumerate(starts):
        end = starts[index + 1].start() if index + 1 < len(starts) else len(text)
        fields.append(Field(match.group("label"), text[match.end() : end].strip(), match.end()))
    last_value = fields[-1].value
    stop = re.search(r"\.(?:\s|$)", last_value)
    rest = ""
    if stop:
        rest = last_value[stop.end() :].strip()
        fields[-1] = Field(fields[-1].label, last_value[: stop.end()].strip(), fields[-1].value_col)
    return fields, rest
