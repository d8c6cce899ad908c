"""The analysis set: one run published as five members (overview, runtime, memory,
epistemic and reconciliation reports) pinned by a manifest.

A system folder declares a set with the top-level ``analysis_set:`` key (the run and
its members in order, each with its type name) and one document key per member
(``overview``, ``runtime_report``, ``memory_report``, ``epistemic_report``,
``reconciliation_report``). Records belong to the member that declares them: by a
``member:`` field, else by their ID prefix (``RT-`` runtime, ``MEM-`` memory, ``EPI-``
epistemic; unprefixed sources belong to the overview's source register and other
unprefixed records to the runtime, whose records the spec keeps unprefixed).
"""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated, Any, Literal, Union

from pydantic import AfterValidator, Discriminator, Field, StringConstraints, Tag, field_validator
from pydantic_core import PydanticCustomError

from generator.model.base import Anchor, Label, Quote, RecordId, Strict, Text
from generator.model.ids import IdGrammar
from generator.model.kinds import Role, has_role
from generator.model.prose import (
    MEMORY_REPORT_SECTION_TITLES,
    RESULT_SECTION_TITLES,
    SHARED_RECORD_DOCUMENTS,
    IncludeBlock,
    LimitationsSection,
    ListBlock,
    Paragraph,
    QuoteBlock,
    RecordsBlock,
    Section,
    SharedRecords,
    TableBlock,
    block_tag,
)
from generator.model.records import Annotation, RecordBase
from generator.model.vocab import EpistemicStatus, Member

# The member's file in a published set and its type name (the spec's type file stem).
MEMBER_FILES: dict[Member, str] = {member: f"{member.value}.md" for member in Member}
MEMBER_TYPES: dict[Member, str] = {
    Member.OVERVIEW: "agentic-system-analysis-overview",
    Member.RUNTIME: "agentic-system-runtime-report",
    Member.MEMORY: "agent-memory-analysis-report",
    Member.EPISTEMIC: "agentic-system-epistemic-report",
    Member.RECONCILIATION: "agentic-system-reconciliation-report",
}
# The type name of a set's review: the spec's generated review, which pins the manifest.
GENERATED_REVIEW_TYPE = "generated-review"
# The top-level key of each member's document in a record file.
MEMBER_KEYS: dict[Member, str] = {
    Member.OVERVIEW: "overview",
    Member.RUNTIME: "runtime_report",
    Member.MEMORY: "memory_report",
    Member.EPISTEMIC: "epistemic_report",
    Member.RECONCILIATION: "reconciliation_report",
}
MEMBER_ORDER: tuple[Member, ...] = tuple(Member)
# Analyst prefixes and the member whose records carry them.
PREFIX_MEMBERS: dict[str, Member] = {"RT": Member.RUNTIME, "MEM": Member.MEMORY, "EPI": Member.EPISTEMIC}
# Members that declare records (the others cite them).
DECLARING_MEMBERS = frozenset({Member.OVERVIEW, Member.RUNTIME, Member.MEMORY, Member.EPISTEMIC})


def prefix_member(record_id: str) -> Member:
    """The member an ID's prefix names; unprefixed: sources the overview, the rest the runtime."""
    head = record_id.split("-", 1)[0]
    if head in PREFIX_MEMBERS:
        return PREFIX_MEMBERS[head]
    return Member.OVERVIEW if has_role(record_id, Role.EVIDENCE_SOURCE) else Member.RUNTIME


def record_member(record: RecordBase) -> Member:
    """The member declaring a record: its ``member:`` field, else its ID prefix."""
    return record.member or prefix_member(record.id)


def annotation_member(annotation: Annotation) -> Member:
    """The member holding an annotation: its ``member:`` field, else the memory report."""
    return annotation.member or Member.MEMORY


