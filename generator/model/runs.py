"""A system's runs: which folder holds each, which one is current, where each is published.

A system folder holds one run (its own record files); further runs of the same system
live in ``runs/<run-id>/`` below it, each a whole records folder of its own. The current
run is the one whose ``run`` record says ``current: true``; without one, the run with the
latest run date (then the greatest run ID). The current run is published at the system's
own pages; every other run below ``runs/<run-id>/`` of them, so no link to the current
pages breaks when a new run arrives.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable
from dataclasses import dataclass

from generator.model.system import SystemRecords

RUNS_FOLDER = "runs"  # below a system folder: one folder per further run


@dataclass(frozen=True, slots=True)
class RunEntry:
    """One run of a system as the history lists it."""

    folder: str  # the run folder's name below runs/, "" for the system folder's own run
    run_id: str | None
    run_date: datetime.date | None
    disposition: str | None
    evidence_tier: str | None
    current: bool
    path_slug: str  # the system's slug, or "<slug>/runs/<run-id>" for an earlier run

    @property
    def label(self) -> str:
        return self.run_id or self.folder or "the system folder's run"


@dataclass(frozen=True, slots=True)
class RunHistory:
    """Every run of one system, oldest first, and which one is current."""

    slug: str
    runs: tuple[RunEntry, ...]

    @property
    def current(self) -> RunEntry:
        return next(run for run in self.runs if run.current)

    def entry(self, folder: str) -> RunEntry:
        return next(run for run in self.runs if run.folder == folder)

    def before(self, entry: RunEntry) -> RunEntry | None:
        """The run just before ``entry`` in run order, or None for the first."""
        at = self.runs.index(entry)
        return self.runs[at - 1] if at > 0 else None

    def after(self, entry: RunEntry) -> RunEntry | None:
        at = self.runs.index(entry)
        return self.runs[at + 1] if at + 1 < len(self.runs) else None


def run_segment(folder: str) -> str:
    """The URL segment of a run folder (its run ID, lower-cased)."""
    return folder.lower()


def _name(folder: str, system: SystemRecords) -> str:
    """A run's name in URLs: its folder's (its run ID), the run ID for the system folder's own."""
    if folder:
        return folder
    return system.run.run_id if system.run is not None and system.run.run_id else "first-run"


def _order(system: SystemRecords, folder: str) -> tuple[datetime.date, str, str]:
    run = system.run
    date = run.run_date if run is not None and run.run_date is not None else datetime.date.min
    return (date, (run.run_id or "") if run is not None else "", folder)


def run_history(slug: str, runs: Iterable[tuple[str, SystemRecords]]) -> RunHistory:
    """The history of one system from its runs (run folder name, records): oldest first.

    A run marked ``current: true`` is current (the check refuses two); else the latest."""
    ordered = sorted(runs, key=lambda item: _order(item[1], item[0]))
    marked = [folder for folder, system in ordered if system.run is not None and system.run.current]
    current = marked[0] if marked else ordered[-1][0]
    entries = []
    for folder, system in ordered:
        run = system.run
        is_current = folder == current
        entries.append(
            RunEntry(
                folder=folder,
                run_id=run.run_id if run is not None else None,
                run_date=run.run_date if run is not None else None,
                disposition=run.disposition.value if run is not None and run.disposition else None,
                evidence_tier=run.evidence_tier.value if run is not None and run.evidence_tier else None,
                current=is_current,
                path_slug=slug
                if is_current
                else f"{slug}/{RUNS_FOLDER}/{run_segment(_name(folder, system))}",
            )
        )
    return RunHistory(slug, tuple(entries))
