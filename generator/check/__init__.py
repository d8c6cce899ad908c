"""Check stage: schema validation, then cross-record rules; diagnostics sorted by place."""

from __future__ import annotations

import functools
import gc
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol, TypeVar

from generator.check.checks import run_rules
from generator.check.history_rules import check_run_history
from generator.check.validate import validate_system
from generator.diagnostics import Diagnostic, Severity
from generator.load.readfs import KB005, KB007, KB008, KB009, KB010, KB011, KB012
from generator.load.records import (
    KB001,
    KB002,
    KB003,
    KB004,
    KB006,
    Discovery,
    SystemSource,
    discover_systems,
    load_system,
    slug_diagnostic,
    system_runs,
)
from generator.model.runs import RUNS_FOLDER
from generator.model.system import SystemRecords


@dataclass
class CheckedSystem:
    """One system after checking: its records and every diagnostic found."""

    source: SystemSource
    records: SystemRecords
    diagnostics: list[Diagnostic] = field(default_factory=list)

    @property
    def errors(self) -> list[Diagnostic]:
        return [d for d in self.diagnostics if d.severity is Severity.ERROR]


LOAD_RULES = frozenset({KB001, KB002, KB003, KB004, KB005, KB006, KB007, KB008, KB009, KB010, KB011, KB012})


def _report_order(diagnostic: Diagnostic) -> tuple[int, tuple[str, int, int, str, str]]:
    """Load failures (KB001–KB012) first: a file that did not load explains what follows."""
    return (0 if diagnostic.rule in LOAD_RULES else 1, diagnostic.sort_key())


def check_source(source: SystemSource) -> CheckedSystem:
    """Validate and rule-check one loaded system."""
    records, diagnostics = validate_system(source)
    # IDs of a file that failed to load still count as declared, so its records'
    # absence does not cascade into dangling-reference errors elsewhere.
    records.unvalidated_ids |= source.salvaged_ids
    diagnostics = [*source.diagnostics, *diagnostics, *run_rules(records, source)]
    # dict.fromkeys drops repeats but keeps rule order, which is nearly sorted already:
    # sorting it is close to linear, where a set's arbitrary order costs n log n.
    unique = sorted(dict.fromkeys(diagnostics), key=_report_order)
    return CheckedSystem(source, records, unique)


