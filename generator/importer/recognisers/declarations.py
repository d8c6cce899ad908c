"""Record declarations: an ID that opens a heading, a paragraph or a table row.

Forms: ``#### MEM-RTE-x — label`` (a heading), ``CMP-6 — Label. Body…`` (a lead-in
paragraph, also ``**CMP-6 — Label.** Body…``, ``CMP-6 —**Label.** Body…`` and
``CMP-6 — Label: Body…``), ``**OBJ-1.** Body…`` (a bold ID without a label),
``RTE-10 memory amendment — body`` (an
amendment of a record declared earlier) and ``On RT-RTE-x`` (an annotation of a record
declared elsewhere, optionally ``— label``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from generator.model.code_spans import find_code_spans, outside_code_spans
from generator.model.ids import grammar

# The dash between an ID and its label; a bold label may follow it without a space
# (``CMP-5 —**Label.** Body``).
DASH = r"\s+[—–-]{1,2}(?:\s+|(?=\*\*))"
# A bold ID closed by a full stop or colon, with no label: ``**OBJ-1.** Body``,
# ``**OBJ-1**. Body``.
_BARE_BOLD = re.compile(r"^(?:[.:]\*\*|\*\*[.:])\s*(?P<rest>.*)\Z", re.S)


@dataclass(frozen=True)
class Declaration:
    record_id: str
    label: str | None
    rest: str  # text after the label (a paragraph's body), "" for a heading
    annotation: bool = False
    amendment: str | None = None  # the amendment's label ("memory amendment")
    id_col: int = 1  # column of the ID within the text, 1-based


def _leading_id(text: str) -> tuple[str, int] | None:
    match = grammar().in_text.search(text)
    if match is None or text[: match.start()].strip("*_ "):
        return None
    end = match.end()
    if end < len(text) and (text[end].isalnum() or text[end] in "-_"):
        return None
    return match.group(0), match.start()


def declaration(text: str, heading: bool) -> Declaration | None:
    """The declaration a heading or paragraph text opens, or None."""
    annotation = False
    body = text
    if body.startswith("On "):
        annotation, body = True, body[3:]
    found = _leading_id(body)
    if found is None:
        return None
    record_id, start = found
    raw_after = body[start + len(record_id) :]
    col = start + 1 + (3 if annotation else 0)
    bare = _BARE_BOLD.match(raw_after) if body[:start].strip() == "**" else None
    if bare and not heading:
        return Declaration(record_id, None, bare.group("rest").strip(), annotation, None, col)
    after = raw_after.lstrip("*_")
    amendment = re.match(rf"^\s+(?P<label>[a-z][\w -]*?amendment){DASH}(?P<body>.+)\Z", after, re.S)
    if amendment and not heading:
        return Declaration(
            record_id, None, amendment.group("body").strip(), False, amendment.group("label"), col
        )
    dash = re.match(rf"^{DASH}(?P<rest>.+)\Z", after, re.S)
    if dash is None:
        if after.strip(" *_"):
            return None if not heading else Declaration(record_id, None, after.strip(), annotation, None, col)
        return Declaration(record_id, None, "", annotation, None, col)
    rest = dash.group("rest").strip()
    if heading:
        return Declaration(record_id, rest.strip("*_ ") or None, "", annotation, None, col)
    label, remainder = split_label(rest, bold_open=body[:start].strip() == "**")
    return Declaration(record_id, label, remainder, annotation, None, col)


# The rest of a lead-in whose bold span opened before the ID: "Label.** Body".
_BOLD_CLOSE = re.compile(r"^(?P<label>[^*]+?)[.:]?\*\*[.:]?\s*(?P<rest>.*)\Z", re.S)
_BOLD_LABEL = re.compile(r"^\*\*(?P<label>[^*]+?)[.:]?\*\*[.:]?\s*(?P<rest>.*)\Z", re.S)


# Where a plain label may end: a full stop closing a sentence (not one after a lone letter,
# as in ``e.g.``) or a colon, either followed by white space or the end.
_LABEL_END = re.compile(r"(?<![\s.][A-Za-z])(?<!\A[A-Za-z])\.(?=\s|\Z)|:(?=\s|\Z)")


_STATUS_LABEL_END = re.compile(r"\bconclusion status\Z", re.I)


def split_label(text: str, bold_open: bool = False) -> tuple[str | None, str]:
    """Split ``Label. Body`` or ``Label: body`` where the label ends: at its first full stop,
    or at a colon when no full stop comes first (never inside a code span); a bold label
    (``**Label.** Body``, or ``Label.** Body`` when the bold opened before the ID) ends
    where the bold does."""
    bold = _BOLD_LABEL.match(text) or (_BOLD_CLOSE.match(text) if bold_open else None)
    if bold:
        return bold.group("label").strip(), bold.group("rest").strip()
    end = first_outside_code(_LABEL_END, text)
    if end is None:
        return (text.strip() or None), ""
    label = text[: end.start()]
    head, semicolon, clause = label.rpartition("; ")
    if end.group() == ":" and semicolon and head.strip() and _STATUS_LABEL_END.search(clause):
        # ``Label; discovery conclusion status: wired``: the clause is a status, not the label's.
        return head.strip(), text[len(head) + len(semicolon) :].strip()
    return label.strip() or None, text[end.end() :].strip()


def first_outside_code(pattern: re.Pattern[str], text: str) -> re.Match[str] | None:
    """The first match of ``pattern`` that does not start inside a code span (CommonMark's
    rule: a backtick run closed by the next run of its length); one pass over the text."""
    return next(outside_code_spans(find_code_spans(text), pattern.finditer(text)), None)
