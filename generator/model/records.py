"""The record kinds of an analysis: sources, components, objects, routes, claims,
evidenced absences, behavioral-authority paths, limitations, supplied records,
annotations and amendments."""

from __future__ import annotations

import re
from functools import cache
from typing import Annotated, Any, Literal, get_args, get_origin

from pydantic import (
    BaseModel,
    Field,
    GetJsonSchemaHandler,
    ModelWrapValidatorHandler,
    PrivateAttr,
    WithJsonSchema,
    field_validator,
    model_serializer,
    model_validator,
)
from pydantic.json_schema import JsonSchemaValue
from pydantic_core import CoreSchema, PydanticCustomError

from generator.model.base import (
    Anchor,
    Label,
    Location,
    Quote,
    RecordId,
    Revision,
    Strict,
    Text,
    WrittenTitle,
)
from generator.model.meta import Display
from generator.model.url_policy import LinkPolicy, is_git_host, link_policy
from generator.model.vocab import ConclusionStatus, EpistemicStatus, EvidenceLayer, GuaranteeStrength, Member


class Amendment(Strict):
    """A later change to a record: what it superseded, its replacement and evidence."""

    label: Label | None = None
    body: Text = Field(description="The amendment as written.")
    superseded: Text | None = Field(default=None, description="The value or description it supersedes.")
    replacement: Text | None = Field(default=None, description="What replaces it.")
    evidence: list[Anchor] = Field(default_factory=list)
    affects: list[RecordId] = Field(default_factory=list, description="Findings the amendment affects.")


_STATUS_VALUES = sorted((status.value for status in ConclusionStatus), key=len, reverse=True)
# The separators between a status value and its qualifier, as documents write them.
_QUALIFIER_START = re.compile(r"^[\s,;:—–(-]*")


def split_status(text: str) -> tuple[str, str] | None:
    """``wired, conditional on installation`` → (``wired``, ``conditional on installation``):
    the controlled value that opens a status phrase and the rest; None when none opens it."""
    stripped = text.strip()
    folded = stripped.lower()
    for value in _STATUS_VALUES:
        if folded.startswith(value) and (len(folded) == len(value) or not folded[len(value)].isalnum()):
            rest = _QUALIFIER_START.sub("", stripped[len(value) :]).strip()
            if rest.endswith(")") and "(" not in rest:
                rest = rest[:-1].rstrip()
            return value, rest
    return None


# Status labels renamed between versions of the analysis contract: folded label → the
# label it is now (``Learning: uninspected`` and ``Learning conclusion status:
# uninspected`` state one field). The importer reads its labels through the same table
# (``importer/columns.py``), so a record and the status matrix hold one label for both.
STATUS_LABEL_ALIASES: dict[str, str] = {
    "learning": "learning conclusion status",
    "reflection": "reflection conclusion status",
    "self-improvement": "self-improvement conclusion status",
}


def status_label(label: str) -> str:
    """A status label under its current name (``Learning`` → ``learning conclusion
    status``); any other label as written."""
    return STATUS_LABEL_ALIASES.get(" ".join(label.lower().split()), label)


class QualifiedStatus(Strict):
    """A conclusion status as a document states it: the controlled value, and what qualifies
    it (``wired, conditional on installation``; ``wired storage, external inspection
    afforded``). Written as one string, the value first, or as ``value`` and ``qualifier``."""

    value: ConclusionStatus
    qualifier: Text | None = Field(default=None, description="What qualifies the value, as written.")

    @model_validator(mode="before")
    @classmethod
    def _from_phrase(cls, data: Any) -> Any:
        if isinstance(data, ConclusionStatus):
            return {"value": data}
        if not isinstance(data, str):
            return data
        split = split_status(data)
        if split is None:
            names = [f"'{status.value}'" for status in ConclusionStatus]
            expected = ", ".join(names[:-1]) + " or " + names[-1]  # as pydantic words an enum's
            raise PydanticCustomError(
                "enum",
                "Input should be a conclusion status, optionally followed by its qualifier",
                {"expected": expected},
            )
        value, qualifier = split
        return {"value": value, **({"qualifier": qualifier} if qualifier else {})}

    # The phrase as a document or record file wrote it ('wired for the return channel';
    # 'claimed; default off'), so it is dumped with the separator it was written with.
    _written: str | None = PrivateAttr(default=None)

    @model_validator(mode="wrap")
    @classmethod
    def _keep_written(cls, data: Any, handler: ModelWrapValidatorHandler[QualifiedStatus]) -> QualifiedStatus:
        status = handler(data)
        if isinstance(data, str) and not isinstance(data, ConclusionStatus):
            written = " ".join(data.split())  # the value opens it, in any case: held as controlled
            status._written = status.value.value + written[len(status.value.value) :]
        return status

    def __str__(self) -> str:
        # As written, while it still says this value and qualifier (a model changed in
        # code is shown with the usual separator). Read from the private dict itself:
        # pydantic's attribute fallback costs thirty times as much, on every status shown.
        private = self.__pydantic_private__
        written: str | None = private.get("_written") if private else None
        if written is not None and split_status(written) == (self.value.value, self.qualifier or ""):
            return written
        return f"{self.value.value}, {self.qualifier}" if self.qualifier else self.value.value

    @model_serializer
    def _as_phrase(self) -> str:
        # Dumped as written: 'wired', or 'wired, conditional on installation'.
        return str(self)


