"""What changed in the memory-comparison profile: per axis, its assessment, values,
evidence basis and note; axes added and removed."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from generator.graph.field_diff import TextChange, ValueChange
from generator.graph.word_diff import word_diff
from generator.model.profile import ALL_AXES, AXIS_TITLES, AxisProfile, MemoryComparison


@dataclass(frozen=True, slots=True)
class AxisChange:
    """One axis that differs. An added axis moves from nothing to its assessment and
    values; a removed one the other way."""

    axis: str
    change: Literal["added", "removed", "changed"]
    assessment: ValueChange | None
    values_added: tuple[str, ...]
    values_removed: tuple[str, ...]
    # The axis's own basis ('basis') and each value's, from its evidence entry ('basis of <value>').
    basis: tuple[ValueChange, ...]
    note: TextChange | None


@dataclass(frozen=True, slots=True)
class ProfileDiff:
    """The profile's changes; ``old_present``/``new_present``: whether each run has one."""

    old_present: bool
    new_present: bool
    scope: TextChange | None
    axes: tuple[AxisChange, ...]

    def __bool__(self) -> bool:
        return self.old_present != self.new_present or self.scope is not None or bool(self.axes)


def diff_profiles(old: MemoryComparison | None, new: MemoryComparison | None) -> ProfileDiff:
    old_axes = old.axes if old is not None else {}
    new_axes = new.axes if new is not None else {}
    scope = None
    if (old.scope if old else None) != (new.scope if new else None):
        diff = word_diff(old.scope if old else None, new.scope if new else None)
        scope = TextChange("scope", "Scope", diff.ops, diff.whole)
    names = [axis for axis in ALL_AXES if axis in old_axes or axis in new_axes]
    names += sorted(axis for axis in {*old_axes, *new_axes} if axis not in ALL_AXES)
    axes = (_axis_change(axis, old_axes.get(axis), new_axes.get(axis)) for axis in names)
    return ProfileDiff(old is not None, new is not None, scope, tuple(a for a in axes if a is not None))


def _axis_change(axis: str, old: AxisProfile | None, new: AxisProfile | None) -> AxisChange | None:
    if old == new:
        return None
    title = AXIS_TITLES.get(axis, axis)
    before_values = old.values if old else []
    after_values = new.values if new else []
    before_set, after_set = set(before_values), set(after_values)
    before_evidence = old.evidence if old else {}
    after_evidence = new.evidence if new else {}
    assessment = _move(
        f"{axis}.assessment", f"{title}: assessment", _of(old, "assessment"), _of(new, "assessment")
    )
    basis = [_move(f"{axis}.basis", f"{title}: basis", _of(old, "basis"), _of(new, "basis"))]
    for value in dict.fromkeys([*before_evidence, *after_evidence]):
        before = before_evidence[value].basis if value in before_evidence else None
        after = after_evidence[value].basis if value in after_evidence else None
        basis.append(_move(f"{axis}.values.{value}", f"{title}: basis of {value}", before, after))
    note = None
    if _of(old, "note") != _of(new, "note"):
        diff = word_diff(_of(old, "note"), _of(new, "note"))
        note = TextChange(f"{axis}.note", f"{title}: note", diff.ops, diff.whole)
    change = AxisChange(
        axis,
        "added" if old is None else "removed" if new is None else "changed",
        assessment,
        tuple(value for value in after_values if value not in before_set),
        tuple(value for value in before_values if value not in after_set),
        tuple(move for move in basis if move is not None),
        note,
    )
    # An axis whose records or evidence notes alone changed has nothing to show here.
    shown = change.assessment or change.values_added or change.values_removed or change.basis or change.note
    return change if shown or change.change != "changed" else None


def _of(axis: AxisProfile | None, name: str) -> str | None:
    value = getattr(axis, name) if axis is not None else None
    return value if isinstance(value, str) else None


def _move(field: str, title: str, old: str | None, new: str | None) -> ValueChange | None:
    return ValueChange(field, title, old, new) if old != new else None
