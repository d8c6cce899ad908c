"""A route's progression (``A → B → C``) as a small flow of steps, in HTML.

The text is split at its arrows (``→``, ``->``, ``-->``; never inside a code span) into
steps, shown as boxes with the arrows between them; each step goes through the HTML
linker, so a record ID in it links to its record. Nothing is dropped or reworded: the
flow holds every character of the text in order, the arrows as written and a space
where the text has white space beside an arrow (the layout ignores it; copied text and
search keep it). Sentences before the first step or after the last
(``… → host. Code owns format admission; …``) are shown as the paragraph before or
after the flow rather than inside a box. A text with fewer than two steps, an empty step
or paragraphs is not a flow (None): it is shown as the field's text. Everything here is
linear in the text.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from markupsafe import Markup

from generator.model.code_spans import find_code_spans, outside_code_spans
from generator.model.ids import grammar

if TYPE_CHECKING:
    from generator.render.text import Linker

_ARROW = re.compile(r"-->|->|→")
# A sentence ends at a full stop, then spaces, then what opens a sentence.
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z“\"(`])")


@dataclass(frozen=True, slots=True)
class FlowStep:
    """One box: the step's linked text, the arrow after it as written ('' for the last)
    with a space before and after it where the text has white space, and whether the
    step names a declared record."""

    html: Markup
    arrow: str
    names_record: bool
    before: str = ""
    after: str = ""


@dataclass(frozen=True, slots=True)
class Flow:
    """The progression as shown: text before the flow, its steps, text after it."""

    lead: Markup | None
    steps: tuple[FlowStep, ...]
    tail: Markup | None


def split_steps(text: str) -> tuple[str, list[tuple[str, str]], str] | None:
    """(lead, [(step, what separates it from the next)], tail) of a progression: the step
    texts as written, stripped; each separator is the text between two steps exactly (the
    arrow and the white space around it; '' after the last). None when it is not a flow."""
    text = text.strip()
    if "\n\n" in text:
        return None
    spans = find_code_spans(text)
    arrows = list(outside_code_spans(spans, _ARROW.finditer(text)))
    if not arrows:
        return None
    pieces, position = [], 0
    for match in arrows:
        step = text[position : match.start()]
        following = text[match.end() :]
        after = len(following) - len(following.lstrip())
        pieces.append((step.strip(), text[position + len(step.rstrip()) : match.end() + after]))
        position = match.end() + after
    pieces.append((text[position:].strip(), ""))
    if any(not step for step, _ in pieces):
        return None
    lead, first = _cut(pieces[0][0], last=True)
    last, tail = _cut(pieces[-1][0], last=False) if len(pieces) > 1 else (pieces[-1][0], "")
    pieces[0] = (first, pieces[0][1])
    pieces[-1] = (last, "")
    return lead, pieces, tail


def _cut(step: str, last: bool) -> tuple[str, str]:
    """A step split at its last (or first) sentence break outside code spans: the two
    parts, the second empty (``last``: the first) when there is none."""
    breaks = list(outside_code_spans(find_code_spans(step), _SENTENCE_END.finditer(step)))
    if not breaks:
        return ("", step) if last else (step, "")
    cut = breaks[-1] if last else breaks[0]
    return step[: cut.start()], step[cut.end() :]


def progression_flow(linker: Linker, text: str | None) -> Flow | None:
    """The flow of a progression in the HTML ``linker``'s form, or None (not a flow)."""
    split = split_steps(text or "")
    if split is None:
        return None
    lead, pieces, tail = split
    steps = tuple(_step(linker, step, separator) for step, separator in pieces)
    return Flow(linker.inline(lead) if lead else None, steps, linker.inline(tail) if tail else None)


def _step(linker: Linker, step: str, separator: str) -> FlowStep:
    arrow = separator.strip()
    before = " " if separator[:1].isspace() else ""
    after = " " if separator[-1:].isspace() else ""
    return FlowStep(linker.inline(step), arrow, _names_record(linker, step), before, after)


def _names_record(linker: Linker, step: str) -> bool:
    return any(linker.graph.resolve(match.group(0)) for match in grammar().in_text.finditer(step))
