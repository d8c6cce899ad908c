"""The document types the importer reads, as a registry: one declaration each.

A document type (``DocumentType``) says what a document of that type is to the records:
the model key its document is written under (``result``, ``memory_report``, a set member's
key) and the record file that holds it, the type spec names a ``type:`` may give, other
titles its sections are written under, which of its sections a walker other than the
prose walker reads (the shared records, the annotations, the authority-route ledger), the
frontmatter keys its records hold when it is a set's member, whether its paragraphs may be
typed amendments, and what an ID it cites without declaring is said to be. The importer
asks the registry in force (``active_types``; a registry of one's own is put in force with
``using_types``) instead of comparing type names across modules.
"""

from __future__ import annotations

from collections.abc import Mapping
from contextlib import AbstractContextManager
from dataclasses import dataclass, field

from generator.util.in_force import InForce

# Frontmatter fields that become run fields, as written (a set's overview owns the run).
RUN_FIELDS = {
    "result-disposition": "disposition",
    "target-class": "target_class",
    "boundary-kind": "boundary_kind",
    "analysis-cutoff": "analysis_cutoff",
    "evidence-tier": "evidence_tier",
}

SET_MEMBER_CITES = "another member of the analysis set (not declared in the imported document)"
# A single result has no other member: an ID it cites without declaring is only that.
RESULT_CITES = "no declaration in the imported result (cited, not declared)"


@dataclass(frozen=True)
class DocumentType:
    """One type of analysis document and what its parts become."""

    key: str  # the registry's name for it
    model: str  # the document's key in the record files (``DOCUMENT_SECTION_TITLES``)
    type_names: tuple[str, ...] = ()  # the type spec file names a ``type:`` may give
    file_name: str = "report.yaml"
    section_synonyms: Mapping[str, str] = field(default_factory=dict)  # folded title → section key
    walkers: Mapping[str, str] = field(default_factory=dict)  # section key → walker of that section
    member_keys: frozenset[str] = frozenset()  # frontmatter keys the records hold, as a set member
    identity_keys: Mapping[str, str] = field(default_factory=dict)  # further member frontmatter → field
    member_identity: bool = True  # as a set member, its document carries the member's run identity
    identity_needs_run_id: bool = False  # … only when its frontmatter names a run ID
    run_holds_boundary: bool = False  # the run holds the reviewed boundary (not repeated on the document)
    typed_amendments: bool = False  # its paragraphs may be typed amendments (a reconciliation)
    cited_only: str = SET_MEMBER_CITES  # what an ID it cites but does not declare is said to be


@dataclass(frozen=True)
class TypeRegistry:
    types: tuple[DocumentType, ...]

    def __post_init__(self) -> None:
        keys = [spec.key for spec in self.types]
        if len(keys) != len(set(keys)):
            raise ValueError("document types declared twice")

    def by_key(self, key: str) -> DocumentType:
        return next(spec for spec in self.types if spec.key == key)

    def by_model(self, model: str) -> DocumentType:
        """The type written under ``model`` (the first declared, for a model several share)."""
        return next(spec for spec in self.types if spec.model == model)

    def declared(self, doc_type: str) -> DocumentType | None:
        """The type a ``type:`` path declares, whatever the folder before its file name."""
        name = doc_type.strip().rsplit("/", 1)[-1]
        name = name[: -len(".md")] if name.endswith(".md") else name
        return next((spec for spec in self.types if name in spec.type_names), None)

    def with_types(self, *more: DocumentType) -> TypeRegistry:
        return TypeRegistry((*self.types, *more))


SHARED_WALKERS = {"shared_records": "shared", "annotations": "annotations"}

TYPES = TypeRegistry(
    (
        DocumentType(
            "result",
            "result",
            ("agentic-system-analysis-result",),
            file_name="result.yaml",
            walkers={"shared_records": "shared"},
            member_identity=False,
            cited_only=RESULT_CITES,
        ),
        DocumentType(
            "memory_report",
            "memory_report",
            ("agent-memory-analysis-report",),
            walkers=SHARED_WALKERS,
            member_keys=frozenset({"report-status"}),
            identity_keys={"report-status": "report_status"},
            identity_needs_run_id=True,
        ),
        DocumentType(
            "overview",
            "overview",
            walkers=SHARED_WALKERS,
            member_keys=frozenset({*RUN_FIELDS, "system", "run-date", "inputs-commit"}),
            identity_keys={"inputs-commit": "inputs_commit"},
            run_holds_boundary=True,
        ),
        DocumentType("runtime_report", "runtime_report", walkers=SHARED_WALKERS),
        DocumentType(
            "epistemic_report",
            "epistemic_report",
            walkers={**SHARED_WALKERS, "authority_route_ledger": "ledger"},
        ),
        DocumentType(
            "reconciliation_report", "reconciliation_report", walkers=SHARED_WALKERS, typed_amendments=True
        ),
    )
)

_IN_FORCE = InForce("kb_import_types", TYPES)


def active_types() -> TypeRegistry:
    return _IN_FORCE.get()


def document_type(key: str) -> DocumentType:
    """The type of that key in the registry in force."""
    return active_types().by_key(key)


def using_types(registry: TypeRegistry) -> AbstractContextManager[TypeRegistry]:
    """Put ``registry`` in force for the imports made inside the block."""
    return _IN_FORCE.using(registry)
