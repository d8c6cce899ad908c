"""What a record is, as pairing compares it across two runs: its kind, label, words, the
files it cites, the records it cites and that cite it, and the profile axes naming it.

Nothing here depends on the record's ID but its kind: an analysis run again numbers its
records afresh, so an ID says little about what a record is. A cited file is keyed by
its source's location (``source_key``: the repository or document and its revision or
capture digest), never by the source's ID, so ``SRC-1 src/a.ts`` of one run and
``SRC-3 src/a.ts`` of the other cite one file when both sources are that repository at
that revision.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from generator.model import kinds
from generator.model.anchors import LineRange
from generator.model.ids import grammar
from generator.model.kinds import Role
from generator.model.profile import MemoryComparison
from generator.model.records import RecordBase, Source
from generator.model.sets import record_member
from generator.model.system import SystemRecords
from generator.model.vocab import Member
from generator.model.walk import collect

_PUNCTUATION = re.compile(r"[\W_]+")
FUNCTION_WORDS = frozenset(
    {"a", "an", "and", "as", "at", "by", "for", "from", "in", "into", "is", "its", "of", "on", "or"}
    | {"the", "then", "to", "via", "with", "be", "are", "it", "this", "that", "not", "no", "but"}
    | {"was", "were", "has", "have", "which", "when", "each", "only", "any", "can", "may"}
)
MAX_WORDS = 4_000  # words of a record's text that count: a huge field costs no more
FileKey = tuple[str, str]  # (source location key, path or locator)


def normalised(label: str) -> str:
    """A label as matching compares it: case folded, punctuation and spaces one space."""
    return _PUNCTUATION.sub(" ", label.casefold()).strip()


# Noun and verb endings: 'consolidation', 'consolidate', 'consolidating' → 'consolid'; 'operational' → 'oper';
# 'judging', 'judged', 'judges' → 'judg'. The first that leaves three letters is dropped.
_SUFFIXES = ("ational", "ations", "ation", "ates", "ate", "ing", "ed", "es", "s")


def _stem(word: str) -> str:
    """A word without a plural, verb or '-ation' ending, so that wordings of one name pair."""
    for suffix in _SUFFIXES:
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            return word[: -len(suffix)]
    return word


def content_words(text: str) -> list[str]:
    """The words a comparison counts, in order: no function words, plural and verb endings
    dropped, no digits alone (an ID's number says nothing of the record)."""
    return [
        _stem(word) for word in normalised(text).split() if word not in FUNCTION_WORDS and not word.isdigit()
    ]


@dataclass(frozen=True, slots=True)
class Features:
    """One record as pairing sees it."""

    id: str
    kind: str
    label: str  # its content words, joined by spaces ('' when it has no label)
    words: frozenset[str]  # the content words of all its text, IDs left out
    files: dict[FileKey, tuple[LineRange, ...]]  # cited file → its line ranges (none: whole)
    neighbours: frozenset[str]  # IDs of the records it cites and those citing it (no sources)
    axes: frozenset[str]  # the profile axes that name it
    paths: frozenset[str] = frozenset()  # the file paths it cites or names in its prose
    member: str | None = None  # in an analysis set, the member declaring it (None: a single result)


def source_key(source: Source) -> str:
    """Where a source is: its location (or, without one, its identity as normalised),
    with its revision or capture digest."""
    where = str(source.location).rstrip("/").removesuffix(".git").casefold() if source.location else ""
    return f"{where or normalised(source.identity)} @ {source.revision or ''}"


def source_keys(system: SystemRecords) -> dict[str, str]:
    """Each evidence source's ID → its location key."""
    return {record.id: source_key(record) for record in system.records if isinstance(record, Source)}


def features_of(system: SystemRecords) -> list[Features]:
    """Every record's features, in the run's order."""
    keys = source_keys(system)
    declared = {record.id for record in system.records}
    cites = {record.id: _cited(record, declared) for record in system.records}
    cited_by: dict[str, set[str]] = {}
    for source, targets in cites.items():
        for target in targets:
            cited_by.setdefault(target, set()).add(source)
    axes = _axes_naming(system.memory_comparison)
    return [
        Features(
            id=record.id,
            kind=_kind(record.id),
            label=" ".join(content_words(_label(record))),
            words=frozenset(content_words(_text(record))[:MAX_WORDS]),
            files=_files(record, keys),
            neighbours=frozenset(cites[record.id] | cited_by.get(record.id, set())),
            axes=frozenset(axes.get(record.id, ())),
            paths=_paths(record),
            member=record_member(record).value if system.analysis_set is not None else None,
        )
        for record in system.records
    ]


def _kind(record_id: str) -> str:
    spec = kinds.spec_of_id(record_id)
    return spec.code if spec else ""


def _label(record: RecordBase) -> str:
    if isinstance(record, Source):
        return record.source_kind
    return record.label or ""


def _text(record: RecordBase) -> str:
    """All of a record's prose with its ID-shaped tokens left out."""
    pattern = grammar().in_text
    return " ".join(pattern.sub(" ", text.text) for text in collect(record).texts)


def _files(record: RecordBase, keys: dict[str, str]) -> dict[FileKey, tuple[LineRange, ...]]:
    if isinstance(record, Source):
        return {(source_key(record), ""): ()}
    found: dict[FileKey, list[LineRange]] = {}
    for anchor in record.evidence:
        where = keys.get(anchor.source, anchor.source)
        place = anchor.path if anchor.path is not None else str(anchor.locator)
        found.setdefault((where, place), []).extend(anchor.ranges)
    return {key: tuple(ranges) for key, ranges in found.items()}


_CODE_SPAN = re.compile(r"`([^`\n]{1,300})`")
_PATH = re.compile(r"[\w.-]+(?:/[\w.-]+)*\.[A-Za-z][\w]{0,7}")
MAX_PATHS = 64  # paths a record names that count: a long list costs no more


def _paths(record: RecordBase) -> frozenset[str]:
    """The file paths a record cites in its anchors or names in code spans of its prose
    (``src/consolidate.rs``, line ranges dropped): a record of a document that states
    its evidence in prose pairs by the files it names as one citing them does."""
    found = [anchor.path for anchor in record.evidence if anchor.path]
    for text in collect(record).texts:
        for span in _CODE_SPAN.findall(text.text):
            for token in re.split(r"[\s,;]+", span):
                path = token.split(":", 1)[0].strip("()'\"")
                if ("/" in path or len(path) > 6) and _PATH.fullmatch(path):
                    found.append(path)
            if len(found) >= MAX_PATHS:
                break
    return frozenset(found[:MAX_PATHS])


def _cited(record: RecordBase, declared: set[str]) -> set[str]:
    """The declared records a record names (in its text, parent, reads and writes), but
    evidence sources: those are compared through the files cited."""
    pattern = grammar().in_text
    found = {match.group(0) for text in collect(record).texts for match in pattern.finditer(text.text)}
    if record.part_of:
        found.add(record.part_of)
    for key in ("alternative_to", "reads", "writes"):
        found.update(getattr(record, key, ()))
    found.discard(record.id)
    return {
        target for target in found if target in declared and not kinds.has_role(target, Role.EVIDENCE_SOURCE)
    }


def _axes_naming(profile: MemoryComparison | None) -> dict[str, set[str]]:
    found: dict[str, set[str]] = {}
    if profile is None:
        return found
    for axis, entry in profile.axes.items():
        named: Iterable[str] = [*entry.records, *(r for e in entry.evidence.values() for r in e.records)]
        for record_id in named:
            found.setdefault(record_id, set()).add(axis)
    return found


def preferred_member(f: Features) -> str:
    """The member of an analysis set that would carry a single result's record: the memory
    report for a record the memory profile names (a memory route or object), before the
    epistemic report that may carry a like one; else the runtime report."""
    return (Member.MEMORY if f.axes else Member.RUNTIME).value


def ranges_overlap(a: Sequence[LineRange], b: Sequence[LineRange]) -> bool:
    """Whether two anchors' line ranges share a line (a whole-file anchor shares every one);
    one sweep over both sorted, never every range against every other."""
    if not a or not b:
        return True
    events = sorted([(r.start, r.end, 0) for r in a] + [(r.start, r.end, 1) for r in b])
    reach = [-1, -1]  # the furthest line each side's ranges so far cover
    for start, end, side in events:
        if reach[1 - side] >= start:
            return True
        reach[side] = max(reach[side], end)
    return False