# The editor schema: a status value, a value and its qualifier in one string, or both keys.
_QUALIFIED_SCHEMA: dict[str, Any] = {
    "anyOf": [
        {"enum": [status.value for status in ConclusionStatus]},
        {
            "type": "string",
            "pattern": "^(?:" + "|".join(re.escape(v) for v in _STATUS_VALUES) + r")\b",
        },
        {
            "type": "object",
            "properties": {
                "value": {"enum": [status.value for status in ConclusionStatus]},
                "qualifier": {"type": "string", "minLength": 1},
            },
            "required": ["value"],
            "additionalProperties": False,
        },
    ]
}


_OPTIONAL_QUALIFIED_SCHEMA: dict[str, Any] = {"anyOf": [*_QUALIFIED_SCHEMA["anyOf"], {"type": "null"}]}


STANDIN_WORDS = 8  # words of a record's text that stand in for a missing label
_MARKUP = re.compile(r"[*`_]+")
# Fields a stand-in label may be taken from, after the body and the remarks.
_STANDIN_FIELDS = {"form", "claim", "progression", "consumer", "conclusion"}


class RecordBase(Strict):
    """Fields every record can carry."""

    id: RecordId
    label: Label | None = None
    body: Text | None = Field(default=None, description="Prose shown before the structured fields.")
    statuses: dict[str, Annotated[QualifiedStatus, WithJsonSchema(_QUALIFIED_SCHEMA)]] = Field(
        default_factory=dict,
        description="Labelled conclusion statuses, one value per field, e.g. "
        "'implementation conclusion status: wired'; a qualifier may follow the value "
        "('wired, conditional on installation').",
    )
    architectural_status: EpistemicStatus | None = None
    remarks: Text | None = Field(default=None, description="Prose shown after the structured fields.")
    quotes: list[Quote] = Field(default_factory=list)
    evidence: list[Anchor] = Field(default_factory=list)
    amendments: list[Amendment] = Field(default_factory=list)
    part_of: RecordId | None = Field(default=None, description="The one parent record.")
    superseded_by: list[RecordId] = Field(
        default_factory=list,
        title="Superseded by",
        description="The records of the same run that replace this one (it stays declared); each "
        "is shown as superseding it.",
    )
    member: Annotated[Member | None, Display("hidden")] = Field(
        default=None,
        description="In an analysis set, the member declaring the record (default: from its ID prefix).",
    )
    labels: Annotated[dict[str, WrittenTitle], Display("hidden")] = Field(
        default_factory=dict,
        description="The labels the document wrote for the record's fields where they differ from "
        "the fields' titles, by field name (a field of the record or of its entries, e.g. "
        "'form: Representational form', 'selection_predicate: Selection'); the page shows "
        "each field under its label as written.",
    )

    @field_validator("labels", mode="after")
    @classmethod
    def _labels_name_fields(cls, value: dict[str, str]) -> dict[str, str]:
        titles = field_titles(cls)
        for name in value:
            if name not in titles:
                raise PydanticCustomError(
                    "label_field", "'{name}' names no field of the record", {"name": name}
                )
        return value

    same_line: Annotated[list[str], Display("hidden")] = Field(
        default_factory=list,
        description="The labelled fields (a route's) the document wrote on the line of the field "
        "before them, in a clause after '; ' ('Immediate return: …; later read-back: …'), by "
        "field name; the page shows each on that field's line, as written.",
    )

    @field_validator("same_line", mode="after")
    @classmethod
    def _same_line_names_listed_fields(cls, value: list[str]) -> list[str]:
        listed = listed_fields(cls)
        for name in value:
            if name not in listed:
                raise PydanticCustomError(
                    "same_line_field", "'{name}' names no labelled field of the record", {"name": name}
                )
        if len(set(value)) != len(value):
            raise PydanticCustomError("same_line_twice", "a field is named twice", {})
        return value

    @classmethod
    def __get_pydantic_json_schema__(
        cls, core_schema: CoreSchema, handler: GetJsonSchemaHandler
    ) -> JsonSchemaValue:
        """The editor schema names the fields each kind's ``labels`` and ``same_line`` may
        name (so the editor completes and checks them), from the same tables as validation."""
        schema = handler(core_schema)
        properties = handler.resolve_ref_schema(schema).get("properties", {})
        if "labels" in properties:
            properties["labels"] = {
                **properties["labels"],
                "properties": {
                    name: {
                        "type": "string",
                        "minLength": 1,
                        "description": f"The label written for '{title}'.",
                    }
                    for name, title in field_titles(cls).items()
                },
                "additionalProperties": False,
            }
        if "same_line" in properties:
            listed = sorted(listed_fields(cls))
            properties["same_line"] = {
                **properties["same_line"],
                **({"items": {"enum": listed}, "uniqueItems": True} if listed else {"maxItems": 0}),
            }
        return schema

    @field_validator("statuses", mode="after")
    @classmethod
    def _one_label_per_field(cls, value: dict[str, QualifiedStatus]) -> dict[str, QualifiedStatus]:
        """A label an earlier contract wrote otherwise (``learning``) is its current one;
        two labels naming one field are refused, not merged. (After validation, so an
        error in a status points at the label as written.)"""
        held: dict[str, QualifiedStatus] = {}
        written: dict[str, str] = {}
        for label, status in value.items():
            name = status_label(label)
            if name in held:
                raise PydanticCustomError(
                    "status_label_twice",
                    "Status labels '{first}' and '{second}' name one field, '{name}'",
                    {"first": written[name], "second": label, "name": name},
                )
            held[name], written[name] = status, label
        return held

    def standin_label(self) -> str | None:
        """For a record declared without a label (``**OBJ-1.** Body…``): the first words of
        its text, in quotation marks and cut with an ellipsis, so headings, contents, search
        and diagrams have something to show and a reader sees it is not a label. None when
        the record has a label, or no text to take words from."""
        if self.label or isinstance(self, Source):
            return None  # a source is named by its identity, shown with its fields
        candidates = [getattr(self, "source_native", None), self.body, self.remarks]
        candidates += [v for v in self.model_dump(include=_STANDIN_FIELDS).values() if isinstance(v, str)]
        text = next((candidate for candidate in candidates if candidate), None)
        if not text:
            return None
        words = _MARKUP.sub("", text).split()
        if not words:
            return None
        shown = " ".join(words[:STANDIN_WORDS]).rstrip(".,;:")
        return f"“{shown}…”" if len(words) > STANDIN_WORDS else f"“{shown}”"

    def shown_label(self) -> str | None:
        """The label, else the stand-in (see ``standin_label``)."""
        return self.label or self.standin_label()


