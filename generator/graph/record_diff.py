"""What changed in one record between two runs: statuses, guarantees, evidence, fields."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from rapidfuzz import fuzz

from generator.graph.field_diff import FieldChanges, compare_models, list_change, value_text
from generator.graph.record_features import content_words
from generator.graph.record_match import Basis, possibly_different
from generator.model import kinds
from generator.model.base import Anchor
from generator.model.records import Guarantee, QualifiedStatus, RecordBase

# Fields compared on their own: the ID (matched), statuses, evidence and guarantees.
_OWN_COMPARISON = frozenset({"id", "statuses", "architectural_status", "evidence", "guarantee"})
# How a document worded its fields' labels and lines (a record's ``labels`` and
# ``same_line``) is not what it found: a record whose wording alone differs has not changed.
_WORDING = frozenset({"labels", "same_line"})
ARCHITECTURAL_STATUS = "architectural status"


@dataclass(frozen=True, slots=True)
class RecordRef:
    """A record as a diff names it: its ID, its kind's name and its label (or stand-in)."""

    id: str
    kind: str
    label: str | None


@dataclass(frozen=True, slots=True)
class GuaranteeChange:
    """A guarantee added, removed or changed, each side in its text form."""

    change: Literal["added", "removed", "changed"]
    old: str | None
    new: str | None
    fields: FieldChanges


StatusMoveKind = Literal["moved", "newly stated", "no longer stated", "renamed"]


def status_move_kind(old: str | None, new: str | None) -> StatusMoveKind:
    """How a status differs: *moved* only when both runs state a value and the values
    differ; a status one run alone states is newly or no longer stated (silence is not a
    verdict); a field renamed with its value kept is renamed."""
    if old is None:
        return "newly stated"
    if new is None:
        return "no longer stated"
    return "moved" if old != new else "renamed"


@dataclass(frozen=True, slots=True)
class StatusChange:
    """A labelled status that moved: its label in the new run (``title``; the old run's,
    when only the old run states it), ``renamed_from`` the old run's label when the field
    was renamed ('implementation status' → 'implementation conclusion status'), and the
    value on each side (None: not stated)."""

    field: str
    title: str
    old: str | None
    new: str | None
    renamed_from: str | None = None

    @property
    def change(self) -> StatusMoveKind:
        return status_move_kind(self.old, self.new)


@dataclass(frozen=True, slots=True)
class MovedAnchor:
    """One file cited under another source ID: the two sources are one location."""

    old: str
    new: str


@dataclass(frozen=True, slots=True)
class RecordChange:
    """One record of both runs (a pair of ``record_match``) and what differs. ``basis``:
    why they are paired, ``why`` the same in words. ``possible_different_referent``:
    their labels share few words and the pair is not sure on other grounds, so they may
    name different things; they are still compared as one record."""

    old: RecordRef
    new: RecordRef
    basis: Basis
    why: tuple[str, ...]
    possible_different_referent: bool
    label_overlap: float | None  # the labels' overlap, when it is low enough to flag the pair
    statuses: tuple[StatusChange, ...]
    guarantees: tuple[GuaranteeChange, ...]
    evidence_added: tuple[str, ...]
    evidence_removed: tuple[str, ...]
    evidence_moved: tuple[MovedAnchor, ...]
    fields: FieldChanges

    @property
    def has_changes(self) -> bool:
        return bool(
            self.possible_different_referent
            or self.statuses
            or self.guarantees
            or self.evidence_added
            or self.evidence_removed
            or self.evidence_moved
            or self.fields
        )


def record_ref(record: RecordBase) -> RecordRef:
    spec = kinds.spec_of_id(record.id)
    return RecordRef(record.id, spec.singular if spec else "record", record.shown_label())


