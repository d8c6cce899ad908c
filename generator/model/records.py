"""The record kinds of an analysis: sources, components, objects, routes, claims,
evidenced absences, behavioral-authority paths, limitations, supplied records,
annotations and amendments."""

from __future__ import annotations

from typing import Literal

from pydantic import AnyUrl, Field

from .base import Anchor, Label, Quote, RecordId, Strict, Text
from .vocab import ConclusionStatus, EpistemicStatus, EvidenceLayer, GuaranteeStrength


class Amendment(Strict):
    """A later change to a record: what it superseded, its replacement and evidence."""

    label: Label | None = None
    body: Text = Field(description="The amendment as written.")
    superseded: Text | None = Field(default=None, description="The value or description it supersedes.")
    replacement: Text | None = Field(default=None, description="What replaces it.")
    evidence: list[Anchor] = Field(default_factory=list)
    affects: list[RecordId] = Field(default_factory=list, description="Findings the amendment affects.")


class RecordBase(Strict):
    """Fields every record can carry."""

    id: RecordId
    label: Label | None = None
    body: Text | None = Field(default=None, description="Prose shown before the structured fields.")
    statuses: dict[str, ConclusionStatus] = Field(
        default_factory=dict,
        description="Labelled conclusion statuses, one value per field, e.g. "
        "'implementation conclusion status: wired'.",
    )
    architectural_status: EpistemicStatus | None = None
    remarks: Text | None = Field(default=None, description="Prose shown after the structured fields.")
    quotes: list[Quote] = Field(default_factory=list)
    evidence: list[Anchor] = Field(default_factory=list)
    amendments: list[Amendment] = Field(default_factory=list)
    part_of: RecordId | None = Field(default=None, description="The one parent record.")


class EvidenceLayerEntry(Strict):
    """One evidence layer a source contributes, with the scope inspected in it."""

    layer: EvidenceLayer
    note: Text | None = None
    scope: Text | None = None


class AccessGap(Strict):
    """Evidence the analyst could not reach, and the conclusion that gap prevents."""

    gap: Text
    prevents: Text | None = None


class Source(RecordBase):
    """An inspected source, pinned at a revision."""

    source_kind: Label = Field(description="Git, archive, web page, …")
    identity: Text = Field(description="Identity and location as written.")
    location: AnyUrl | None = Field(default=None, description="Repository URL used for evidence links.")
    revision: Label | None = None
    link_template: str | None = Field(
        default=None,
        description="Evidence link pattern for non-GitHub hosts, with {location}, {revision}, "
        "{path}, {start} and {end}.",
    )
    layers: list[EvidenceLayerEntry] = Field(default_factory=list)
    citation_anchors: Text | None = None
    access_gaps: list[AccessGap] = Field(default_factory=list)


class Component(RecordBase):
    """A component of the analysed system."""

    source_native: Text | None = Field(default=None, description="Source-native identity.")
    form: Text | None = Field(default=None, description="Representational form, substrate and role.")
    storage: Text | None = None
    producer_consumer: Text | None = Field(default=None, description="Producer → consumer.")
    authority: Text | None = None
    fixity: Text | None = Field(default=None, description="Fixity and evidence.")


class OperativeObject(Component):
    """An operative object: content or state that some consumer acts on."""


class RouteFields(Strict):
    """The seven labelled fields of a route; each non-empty when given.

    ``inapplicable — reason`` and ``uninspected — reason`` are allowed values.
    """

    immediate_return: Text | None = None
    later_read_back: Text | None = None
    delegated_visibility: Text | None = None
    selection_predicate: Text | None = None
    invalidation_or_expiry: Text | None = None
    activation_or_effect: Text | None = None
    evidence_limits: Text | None = None


ROUTE_FIELD_LABELS: dict[str, str] = {
    "immediate_return": "Immediate return",
    "later_read_back": "Later read-back",
    "delegated_visibility": "Delegated visibility",
    "selection_predicate": "Selection predicate",
    "invalidation_or_expiry": "Invalidation or expiry",
    "activation_or_effect": "Activation or effect",
    "evidence_limits": "Evidence limits",
}


class Guarantee(Strict):
    """A guarantee strength, optionally scoped to part of the route."""

    strength: GuaranteeStrength
    scope: Text | None = None


class Route(RecordBase):
    """A route: endpoints and progression, owner, labelled fields and statuses."""

    progression: Text | None = Field(default=None, description="Endpoints and progression.")
    owner: Text | None = None
    fields: RouteFields | None = Field(
        default=None, description="The seven labelled fields; a narrative route omits them."
    )
    guarantee: list[Guarantee] = Field(default_factory=list)


class Claim(RecordBase):
    """A claim the system makes about itself, with the conclusion the evidence supports."""

    claim: Text = Field(description="The claimed operation and its source, as written.")
    conclusion_status: ConclusionStatus
    boundary: Text | None = Field(default=None, description="Conclusion status and boundary, as written.")


class Absence(RecordBase):
    """An evidenced absence: a bounded search that found nothing. Its status is always absent."""

    status: Literal["absent"] = "absent"
    searched_boundary: Text
    query: Text
    revision: Label
    conclusion: Text = Field(description="The conclusion the absence supports or prevents.")


class AuthorityPath(RecordBase):
    """A behavioral-authority path: who consumes what, through which channel, with what force."""

    consumer: Text | None = None
    channel: Text | None = None
    force: Text | None = None
    horizon: Text | None = None


class Limitation(Strict):
    """A limitation of the analysis: what it affects, the boundary, what it prevents."""

    title: Text
    affected: Text = Field(description="Affected records as written; IDs in it are references.")
    inspected_boundary: Text | None = None
    prevents: Text | None = Field(default=None, description="The conclusion prevented.")
    resolving_evidence: Text | None = Field(default=None, description="Evidence that would resolve it.")


class Supplied(Strict):
    """A record declared in another member of the same analysis set, cited here."""

    id: RecordId
    declared_in: Text = Field(description="The member that declares it.")
    label: Label | None = None
    revision: Label | None = None
    location: AnyUrl | None = None


class Annotation(Strict):
    """Fields one analyst adds to a record declared elsewhere ("On RT-RTE-context-resolve")."""

    target: RecordId
    body: Text
    quotes: list[Quote] = Field(default_factory=list)
    evidence: list[Anchor] = Field(default_factory=list)
    remarks: Text | None = None
