"""Labelled fields (``Immediate return: …``) and status lines (``… conclusion status: wired``)."""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from generator.model import kinds
from generator.model.code_spans import find_code_spans, outside_code_spans
from generator.model.records import split_status
from generator.model.vocab import ConclusionStatus

_LABELLED = re.compile(r"^(?P<label>[A-Za-z][\w ,/()'→-]{0,80}?):\s+(?P<value>\S.*)\Z", re.S)
STATUS_VALUES = tuple(sorted((s.value for s in ConclusionStatus), key=len, reverse=True))
_STATUS_LINE = re.compile(
    r"^(?P<label>[A-Za-z][\w ,/()'-]*?conclusion status):\s*(?P<value>[^.]*?)\.?\Z", re.I
)
_VALUE = "|".join(re.escape(v) for v in STATUS_VALUES)
# A status stated inside prose: "Implementation conclusion status: wired." or
# "Parameter changes during operation: uninspected;" — a label, then a status value (in
# bold or not) that ends the clause, or that a qualifier follows to the clause's end
# ("wired, conditional on installation."; "wired storage, external inspection afforded").
# A label may also open after a comma when it names the layer of a conclusion status
# ("discovery conclusion status: wired, actual uptake conclusion status: uninspected").
_STATUS_IN_PROSE = re.compile(
    r"(?:^|(?<=\. )|(?<=; )|(?<=, )(?=[A-Za-z][\w /()'-]{0,130}?\sconclusion status:\s))"
    r"(?P<label>[A-Za-z][\w ,/()'-]{2,130}?):\s(?P<bold>\*\*)?(?P<value>"
    + _VALUE
    + r")(?(bold)\*\*)(?P<qualifier>(?:[ ,(—–-][^.;]*?)?)(?=\.(?:\s|$)|;|$)"
)
# A clause that opens with a label of its own ("guarantee strength: protocol") is not a
# qualifier of the status before it.
_LABELLED_CLAUSE = re.compile(r"\s*(?:\*\*)?[A-Za-z][\w ,/()'-]{0,130}?(?:\*\*)?:\s")
_CLAUSE_END = re.compile(r"\.(?:\s|\Z)|;")
# A labelled conclusion status after a comma ends the qualifier before it.
_NEXT_STATUS = re.compile(r",\s(?=[A-Za-z][\w /()'-]{0,130}?\sconclusion status:\s)")


def qualifier_clauses(text: str, end: int) -> tuple[str, int]:
    """The clauses after ``;`` at ``end`` that qualify the status before them, as written
    (``wired; default off``), and where they end; a clause with a label of its own
    (``; guarantee strength: protocol``) ends them. Each character is read once."""
    while text.startswith(";", end) and not _LABELLED_CLAUSE.match(text, end + 1):
        stop = _CLAUSE_END.search(text, end + 1)
        stop_at = stop.start() if stop else len(text)
        if not text[end + 1 : stop_at].strip():
            break
        end = stop_at
    return text[:end], end


@dataclass(frozen=True)
class Field:
    label: str
    value: str
    value_col: int  # 0-based offset of the value in the text
    after_semicolon: bool = False  # opens a clause after '; ' on the line of the field before


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
    """A whole line that states a conclusion status: ``implementation conclusion status: wired``
    (a qualifier may follow the value: ``wired, conditional on installation``; ``wired;
    default off``). A later clause with a label of its own makes it no status line."""
    match = _STATUS_LINE.match(text.strip())
    if not match:
        return None
    value = match.group("value").strip()
    head, _, rest = value.partition(";")
    if rest and any(_LABELLED_CLAUSE.match(clause + " ") for clause in rest.split(";")):
        return None
    phrase = status_phrase(value) if head.strip() else None
    offset = len(text) - len(text.lstrip()) + match.start("value")
    return StatusLine(match.group("label").strip().lower(), phrase or value, phrase is not None, offset)


def status_phrase(text: str) -> str | None:
    """A status phrase as the model holds it: the controlled value (lower-cased), then its
    qualifier as written; None when no controlled value opens the text."""
    phrase = text.replace("**", "").strip()
    split = split_status(phrase)
    if split is None:
        return None
    value, _ = split
    return value + phrase[len(value) :]


