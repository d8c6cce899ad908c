"""Rules across the runs of one system: run IDs distinct, at most one run said current.

Each run is checked on its own (IDs are unique within a run, not across runs: two runs
number their records independently); these rules see the system's runs together.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from generator.diagnostics import Diagnostic, Rule, error
from generator.load.records import SystemSource
from generator.model.meta import DataPath
from generator.model.system import SystemRecords

KB309 = Rule(
    "KB309",
    "run-history",
    "Two runs of a system share a run ID, or more than one says it is current.",
    doc=(
        "two runs of one system state the same `run_id`, or more than one run says `current: true` (the "
        "current run is the one that says so, else the latest by run date)"
    ),
)


class _Run(Protocol):
    source: SystemSource
    records: SystemRecords
    diagnostics: list[Diagnostic]


def _at(run: _Run, path: DataPath) -> tuple[str, int, int]:
    found = run.records.run
    origin = run.records.origin(found) if found is not None else None
    if origin is None:
        return (run.source.display, 1, 1)
    file = next((f for f in run.source.files if f.display == origin.file), None)
    if file is None:
        return (origin.file, 1, 1)
    spot = file.spot((*origin.path, *path))
    return (origin.file, spot.line, spot.col)


def check_run_history(runs: Sequence[_Run]) -> None:
    """Add KB309 to the runs of one system that share a run ID or both say current."""
    if len(runs) < 2:
        return
    first_of: dict[str, _Run] = {}
    for run in runs:
        record = run.records.run
        if record is None or not record.run_id:
            continue
        earlier = first_of.setdefault(record.run_id, run)
        if earlier is not run:
            run.diagnostics.append(
                error(
                    KB309,
                    f"run ID {record.run_id} is the ID of the run in {earlier.source.display} too",
                    *_at(run, ("run_id",)),
                    hint="Each run of a system has its own run ID (the last number counts the runs).",
                )
            )
    current = [run for run in runs if run.records.run is not None and run.records.run.current]
    for run in current[1:]:
        run.diagnostics.append(
            error(
                KB309,
                f"this run and the run in {current[0].source.display} both say they are current",
                *_at(run, ("current",)),
                hint="Say 'current: true' in one run only (without it, the latest run is current).",
            )
        )