@cache
def field_titles(model: type[BaseModel]) -> dict[str, str]:
    """Each field a record's ``labels`` may name, with its title: the fields its kind
    declares beyond those every record has, and those of the entries they hold (a source's
    layers, a route's labelled fields), the kind's own first. Read once per model."""
    titles: dict[str, str] = {}
    nested: list[type[BaseModel]] = []
    for name, info in model.model_fields.items():
        if name in RecordBase.model_fields:
            continue
        titles[name] = info.title or name
        nested.extend(_entry_models(info.annotation))
    for entry in nested:
        if entry is QualifiedStatus:
            continue  # one value, written as one phrase
        for name, info in entry.model_fields.items():
            titles.setdefault(name, info.title or name)
    return titles


@cache
def listed_fields(model: type[BaseModel]) -> frozenset[str]:
    """The fields of the sub-models a record holds as one value each, shown as one list of
    labelled fields (a route's ``fields``)."""
    return frozenset(
        name
        for field, info in model.model_fields.items()
        if field not in RecordBase.model_fields and get_origin(info.annotation) not in (list, dict)
        for entry in _entry_models(info.annotation)
        if entry is not QualifiedStatus  # one value, written as one phrase
        for name in entry.model_fields
    )


def _entry_models(annotation: Any) -> list[type[BaseModel]]:
    """The models a field's type holds: ``X``, ``X | None``, ``list[X]`` (one level)."""
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return [annotation]
    return [model for arg in get_args(annotation) for model in _entry_models(arg)]