def diff_record(
    old: RecordBase,
    new: RecordBase,
    basis: Basis,
    old_sources: dict[str, str] | None = None,
    new_sources: dict[str, str] | None = None,
    old_renumbered: RecordBase | None = None,
) -> RecordChange:
    """Compare two paired records of one kind. ``old_renumbered``: the old record with the
    IDs it names written as the new run numbers them (``renumbering``), whose fields and
    evidence are compared (its ID and statuses are the old record's). ``old_sources`` and
    ``new_sources`` give each run's source IDs (the old run's as renumbered) their
    location key (``record_features.source_keys``): an anchor whose file the other run
    cites under another source of that location is moved, not removed and added."""
    spec = kinds.spec_of_id(new.id)
    status_names = {name for name, _ in spec.status_fields} if spec else set()
    read = old_renumbered if old_renumbered is not None else old
    evidence = list_change("evidence", "Evidence", _anchors(read), _anchors(new))
    removed, added = (evidence.removed, evidence.added) if evidence else ((), ())
    moved, removed, added = _moved_anchors(read, new, removed, added, old_sources or {}, new_sources or {})
    overlap = possibly_different(old.shown_label(), new.shown_label(), basis.confidence)
    return RecordChange(
        old=record_ref(old),
        new=record_ref(new),
        basis=basis,
        why=basis.reasons(),
        possible_different_referent=overlap is not None,
        label_overlap=round(overlap, 2) if overlap is not None else None,
        statuses=status_moves(old, new),
        guarantees=_guarantee_changes(getattr(old, "guarantee", []), getattr(new, "guarantee", [])),
        evidence_added=added,
        evidence_removed=removed,
        evidence_moved=moved,
        fields=compare_models(type(new), read, new, _OWN_COMPARISON | _WORDING | status_names),
    )


def _anchors(record: RecordBase) -> list[str]:
    return [anchor.as_text() for anchor in record.evidence]


def _moved_anchors(
    old: RecordBase,
    new: RecordBase,
    removed: tuple[str, ...],
    added: tuple[str, ...],
    old_sources: dict[str, str],
    new_sources: dict[str, str],
) -> tuple[tuple[MovedAnchor, ...], tuple[str, ...], tuple[str, ...]]:
    """Removed and added anchors that cite one place of one location under two source IDs."""

    def place(anchor: Anchor, sources: dict[str, str]) -> tuple[str, str]:
        where = sources.get(anchor.source, anchor.source)
        return where, anchor.as_text().removeprefix(anchor.source)

    by_text_old = {anchor.as_text(): anchor for anchor in old.evidence}
    by_text_new = {anchor.as_text(): anchor for anchor in new.evidence}
    waiting: dict[tuple[str, str], list[str]] = {}
    for text in reversed(added):
        waiting.setdefault(place(by_text_new[text], new_sources), []).append(text)
    moved: list[MovedAnchor] = []
    still_removed: list[str] = []
    for text in removed:
        counterpart = waiting.get(place(by_text_old[text], old_sources))
        if counterpart:
            moved.append(MovedAnchor(text, counterpart.pop()))
        else:
            still_removed.append(text)
    taken = {m.new for m in moved}
    return tuple(moved), tuple(still_removed), tuple(text for text in added if text not in taken)


def statuses_of(record: RecordBase) -> dict[str, str]:
    """Every labelled status of a record as written (value and qualifier), its kind's
    status fields and its architectural status included."""
    found = {label: str(status) for label, status in record.statuses.items()}
    spec = kinds.spec_of_id(record.id)
    for name, label in spec.status_fields if spec else ():
        value = getattr(record, name)
        if value is not None:
            found[label] = (
                str(value) if isinstance(value, QualifiedStatus) else str(getattr(value, "value", value))
            )
    if record.architectural_status is not None:
        found[ARCHITECTURAL_STATUS] = record.architectural_status.value
    return found


# Words every status label may hold: a rename keeps what is left ('implementation').
_STATUS_WORDS = frozenset(content_words("conclusion status"))
RENAMED_LABEL = 80  # a rapidfuzz ratio of what is left of two labels that makes them one field
MAX_RENAME_TRIES = 10_000  # label pairs compared at most, per record, to find renamed fields


