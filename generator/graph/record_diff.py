"""What changed in one record between two runs: statuses, guarantees, evidence, fields."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from generator.graph.field_diff import FieldChanges, ValueChange, compare_models, list_change, value_text
from generator.graph.record_match import possibly_different
from generator.model import kinds
from generator.model.records import Guarantee, RecordBase

# Fields compared on their own: the ID (matched), statuses, evidence and guarantees.
_OWN_COMPARISON = frozenset({"id", "statuses", "architectural_status", "evidence", "guarantee"})
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


@dataclass(frozen=True, slots=True)
class RecordChange:
    """One record of both runs and what differs. ``possible_different_referent``: the two
    share an ID but their labels share few words (``record_match``), so they may name
    different things; they are still compared as one record."""

    old: RecordRef
    new: RecordRef
    possible_different_referent: bool
    label_overlap: float | None  # the labels' overlap, when it is low enough to flag the pair
    statuses: tuple[ValueChange, ...]
    guarantees: tuple[GuaranteeChange, ...]
    evidence_added: tuple[str, ...]
    evidence_removed: tuple[str, ...]
    fields: FieldChanges

    @property
    def has_changes(self) -> bool:
        return bool(
            self.possible_different_referent
            or self.statuses
            or self.guarantees
            or self.evidence_added
            or self.evidence_removed
            or self.fields
        )


def record_ref(record: RecordBase) -> RecordRef:
    spec = kinds.spec_of_id(record.id)
    return RecordRef(record.id, spec.singular if spec else "record", record.shown_label())


def diff_record(old: RecordBase, new: RecordBase) -> RecordChange:
    """Compare two records matched by ID or by kind and label (one model class)."""
    spec = kinds.spec_of_id(new.id)
    status_names = {name for name, _ in spec.status_fields} if spec else set()
    evidence = list_change("evidence", "Evidence", _anchors(old), _anchors(new))
    overlap = possibly_different(old.shown_label(), new.shown_label()) if old.id == new.id else None
    return RecordChange(
        old=record_ref(old),
        new=record_ref(new),
        possible_different_referent=overlap is not None,
        label_overlap=round(overlap, 2) if overlap is not None else None,
        statuses=_status_moves(old, new),
        guarantees=_guarantee_changes(getattr(old, "guarantee", []), getattr(new, "guarantee", [])),
        evidence_added=evidence.added if evidence else (),
        evidence_removed=evidence.removed if evidence else (),
        fields=compare_models(type(new), old, new, _OWN_COMPARISON | status_names),
    )


def _anchors(record: RecordBase) -> list[str]:
    return [anchor.as_text() for anchor in record.evidence]


def statuses_of(record: RecordBase) -> dict[str, str]:
    """Every labelled status of a record as written (value and qualifier), its kind's
    status fields and its architectural status included."""
    found = {
        label: f"{value}, {qualifier}" if qualifier else value
        for label, value, qualifier in kinds.qualified_status_fields(record)
    }
    if record.architectural_status is not None:
        found[ARCHITECTURAL_STATUS] = record.architectural_status.value
    return found


def _status_moves(old: RecordBase, new: RecordBase) -> tuple[ValueChange, ...]:
    before, after = statuses_of(old), statuses_of(new)
    labels = dict.fromkeys([*before, *after])
    return tuple(
        ValueChange(label, label, before.get(label), after.get(label))
        for label in labels
        if before.get(label) != after.get(label)
    )


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
