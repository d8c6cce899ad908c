"""Rules of the memory-comparison profile (KB701–KB720), one code per rule of the spec.

The spec (agent-memory-analysis-report, "Memory comparison fields") asks for every
axis exactly once, controlled values per axis, one evidence entry per value of a
known or partial axis (or one basis for the whole axis, the older results' shape, KB720
when both are given) and none otherwise, an evidenced-absence record behind an
``absent`` axis, records that resolve in the system itself, a non-empty note on
every axis and value, and a few cross-axis constraints (trace learning, read-back).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from generator.check.registry import check_rule
from generator.diagnostics import Diagnostic, Rule, error
from generator.model.kinds import Role, has_role, with_role
from generator.model.meta import DataPath
from generator.model.profile import (
    AXES,
    AXIS_VALUES,
    BASIS_VALUES,
    EXTRA_AXES,
    VALUED_ASSESSMENTS,
    AxisEvidence,
    AxisProfile,
)
from generator.model.system import Origin
from generator.model.vocab import ProfileAssessment

if TYPE_CHECKING:
    from generator.check.context import Context

KB701 = Rule(
    "KB701",
    "profile-axis-missing",
    "The memory-comparison profile lacks one of the ten axes.",
    doc="the memory-comparison profile lacks one of the ten axes (located at `axes:`)",
)

KB702 = Rule(
    "KB702",
    "profile-axis-unknown",
    "The memory-comparison profile names an axis the spec does not list.",
    doc="the profile names an axis the spec does not list",
)

KB704 = Rule(
    "KB704",
    "profile-assessment",
    "An axis assessment is not in the assessment vocabulary.",
    doc=(
        "an axis `assessment` is not `known`, `partial`, `absent`, `inapplicable`, `uninspected` or "
        "`not-determinable`"
    ),
)

KB705 = Rule(
    "KB705",
    "profile-value",
    "A value is not one of its axis's controlled values.",
    doc="a value is not one of its axis's controlled values",
)

KB706 = Rule(
    "KB706",
    "profile-value-repeated",
    "An axis lists a value twice; a value counts once per system.",
    doc="an axis lists one value twice (a value counts once per system)",
)

KB707 = Rule(
    "KB707",
    "profile-values-required",
    "A known or partial axis lists no values.",
    doc="a `known` or `partial` axis lists no values",
)

KB708 = Rule(
    "KB708",
    "profile-evidence-missing",
    "A value of a known or partial axis has no evidence entry.",
    doc="a value of a `known` or `partial` axis has no `evidence` entry",
)

KB709 = Rule(
    "KB709",
    "profile-evidence-unlisted",
    "An evidence entry is for a value the axis does not list.",
    doc="an `evidence` entry is keyed by a value the axis does not list",
)

KB710 = Rule(
    "KB710",
    "profile-values-forbidden",
    "An axis assessed other than known or partial has values or evidence.",
    doc=(
        "an axis assessed other than `known`/`partial` has values, evidence or a basis (write `values: []`, "
        "`evidence: {}` or `basis: null`)"
    ),
)

KB711 = Rule(
    "KB711",
    "profile-basis",
    "An evidence basis is not claimed, afforded, wired, observed or causally supported.",
    doc=(
        "an evidence `basis` (per value, or the axis's) is not `claimed`, `afforded`, `wired`, `observed` or "
        "`causally supported`"
    ),
)

KB712 = Rule(
    "KB712",
    "profile-evidence-records",
    "An evidence entry cites no record, or one record twice.",
    doc="an evidence entry cites no record, or one record twice",
)

KB713 = Rule(
    "KB713",
    "profile-absence-record",
    "An absent axis cites no evidenced-absence record.",
    doc="an `absent` axis cites no evidenced-absence record (`ABS-*`, `MEM-ABS-*`) among its `records`",
)

KB714 = Rule(
    "KB714",
    "profile-record-unresolved",
    "A profile cites a record neither declared nor annotated in the system.",
    doc=(
        "the profile cites a record this system neither declares nor annotates (a supplied record must be "
        "annotated)"
    ),
)

KB715 = Rule(
    "KB715",
    "profile-note",
    "An axis or one of its values has no note or an empty one.",
    doc="an axis or one of its values has no `note`, or an empty one",
)

KB716 = Rule(
    "KB716",
    "profile-trace-learning-value",
    "Trace learning lists more than one value.",
    doc="`trace_learning` lists more than one value",
)

KB717 = Rule(
    "KB717",
    "profile-partial-no",
    'A partial trace-learning assessment asserts "no".',
    doc='a `partial` trace-learning assessment asserts `"no"`',
)

KB718 = Rule(
    "KB718",
    "profile-pull-only-signal",
    "A known pull-only read-back has a read-back signal that is not inapplicable.",
    doc="read-back is known pull-only but `read_back_signal` is not `inapplicable`",
)

KB719 = Rule(
    "KB719",
    "profile-trace-source",
    "Trace learning is known not to occur, but trace source or an extra axis is not inapplicable.",
    doc=(
        'trace learning is known not to occur (`known` `"no"`, or `absent`) but `trace_source`, or one of '
        "the four extra axes, is not `inapplicable`"
    ),
)

KB720 = Rule(
    "KB720",
    "profile-basis-twice",
    "An axis states its evidence basis both for the axis and per value.",
    doc=(
        "an axis states its basis both once for the axis (`basis:`) and per value (`evidence:`); write it "
        "where the document does"
    ),
)


_ASSESSMENTS = tuple(a.value for a in ProfileAssessment)


class _Axis:
    """One axis being checked: its entry, its name and how to locate its parts."""

    def __init__(self, ctx: Context, origin: Origin | None, name: str, entry: AxisProfile) -> None:
        self.ctx, self.origin, self.name, self.entry = ctx, origin, name, entry

    def at(self, *path: str | int) -> tuple[str, int, int]:
        return self.ctx.at(self.origin, ("axes", self.name, *path))

    def key_at(self, *path: str | int) -> tuple[str, int, int]:
        return self.ctx.key_at(self.origin, ("axes", self.name, *path))


@check_rule(
    KB701,
    KB702,
    KB704,
    KB705,
    KB706,
    KB707,
    KB708,
    KB709,
    KB710,
    KB711,
    KB712,
    KB713,
    KB714,
    KB715,
    KB716,
    KB717,
    KB718,
    KB719,
    KB720,
    order=280,
)
def rule_profile(ctx: Context) -> Iterator[Diagnostic]:
    """Every profile rule over the system's ``memory_comparison``, if it declares one."""
    profile = ctx.system.memory_comparison
    if profile is None:
        return
    origin = ctx.system.origin(profile)
    yield from _axis_names(ctx, origin, list(profile.axes))
    resolvable = _resolvable(ctx)
    for name, entry in profile.axes.items():
        axis = _Axis(ctx, origin, name, entry)
        yield from _assessment(axis)
        yield from _values(axis)
        yield from _evidence(axis)
        yield from _notes(axis)
        yield from _citations(axis, resolvable)
    yield from _trace_learning(ctx, origin, profile.axes)
    yield from _read_back(ctx, origin, profile.axes)