def statuses_in_prose(text: str) -> dict[str, str]:
    """Every ``label: status`` clause written in prose, label lower-cased, in order; a
    qualified status keeps its qualifier (``wired, conditional on installation``), and the
    clauses after ``;`` that qualify it (``wired; default off``)."""
    found: dict[str, str] = {}
    if ": " not in text:
        return found
    position = 0
    while (match := _STATUS_IN_PROSE.search(text, position)) is not None:
        qualifier = match.group("qualifier")
        cut = _NEXT_STATUS.search(qualifier)
        if cut is not None:
            qualifier, end = qualifier[: cut.start()], match.start("qualifier") + cut.start()
        else:
            written, end = qualifier_clauses(text, match.end())
            qualifier += written[match.end() :]
        # The phrase as written: the value, then its qualifier with the separator the
        # document used (the model splits them again).
        value = (match.group("value") + qualifier).rstrip()
        found.setdefault(match.group("label").strip().lower(), value)
        position = max(end, match.end() if cut is None else end + 1)
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
# A route's labelled field may also open a clause after a semicolon, in lower case
# (``Immediate return: …; later read-back: …``).
# An authority path's fields, which may follow one another in clauses.
_PATH_FIELDS = frozenset({"consumer", "channel", "force", "horizon"})
_CLAUSE_LABEL = re.compile(r"(?:^|(?<=\. )|(?<=; ))(?P<label>[A-Za-z][\w /-]{0,40}): ")


_SENTENCE_STOP = re.compile(r"\.(?:\s|$)")


def outside_code(matches: Iterable[re.Match[str]], text: str) -> Iterator[re.Match[str]]:
    """The matches that do not start inside a code span of ``text`` (CommonMark's rule: a
    backtick run closed by the next run of its length); one pass over the text."""
    return outside_code_spans(find_code_spans(text), matches)


def _after_semicolon(text: str, match: re.Match[str]) -> bool:
    return text[match.start() - 2 : match.start()] == "; "


def field_sentences(list_key: str, text: str, route_fields: bool = True) -> tuple[list[Field], str] | None:
    """Split a paragraph of ``Label: value.`` sentences into the text fields it states, or None.

    A sentence opening with a label that names a text field of the record's kind starts
    that field (``Claimed operation:``, ``Consumer:``); its value runs to the next text
    field's label, and before any other labelled sentence (``Claim conclusion status:
    claimed.``, ``Evidence: …``) or at the end to the end of its own sentence. The
    paragraph must open with a labelled sentence and state two text fields, or one and a
    status. What is not a text field's value (status sentences, evidence, other labels,
    text after the last field) is returned as prose, in order.
    """
    from generator.importer.columns import field_of, route_field_of

    if text.count(": ") < 2:
        return None
    route = kinds.list_has_role(list_key, kinds.Role.ROUTE) and route_fields
    # A field may also open a clause after '; ', in lower case: a route's labelled fields,
    # and an authority path's after one of its own (``Consumer: …; channel: …; force: …;
    # horizon: …``).
    starts: list[re.Match[str]] = []
    for m in outside_code(_CLAUSE_LABEL.finditer(text), text):
        label = m.group("label")
        if route:
            keep = label[:1].isupper() or route_field_of(label) is not None
        elif _after_semicolon(text, m):
            keep = (
                bool(starts)
                and {field_of(list_key, starts[-1].group("label")), field_of(list_key, label)} <= _PATH_FIELDS
            )
        else:
            keep = label[:1].isupper()
        if keep:
            starts.append(m)
    if len(starts) < 2 or starts[0].start() != 0:
        return None
    named = [
        field_of(list_key, m.group("label")) in _TEXT_FIELDS
        or (route and route_field_of(m.group("label")) is not None)
        for m in starts
    ]
    stated = [split_status(text[m.end() : m.end() + 40].replace("**", "")) is not None for m in starts]
    # Two text fields, or a text field and a status sentence (``Claimed operation: ….
    # Claim conclusion status: claimed.``); one field and other prose stays one value.
    if named.count(True) < 2 and not (any(named) and any(stated)):
        return None
    fields: list[Field] = []
    prose: list[str] = []
    for index, match in enumerate(starts):
        end = starts[index + 1].start() if index + 1 < len(starts) else len(text)
        value = text[match.end() : end].strip()
        if index + 1 < len(starts) and _after_semicolon(text, starts[index + 1]):
            value = value.removesuffix(";")  # the clause's separator is not the value's
        if not named[index]:
            prose.append(text[match.start() : end].strip())
            continue
        if index + 1 == len(starts) or not named[index + 1]:
            # Before a sentence that is not a text field, a value ends with its sentence.
            stop = next(outside_code(_SENTENCE_STOP.finditer(value), value), None)
            if stop and value[stop.end() :].strip():
                prose.append(value[stop.end() :].strip())
                value = value[: stop.end()].strip()
        clause = (
            route
            and index > 0
            and text[match.start() - 2 : match.start()] == "; "
            and route_field_of(starts[index - 1].group("label")) is not None
        )
        fields.append(Field(match.group("label"), value, match.end(), clause))
    return fields, " ".join(prose)
