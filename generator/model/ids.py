"""Record ID grammar.

Two grammars name records: numbered (``RTE-11``) and analyst-prefixed slugs
(``MEM-RTE-knowledge-store``). Both carry a kind code that fixes the record kind.
The grammar is compiled from a set of kind codes, and the codes of the kinds evidence
cites (whose IDs open an evidence anchor, ``model/anchors.py``): the built-in kinds' by
default (``kinds.py`` installs it), a kind registry's while it is in force
(``kinds.using``). An analyst prefix is never a kind code, so the first segment of an
ID tells which grammar it follows.
"""

from __future__ import annotations

import datetime
import re
from collections.abc import Collection
from contextvars import ContextVar, Token
from dataclasses import dataclass
from enum import StrEnum
from functools import cached_property, lru_cache
from typing import Any

from pydantic import GetCoreSchemaHandler, GetJsonSchemaHandler
from pydantic.json_schema import JsonSchemaValue
from pydantic_core import PydanticCustomError, core_schema


class RecordKind(StrEnum):
    """The codes of the built-in record kinds (their specs are in ``kinds.py``)."""

    SOURCE = "SRC"
    COMPONENT = "CMP"
    OBJECT = "OBJ"
    ROUTE = "RTE"
    CLAIM = "CLM"
    ABSENCE = "ABS"
    AUTHORITY_PATH = "BAP"


_SLUG = r"[a-z0-9]+(?:-[a-z0-9]+)*"


@dataclass(frozen=True)
class Grammar:
    """The ID patterns for one set of kind codes."""

    pattern: str  # a whole ID, either grammar (for the editor schema)
    whole: re.Pattern[str]
    numbered: re.Pattern[str]
    prefixed: re.Pattern[str]
    # Finds ID-shaped tokens in prose. The slug part is greedy; the linker shortens a
    # candidate segment by segment until it meets a declared ID, so the longest
    # declared ID wins (``MEM-RTE-knowledge-store`` is never cut to a shorter ID).
    in_text: re.Pattern[str]
    # ``RTE-21–RTE-29``: a range written with an en or em dash between two IDs.
    range_in_text: re.Pattern[str]
    # The kinds evidence cites, as a regular expression (``SRC``; never matches when
    # there are none), an ID of theirs (``SRC-1``, ``MEM-SRC-notes``), and the text
    # every such ID holds (``SRC-``): text without it cites no source.
    source_kinds: str
    source_id: str
    source_markers: tuple[str, ...]
    # What every ID holds, one per kind (``RTE-``): text without any names no record.
    id_markers: tuple[str, ...]

    def may_name_a_record(self, text: str) -> bool:
        """Whether ``in_text`` may find an ID in the text (it holds a kind's code and hyphen)."""
        return "-" in text and self._id_marker.search(text) is not None

    def cites_a_source(self, text: str) -> bool:
        """Whether the text may hold an evidence anchor (it names a source ID's kind)."""
        return "-" in text and self._source_marker.search(text) is not None

    # Every text of a system is asked both: one search of literal alternatives in C, rather
    # than a containment test per kind.
    @cached_property
    def _id_marker(self) -> re.Pattern[str]:
        return _any_of(self.id_markers)

    @cached_property
    def _source_marker(self) -> re.Pattern[str]:
        return _any_of(self.source_markers)


def _first_characters(codes: tuple[str, ...]) -> str:
    """The first characters of the codes, escaped for a character class."""
    return "".join(sorted({re.escape(code[0]) for code in codes if code}))


def _any_of(literals: tuple[str, ...]) -> re.Pattern[str]:
    """A pattern finding any of the literals (never matching when there are none)."""
    return re.compile("|".join(map(re.escape, literals)) or "(?!)")


def whole_string(schema_pattern: str) -> re.Pattern[str]:
    """A JSON Schema pattern (anchored ``^…$``, as the editor schema needs it) compiled to
    match the whole string in Python, where ``$`` also matches before a final newline
    (``"RTE-1\\n"`` would pass as ``RTE-1``)."""
    if not schema_pattern.endswith("$"):
        raise ValueError(f"not an anchored pattern: {schema_pattern!r}")
    return re.compile(schema_pattern[:-1] + r"\Z")