class EvidenceLayerEntry(Strict):
    """One evidence layer a source contributes, with the scope inspected in it.

    A register that states a source once per layer (the ID repeated on each row) gives each
    further layer what its row says beside the source's own: a kind, identity or revision
    written differently, and the layer's own citation anchors and access gaps.
    """

    layer: EvidenceLayer = Field(title="Evidence layer")
    note: Annotated[Text | None, Display(joiner=" — ")] = None
    scope: Annotated[Text | None, Display(joiner=". ")] = Field(default=None, title="Inspected scope")
    source_kind: Annotated[Text | None, Display(joiner=". ")] = Field(default=None, title="Kind")
    identity: Annotated[Text | None, Display(joiner=". ")] = Field(default=None, title="Identity/location")
    revision: Revision | None = Field(default=None, title="Revision")
    citation_anchors: Annotated[Text | None, Display(joiner=". ")] = Field(
        default=None, title="Citation anchors"
    )
    access_gaps: Annotated[Text | None, Display(joiner=". ")] = Field(
        default=None, title="Access gaps and conclusion prevented"
    )


class AccessGap(Strict):
    """Evidence the analyst could not reach, and the conclusion that gap prevents."""

    gap: Text = Field(title="Access gap")
    prevents: Text | None = Field(default=None, title="Conclusion prevented")


class Source(RecordBase):
    """An inspected source, pinned at a revision."""

    source_kind: Label = Field(title="Kind", description="Git, archive, web page, …")
    identity: Text = Field(title="Identity/location", description="Identity and location as written.")
    location: Location | None = Field(default=None, description="Repository URL used for evidence links.")
    revision: Revision | None = Field(default=None, title="Revision")
    link_template: str | None = Field(
        default=None,
        description="Evidence link pattern for non-GitHub hosts, with {location}, {revision}, "
        "{path}, {start} and {end}.",
    )
    links: Literal["git", "template", "none"] | None = Field(
        default=None,
        title="Evidence links",
        description="How evidence links are built: 'git' (<location>/blob/<revision>/<path>; the default "
        "for GitHub- and GitLab-like hosts), 'template' (link_template, for every link of the source, "
        "the reviewed boundary too; the default when link_template is set) or 'none' (anchors shown as "
        "text; the default for any other location, e.g. a paper).",
    )
    layers: list[EvidenceLayerEntry] = Field(default_factory=list)
    citation_anchors: Text | None = Field(default=None, title="Citation anchors")
    access_gaps: list[AccessGap] = Field(default_factory=list)

    def link_policy(self) -> LinkPolicy:
        """How the source's links are built (stated, or its host's default)."""
        location = str(self.location) if self.location is not None else None
        return link_policy(self.links, location, self.link_template)

    def is_repository(self) -> bool:
        """Whether the source is a git repository to fetch and verify: not when it says
        'links: none', nor when it lies off a git host and pins no commit (a paper's
        version, a capture's sha256 digest)."""
        return self.links != "none" and _may_be_repository(self.location, self.revision)


class Component(RecordBase):
    """A component of the analysed system."""

    # Not repeated when it only restates the label.
    source_native: Annotated[Text | None, Display(unless_same_as="label")] = Field(
        default=None, title="Source-native identity", description="Source-native identity."
    )
    form: Text | None = Field(
        default=None, title="Form, storage and role", description="Representational form, substrate and role."
    )
    storage: Text | None = Field(default=None, title="Storage substrate")
    producer_consumer: Text | None = Field(
        default=None, title="Producer → consumer, authority and evidence", description="Producer → consumer."
    )
    authority: Text | None = Field(default=None, title="Authority")
    fixity: Text | None = Field(default=None, title="Fixity and evidence", description="Fixity and evidence.")