def _axis_names(ctx: Context, origin: Origin | None, names: list[str]) -> Iterator[Diagnostic]:
    for name in names:
        if name not in AXIS_VALUES:
            yield error(
                KB702,
                f"{name!r} is not an axis of the memory-comparison profile",
                *ctx.key_at(origin, ("axes", name)),
                hint="Axes: " + ", ".join(AXIS_VALUES),
            )
    for name in AXES:
        if name not in names:
            yield error(
                KB701,
                f"the memory-comparison profile lacks the axis {name!r}",
                *ctx.key_at(origin, ("axes",)),
                hint="Every axis occurs exactly once; "
                "write 'assessment: uninspected' where it was not inspected.",
            )


def _assessment(axis: _Axis) -> Iterator[Diagnostic]:
    if axis.entry.assessment not in _ASSESSMENTS:
        yield error(
            KB704,
            f"assessment {axis.entry.assessment!r} of {axis.name} is not one of {', '.join(_ASSESSMENTS)}",
            *axis.at("assessment"),
        )


def _values(axis: _Axis) -> Iterator[Diagnostic]:
    allowed = AXIS_VALUES.get(axis.name)
    seen: set[str] = set()
    for index, value in enumerate(axis.entry.values):
        if allowed is not None and value not in allowed:
            yield error(
                KB705,
                f"{value!r} is not a value of {axis.name}",
                *axis.at("values", index),
                hint=f"Values of {axis.name}: " + ", ".join(allowed),
            )
        if value in seen:
            yield error(KB706, f"{axis.name} lists {value!r} twice", *axis.at("values", index))
        seen.add(value)
    valued = axis.entry.assessment in VALUED_ASSESSMENTS
    if valued and not axis.entry.values:
        yield error(
            KB707,
            f"{axis.name} is {axis.entry.assessment} but lists no values",
            *axis.at("values"),
            hint="List the values found, or choose another assessment (uninspected, not-determinable, …).",
        )
    stated = axis.entry.values or axis.entry.evidence or axis.entry.basis is not None
    if not valued and axis.entry.assessment in _ASSESSMENTS and stated:
        if axis.entry.values:
            where = axis.at("values", 0)
        elif axis.entry.evidence:
            where = axis.key_at("evidence")
        else:
            where = axis.at("basis")
        yield error(
            KB710,
            f"{axis.name} is {axis.entry.assessment}, so it has 'values: []', no evidence and 'basis: null'",
            *where,
        )