def status_moves(old: RecordBase, new: RecordBase) -> tuple[StatusChange, ...]:
    """Every status that differs; a field only one run states is taken as renamed when
    the other run states a field of a like name only it has ('operation status' →
    'operational conclusion status')."""
    before, after = statuses_of(old), statuses_of(new)
    gone = [label for label in before if label not in after]
    came = [label for label in after if label not in before]
    renamed: dict[str, str] = {}  # new label → old label
    # A record of thousands of fields renamed is not looked through: each removed field
    # is compared with each added one.
    if len(gone) * len(came) <= MAX_RENAME_TRIES:
        for label in gone:
            match = max(
                (c for c in came if c not in renamed and _same_field(label, c)),
                key=lambda c: fuzz.ratio(label, c),
                default=None,
            )
            if match is not None:
                renamed[match] = label
        _rename_generic(before, after, gone, came, renamed)
    origins = set(renamed.values())
    moves = []
    for label in after:
        origin = renamed.get(label, label)
        if before.get(origin) != after[label] or origin != label:
            moves.append(StatusChange(label, label, before.get(origin), after[label], renamed.get(label)))
    moves.extend(StatusChange(label, label, before[label], None) for label in gone if label not in origins)
    order = {label: place for place, label in enumerate([*before, *after])}
    return tuple(sorted(moves, key=lambda m: order[m.renamed_from or m.field]))


def _rename_generic(
    before: dict[str, str], after: dict[str, str], gone: list[str], came: list[str], renamed: dict[str, str]
) -> None:
    """A generic label ('conclusion status') on one side and a qualified one on the other
    are one field when the qualified one is the only one left, or the only one left of
    the same value."""
    left_gone = [label for label in gone if label not in renamed.values()]
    left_came = [label for label in came if label not in renamed]
    for label in left_came:
        if _qualifier(label):
            continue
        found = _only(left_gone, after[label], before)
        if found is not None:
            renamed[label] = found
            left_gone.remove(found)
    for label in left_gone:
        if _qualifier(label):
            continue
        found = _only([c for c in left_came if c not in renamed], before[label], after)
        if found is not None:
            renamed[found] = label


def _only(labels: list[str], value: str, values: dict[str, str]) -> str | None:
    """The one label left, else the one label left of that value."""
    if len(labels) == 1:
        return labels[0]
    same = [label for label in labels if values[label] == value]
    return same[0] if len(same) == 1 else None


def _qualifier(label: str) -> str:
    return " ".join(w for w in content_words(label) if w not in _STATUS_WORDS)


def _same_field(old: str, new: str) -> bool:
    a, b = _qualifier(old), _qualifier(new)
    return bool(a and b) and fuzz.token_set_ratio(a, b) >= RENAMED_LABEL


def guarantee_text(guarantee: Guarantee) -> str:
    """``protocol — loop progression (wired)``: strength, scope and own status."""
    text = guarantee.strength.value
    if guarantee.scope:
        text += f" — {guarantee.scope}"
    if guarantee.status is not None:
        text += f" ({guarantee.status.value})"
    return text


def _guarantee_changes(old: list[Guarantee], new: list[Guarantee]) -> tuple[GuaranteeChange, ...]:
    """Guarantees paired by scope (in order, among those of one scope), then the one left
    on each side with each other; the rest added or removed."""
    pairs, removed, added = _pair_guarantees(old, new)
    changes: list[GuaranteeChange] = []
    for before, after in pairs:
        if before != after:
            fields = compare_models(Guarantee, before, after)
            changes.append(GuaranteeChange("changed", guarantee_text(before), guarantee_text(after), fields))
    changes.extend(GuaranteeChange("removed", guarantee_text(g), None, FieldChanges()) for g in removed)
    changes.extend(GuaranteeChange("added", None, guarantee_text(g), FieldChanges()) for g in added)
    return tuple(changes)


def _pair_guarantees(
    old: list[Guarantee], new: list[Guarantee]
) -> tuple[list[tuple[Guarantee, Guarantee]], list[Guarantee], list[Guarantee]]:
    waiting: dict[str, list[int]] = {}  # scope → positions in ``new``, last first
    for position in range(len(new) - 1, -1, -1):
        waiting.setdefault(value_text(new[position].scope) or "", []).append(position)
    pairs: list[tuple[Guarantee, Guarantee]] = []
    removed: list[Guarantee] = []
    for guarantee in old:
        same_scope = waiting.get(value_text(guarantee.scope) or "")
        if same_scope:
            pairs.append((guarantee, new[same_scope.pop()]))
        else:
            removed.append(guarantee)
    added = [new[position] for position in sorted(p for group in waiting.values() for p in group)]
    if len(removed) == 1 and len(added) == 1:
        pairs.append((removed.pop(), added.pop()))
    return pairs, removed, added