def type_member(type_name: str) -> Member | None:
    """The member a type name (``…/types/agentic-system-runtime-report.md``) selects."""
    stem = type_name.rsplit("/", 1)[-1].removesuffix(".md")
    return next((member for member, name in MEMBER_TYPES.items() if name == stem), None)


RunId = Annotated[str, IdGrammar(run=True), Field(description="AAS-YYYY-MM-DD-<system-slug>-NN")]
Boundary = Annotated[
    str,
    StringConstraints(strip_whitespace=True, min_length=1),
    Field(description="The set's immutable revision or capture identity."),
]


class SetMember(Strict):
    """One member of the set as the manifest lists it."""

    member: Member
    type: Annotated[str, StringConstraints(min_length=1)] = Field(
        description="The member's type name: the path of its type spec, ending in the type's name."
    )


class AnalysisSet(Strict):
    """A set run: its identity and its members in order."""

    run_id: RunId
    reviewed_boundary: Boundary
    members: list[SetMember] = Field(min_length=1)


class _MemberDocument(Strict):
    """What every member's frontmatter carries: title, type, description, run and boundary."""

    title: Text
    type: str = Field(description="The member's type name, kept in the page frontmatter.")
    description: Text | None = None
    run_id: RunId | None = None
    reviewed_boundary: Boundary | None = None


class Overview(_MemberDocument):
    """The overview member: identity, boundary, sources, synthesis, limitations, verification."""

    inputs_commit: Annotated[str, StringConstraints(min_length=7)] | None = None
    boundary_and_evidence: Section
    source_register: Section = Field(default_factory=Section)
    bounded_synthesis: Section
    limitations: LimitationsSection = Field(default_factory=LimitationsSection)
    verification: Section


class RuntimeReport(_MemberDocument):
    """The runtime member: runtime account, its declarations, its annotations."""

    runtime_account: Section
    shared_records: SharedRecords = Field(default_factory=lambda: SharedRecords())
    annotations: Section = Field(default_factory=Section)


class RouteFunction(StrEnum):
    """The function one ledger row records (the epistemic report's controlled values)."""

    CONTENT_TRANSFORMATION = "content transformation"
    CHECK = "check/evidence production"
    DISPOSITION = "disposition/acceptance"
    RETENTION = "retention"
    LIFECYCLE_INTEGRATION = "lifecycle integration"
    OPERATIONAL = "operational admission/selection/consumption"
    ADAPTATION = "behavior/policy adaptation"
    LINEAGE = "lineage/freshness/recovery"


CONTENT_RELATIONS = (
    "truth-apt transformation: acquisition/import",
    "truth-apt transformation: non-ampliative reshaping",
    "truth-apt transformation: entailed derivation",
    "truth-apt transformation: ampliative conjecture",
    "truth-apt transformation: indeterminate",
    "no content change",
)
# Values followed by a description of the analyst's own.
OPEN_RELATION = "non-truth-apt policy/content update: "
OPEN_FUNCTION = "other — "


def _controlled(values: tuple[str, ...], open_prefix: str) -> Any:
    """A validator accepting a listed value (optionally followed by a qualification after
    ' — ' or ';') or ``open_prefix`` followed by a description."""

    def check(value: str) -> str:
        head = value.split(" — ", 1)[0].split(";", 1)[0].strip()
        if head in values or (value.startswith(open_prefix) and value[len(open_prefix) :].strip()):
            return value
        expected = ", ".join(repr(v) for v in values) + f" or {open_prefix!r}<description>"
        raise PydanticCustomError("enum", "not a controlled value", {"expected": expected})

    return AfterValidator(check)


FunctionValue = Annotated[
    str,
    StringConstraints(min_length=1),
    _controlled(tuple(f.value for f in RouteFunction), OPEN_FUNCTION),
    Field(description="Route function: a controlled value or 'other — <description>'."),
]
RelationValue = Annotated[
    str,
    StringConstraints(min_length=1),
    _controlled(CONTENT_RELATIONS, OPEN_RELATION),
    Field(description="Content/update relation: a controlled value, optionally qualified."),
]