def _evidence(axis: _Axis) -> Iterator[Diagnostic]:
    if axis.entry.basis is not None:
        yield from _axis_basis(axis)
    if axis.entry.assessment not in VALUED_ASSESSMENTS:
        return
    if axis.entry.basis is not None:
        return  # one basis for all the axis's values: no per-value entries (KB720 otherwise)
    for index, value in enumerate(axis.entry.values):
        if value not in axis.entry.evidence and value not in axis.entry.values[:index]:
            yield error(
                KB708,
                f"value {value!r} of {axis.name} has no evidence entry",
                *axis.at("values", index),
                hint=f"Add 'evidence: {{{value}: {{basis: …, records: […], note: …}}}}'.",
            )
    for value, entry in axis.entry.evidence.items():
        if value not in axis.entry.values:
            yield error(
                KB709,
                f"evidence for {value!r}, which {axis.name} does not list among its values",
                *axis.key_at("evidence", value),
            )
        yield from _evidence_entry(axis, value, entry)


def _axis_basis(axis: _Axis) -> Iterator[Diagnostic]:
    """The basis stated once for the axis (the older results' shape)."""
    basis = axis.entry.basis
    if basis not in BASIS_VALUES:
        yield error(
            KB711,
            f"basis {basis!r} of {axis.name} is not one of {', '.join(BASIS_VALUES)}",
            *axis.at("basis"),
        )
    if axis.entry.evidence:
        yield error(
            KB720,
            f"{axis.name} states its basis for the axis and per value; choose one place",
            *axis.key_at("evidence"),
            hint="Either 'basis:' on the axis (one basis for all its values) or an 'evidence:' "
            "entry per value, as the document writes it.",
        )


def _evidence_entry(axis: _Axis, value: str, entry: AxisEvidence) -> Iterator[Diagnostic]:
    if entry.basis not in BASIS_VALUES:
        yield error(
            KB711,
            f"basis {entry.basis!r} of {axis.name} value {value!r} is not one of {', '.join(BASIS_VALUES)}",
            *axis.at("evidence", value, "basis"),
        )
    if not entry.records:
        yield error(
            KB712,
            f"evidence for {value!r} of {axis.name} cites no record",
            *axis.at("evidence", value, "records"),
            hint="Name the route or object that warrants the value.",
        )
    for index, ref in enumerate(entry.records):
        if ref in entry.records[:index]:
            yield error(
                KB712,
                f"evidence for {value!r} cites {ref} twice",
                *axis.at("evidence", value, "records", index),
            )


def _notes(axis: _Axis) -> Iterator[Diagnostic]:
    places: list[tuple[str, str | None, DataPath]] = [(axis.name, axis.entry.note, ())]
    places += [
        (f"value {value!r} of {axis.name}", entry.note, ("evidence", value))
        for value, entry in axis.entry.evidence.items()
    ]
    for what, note, path in places:
        if note is None:
            yield error(KB715, f"{what} has no note", *axis.key_at(*path), hint="Explain it in 'note:'.")
        elif not note.strip():
            yield error(KB715, f"the note of {what} is empty", *axis.at(*path, "note"))


