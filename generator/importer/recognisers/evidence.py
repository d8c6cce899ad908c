"""Evidence anchors written in a document's prose, each attributed to the source named last
before it.

The forms (``document-forms.md``): ``SRC-1 path/to/file.ts:10-20``, with or without
backticks around the ID, the path or both; several paths after one ID, separated by
``;``, ``,`` or ``and`` (in ``SRC-3, `docs/usage.md`; SRC-1, `lib/a.py`, `lib/b.py` ``
the first path is SRC-3's and both ``.py`` files are SRC-1's); lead-ins such as
``Evidence:`` or ``Sources:``; and document locators (``SRC-1 §4.1``, ``Table 2``).

The text is read once, word by word: a source ID opens a run, each path in the run is
that source's, a word that is neither a path, a source nor a separator ends the run
(in a clause opened by ``Evidence:``, ``Source:`` or ``Sources:``, the sentence's end does). A
word with a slash that names no file (``waitForDiagnostics/getDiagnosticsForFile``: no
extension, no line range, no closing ``/``) is no anchor, and does not end the run.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from generator.model.anchors import parse_ranges, source_patterns
from generator.model.ids import Grammar, grammar

_RANGES = r"[0-9]+(?:-[0-9]+)?(?:,[0-9]+(?:-[0-9]+)?)*"
_PATH = re.compile(
    rf"(?P<path>[A-Za-z0-9_.@<>~+-]*(?:/[A-Za-z0-9_.@<>~+-]*)+|[A-Za-z0-9_@<>~+-][A-Za-z0-9_.@<>~+-]*"
    rf"\.[A-Za-z0-9]+)(?::(?P<ranges>{_RANGES}))?"
)
_WORD = re.compile(r"\S+")
_SEPARATOR_WORDS = frozenset({"and", "&"})
# A clause opened by one of these runs to the end of its sentence: every file it names
# is the evidence of the source named last before it (``Evidence: SRC-1, a.rs, dispatch
# in b.rs.``).
_LEAD_INS = frozenset({"evidence", "source", "sources"})
# Marks around a word that are not part of it: backticks, brackets, quotes, and the
# punctuation that closes a clause (which may also separate paths).
_OPENING = "`([\"'*"
_CLOSING = "`)]\"'*.,;:"


@dataclass(frozen=True)
class _Sources:
    """A source ID (``SRC-1``), and one written as code (`` `SRC-1` ``), in one ID grammar."""

    whole: re.Pattern[str]
    ticked: re.Pattern[str]


@lru_cache(maxsize=8)
def _sources(source_id: str, source_kinds: str) -> _Sources:
    return _Sources(
        re.compile(source_id), re.compile(rf"`((?:[A-Z]{{2,5}}-)?(?:{source_kinds})-[0-9a-z-]+)`")
    )


def _of(ids: Grammar) -> _Sources:
    return _sources(ids.source_id, ids.source_kinds)


def _is_file(path: str, ranges: str | None) -> bool:
    """A cited path names a file (an extension), a folder (a closing '/') or has lines."""
    return bool(ranges) or path.endswith("/") or "." in path.rsplit("/", 1)[-1]


def evidence_anchors(text: str) -> list[str]:
    """The anchors of a text as ``SRC-1 path:ranges`` (or ``SRC-1 §4.1``), in order, each once."""
    ids = grammar()
    if not ids.cites_a_source(text):  # every anchor names a source ('SRC-1')
        return []
    sources = _of(ids)
    found: list[tuple[int, str]] = []
    source: str | None = None
    clause = False  # inside an 'Evidence:' clause: other words do not end the run
    for match in _WORD.finditer(text):
        word = match.group(0)
        core = word.lstrip(_OPENING)
        stripped = core.rstrip(_CLOSING)
        ends_sentence = core[len(stripped) :].lstrip("`)]\"'*").startswith(".")
        if stripped.lower() in _LEAD_INS and core[len(stripped) :].startswith(":"):
            source, clause = None, True
            continue
        if sources.whole.fullmatch(stripped):
            # ``SRC-1: `path``` names the source a quotation's file belongs to; it is no
            # anchor of its own (the record's quotation cites the file), unless an
            # ``Evidence:`` clause states it (``Evidence: SRC-1: `src/cli.rs`.``).
            source = None if core[len(stripped) :].startswith(":") and not clause else stripped
            clause = clause and not ends_sentence
            continue
        if stripped.lower() in _SEPARATOR_WORDS:
            continue
        path = _PATH.fullmatch(_trailing_dot(stripped))
        if source is None or path is None:
            if not clause or ends_sentence:
                source, clause = None, False
            continue
        name, ranges = path.group("path"), path.group("ranges")
        if _is_file(name, ranges):
            shown = ",".join(str(r) for r in parse_ranges(ranges)) if ranges else ""
            found.append((match.start(), f"{source} {name}" + (f":{shown}" if shown else "")))
        if ends_sentence:
            source, clause = None, False
    # A locator may follow a source ID written as code (`SRC-1` p. 7): the backticks become
    # spaces, so every offset stays where it was.
    plain = sources.ticked.sub(lambda m: " " + m.group(1) + " ", text) if "`" in text else text
    found.extend(
        (m.start(), f"{m.group('source')} {m.group('locator')}")
        for m in source_patterns().locator_in_text.finditer(plain)
    )
    found.sort(key=lambda item: item[0])
    return list(dict.fromkeys(anchor for _, anchor in found))


def _trailing_dot(word: str) -> str:
    # A sentence may end right after a path: "… src/lib.rs." has lost its dot already;
    # a path written "lib.rs)" its bracket.
    return word.rstrip(".)")
