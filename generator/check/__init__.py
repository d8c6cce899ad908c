"""Check stage: schema validation, then cross-record rules; diagnostics sorted by place."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from ..diagnostics import Diagnostic, Severity
from ..load import SystemSource, load_system, system_folders
from ..model.system import SystemRecords
from .rules import run_rules
from .validate import validate_system


@dataclass
class CheckedSystem:
    """One system after checking: its records and every diagnostic found."""

    source: SystemSource
    records: SystemRecords
    diagnostics: list[Diagnostic] = field(default_factory=list)

    @property
    def errors(self) -> list[Diagnostic]:
        return [d for d in self.diagnostics if d.severity is Severity.ERROR]


def check_source(source: SystemSource) -> CheckedSystem:
    """Validate and rule-check one loaded system."""
    records, diagnostics = validate_system(source)
    diagnostics = [*source.diagnostics, *diagnostics, *run_rules(records, source)]
    unique = sorted(set(diagnostics), key=lambda d: d.sort_key())
    return CheckedSystem(source, records, unique)


@contextmanager
def collector_paused() -> Iterator[None]:
    """Pause the cyclic garbage collector while building large acyclic trees.

    Loading creates many small objects and no reference cycles; the collector's
    repeated full scans made check time grow faster than the records (measured by
    benchmarks/bench.py). Reference counting still frees everything.
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def check_records(records: Path, base: Path | None = None) -> list[CheckedSystem]:
    """Load and check every system under a records folder (or one system folder)."""
    with collector_paused():
        return [check_source(load_system(folder, base)) for folder in system_folders(records)]
