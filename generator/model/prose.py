"""Prose sections and their blocks: paragraphs, lists, tables and record placements.

Tables whose columns the seeds share are typed rows (each column a named field);
any other table uses the generic form with explicit column headers.
"""

from __future__ import annotations

from typing import Annotated, Any, ClassVar, Literal, Union

from pydantic import Discriminator, Field, StringConstraints, Tag, create_model, model_validator

from .base import RecordId, Strict, Text


class TypedRow(Strict):
    """A row of a typed table. COLUMNS maps each field to its header, in order."""

    COLUMNS: ClassVar[dict[str, str]] = {}
    # Fields holding lens-local proposal tags: provenance, not references.
    PROVENANCE_FIELDS: ClassVar[frozenset[str]] = frozenset()


class CoverageRow(TypedRow):
    COLUMNS = {
        "entry_point": "Entry point or operation",
        "inspection_basis": "Source paths and inspection basis",
        "records_and_gaps": "Records or unresolved fact and conclusion prevented",
    }
    entry_point: Text
    inspection_basis: Text
    records_and_gaps: Text


class RouteCompletionRow(TypedRow):
    COLUMNS = {
        "route": "Route",
        "immediate_and_read_back": "Immediate result and later read-back",
        "selection_and_revision": "Selection, invalidation and admitted revision",
        "owner_and_recovery": "Owner, rejection, recovery and terminal boundary",
    }
    route: Text
    immediate_and_read_back: Text
    selection_and_revision: Text
    owner_and_recovery: Text


class TraceLearningRow(TypedRow):
    COLUMNS = {
        "route": "Route",
        "lineage": "Acquired source → durable derivative → later consumer",
        "reuse_horizon": "Reuse horizon",
        "timing": "Timing relative to source work",
        "distilled_form": "Distilled form and uncertainty",
    }
    route: Text
    lineage: Text
    reuse_horizon: Text
    timing: Text
    distilled_form: Text


class ObjectOverlayRow(TypedRow):
    COLUMNS = {
        "objects": "Object",
        "truth_apt_part": "Truth-apt part and transformation question",
        "warrant_limit": "Warrant limit",
    }
    objects: Text
    truth_apt_part: Text
    warrant_limit: Text


class AuthorityLedgerRow(TypedRow):
    COLUMNS = {
        "route": "Route",
        "function": "Function",
        "content_relation": "Content/update relation",
        "check_target": "Check/transition target → evaluator/condition",
        "force_and_limit": "Operational and epistemic force; limit",
    }
    route: Text
    function: Text
    content_relation: Text
    check_target: Text
    force_and_limit: Text


class MemoryLedgerRow(TypedRow):
    COLUMNS = {
        "route": "Route",
        "overlay": "Functional overlay and content relation",
        "transition": "Target → evaluator/condition → transition",
        "force_and_limit": "Operational force and epistemic limit",
    }
    route: Text
    overlay: Text
    transition: Text
    force_and_limit: Text


class LifecycleRow(TypedRow):
    COLUMNS = {"objects": "Objects", "disposition": "Lifecycle disposition"}
    objects: Text = Field(description="The objects, as the paragraph opens ('OBJ-1, OBJ-5 and OBJ-6').")
    disposition: Text


class ClaimComparisonRow(TypedRow):
    COLUMNS = {
        "claim": "Claim",
        "doctrine_support": "Doctrine/design support",
        "implemented_routes": "Implemented routes",
        "observed_support": "Observed-run / causal support",
        "conclusion": "Supported conclusion and mismatch",
    }
    claim: Text
    doctrine_support: Text
    implemented_routes: Text
    observed_support: Text
    conclusion: Text


class ProposalMappingRow(TypedRow):
    COLUMNS = {"proposals": "Specialist proposals", "disposition": "Canonical disposition"}
    PROVENANCE_FIELDS = frozenset({"proposals"})
    proposals: Text = Field(description="Lens-local proposal tags: provenance, not records.")
    disposition: Text


ROW_TYPES: dict[str, type[TypedRow]] = {
    "coverage-inventory": CoverageRow,
    "route-completion": RouteCompletionRow,
    "trace-learning": TraceLearningRow,
    "object-overlay": ObjectOverlayRow,
    "authority-ledger": AuthorityLedgerRow,
    "memory-authority-ledger": MemoryLedgerRow,
    "lifecycle": LifecycleRow,
    "claim-comparison": ClaimComparisonRow,
    "proposal-mapping": ProposalMappingRow,
}


class _TableBase(Strict):
    caption: Text | None = None


def _typed_table(kind: str, row: type[TypedRow], doc: str | None = None) -> type[_TableBase]:
    """A table model whose rows are typed: ``{kind: <kind>, caption?, rows: [...]}``."""
    # Built at run time, so the field types are plain values here (Any), not annotations.
    literal: Any = Literal
    fields: dict[str, Any] = {
        "kind": (literal[kind], ...),
        "rows": (list.__class_getitem__(row), Field(min_length=1)),
    }
    return create_model(
        row.__name__.removesuffix("Row") + "Table",
        __base__=_TableBase,
        __doc__=doc or f"A table of kind '{kind}' with typed rows.",
        **fields,
    )