@contextmanager
def collector_paused() -> Iterator[None]:
    """Pause the cyclic garbage collector while building large acyclic trees.

    Loading creates many small objects and no reference cycles; the collector's
    repeated full scans would make check time grow faster than the records
    (benchmarks/bench.py measures the growth). Reference counting still frees everything.

    On resuming, what was built joins the oldest generation (frozen, then thawed there):
    left in the youngest, it would all be scanned by the next young collection and again
    by the next middle one, a tenth of a check's CPU at 50 systems. It stays collectable
    by the full collections.
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.freeze()
            gc.enable()
            gc.unfreeze()


class FolderCheck(Protocol):
    """Checks one run folder: a system folder's own run, or (``run_of``: the system) one of
    the further runs below its ``runs/``."""

    def __call__(
        self, folder: Path, base: Path | None, nested: bool, run_of: str | None = None
    ) -> CheckedSystem: ...


def check_folder(
    folder: Path,
    base: Path | None,
    nested: bool,
    reserved: frozenset[str],
    unsaved: Mapping[str, str] | None = None,
    run_of: str | None = None,
) -> CheckedSystem:
    """Load and check one system folder (``nested``: found inside a records folder, whose
    name must be a slug the site does not keep for itself: ``reserved``; ``unsaved``: an
    editor's text of open files, by path below the folder; ``run_of``: the system whose
    further run the folder is)."""
    source = load_system(folder, base, unsaved, run_of)
    misnamed = slug_diagnostic(source, reserved) if nested and run_of is None else None
    if misnamed is not None:
        source.diagnostics.insert(0, misnamed)
    return check_source(source)


def folder_check(reserved: frozenset[str]) -> FolderCheck:
    """``check_folder`` for a site that keeps the names ``reserved`` for itself."""
    return functools.partial(check_folder, reserved=reserved)


def check_system_folders(
    records: Path,
    base: Path | None,
    check: FolderCheck,
    folder_checked: Callable[[list[CheckedSystem], int], None] | None = None,
) -> list[CheckedSystem]:
    """Load and check every system under a records folder (or one system folder, or one
    further run of a system: ``<system>/runs/<run>/``).

    Refused entries of the records folder (symlinks, special files) count as failed
    systems; ignored names are warnings on the first system. ``check`` checks one folder
    (``folder_check``; ``kbgen serve`` passes one that remembers unchanged systems).
    ``generator.pipeline.check_records`` calls this with the site's reserved names.

    A further run is checked with its system's other runs, as the records folder's check
    checks it (the rules across runs see them all), and only what concerns it is kept: the
    run, or why it could not be read (its ``runs/`` folder refused).

    ``folder_checked`` is handed each system folder's runs as soon as they are checked,
    and how many folders are left (a build links and renders them meanwhile); what is
    returned is what counts.
    """
    return check_discovered(discover_systems(records, base), base, check, folder_checked)


def check_discovered(
    found: Discovery,
    base: Path | None,
    check: FolderCheck,
    folder_checked: Callable[[list[CheckedSystem], int], None] | None = None,
) -> list[CheckedSystem]:
    """``check_system_folders`` once the records folder has been read."""
    systems: list[CheckedSystem] = []
    refused = list(found.refused)
    with collector_paused():
        for done, folder in enumerate(found.folders, start=1):
            checked, refused_runs = check_system_folder(folder, base, found.nested, check)
            refused += refused_runs
            systems += checked
            if folder_checked is not None:
                folder_checked(checked, len(found.folders) - done)
    failed = [failed_system(source) for source in refused]
    if found.run:
        runs_folder = found.folders[0] / RUNS_FOLDER
        concerned = (runs_folder, runs_folder / found.run)
        systems = [system for system in systems if system.source.run_folder == found.run]
        failed = [system for system in failed if system.source.folder in concerned]
    return assembled(systems, failed, found.ignored, _by_system_and_run)


def _by_system_and_run(system: CheckedSystem) -> tuple[str, str]:
    return system.source.slug, system.source.run_folder


def check_system_folder(
    folder: Path, base: Path | None, nested: bool, check: FolderCheck
) -> tuple[list[CheckedSystem], list[SystemSource]]:
    """One system folder's runs checked (its own, then those below its ``runs/``, with the
    rules across them), and the entries of its ``runs/`` folder that were refused."""
    runs = system_runs(folder, base)
    checked = [check(folder, base, nested)] if runs.own_run or not runs.folders else []
    checked += [check(run, base, nested, run_of=folder.name) for run in runs.folders]
    check_run_history(checked)
    return checked, runs.refused


def failed_system(source: SystemSource) -> CheckedSystem:
    """A refused entry as a system that failed to load: no records, its diagnostics."""
    return CheckedSystem(source, SystemRecords(slug=source.slug), source.diagnostics)


class _Diagnosed(Protocol):
    diagnostics: list[Diagnostic]


Diagnosed = TypeVar("Diagnosed", bound=_Diagnosed)


def assembled(
    systems: list[Diagnosed],
    failed: list[Diagnosed],
    ignored: list[Diagnostic],
    key: Callable[[Diagnosed], tuple[str, str]],
) -> list[Diagnosed]:
    """A records folder's check as reported: the records folder's ignored names among the
    first system's diagnostics, the systems and the refused entries sorted by system and
    run (``CheckedSystem``, or ``report.Reported`` for a check on two cores)."""
    if systems and ignored:
        first = systems[0]
        first.diagnostics = sorted(dict.fromkeys([*first.diagnostics, *ignored]), key=_report_order)
    return sorted([*systems, *failed], key=key)
