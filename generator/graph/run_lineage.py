"""What several runs of one system concluded, record by record: ``run_lineage(runs)``.

Each run is paired with the run after it as the changes page pairs them
(``record_match``: by what records are, the ID one signal among several); following the
pairs from the oldest run to the newest gives each record's *lineage*, the one record of
each run it was paired with (none in a run that does not state it). A record a middle
run does not state continues its lineage across the gap: a record left unpaired with
the run before is paired with an earlier run's record whose lineage stopped there. A lineage's
statuses are read field by field across the runs: a field renamed between two runs
('operation status' → 'operational conclusion status') stays one field, as the changes
page reads it (``record_diff.status_moves``). The profile is read per axis across the
runs. Everything is in kind and ID order (the newest run's ID first), so the result is
deterministic.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import pairwise

from generator.graph.record_diff import RecordRef, record_ref, status_moves, statuses_of
from generator.graph.record_match import match_records
from generator.model import kinds
from generator.model.ids import sort_key
from generator.model.profile import ALL_AXES, AXIS_TITLES, MemoryComparison
from generator.model.records import RecordBase
from generator.model.system import SystemRecords

MAX_GAP = 3  # runs in a row that may not state a record whose lineage still continues


@dataclass(frozen=True, slots=True)
class FieldHistory:
    """One status field of a lineage across the runs: its label in the latest run that
    states it, per run the label and value as written (None: not stated), and whether it
    moved: two runs that state the field give it different values, as the changes page
    counts a conclusion that moved (a run silent on it is no move)."""

    title: str
    values: tuple[tuple[str, str] | None, ...]
    moved: bool


@dataclass(frozen=True, slots=True)
class Lineage:
    """One record followed across the runs, oldest first (None: not in that run), with
    how sure each pairing with the run before is (None: no pairing there)."""

    kind: str  # the kind's code, e.g. RTE
    records: tuple[RecordRef | None, ...]
    confidences: tuple[float | None, ...]  # per run; the first is always None
    fields: tuple[FieldHistory, ...]

    @property
    def moved(self) -> tuple[FieldHistory, ...]:
        """The fields whose conclusions moved across the runs."""
        return tuple(field for field in self.fields if field.moved)

    @property
    def latest(self) -> RecordRef:
        return next(record for record in reversed(self.records) if record is not None)


@dataclass(frozen=True, slots=True)
class AxisState:
    """One profile axis in one run; ``bases`` each value's basis (its evidence entry's,
    else the axis's), so a basis given per axis in one run and per value in another
    compares alike."""

    assessment: str
    values: tuple[str, ...]
    basis: str | None
    bases: tuple[tuple[str, str | None], ...] = ()


@dataclass(frozen=True, slots=True)
class AxisHistory:
    axis: str
    title: str
    states: tuple[AxisState | None, ...]  # per run (None: the run's profile lacks the axis)

    @property
    def moved(self) -> bool:
        """Moved when two runs that state the axis differ on its assessment, its set of
        values or the basis of a value both find (not on their order, nor on whether the
        basis is given for the axis or per value)."""
        stated = [state for state in self.states if state is not None]
        return any(_axis_differs(a, b) for a, b in pairwise(stated))


def _axis_differs(old: AxisState, new: AxisState) -> bool:
    if old.assessment != new.assessment or set(old.values) != set(new.values):
        return True
    if not old.values and not new.values:
        return None not in (old.basis, new.basis) and old.basis != new.basis
    before, after = dict(old.bases), dict(new.bases)
    return any(
        before[value] is not None and after[value] is not None and before[value] != after[value]
        for value in after
        if value in before
    )


@dataclass(frozen=True, slots=True)
class RunLineage:
    """Several runs of one system, record by record and axis by axis, oldest run first."""

    run_ids: tuple[str | None, ...]
    lineages: tuple[Lineage, ...]
    axes: tuple[AxisHistory, ...]
    profiled: tuple[bool, ...]  # per run: whether it has a profile

    @property
    def moved(self) -> tuple[Lineage, ...]:
        return tuple(lineage for lineage in self.lineages if lineage.moved)


def run_lineage(runs: Sequence[SystemRecords]) -> RunLineage:
    """Follow every record of ``runs`` (validated runs of one system, oldest first)."""
    chains: list[list[RecordBase | None]] = []
    sure: list[list[float | None]] = []
    ends_by_run: list[dict[str, int]] = []
    for at, system in enumerate(runs):
        continued = _continued(runs, at, ends_by_run, chains)
        following: dict[str, int] = {}
        for record in system.records:
            chain, confidence = continued.get(record.id, (None, None))
            if chain is None:
                chain = len(chains)
                chains.append([None] * len(runs))
                sure.append([None] * len(runs))
            chains[chain][at] = record
            sure[chain][at] = confidence
            following[record.id] = chain
        ends_by_run.append(following)
    lineages = [_lineage(chain, confidences) for chain, confidences in zip(chains, sure, strict=True)]
    lineages.sort(key=_order)
    profiles = [system.memory_comparison for system in runs]
    return RunLineage(
        run_ids=tuple(system.run.run_id if system.run else None for system in runs),
        lineages=tuple(lineages),
        axes=_axes(profiles),
        profiled=tuple(profile is not None for profile in profiles),
    )


def _continued(
    runs: Sequence[SystemRecords],
    at: int,
    ends_by_run: list[dict[str, int]],
    chains: list[list[RecordBase | None]],
) -> dict[str, tuple[int, float]]:
    """The chains the records of run ``at`` continue: each record → (chain, confidence).
    The run before is paired first; a record left unpaired is then paired with a run
    further back (``MAX_GAP`` runs at most) whose record's chain stops there, so a record
    a middle run does not state continues its lineage after the gap."""
    found: dict[str, tuple[int, float]] = {}
    for back in range(1, min(at, MAX_GAP + 1) + 1):
        earlier = at - back
        # Chains whose last record is in the earlier run: the runs between do not state them.
        open_there = {
            record_id: chain
            for record_id, chain in ends_by_run[earlier].items()
            if all(chains[chain][between] is None for between in range(earlier + 1, at))
        }
        if not open_there:
            continue
        taken = {chain for chain, _ in found.values()}
        for pair in match_records(runs[earlier], runs[at]).pairs:
            chain = open_there.get(pair.old.id)
            if pair.new.id in found or chain is None or chain in taken:
                continue
            found[pair.new.id] = (chain, pair.basis.confidence)
            taken.add(chain)
    return found


def _lineage(chain: list[RecordBase | None], confidences: list[float | None]) -> Lineage:
    latest = next(record for record in reversed(chain) if record is not None)
    spec = kinds.spec_of_id(latest.id)
    return Lineage(
        kind=spec.code if spec else "",
        records=tuple(record_ref(record) if record is not None else None for record in chain),
        confidences=tuple(confidences),
        fields=_fields(chain),
    )


def _fields(chain: list[RecordBase | None]) -> tuple[FieldHistory, ...]:
    """The lineage's status fields: a field renamed between two runs stays one row."""
    count = len(chain)
    rows: list[list[tuple[str, str] | None]] = []
    by_label: dict[str, int] = {}  # the label in the last run that stated anything → row
    before: RecordBase | None = None
    for at, record in enumerate(chain):
        if record is None:
            continue
        renamed = {}
        if before is not None:
            renamed = {m.field: m.renamed_from for m in status_moves(before, record) if m.renamed_from}
        following: dict[str, int] = {}
        for label, value in statuses_of(record).items():
            row = by_label.get(renamed.get(label) or label)
            if row is None or rows[row][at] is not None:
                row = len(rows)
                rows.append([None] * count)
            rows[row][at] = (label, value)
            following[label] = row
        # A field the record stopped stating keeps its row for a later run that states it again.
        by_label = {**by_label, **following}
        before = record
    present = [at for at, record in enumerate(chain) if record is not None]
    return tuple(
        FieldHistory(
            next(label for label, _ in filter(None, reversed(row))),
            tuple(row),
            len({stated[1] for stated in (row[at] for at in present) if stated is not None}) > 1,
        )
        for row in rows
    )


def _order(lineage: Lineage) -> tuple[int, int, tuple[str, str, int, str]]:
    """Kind order; then the records of the newest run in ID order, then those an earlier
    run last stated (latest first), each by its ID there."""
    codes = kinds.kind_codes()
    kind = codes.index(lineage.kind) if lineage.kind in codes else len(codes)
    last = max(at for at, record in enumerate(lineage.records) if record is not None)
    return (kind, -last, sort_key(lineage.latest.id))


def _axes(profiles: list[MemoryComparison | None]) -> tuple[AxisHistory, ...]:
    carried = {name for profile in profiles if profile is not None for name in profile.axes}
    names = [axis for axis in ALL_AXES if axis in carried] + sorted(carried - set(ALL_AXES))
    found = []
    for name in names:
        states = []
        for profile in profiles:
            axis = profile.axis(name) if profile is not None else None
            states.append(
                AxisState(
                    axis.assessment,
                    tuple(axis.values),
                    axis.basis,
                    tuple((value, axis.basis_of(value)) for value in axis.values),
                )
                if axis is not None
                else None
            )
        found.append(AxisHistory(name, AXIS_TITLES.get(name, name), tuple(states)))
    return tuple(found)