TYPED_TABLES: tuple[type[_TableBase], ...] = tuple(
    _typed_table(
        kind,
        row,
        "Lifecycle dispositions; rendered as paragraphs 'objects: disposition'."
        if kind == "lifecycle"
        else None,
    )
    for kind, row in ROW_TYPES.items()
)


class GenericTable(_TableBase):
    """Any other table: explicit headers, rows of cells."""

    kind: Literal["generic"]
    columns: list[Annotated[str, StringConstraints(min_length=1)]] = Field(min_length=1)
    rows: list[list[str]] = Field(min_length=1)


Table = Annotated[
    Union[(*TYPED_TABLES, GenericTable)],  # type: ignore[valid-type]
    Field(discriminator="kind"),
]


class Paragraph(Strict):
    """A paragraph; a bare string in a block list is a paragraph too."""

    p: Text

    @model_validator(mode="before")
    @classmethod
    def _from_text(cls, data: Any) -> Any:
        return {"p": data} if isinstance(data, str) else data


class ListBlock(Strict):
    items: list[Text] = Field(min_length=1)
    ordered: bool = False


class TableBlock(Strict):
    table: Table


class RecordsBlock(Strict):
    """Places these records here, in this order (each record once per page)."""

    records: list[RecordId] = Field(min_length=1)


class IncludeBlock(Strict):
    """Prose kept in a Markdown file beside the YAML; one paragraph per blank-line block."""

    include: Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9_.-]+(?:/[A-Za-z0-9_.-]+)*\.md$")]


def _block_tag(value: Any) -> str | None:
    if isinstance(value, str):
        return "p"
    if isinstance(value, dict):
        for key in ("p", "items", "table", "records", "include"):
            if key in value:
                return key
        return None
    for key, attr in (("p", "p"), ("items", "items"), ("table", "table"), ("records", "records")):
        if hasattr(value, attr):
            return key
    return "include" if hasattr(value, "include") else None


Block = Annotated[
    Union[
        Annotated[Paragraph, Tag("p")],
        Annotated[ListBlock, Tag("items")],
        Annotated[TableBlock, Tag("table")],
        Annotated[RecordsBlock, Tag("records")],
        Annotated[IncludeBlock, Tag("include")],
    ],
    Discriminator(
        _block_tag,
        custom_error_type="block_kind",
        custom_error_message="a block is one of: p, items, table, records, include",
    ),
]


class Section(Strict):
    """A prose section: blocks in reading order, then subsections."""

    title: Text | None = None
    blocks: list[Block] = Field(default_factory=list)
    sections: list[Section] = Field(default_factory=list)


class KindSection(Strict):
    """The part of 'Shared records' for one record kind: prose and record placements.

    Records of the kind that no block places are listed after the blocks.
    """

    blocks: list[Block] = Field(default_factory=list)


class SharedRecords(Strict):
    """The six kind subsections of 'Shared records'."""

    components: KindSection = Field(default_factory=KindSection)
    objects: KindSection = Field(default_factory=KindSection)
    routes: KindSection = Field(default_factory=KindSection)
    claims: KindSection = Field(default_factory=KindSection)
    absences: KindSection = Field(default_factory=KindSection)
    authority_paths: KindSection = Field(default_factory=KindSection)


class Result(Strict):
    """The analysis result: eleven sections in reading order."""

    title: Text
    type: str = Field(description="The result's type name, kept in the page frontmatter.")
    run_identity: Section
    boundary_and_evidence: Section
    source_register: Section = Field(default_factory=Section)
    shared_records: SharedRecords = Field(default_factory=SharedRecords)
    runtime_account: Section
    lens_scoping: Section
    lens_outputs: Section
    reconciliation: Section
    bounded_synthesis: Section
    limitations: Section = Field(default_factory=Section)
    verification: Section


class MemoryReport(Strict):
    """The memory report: eight sections in reading order."""

    title: Text
    type: str = Field(description="The report's type name, kept in the page frontmatter.")
    boundary_and_evidence: Section
    core_ideas: Section
    shared_records: SharedRecords = Field(default_factory=SharedRecords)
    annotations: Section = Field(default_factory=Section)
    write_side: Section
    read_back: Section
    integration_issues: Section
    limitations_and_checks: Section


RESULT_SECTION_TITLES: dict[str, str] = {
    "run_identity": "Run identity",
    "boundary_and_evidence": "Boundary and evidence",
    "source_register": "Source register",
    "shared_records": "Shared records",
    "runtime_account": "Runtime account",
    "lens_scoping": "Lens scoping",
    "lens_outputs": "Lens outputs",
    "reconciliation": "Reconciliation",
    "bounded_synthesis": "Bounded synthesis",
    "limitations": "Limitations",
    "verification": "Verification and blockers",
}

MEMORY_REPORT_SECTION_TITLES: dict[str, str] = {
    "boundary_and_evidence": "Boundary and evidence",
    "core_ideas": "Core ideas",
    "shared_records": "Shared records",
    "annotations": "Annotations",
    "write_side": "Write side",
    "read_back": "Read-back",
    "integration_issues": "Integration issues",
    "limitations_and_checks": "Limitations and checks",
}

SHARED_KIND_TITLES: dict[str, str] = {
    "components": "Components",
    "objects": "Operative objects",
    "routes": "Routes",
    "claims": "Claims",
    "absences": "Evidenced absences",
    "authority_paths": "Behavioral-authority paths",
}

_ = RecordId  # re-exported for block models
