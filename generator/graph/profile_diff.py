"""What changed in the memory-comparison profile: per axis, its assessment, values,
evidence basis and note; axes added and removed.

A value's basis is its evidence entry's, else the axis's (``AxisProfile.basis_of``): a
profile that gives one basis for the axis and one that gives it per value say the same
thing when each value's basis is the same, so a basis moved between the axis and its
values is a reshape, not a move. A basis moved only when a value both runs find has a
basis in each and the two differ (``afforded → wired``).
"""

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
    # Bases that moved: of each value both runs find ('basis of <value>'), or of the axis
    # ('basis') when neither run finds a value.
    basis: tuple[ValueChange, ...]
    # How the basis is given changed, its values alone kept: 'basis per value, no longer
    # for the axis' (None: given the same way, or nothing to compare).
    reshaped: str | None
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
    assessment = _move(
        f"{axis}.assessment", f"{title}: assessment", _of(old, "assessment"), _of(new, "assessment")
    )
    basis = _basis_moves(axis, title, old, new)
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
        basis,
        _reshaped(old, new),
        note,
    )
    # An axis whose records or evidence notes alone changed has nothing to show here.
    shown = (
        change.assessment
        or change.values_added
        or change.values_removed
        or change.basis
        or change.reshaped
        or change.note
    )
    return change if shown or change.change != "changed" else None


def _basis_moves(
    axis: str, title: str, old: AxisProfile | None, new: AxisProfile | None
) -> tuple[ValueChange, ...]:
    """The bases both runs state that differ: per value both find, else the axis's own."""
    if old is None or new is None:
        return ()
    shared = [value for value in new.values if value in set(old.values)]
    if not old.values and not new.values:
        moved = old.basis is not None and new.basis is not None and old.basis != new.basis
        return (ValueChange(f"{axis}.basis", f"{title}: basis", old.basis, new.basis),) if moved else ()
    found = []
    for value in shared:
        before, after = old.basis_of(value), new.basis_of(value)
        if before is not None and after is not None and before != after:
            found.append(ValueChange(f"{axis}.values.{value}", f"{title}: basis of {value}", before, after))
    return tuple(found)


def _reshaped(old: AxisProfile | None, new: AxisProfile | None) -> str | None:
    if old is None or new is None:
        return None
    before, after = _basis_form(old), _basis_form(new)
    if before is None or after is None or before == after:
        return None
    return f"basis {after}, no longer {before}"


def _basis_form(axis: AxisProfile) -> str | None:
    if axis.basis is not None:
        return "for the axis"
    return "per value" if axis.evidence else None


def _of(axis: AxisProfile | None, name: str) -> str | None:
    value = getattr(axis, name) if axis is not None else None
    return value if isinstance(value, str) else None


def _move(field: str, title: str, old: str | None, new: str | None) -> ValueChange | None:
    return ValueChange(field, title, old, new) if old != new else None
