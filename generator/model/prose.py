"""Prose sections and their blocks: paragraphs, lists, tables and record placements.

Tables whose columns the seeds share are typed rows (each column a named field);
any other table uses the generic form with explicit column headers.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any, ClassVar, Literal, Union

from pydantic import (
    Discriminator,
    Field,
    StringConstraints,
    Tag,
    create_model,
    field_validator,
    model_validator,
)
from pydantic_core import PydanticCustomError

from generator.model import kinds
from generator.model.base import Quote, RecordId, Strict, Text, WrittenTitle
from generator.model.ids import IdGrammar
from generator.model.meta import is_prose
from generator.model.records import LIMITATION_COLUMNS

# Lens-local proposal tags: provenance kept literal, not prose (IDs in it are not references).
Provenance = Annotated[
    str, StringConstraints(min_length=1), Field(description="Provenance tags, kept literal.")
]


class TypedRow(Strict):
    """A row of a typed table: each field a column, headed by its title, in declared order."""

    # Derived from the fields when a row class is defined.
    COLUMNS: ClassVar[dict[str, str]] = {}
    PROVENANCE_FIELDS: ClassVar[frozenset[str]] = frozenset()

    @classmethod
    def __pydantic_init_subclass__(cls, **kwargs: Any) -> None:
        super().__pydantic_init_subclass__(**kwargs)
        cls.COLUMNS = {name: info.title or name for name, info in cls.model_fields.items()}
        cls.PROVENANCE_FIELDS = frozenset(
            name for name, info in cls.model_fields.items() if not is_prose(info)
        )


class CoverageRow(TypedRow):
    entry_point: Text = Field(title="Entry point or operation")
    inspection_basis: Text = Field(title="Source paths and inspection basis")
    records_and_gaps: Text = Field(title="Records or unresolved fact and conclusion prevented")


class RouteCompletionRow(TypedRow):
    route: Text = Field(title="Route")
    immediate_and_read_back: Text = Field(title="Immediate result and later read-back")
    selection_and_revision: Text = Field(title="Selection, invalidation and admitted revision")
    owner_and_recovery: Text = Field(title="Owner, rejection, recovery and terminal boundary")


class TraceLearningRow(TypedRow):
    route: Text = Field(title="Route")
    lineage: Text = Field(title="Acquired source → durable derivative → later consumer")
    reuse_horizon: Text = Field(title="Reuse horizon")
    timing: Text = Field(title="Timing relative to source work")
    distilled_form: Text = Field(title="Distilled form and uncertainty")


class ObjectOverlayRow(TypedRow):
    objects: Text = Field(title="Object")
    truth_apt_part: Text = Field(title="Truth-apt part and transformation question")
    warrant_limit: Text = Field(title="Warrant limit")


class AuthorityLedgerRow(TypedRow):
    route: Text = Field(title="Route")
    function: Text = Field(title="Function")
    content_relation: Text = Field(title="Content/update relation")
    check_target: Text = Field(title="Check/transition target → evaluator/condition")
    force_and_limit: Text = Field(title="Operational and epistemic force; limit")


class MemoryLedgerRow(TypedRow):
    route: Text = Field(title="Route")
    overlay: Text = Field(title="Functional overlay and content relation")
    transition: Text = Field(title="Target → evaluator/condition → transition")
    force_and_limit: Text = Field(title="Operational force and epistemic limit")


class LifecycleRow(TypedRow):
    objects: Text = Field(
        title="Objects", description="The objects, as the paragraph opens ('OBJ-1, OBJ-5 and OBJ-6')."
    )
    disposition: Text = Field(title="Lifecycle disposition")


class ClaimComparisonRow(TypedRow):
    claim: Text = Field(title="Claim")
    doctrine_support: Text = Field(title="Doctrine/design support")
    implemented_routes: Text = Field(title="Implemented routes")
    observed_support: Text = Field(title="Observed-run / causal support")
    conclusion: Text = Field(title="Supported conclusion and mismatch")


class ProposalMappingRow(TypedRow):
    proposals: Provenance = Field(
        title="Specialist proposals", description="Lens-local proposal tags: provenance, not records."
    )
    disposition: Text = Field(title="Canonical disposition")


class ProposalRecordRow(TypedRow):
    """A mapping that names the canonical record and its disposition in columns of their own."""

    proposals: Provenance = Field(
        title="Specialist proposal", description="Lens-local proposal tags: provenance, not records."
    )
    record: Text = Field(title="Canonical record")
    disposition: Text = Field(title="Disposition")


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
    "proposal-record-mapping": ProposalRecordRow,
}


class _TableBase(Strict):
    caption: Text | None = None


class _TypedTableBase(_TableBase):
    kind: str  # each typed table's own literal
    headers: list[WrittenTitle] | None = Field(
        default=None,
        description="The column headers as the document wrote them, one per column in order "
        "(shown instead of the row type's titles).",
    )

    @model_validator(mode="after")
    def _one_header_per_column(self) -> _TypedTableBase:
        columns = len(ROW_TYPES[self.kind].COLUMNS)
        if self.headers is not None and len(self.headers) != columns:
            raise PydanticCustomError(
                "headers_count",
                "{count} headers for a table of {columns} columns",
                {"count": len(self.headers), "columns": columns},
            )
        return self


def _typed_table(kind: str, row: type[TypedRow], doc: str | None = None) -> type[_TableBase]:
    """A table model whose rows are typed: ``{kind: <kind>, caption?, headers?, rows: [...]}``."""
    # Built at run time, so the field types are plain values here (Any), not annotations.
    literal: Any = Literal
    fields: dict[str, Any] = {
        "kind": (literal[kind], ...),
        "rows": (list.__class_getitem__(row), Field(min_length=1)),
    }
    return create_model(
        row.__name__.removesuffix("Row") + "Table",
        __base__=_TypedTableBase,
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
    start: int | None = Field(
        default=None,
        ge=1,
        description="The number of an ordered list's first item, so a list interrupted by a "
        "paragraph or table continues its numbering.",
    )


class TableBlock(Strict):
    table: Table


class RecordsBlock(Strict):
    """Places these records here, in this order (each record once per page)."""

    records: list[RecordId] = Field(min_length=1)


class QuoteBlock(Strict):
    """A quotation in its place in the prose, attributed to its file: shown as a block
    quotation (code keeps its lines), its text literal."""

    quote: Quote


class IncludeBlock(Strict):
    """Prose kept in a Markdown file beside the YAML; one paragraph per blank-line block."""

    include: Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9_.-]+(?:/[A-Za-z0-9_.-]+)*\.md$")]


def block_tag(value: Any) -> str | None:
    if isinstance(value, str):
        return "p"
    if isinstance(value, dict):
        for key in ("p", "items", "table", "records", "quote", "include"):
            if key in value:
                return key
        return None
    for key, attr in (
        ("p", "p"),
        ("items", "items"),
        ("table", "table"),
        ("records", "records"),
        ("quote", "quote"),
    ):
        if hasattr(value, attr):
            return key
    return "include" if hasattr(value, "include") else None


Block = Annotated[
    Union[
        Annotated[Paragraph, Tag("p")],
        Annotated[ListBlock, Tag("items")],
        Annotated[TableBlock, Tag("table")],
        Annotated[RecordsBlock, Tag("records")],
        Annotated[QuoteBlock, Tag("quote")],
        Annotated[IncludeBlock, Tag("include")],
    ],
    Discriminator(
        block_tag,
        custom_error_type="block_kind",
        custom_error_message="a block is one of: p, items, table, records, quote, include",
    ),
]


class Section(Strict):
    """A prose section: blocks in reading order, then subsections."""

    title: Text | None = None
    blocks: list[Block] = Field(default_factory=list)
    sections: list[Section] = Field(default_factory=list)


class LimitationsSection(Section):
    """The limitations section: its prose, and the headers its table was written with."""

    headers: list[WrittenTitle] | None = Field(
        default=None,
        description="The limitations table's column headers as the document wrote them, one per "
        "limitation field in order (shown instead of the page's titles).",
    )

    @field_validator("headers", mode="after")
    @classmethod
    def _one_header_per_field(cls, value: list[str] | None) -> list[str] | None:
        columns = len(LIMITATION_COLUMNS)
        if value is not None and len(value) != columns:
            raise PydanticCustomError(
                "headers_count",
                "{count} headers for a table of {columns} columns",
                {"count": len(value), "columns": columns},
            )
        return value


class KindSection(Strict):
    """The part of 'Shared records' for one record kind: prose and record placements.

    Records of the kind that no block places are listed after the blocks.
    """

    blocks: list[Block] = Field(default_factory=list)


class KindSections(Strict):
    """Base of 'Shared records': one ``KindSection`` field per registered kind with a
    shared-records title (the fields are derived from the kind registry)."""

    def __getitem__(self, list_key: str) -> KindSection:
        section: KindSection = getattr(self, list_key)
        return section


def shared_records_model(registry: kinds.KindRegistry) -> type[KindSections]:
    """'Shared records' for a kind registry: one subsection per kind with a shared title."""
    fields: dict[str, Any] = {
        spec.list_key: (KindSection, Field(default_factory=KindSection, title=spec.shared_title))
        for spec in registry.shared_kinds()
    }
    return create_model(
        "SharedRecords",
        __base__=KindSections,
        __doc__="The kind subsections of 'Shared records', one per record kind.",
        **fields,
    )


if TYPE_CHECKING:
    SharedRecords = KindSections
else:  # the built-in kinds' (a registry of its own gets its own: ``files.document_models``)
    SharedRecords = shared_records_model(kinds.KINDS)


class Result(Strict):
    """The analysis result: eleven sections in reading order."""

    title: Text
    type: str = Field(description="The result's type name, kept in the page frontmatter.")
    run_identity: Section
    boundary_and_evidence: Section
    source_register: Section = Field(default_factory=Section)
    shared_records: SharedRecords = Field(default_factory=lambda: SharedRecords())
    runtime_account: Section
    lens_scoping: Section
    lens_outputs: Section
    reconciliation: Section
    bounded_synthesis: Section
    limitations: LimitationsSection = Field(default_factory=LimitationsSection)
    verification: Section


class MemoryReport(Strict):
    """The memory report: eight sections in reading order.

    As a member of an analysis set it also carries the set's run and boundary."""

    title: Text
    type: str = Field(description="The report's type name, kept in the page frontmatter.")
    description: Text | None = None
    run_id: Annotated[str, IdGrammar(run=True)] | None = None
    reviewed_boundary: Annotated[str, StringConstraints(strip_whitespace=True, min_length=1)] | None = None
    report_status: Literal["complete"] | None = Field(
        default=None,
        description="As a set's memory member: its report status, which a set requires complete.",
    )
    boundary_and_evidence: Section
    core_ideas: Section
    shared_records: SharedRecords = Field(default_factory=lambda: SharedRecords())
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

# Every document model holding 'Shared records' (the set's members add theirs).
SHARED_RECORD_DOCUMENTS: list[type[Strict]] = [Result, MemoryReport]