@lru_cache(maxsize=16)
def compile_grammar(codes: tuple[str, ...], source_codes: tuple[str, ...] = ()) -> Grammar:
    """The grammar of a set of kind codes, ``source_codes`` those of the kinds evidence cites."""
    kinds = "|".join(codes)
    sources = "|".join(source_codes) or "(?!)"
    prefix = rf"(?!(?:{kinds})-)[A-Z]{{2,5}}"
    pattern = rf"^(?:(?:{kinds})-[1-9][0-9]*|{prefix}-(?:{kinds})-{_SLUG})$"
    numbered_id = rf"(?:{prefix}-)?(?:{kinds})-[0-9]+"
    return Grammar(
        pattern=pattern,
        whole=whole_string(pattern),
        numbered=re.compile(rf"^(?P<kind>{kinds})-(?P<number>[1-9][0-9]*)\Z"),
        prefixed=re.compile(rf"^(?P<prefix>{prefix})-(?P<kind>{kinds})-(?P<slug>{_SLUG})\Z"),
        # Led by the class of an ID's first character (a prefix's or a code's), which the
        # regular expression engine skips to; led by the look-behind, it was tried at every
        # character of every text (a quarter of the time of scanning prose for IDs).
        in_text=re.compile(
            rf"(?=[A-Z{_first_characters(codes)}])"
            rf"(?<![A-Za-z0-9_.-])(?:{prefix}-)?(?:{kinds})-(?:[0-9]+|{_SLUG})(?![A-Za-z0-9_])"
        ),
        range_in_text=re.compile(rf"(?P<first>{numbered_id})\s*[–—]\s*(?P<last>{numbered_id})"),
        source_kinds=sources,
        source_id=rf"(?:(?:{sources})-[1-9][0-9]*|[A-Z]{{2,5}}-(?:{sources})-{_SLUG})",
        source_markers=tuple(f"{code}-" for code in source_codes),
        id_markers=tuple(f"{code}-" for code in codes),
    )


_BUILTIN: list[Grammar] = []  # the built-in kinds' grammar, installed once by kinds.py
_GRAMMAR: ContextVar[Grammar | None] = ContextVar("kb_id_grammar", default=None)
_BUILTIN_KINDS = {kind.value: kind for kind in RecordKind}


def install_builtin_grammar(found: Grammar) -> None:
    """Make ``found`` the built-in grammar (``kinds.py`` does, once, from the built-in kinds)."""
    if _BUILTIN:
        raise RuntimeError("the built-in ID grammar is installed already")
    _BUILTIN.append(found)


def builtin_grammar() -> Grammar:
    """The grammar of the built-in kinds."""
    return _BUILTIN[0]


def grammar() -> Grammar:
    """The grammar in force: the built-in kinds', or a kind registry's under ``kinds.using``."""
    found = _GRAMMAR.get()
    return found if found is not None else _BUILTIN[0]


def use_grammar(found: Grammar) -> Token[Grammar | None]:
    """Put a grammar in force (``kinds.using`` does, with its registry's); undone by ``reset_grammar``."""
    return _GRAMMAR.set(found)


def reset_grammar(token: Token[Grammar | None]) -> None:
    _GRAMMAR.reset(token)


def kind_of(record_id: str) -> str | None:
    """Return the kind code an ID names, or None when it matches neither grammar.

    Built-in kinds come back as their ``RecordKind`` member, so ``is`` comparisons hold.
    """
    current = grammar()
    match = current.numbered.match(record_id) or current.prefixed.match(record_id)
    if match is None:
        return None
    code = match.group("kind")
    return _BUILTIN_KINDS.get(code, code)


# A range spanning more IDs than this is not expanded: it stays a range (rule KB205).
MAX_RANGE_IDS = 200


def range_ids(first: str, last: str) -> list[str] | None:
    """The IDs a range written ``RTE-21–RTE-29`` spans, both ends included; None when it
    spans nothing it can name: ends of two kinds (or analyst-prefixed), out of order, or
    more than ``MAX_RANGE_IDS`` IDs."""
    low, high = grammar().numbered.match(first), grammar().numbered.match(last)
    if low is None or high is None or low.group("kind") != high.group("kind"):
        return None
    start, end = int(low.group("number")), int(high.group("number"))
    if not start < end or end - start >= MAX_RANGE_IDS:
        return None
    return [f"{low.group('kind')}-{number}" for number in range(start, end + 1)]