class LedgerEntry(Strict):
    """One row of the authority-route ledger, with the spec's columns as fields."""

    routes: list[RecordId] = Field(min_length=1, title="Route ID")
    route_function: FunctionValue = Field(title="Route function")
    architectural_status: EpistemicStatus = Field(title="Architectural status")
    objects: Text = Field(title="Object/candidate ID")
    content_relation: RelationValue = Field(title="Content/update relation")
    target: Text = Field(title="Transition or check target")
    evaluator: Text = Field(title="Evaluator/condition and domain")
    activation: Text = Field(title="Activation and timing")
    result: Text = Field(title="Possible or observed result")
    force: Text = Field(title="Implemented force")
    epistemic_authority: Text = Field(title="Epistemic authority and scope")
    operational_authority: Text = Field(title="Operational authority")
    authority_path: Text = Field(title="Behavioral-authority path")
    evidence: Text = Field(title="Evidence source ID and local anchor")
    claims: Text = Field(title="Claim IDs or none")
    mismatch: Text = Field(title="Mismatch marker or none")
    gap: Text = Field(title="Gap/limit")
    remarks: Text | None = Field(default=None, description="The prose written after the entry.")
    quotes: list[Quote] = Field(
        default_factory=list, description="Quotations written after the entry, shown with it."
    )


LEDGER_LABELS: dict[str, str] = {
    name: info.title or name for name, info in LedgerEntry.model_fields.items() if info.title
}


class AuthorityLedger(Section):
    """The authority-route ledger section: prose blocks, then the typed entries."""

    entries: list[LedgerEntry] = Field(default_factory=list)


class EpistemicReport(_MemberDocument):
    """The epistemic member: five blocks in order, then its declarations."""

    source_and_claim_boundary: Section
    epistemic_object_inventory: Section
    authority_route_ledger: AuthorityLedger
    claim_route_comparison: Section
    bounded_conclusion: Section
    shared_records: SharedRecords = Field(default_factory=lambda: SharedRecords())


class SetAmendment(Strict):
    """'Amendment: <IDs> …': the records it amends, the amendment as written, what it
    supersedes and its replacement, its evidence and the findings it affects.

    Evidence and affected findings are structured (anchors, IDs) where the author writes
    them so, and prose as written otherwise (``evidence_text``, ``affected_findings``:
    their IDs are references, linked like any prose)."""

    targets: list[RecordId] = Field(min_length=1, description="The records the amendment changes.")
    label: Label | None = None
    body: Text = Field(description="The amendment as written (after 'Amendment: ').")
    superseded: Text | None = None
    replacement: Text | None = None
    evidence: list[Anchor] = Field(default_factory=list)
    evidence_text: Text | None = Field(default=None, description="The 'Evidence:' part as written.")
    affects: list[RecordId] = Field(default_factory=list, description="Findings the amendment affects.")
    affected_findings: Text | None = Field(
        default=None, description="The 'Affected findings:' part as written."
    )
    quotes: list[Quote] = Field(
        default_factory=list, description="Quotations the amendment cites, shown with it."
    )


class Supersession(Strict):
    """A duplicate settled: the superseded record stays declared in its member."""

    superseded: RecordId
    by: RecordId
    body: Text


class UnresolvedConflict(Strict):
    """'Unresolved conflict:': affected IDs, conflicting findings, evidence, conclusion prevented."""

    affects: list[RecordId] = Field(min_length=1)
    findings: Text
    evidence: Text | None = None
    prevents: Text


class AmendmentsBlock(Strict):
    """Where in the reconciliation's prose its typed amendments are shown (as written there);
    without one they follow the prose."""

    amendments: Literal["here"]


def _reconciliation_tag(value: Any) -> str | None:
    if (isinstance(value, dict) and "amendments" in value) or isinstance(value, AmendmentsBlock):
        return "amendments"
    return block_tag(value)