def _resolvable(ctx: Context) -> frozenset[str]:
    """IDs a profile may cite: declared in the system, or annotated there (``On <ID>``)."""
    declared = {record.id for record in ctx.system.records}
    annotated = {annotation.target for annotation in ctx.system.annotations}
    return frozenset(declared | annotated | ctx.system.unvalidated_ids)


def _citations(axis: _Axis, resolvable: frozenset[str]) -> Iterator[Diagnostic]:
    cited: list[tuple[str, DataPath]] = [
        (ref, ("records", index)) for index, ref in enumerate(axis.entry.records)
    ]
    for value, entry in axis.entry.evidence.items():
        cited += [(ref, ("evidence", value, "records", index)) for index, ref in enumerate(entry.records)]
    for ref, path in cited:
        if ref not in resolvable:
            supplied = ref in axis.ctx.supplied
            yield error(
                KB714,
                f"{axis.name} cites {ref}, which is supplied but not annotated in this system"
                if supplied
                else f"{axis.name} cites {ref}, which this system neither declares nor annotates",
                *axis.at(*path),
                hint="Annotate a supplied record ('annotations:' with 'target:') so the profile "
                "validates without the other members.",
            )
    if axis.entry.assessment == ProfileAssessment.ABSENT.value and not any(
        has_role(ref, Role.EVIDENCED_ABSENCE) for ref in axis.entry.records
    ):
        yield error(
            KB713,
            f"{axis.name} is absent but its records name no evidenced absence ({_absence_ids()})",
            *axis.at("records"),
            hint="Cite the evidenced-absence record that establishes the bounded absence.",
        )


def _absence_ids() -> str:
    """The IDs of an evidenced absence, as the message names them (``ABS or MEM-ABS``)."""
    return " or ".join(f"{spec.code} or MEM-{spec.code}" for spec in with_role(Role.EVIDENCED_ABSENCE))


def _trace_learning(
    ctx: Context, origin: Origin | None, axes: dict[str, AxisProfile]
) -> Iterator[Diagnostic]:
    entry = axes.get("trace_learning")
    if entry is None:
        return
    path: DataPath = ("axes", "trace_learning", "values")
    if len(entry.values) > 1:
        yield error(
            KB716,
            "trace learning has one value only",
            *ctx.at(origin, (*path, 1)),
            hint='Write either "yes" or "no".',
        )
    if entry.assessment == ProfileAssessment.PARTIAL.value and "no" in entry.values:
        yield error(
            KB717,
            'a partial trace-learning assessment cannot assert "no"',
            *ctx.at(origin, (*path, entry.values.index("no"))),
            hint="An unresolved branch may still learn from traces: assert 'no' only when known.",
        )
    known_no = entry.assessment == ProfileAssessment.KNOWN.value and entry.values == ["no"]
    learning_absent = known_no or entry.assessment == ProfileAssessment.ABSENT.value
    if not learning_absent:
        return
    for name in ("trace_source", *EXTRA_AXES):
        other = axes.get(name)
        if other is not None and other.assessment != ProfileAssessment.INAPPLICABLE.value:
            yield error(
                KB719,
                f"trace learning is known not to occur, so {name} is inapplicable, not {other.assessment}",
                *ctx.at(origin, ("axes", name, "assessment")),
            )


def _read_back(ctx: Context, origin: Origin | None, axes: dict[str, AxisProfile]) -> Iterator[Diagnostic]:
    direction, signal = axes.get("read_back_direction"), axes.get("read_back_signal")
    if direction is None or signal is None:
        return
    pull_only = direction.assessment == ProfileAssessment.KNOWN.value and direction.values == ["pull"]
    if pull_only and signal.assessment != ProfileAssessment.INAPPLICABLE.value:
        yield error(
            KB718,
            f"read-back is known pull-only, so read_back_signal is inapplicable, not {signal.assessment}",
            *ctx.at(origin, ("axes", "read_back_signal", "assessment")),
            hint="Read-back signal characterizes push selection.",
        )