def title_anchor(title: str) -> str:
    """A heading's anchor from its title: lower-case words joined by '-', like the Markdown
    toc extension (the renderer's ``urls.slugify`` is this function)."""
    out = [ch if ch.isalnum() else "-" for ch in title.lower()]
    return "-".join(part for part in "".join(out).split("-") if part) or "section"


# Ids the theme writes into every page (mkdocs-material's base template, and the page's
# title heading, which the generated pages anchor at #top). Every id starting with "__"
# is the theme's as well (its navigation, palette and code-copy ids).
THEME_ANCHORS = frozenset(
    {"top", "__analytics", "__config", "__consent", "__drawer", "__search", "__settings", "__toc"}
)


def is_theme_anchor(anchor: str) -> bool:
    return anchor in THEME_ANCHORS or anchor.startswith("__")


def anchor_of(record_id: str) -> str:
    """The page anchor of a record: its lower-cased ID."""
    return record_id.lower()


def sort_key(record_id: str) -> tuple[str, str, int, str]:
    """Sort IDs by prefix, kind, then number, so RTE-2 precedes RTE-10."""
    current = grammar()
    numbered = current.numbered.match(record_id)
    if numbered:
        return ("", numbered.group("kind"), int(numbered.group("number")), "")
    prefixed = current.prefixed.match(record_id)
    if prefixed:
        return (prefixed.group("prefix"), prefixed.group("kind"), 0, prefixed.group("slug"))
    return ("~", "", 0, record_id)


RUN_ID_PATTERN = (
    r"^AAS-(?P<date>[0-9]{4}-[0-9]{2}-[0-9]{2})-(?P<slug>[a-z0-9]+(?:-[a-z0-9]+)*)-(?P<seq>[0-9]{2})$"
)
RUN_ID = whole_string(RUN_ID_PATTERN)  # a whole run ID, its date and system slug as groups


def run_id_date(run_id: str | None) -> datetime.date | None:
    """The date a run ID carries (``AAS-2026-09-27-…``), or None when it carries no real one."""
    match = RUN_ID.match(run_id or "")
    if match is None:
        return None
    try:
        return datetime.date.fromisoformat(match.group("date"))
    except ValueError:
        return None


@dataclass(frozen=True)
class IdGrammar:
    """Annotation marker: the string is a record ID (error type ``record_id``) or a run ID
    (``run_id``), checked against the grammar current at validation time; the editor
    schema carries the pattern current when it is generated."""

    run: bool = False

    def _check(self, value: str) -> str:
        if self.run:
            if not RUN_ID.match(value):
                raise PydanticCustomError("run_id", "not a run ID")
        elif not grammar().whole.match(value):
            raise PydanticCustomError("record_id", "not a record ID")
        return value

    def __get_pydantic_core_schema__(
        self, source: Any, handler: GetCoreSchemaHandler
    ) -> core_schema.CoreSchema:
        return core_schema.no_info_after_validator_function(self._check, handler(source))

    def __get_pydantic_json_schema__(
        self, schema: core_schema.CoreSchema, handler: GetJsonSchemaHandler
    ) -> JsonSchemaValue:
        found = handler(schema)
        found["pattern"] = RUN_ID_PATTERN if self.run else grammar().pattern
        return found


@lru_cache(maxsize=8)
def _longest(declared: frozenset[str]) -> int:
    # A frozenset caches its hash, so this lookup costs nothing after the first.
    return max(map(len, declared), default=0)


def resolve_id(candidate: str, declared: Collection[str]) -> str | None:
    """Return the declared ID an ID-shaped token from prose names: the longest declared one wins.

    Prose may run a word onto an ID (``MEM-RTE-knowledge-store-backed``); the longest
    declared prefix that ends at a segment boundary is the reference. Only the first
    ``longest declared ID + 1`` characters can matter, so a token of a million
    segments is cut first: shortening it one segment at a time would be quadratic.
    """
    longest = _longest(declared) if isinstance(declared, frozenset) else max(map(len, declared), default=0)
    token = candidate[: longest + 1]
    while True:
        if token in declared:
            return token
        head, sep, _ = token.rpartition("-")
        if not sep or head.count("-") < 1:
            return None
        token = head
