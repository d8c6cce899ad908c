"""What changed between two analysis runs of one system: ``diff_runs(old, new)``.

Records are paired by what they are, within each kind (``record_match``: cited files,
label and text, paired neighbours, profile axes; the ID is one signal); each pair is
compared field by field (``record_diff``), the old one's text read as renumbered (an ID
it names that was paired with another ID written as that one, ``renumbering``). The diff
leads with its conclusions: the statuses that moved on paired records (with the evidence
behind each side), then the profile, the records newly found and no longer stated, the
renumbering, and last the word diffs of every changed pair. Limitations are matched by
title, annotations by target, supplied records by ID; the run, the memory-comparison
profile and the prose documents are compared as well. The result is frozen and
deterministic: every list is in kind and ID order (or model order), never in an order
that depends on how the folders were read, so two folders and two git revisions of the
same records give the same diff. An unchanged run gives an empty diff: every count is
zero but ``unchanged``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Literal, TypeVar

from pydantic import BaseModel

from generator.graph.field_diff import FieldChanges, TextChange, compare_models, title_of
from generator.graph.profile_diff import ProfileDiff, diff_profiles
from generator.graph.record_diff import RecordChange, RecordRef, StatusMoveKind, diff_record, record_ref
from generator.graph.record_features import source_keys
from generator.graph.record_match import Basis, Pair, match_records, normalised
from generator.graph.renumbering import as_renumbered
from generator.graph.verdict_diff import VerdictMove, diff_verdicts
from generator.graph.word_diff import word_diff
from generator.model import kinds
from generator.model.files import BUILTIN_SINGLE_MODELS, Run
from generator.model.ids import sort_key
from generator.model.records import Annotation, Limitation, RecordBase, Supplied
from generator.model.system import SystemRecords
from generator.model.walk import collect

T = TypeVar("T", bound=BaseModel)

# The documents of a system compared section by section, in the order pages show them:
# every one-per-system mapping but the run and the profile, compared on their own.
DOCUMENTS = tuple(key for key in BUILTIN_SINGLE_MODELS if key not in ("run", "memory_comparison"))


@dataclass(frozen=True, slots=True)
class Counts:
    """Records of the two runs by what happened to them."""

    added: int
    removed: int
    changed: int  # paired records with a change beyond the ID
    renumbered: int  # paired records whose IDs differ
    unchanged: int  # paired records of one ID without a change
    possible_different_referents: int
    conclusions_moved: int  # statuses both runs state, whose values differ
    conclusions_newly_stated: int  # statuses of paired records only the new run states
    conclusions_no_longer_stated: int  # statuses of paired records only the old run states
    status_fields_renamed: int  # status fields renamed (or split) with their value kept
    verdicts_moved: int  # sentences of the runs' conclusions whose claim reversed or status changed


@dataclass(frozen=True, slots=True)
class ConclusionMove:
    """A status of a paired record that differs between the runs, with the evidence
    behind each side (the anchors each run's record cites). ``change`` says how: *moved*
    (both runs state it and the values differ: ``wired → claimed``), *newly stated* or
    *no longer stated* (one run states it, the other is silent: silence is not a
    verdict), *renamed* (the field's label changed with the contract, its value kept)."""

    change: StatusMoveKind
    old_record: RecordRef
    new_record: RecordRef
    field: str  # the status's label (the new run's when both state it)
    renamed_from: str | None  # the old run's label, when the field was renamed
    old: str | None
    new: str | None
    old_evidence: tuple[str, ...]
    new_evidence: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Renumbering:
    """A pair whose IDs differ: the two records, how sure the pairing is and why."""

    old: RecordRef
    new: RecordRef
    confidence: float
    why: tuple[str, ...]
    basis: Basis


@dataclass(frozen=True, slots=True)
class ItemChange:
    """A limitation, annotation or supplied record of both runs, and what differs."""

    key: str
    fields: FieldChanges


@dataclass(frozen=True, slots=True)
class CollectionDiff:
    """Entries of a list without record IDs, matched by key (title, target, ID)."""

    added: tuple[str, ...] = ()
    removed: tuple[str, ...] = ()
    changed: tuple[ItemChange, ...] = ()

    def __bool__(self) -> bool:
        return bool(self.added or self.removed or self.changed)


@dataclass(frozen=True, slots=True)
class DocumentChange:
    """A prose document (or an included Markdown file) added, removed or changed, with the
    titles of its sections that differ."""

    document: str
    change: Literal["added", "removed", "changed"]
    sections: tuple[str, ...] = ()
    texts: tuple[TextChange, ...] = ()  # each changed section's word diff


@dataclass(frozen=True, slots=True)
class RunDiff:
    """Everything that differs between two runs of one system, conclusions first:
    statuses that moved (``conclusions``: both runs state them), the sentences of the
    runs' conclusions that reversed or changed status (``verdicts``), the statuses one run
    states and the other does not and the fields renamed (``statements``), the profile,
    records newly found (``added``) and no longer stated (``removed``), renumbering, then
    every changed pair with its word diffs."""

    old_system: str
    new_system: str
    old_run_id: str | None
    new_run_id: str | None
    counts: Counts
    conclusions: tuple[ConclusionMove, ...]
    verdicts: tuple[VerdictMove, ...]  # the runs' written conclusions that moved
    statements: tuple[ConclusionMove, ...]
    profile: ProfileDiff
    added: tuple[RecordRef, ...]
    removed: tuple[RecordRef, ...]
    renumbered: tuple[Renumbering, ...]
    changed: tuple[RecordChange, ...]
    run: FieldChanges
    limitations: CollectionDiff
    annotations: CollectionDiff
    supplied: CollectionDiff
    documents: tuple[DocumentChange, ...]

    @property
    def is_empty(self) -> bool:
        """True when nothing differs (the records, the run, the lists, profile, documents)."""
        records = self.added or self.removed or self.renumbered or self.changed
        lists = self.limitations or self.annotations or self.supplied
        return not (records or self.run or lists or self.profile or self.documents)


def diff_runs(old: SystemRecords, new: SystemRecords) -> RunDiff:
    """Compare two validated runs of one system (the old one first)."""
    matching = match_records(old, new)
    old_sources, new_sources = source_keys(old), source_keys(new)
    by_new_id = {pair.new.id: pair for pair in matching.pairs}
    # Old text read as renumbered: a mention that only follows the renumbering is no change.
    mapping = {p.old.id: p.new.id for p in matching.pairs if p.old.id != p.new.id}
    declared = frozenset(record.id for record in old.records)

    def read_as_new(value: T) -> T:
        return as_renumbered(value, mapping, declared)

    read_sources = {mapping.get(source, source): key for source, key in old_sources.items()}
    pairs = sorted(
        (
            diff_record(p.old, p.new, p.basis, read_sources, new_sources, read_as_new(p.old))
            for p in matching.pairs
        ),
        key=lambda change: _order(change.new.id),
    )
    changed = tuple(p for p in pairs if p.has_changes)
    renumbered = tuple(
        Renumbering(p.old, p.new, p.basis.confidence, p.why, p.basis) for p in pairs if p.old.id != p.new.id
    )
    found = tuple(move for change in changed for move in _conclusions(change, by_new_id[change.new.id]))
    moves = tuple(move for move in found if move.change == "moved")
    statements = tuple(move for move in found if move.change != "moved")
    verdicts = diff_verdicts(old, new)
    counts = Counts(
        added=len(matching.added),
        removed=len(matching.removed),
        changed=len(changed),
        renumbered=len(renumbered),
        unchanged=sum(1 for p in pairs if not p.has_changes and p.old.id == p.new.id),
        possible_different_referents=sum(1 for p in changed if p.possible_different_referent),
        conclusions_moved=len(moves),
        conclusions_newly_stated=sum(1 for m in statements if m.change == "newly stated"),
        conclusions_no_longer_stated=sum(1 for m in statements if m.change == "no longer stated"),
        status_fields_renamed=sum(1 for m in statements if m.change == "renamed"),
        verdicts_moved=len(verdicts),
    )
    return RunDiff(
        old_system=old.slug,
        new_system=new.slug,
        old_run_id=old.run.run_id if old.run else None,
        new_run_id=new.run.run_id if new.run else None,
        counts=counts,
        conclusions=moves,
        verdicts=verdicts,
        statements=statements,
        profile=diff_profiles(old.memory_comparison, new.memory_comparison),
        added=_refs(matching.added),
        removed=_refs(matching.removed),
        renumbered=renumbered,
        changed=changed,
        run=compare_models(Run, old.run, new.run),
        limitations=_collection(
            Limitation, [read_as_new(x) for x in old.limitations], new.limitations, lambda x: x.title
        ),
        annotations=_collection(
            Annotation, [read_as_new(x) for x in old.annotations], new.annotations, lambda x: f"On {x.target}"
        ),
        supplied=_collection(Supplied, old.supplied, new.supplied, lambda x: x.id),
        documents=_documents(old, new),
    )


def _conclusions(change: RecordChange, pair: Pair) -> tuple[ConclusionMove, ...]:
    before = tuple(anchor.as_text() for anchor in pair.old.evidence)
    after = tuple(anchor.as_text() for anchor in pair.new.evidence)
    return tuple(
        ConclusionMove(
            move.change,
            change.old,
            change.new,
            move.field,
            move.renamed_from,
            move.old,
            move.new,
            before,
            after,
        )
        for move in change.statuses
    )


def _order(record_id: str) -> tuple[int, tuple[str, str, int, str]]:
    """Kind order (the registry's), then ID order (RTE-2 before RTE-10)."""
    spec = kinds.spec_of_id(record_id)
    codes = kinds.kind_codes()
    return (codes.index(spec.code) if spec else len(codes), sort_key(record_id))


def _refs(records: Sequence[RecordBase]) -> tuple[RecordRef, ...]:
    return tuple(record_ref(record) for record in sorted(records, key=lambda r: _order(r.id)))


def _collection(
    model: type[T], old: Sequence[T], new: Sequence[T], key: Callable[[T], str]
) -> CollectionDiff:
    """Entries matched by normalised key; a key repeated in one run is told apart by its
    place among those entries ('title (2)')."""
    before, after = _keyed(old, key), _keyed(new, key)
    changed = []
    for match, (shown, item) in after.items():
        if match in before and before[match][1] != item:
            fields = compare_models(model, before[match][1], item)
            if fields:
                changed.append(ItemChange(shown, fields))
    return CollectionDiff(
        added=tuple(shown for match, (shown, _) in after.items() if match not in before),
        removed=tuple(shown for match, (shown, _) in before.items() if match not in after),
        changed=tuple(changed),
    )


def _keyed(items: Sequence[T], key: Callable[[T], str]) -> dict[str, tuple[str, T]]:
    """Normalised key → (key as shown, entry), in list order."""
    found: dict[str, tuple[str, T]] = {}
    seen: dict[str, int] = {}
    for item in items:
        shown = key(item)
        match = normalised(shown)
        seen[match] = seen.get(match, 0) + 1
        if seen[match] > 1:
            shown, match = f"{shown} ({seen[match]})", f"{match} ({seen[match]})"
        found[match] = (shown, item)
    return found


def _documents(old: SystemRecords, new: SystemRecords) -> tuple[DocumentChange, ...]:
    found: list[DocumentChange] = []
    for name in DOCUMENTS:
        change = _document(name, getattr(old, name), getattr(new, name))
        if change is not None:
            found.append(change)
    for path in sorted({*old.prose, *new.prose}):
        before, after = old.prose.get(path), new.prose.get(path)
        if before != after:
            found.append(DocumentChange(path, _change(before, after)))
    return tuple(found)


def _document(name: str, old: BaseModel | None, new: BaseModel | None) -> DocumentChange | None:
    if old == new or (old is not None and new is not None and _worded_apart(old) == _worded_apart(new)):
        return None
    if old is None or new is None:
        return DocumentChange(name, _change(old, new))
    changed = [
        (field, title_of(field, info))
        for field, info in type(new).model_fields.items()
        if _worded_apart(getattr(old, field, None)) != _worded_apart(getattr(new, field, None))
    ]
    texts = []
    for field, title in changed:
        diff = word_diff(_prose(getattr(old, field, None)), _prose(getattr(new, field, None)))
        if any(op.op != "equal" for op in diff.ops):  # not a section whose placements alone moved
            texts.append(TextChange(field, title, diff.ops, diff.whole))
    return DocumentChange(name, "changed", tuple(title for _, title in changed), tuple(texts))


# A table's headers as its document wrote them are wording, not a finding: a section whose
# headers alone differ has not changed (as a record whose labels alone differ).
_WORDING_KEYS = frozenset({"headers"})


def _worded_apart(value: object) -> object:
    """A section's content without the document's header words."""
    if not isinstance(value, BaseModel):
        return value
    return _without_wording(value.model_dump(mode="json"))


def _without_wording(data: object) -> object:
    if isinstance(data, dict):
        return {k: _without_wording(v) for k, v in data.items() if k not in _WORDING_KEYS}
    if isinstance(data, list):
        return [_without_wording(item) for item in data]
    return data


def _prose(value: object) -> str | None:
    """A section's prose as one text (its paragraphs, items and cells in order)."""
    if value is None:
        return None
    if isinstance(value, str):
        return value
    return "\n\n".join(text.text for text in collect(value).texts)


def _change(old: object | None, new: object | None) -> Literal["added", "removed", "changed"]:
    return "added" if old is None else "removed" if new is None else "changed"
