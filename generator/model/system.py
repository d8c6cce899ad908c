"""A system's merged, typed record set: every file's records with where each came from."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from generator.model.files import Run
from generator.model.import_findings import ImportFinding
from generator.model.kinds import Role, has_role
from generator.model.meta import DataPath
from generator.model.profile import MemoryComparison
from generator.model.prose import MemoryReport, Result
from generator.model.records import Annotation, Limitation, RecordBase, Source, Supplied
from generator.model.sets import AnalysisSet, EpistemicReport, Overview, ReconciliationReport, RuntimeReport
from generator.model.walk import Contents, collect

__all__ = ["DataPath", "Origin", "SystemRecords"]


@dataclass(frozen=True, slots=True)
class Origin:
    """Where a value was declared: the file (display path) and its data path in that file."""

    file: str
    path: DataPath


@dataclass
class SystemRecords:
    """Everything one system folder declares, validated and merged in file order."""

    slug: str
    run: Run | None = None
    run_folder: str = ""  # the run's folder below the system's runs/, "" for the system folder's own
    records: list[RecordBase] = field(default_factory=list)
    limitations: list[Limitation] = field(default_factory=list)
    supplied: list[Supplied] = field(default_factory=list)
    annotations: list[Annotation] = field(default_factory=list)
    import_findings: list[ImportFinding] = field(default_factory=list)  # what its import could not keep
    result: Result | None = None
    memory_report: MemoryReport | None = None
    analysis_set: AnalysisSet | None = None
    overview: Overview | None = None
    runtime_report: RuntimeReport | None = None
    epistemic_report: EpistemicReport | None = None
    reconciliation_report: ReconciliationReport | None = None
    memory_comparison: MemoryComparison | None = None
    prose: dict[str, str] = field(default_factory=dict)  # included Markdown: relative path → text
    prose_display: dict[str, str] = field(default_factory=dict)  # relative path → path shown in diagnostics
    origins: dict[int, Origin] = field(default_factory=dict)  # id(model object) → origin
    # IDs seen in records that failed validation: still declared, so references to
    # them do not cascade into dangling-reference errors.
    unvalidated_ids: set[str] = field(default_factory=set)
    # Entries that failed validation with nothing to keep, per top-level list key: still
    # counted in the summary. Values left out of a partial record, by (file, data path):
    # rules that report a missing value do not report these again.
    uncounted: Counter[str] = field(default_factory=Counter)
    invalid_paths: set[tuple[str, DataPath]] = field(default_factory=set)
    run_declared: bool = False  # a 'run' key exists, even if it failed validation
    # Top-level keys of one mapping per system that some file declares, valid or not.
    declared_keys: set[str] = field(default_factory=set)
    # id(declared object) → the object and what ``walk.collect`` found in it (``contents``).
    _walked: dict[int, tuple[Any, Contents]] = field(default_factory=dict, compare=False, repr=False)

    def source_records(self) -> dict[str, Source | Supplied]:
        """Every source an anchor may cite, by ID: declared sources first, then supplied ones."""
        found: dict[str, Source | Supplied] = {}
        for record in self.records:
            if isinstance(record, Source):
                found.setdefault(record.id, record)
        for supplied in self.supplied:
            if has_role(supplied.id, Role.EVIDENCE_SOURCE):
                found.setdefault(supplied.id, supplied)
        return found

    def origin(self, obj: Any) -> Origin | None:
        """Where a validated object was declared."""
        return self.origins.get(id(obj))

    def contents(self, obj: Any) -> Contents:
        """What ``walk.collect`` finds in a declared object, walked once: the rules and the
        linker both read a record's texts. The object is held with what was found, so its
        id is not another's meanwhile."""
        known = self._walked.get(id(obj))
        if known is None or known[0] is not obj:
            known = self._walked[id(obj)] = (obj, collect(obj))
        return known[1]
