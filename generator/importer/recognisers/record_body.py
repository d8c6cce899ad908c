"""A record's body written after its declaration (``document-forms.md``, "Inside a record").

- ``Status: implementation wired; no ingest execution observed.``: a status line without
  ``conclusion``; the words before the controlled value name its layer (the record's
  ``implementation conclusion status``), what follows the value is its qualifier. Without
  layer words it is the record's ``conclusion status``.
- ``Evidence: `src/a.rs`, `src/b.rs` @ <40-hex>``: paths without a source ID before them,
  each the evidence of the source pinned at that commit (found when the sources are known);
  ``Evidence: `a.py`; `b.py` (`SRC-1`)``: each path the source the line names after them.
- ``For OBJ-1, …`` and ``Memory-specific continuation on RTE-2: …``: a paragraph that goes
  on with the record it names first (one record: ``For CMP-5, CMP-6 and CMP-7, …`` names
  none of them alone).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from generator.importer.recognisers.fields import StatusLine, status_phrase
from generator.model.ids import grammar

_BARE_STATUS = re.compile(r"^\**Status\**\s*:\**\s*(?P<value>\S.*?)\.?\Z", re.I)
_LAYER_WORDS = 3  # at most this many words name the layer before the value
_EVIDENCE = re.compile(r"^\**(?:Evidence|Sources?)\**\s*:\s*(?P<rest>.+?)\.?\Z", re.I)
_TICKED = re.compile(r"`(?P<path>[^`\s]+)`")
_PIN = re.compile(r"@\s*`?(?P<commit>[0-9a-f]{40})`?")
_PATHS = re.compile(r"^(?:`[^`\s]+`\s*(?:[;,]|and)?\s*)+")
_FOLLOW_UP = re.compile(
    r"^[*_]*(?:For|(?:[\w/-]+\s){0,3}continuation (?:on|of))\s+[*`]*"
    r"(?P<id>[A-Za-z][A-Za-z0-9-]*-[A-Za-z0-9-]+)"
    r"[*`]*\s*(?:,|:)(?!\s*[*`]*[A-Za-z][A-Za-z0-9]*-[0-9])",
    re.I,
)


def bare_status(text: str) -> StatusLine | None:
    """``Status: [layer words] <value>[; qualifier]``, read as the layer's conclusion status."""
    match = _BARE_STATUS.match(text.strip())
    if match is None:
        return None
    value = match.group("value")
    words = value.split(" ")
    for count in range(min(_LAYER_WORDS, len(words) - 1) + 1):
        phrase = status_phrase(" ".join(words[count:]))
        if phrase is not None:
            layer = " ".join(words[:count]).lower()
            label = f"{layer} conclusion status" if layer else "conclusion status"
            offset = len(text) - len(text.lstrip()) + match.start("value")
            return StatusLine(label, phrase, True, offset)
    return None


@dataclass(frozen=True)
class PathEvidence:
    """An evidence line whose paths come before any source: each path, and the source the
    line names after them or the commit it pins them at (one of the two)."""

    paths: tuple[str, ...]
    source: str | None
    commit: str | None


def path_evidence(text: str) -> PathEvidence | None:
    """``Evidence: `a`, `b` @ <commit>`` or ``Evidence: `a`; `b` (`SRC-1`)``; None otherwise
    (a line that names its source first is read by the evidence recogniser)."""
    match = _EVIDENCE.match(text.strip())
    if match is None:
        return None
    rest = match.group("rest")
    listed = _PATHS.match(rest)
    if listed is None:
        return None
    paths = tuple(m.group("path") for m in _TICKED.finditer(listed.group(0)))
    if not paths or any(re.fullmatch(grammar().source_id, p) for p in paths):
        return None
    after = rest[listed.end() :]
    pin = _PIN.match(after.strip())
    if pin is not None:
        return PathEvidence(paths, None, pin.group("commit"))
    named = re.match(rf"^\(\s*`?(?P<source>{grammar().source_id})`?\s*\)", after.strip())
    if named is not None:
        return PathEvidence(paths, named.group("source"), None)
    return None


def follow_up(text: str) -> str | None:
    """The record a paragraph goes on with (``For OBJ-1, …``), or None."""
    match = _FOLLOW_UP.match(text)
    if match is None or not grammar().in_text.fullmatch(match.group("id")):
        return None
    if _names_another_of_its_kind(text, match.group("id"), match.end()):
        return None  # ``For BAP-20, … BAP-21's …``: a paragraph shared by several records
    return match.group("id")


def _names_another_of_its_kind(text: str, record_id: str, start: int) -> bool:
    prefix = re.escape(record_id.rstrip("0123456789")) if record_id[-1:].isdigit() else None
    if prefix is None:
        return False
    return any(m.group(0) != record_id for m in re.finditer(rf"\b{prefix}[0-9]+\b", text[start:]))