class OperativeObject(Component):
    """An operative object: content or state that some consumer acts on."""


# A labelled field's editor schema: text, or an uncertain value with its reason (turned
# into 'uninspected — reason' text before validation, so the model holds text only).
LabelledField = Annotated[
    Text | None,
    WithJsonSchema(
        {
            "anyOf": [
                {"type": "string", "minLength": 1},
                {
                    "type": "object",
                    "properties": {
                        "status": {"enum": ["uninspected", "inapplicable"]},
                        "reason": {"type": "string", "minLength": 1},
                    },
                    "required": ["status", "reason"],
                    "additionalProperties": False,
                },
                {"type": "null"},
            ],
            "description": "A finding, 'uninspected — reason', 'inapplicable — reason', or "
            "{status: uninspected|inapplicable, reason: …}.",
        }
    ),
]


class RouteFields(Strict):
    """The seven labelled fields of a route; each non-empty when given.

    ``inapplicable — reason`` and ``uninspected — reason`` are allowed values, written
    as text or as ``{status: uninspected, reason: …}``; the value alone, without a
    reason, is refused (KB304).
    """

    immediate_return: LabelledField = Field(default=None, title="Immediate return")
    later_read_back: LabelledField = Field(default=None, title="Later read-back")
    delegated_visibility: LabelledField = Field(default=None, title="Delegated visibility")
    selection_predicate: LabelledField = Field(default=None, title="Selection predicate")
    invalidation_or_expiry: LabelledField = Field(default=None, title="Invalidation or expiry")
    activation_or_effect: LabelledField = Field(default=None, title="Activation or effect")
    evidence_limits: LabelledField = Field(default=None, title="Evidence limits")

    @model_validator(mode="before")
    @classmethod
    def _uncertain_as_text(cls, data: Any) -> Any:
        """``{status: uninspected, reason: …}`` is ``uninspected — …``: one form downstream."""
        if not isinstance(data, dict):
            return data
        return {key: _uncertain_text(value) for key, value in data.items()}


def _uncertain_text(value: Any) -> Any:
    if isinstance(value, dict) and set(value) == {"status", "reason"}:
        status, reason = value["status"], value["reason"]
        if status in UNCERTAIN_VALUES and isinstance(reason, str) and reason.strip():
            return f"{status} — {reason}"
    return value


# The two values a labelled field may take instead of a finding, each with a reason.
UNCERTAIN_VALUES = ("uninspected", "inapplicable")


# The labelled fields' labels, in order, from the model's titles.
ROUTE_FIELD_LABELS: dict[str, str] = {
    name: info.title or name for name, info in RouteFields.model_fields.items()
}


class Guarantee(Strict):
    """A guarantee strength, optionally scoped to part of the route, with who gives it,
    where it holds, its own conclusion status and the contract it requires."""

    strength: GuaranteeStrength
    scope: Text | None = None
    owner: Text | None = Field(default=None, title="Owner", description="Who gives the guarantee.")
    point: Text | None = Field(
        default=None, title="Guarantee point", description="Where on the route the guarantee holds."
    )
    status: ConclusionStatus | None = Field(
        default=None, title="Conclusion status", description="The guarantee's own conclusion status."
    )
    contract: Text | None = Field(
        default=None, title="Required contract", description="What the guarantee requires of its users."
    )


class Route(RecordBase):
    """A route: endpoints and progression, owner, labelled fields and statuses."""

    # Shown as a flow of its steps when arrows separate them (``A → B → C``).
    progression: Annotated[Text | None, Display("flow")] = Field(
        default=None, title="Endpoints/progression", description="Endpoints and progression."
    )
    owner: Text | None = Field(default=None, title="Owner")
    fields: Annotated[RouteFields | None, Display(after_body=True)] = Field(
        default=None, description="The seven labelled fields; a narrative route omits them."
    )
    guarantee: Annotated[list[Guarantee], Display("badges")] = Field(default_factory=list)
    reads: list[RecordId] = Field(
        default_factory=list,
        title="Reads",
        description="Records the route reads (drawn in the route diagram).",
    )
    writes: list[RecordId] = Field(
        default_factory=list,
        title="Writes",
        description="Records the route writes (drawn in the route diagram).",
    )
    alternative_to: list[RecordId] = Field(
        default_factory=list,
        title="Alternative to",
        description="Routes this route is an alternative branch to (checked: each a declared route).",
    )