ReconciliationBlock = Annotated[
    Union[
        Annotated[Paragraph, Tag("p")],
        Annotated[ListBlock, Tag("items")],
        Annotated[TableBlock, Tag("table")],
        Annotated[RecordsBlock, Tag("records")],
        Annotated[QuoteBlock, Tag("quote")],
        Annotated[IncludeBlock, Tag("include")],
        Annotated[AmendmentsBlock, Tag("amendments")],
    ],
    Discriminator(
        _reconciliation_tag,
        custom_error_type="block_kind",
        custom_error_message="a block is one of: p, items, table, records, quote, include, amendments",
    ),
]


class ReconciliationSection(Section):
    """A prose section of the reconciliation, whose blocks may place the amendments."""

    blocks: list[ReconciliationBlock] = Field(default_factory=list)  # type: ignore[assignment]
    sections: list[ReconciliationSection] = Field(default_factory=list)  # type: ignore[assignment]


def _placements(section: ReconciliationSection) -> int:
    here = sum(isinstance(block, AmendmentsBlock) for block in section.blocks)
    return here + sum(_placements(child) for child in section.sections)


class ReconciliationReport(_MemberDocument):
    """The reconciliation member: prose, then typed amendments, supersessions and conflicts."""

    reconciliation: ReconciliationSection
    amendments: list[SetAmendment] = Field(default_factory=list)
    supersessions: list[Supersession] = Field(default_factory=list)
    unresolved_conflicts: list[UnresolvedConflict] = Field(default_factory=list)

    @field_validator("reconciliation")
    @classmethod
    def _amendments_placed_once(cls, section: ReconciliationSection) -> ReconciliationSection:
        if _placements(section) > 1:
            raise ValueError("the amendments are placed once ('amendments: here' in one block list)")
        return section

    @property
    def amendments_placed(self) -> bool:
        """True when a block of the prose places the amendments."""
        return _placements(self.reconciliation) > 0


OVERVIEW_SECTION_TITLES: dict[str, str] = {
    "boundary_and_evidence": "Boundary and evidence",
    "source_register": "Source register",
    "bounded_synthesis": "Bounded synthesis",
    "limitations": "Limitations",
    "verification": "Verification and blockers",
}
RUNTIME_SECTION_TITLES: dict[str, str] = {
    "runtime_account": "Runtime account",
    "shared_records": "Shared records",
    "annotations": "Annotations",
}
EPISTEMIC_SECTION_TITLES: dict[str, str] = {
    "source_and_claim_boundary": "Source-and-claim boundary",
    "epistemic_object_inventory": "Epistemic-object inventory",
    "authority_route_ledger": "Authority-route ledger",
    "claim_route_comparison": "System-claim versus route comparison",
    "bounded_conclusion": "Bounded conclusion",
    "shared_records": "Shared records",
}
RECONCILIATION_SECTION_TITLES: dict[str, str] = {"reconciliation": "Reconciliation"}

SET_DOCUMENTS: dict[str, type[_MemberDocument]] = {
    "overview": Overview,
    "runtime_report": RuntimeReport,
    "epistemic_report": EpistemicReport,
    "reconciliation_report": ReconciliationReport,
}

SHARED_RECORD_DOCUMENTS.extend((RuntimeReport, EpistemicReport))

# Each document key with its sections' titles: the two reports, then the set's members.
DOCUMENT_SECTION_TITLES: dict[str, dict[str, str]] = {
    "result": RESULT_SECTION_TITLES,
    "memory_report": MEMORY_REPORT_SECTION_TITLES,
    "overview": OVERVIEW_SECTION_TITLES,
    "runtime_report": RUNTIME_SECTION_TITLES,
    "epistemic_report": EPISTEMIC_SECTION_TITLES,
    "reconciliation_report": RECONCILIATION_SECTION_TITLES,
}