class Claim(RecordBase):
    """A claim the system makes about itself, with the conclusion the evidence supports."""

    claim: Text | None = Field(
        default=None,
        title="Source-native claim and evidence",
        description="The claimed operation and its source, as written (a claim stated by its "
        "label and body alone has none).",
    )
    # A claim may state its conclusion in one status, in several labelled ones (``design
    # conclusion status: claimed; external implementation conclusion status: uninspected``,
    # held in ``statuses``) or in none: published analyses do all three.
    # The one status keeps its qualifier as a labelled one does ('claimed; default off').
    conclusion_status: Annotated[QualifiedStatus | None, WithJsonSchema(_OPTIONAL_QUALIFIED_SCHEMA)] = Field(
        default=None, title="Conclusion status"
    )
    boundary: Text | None = Field(
        default=None,
        title="Conclusion status and boundary",
        description="Conclusion status and boundary, as written.",
    )


class Absence(RecordBase):
    """An evidenced absence: a bounded search that found nothing. Its status is always absent."""

    # A structured absence states its search in these fields; a narrative one (the older
    # results' form) states it in its label and body, as a narrative route does.
    status: Literal["absent"] = Field(default="absent", title="Status")
    searched_boundary: Text | None = Field(default=None, title="Searched boundary")
    query: Text | None = Field(default=None, title="Query")
    revision: Revision | None = Field(default=None, title="Revision")
    conclusion: Text | None = Field(
        default=None, title="Conclusion", description="The conclusion the absence supports or prevents."
    )


class AuthorityPath(RecordBase):
    """A behavioral-authority path: who consumes what, through which channel, with what force."""

    consumer: Text | None = Field(default=None, title="Consumer")
    channel: Text | None = Field(default=None, title="Channel")
    force: Text | None = Field(default=None, title="Force")
    horizon: Text | None = Field(default=None, title="Horizon")
    force_and_horizon: Text | None = Field(
        default=None,
        title="Force and horizon",
        description="Force and horizon as one statement, where the analysis gives them together.",
    )


class Limitation(Strict):
    """A limitation of the analysis: what it affects, the boundary, what it prevents."""

    title: Text
    affected: Text = Field(description="Affected records as written; IDs in it are references.")
    inspected_boundary: Text | None = None
    prevents: Text | None = Field(default=None, description="The conclusion prevented.")
    resolving_evidence: Text | None = Field(default=None, description="Evidence that would resolve it.")


# The limitations table's columns: each limitation field and its header on the page (a
# result's limitations section may keep the headers its document wrote instead).
LIMITATION_COLUMNS: dict[str, str] = {
    "title": "Limitation",
    "affected": "Affected records",
    "inspected_boundary": "Inspected boundary",
    "prevents": "Conclusion prevented",
    "resolving_evidence": "Resolving evidence",
}


class Supplied(Strict):
    """A record declared in another member of the same analysis set, cited here."""

    id: RecordId
    declared_in: Text = Field(description="The member that declares it.")
    label: Label | None = None
    revision: Revision | None = None
    location: Location | None = None

    def link_policy(self) -> LinkPolicy:
        """How links to it are built: git links on a git host, none elsewhere."""
        return link_policy(None, str(self.location) if self.location is not None else None, None)

    def is_repository(self) -> bool:
        """Whether it is a git repository to fetch and verify."""
        return _may_be_repository(self.location, self.revision)


def _may_be_repository(location: str | None, revision: str | None) -> bool:
    """A git host, or any host whose pinned revision is a commit ID (a self-hosted forge)."""
    if location is None or revision is None or is_git_host(location):
        return True
    return re.fullmatch(r"[0-9a-fA-F]{7,64}", revision) is not None


class Annotation(Strict):
    """Fields one analyst adds to a record declared elsewhere ("On RT-RTE-context-resolve")."""

    target: RecordId
    body: Text
    quotes: list[Quote] = Field(default_factory=list)
    evidence: list[Anchor] = Field(default_factory=list)
    remarks: Text | None = None
    member: Member | None = Field(
        default=None, description="In an analysis set, the member holding it (default: memory)."
    )
