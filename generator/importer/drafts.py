"""Records under construction: the fields one declaration gathers, then put in model order.

A draft collects what the recognisers found for one record (label, labelled fields,
status lines, quotations, amendments) and the prose around them; ``finish`` adds the
evidence anchors and the statuses written in that prose and orders the keys as the
record's model declares its fields.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from generator.importer.columns import field_of, route_field_of, status_label_of
from generator.importer.recognisers.evidence import evidence_anchors
from generator.importer.recognisers.fields import Field, StatusLine, statuses_in_prose
from generator.importer.recognisers.guarantee import guarantee_clause
from generator.importer.recognisers.supersession import superseded_by
from generator.model import kinds
from generator.model.files import list_models
from generator.model.records import ROUTE_FIELD_LABELS, RecordBase, field_titles, split_status
from generator.model.vocab import GuaranteeStrength

# Fields that open a record: prose after them is still its body, not its remarks.
LEAD_FIELDS = frozenset({"label", "part_of", "progression", "source_native"})


@dataclass
class Draft:
    """One record being built from the document, with where it was declared."""

    list_key: str
    data: dict[str, Any]
    line: int
    col: int
    prose_before: list[str] = field(default_factory=list)  # body
    prose_after: list[str] = field(default_factory=list)  # remarks
    structured: bool = False  # a structured field was seen: later prose is remarks
    text_fields: list[str] = field(default_factory=list)  # prose kept in named fields
    # A route's labelled fields as written ((field, label, value), in order): kept as fields
    # only when all seven are there, else returned to the prose (a narrative route).
    route_fields: list[tuple[str, str, str]] = field(default_factory=list)
    # The labels the document wrote for fields, where they differ from the fields' titles
    # (field → label), so the page shows each field as written.
    labels: dict[str, str] = field(default_factory=dict)
    # The route fields written after '; ' on the line of the field before them.
    same_line: list[str] = field(default_factory=list)
    # Evidence written path first: anchors whose source the line names after the paths,
    # and (path, commit) pairs whose source is the one pinned at the commit (``finish.py``).
    named_evidence: list[str] = field(default_factory=list)
    pinned_evidence: list[tuple[str, str]] = field(default_factory=list)

    def note_label(self, name: str, written: str) -> None:
        """The document labelled the field ``name`` ``written``: kept when it is not the
        field's title (a record of a kind whose model keeps no labels keeps none)."""
        model = list_models()[self.list_key]
        if not issubclass(model, RecordBase):
            return
        written = " ".join(written.split())
        if written and field_titles(model).get(name, written) != written:
            self.labels.setdefault(name, written)

    def add_prose(self, text: str, item: bool = False) -> None:
        """Prose of the record: its body until a structured field was seen, its remarks after.

        A list item is kept as a Markdown item (``- …``); consecutive items form one list.
        """
        target = self.prose_after if self.structured else self.prose_before
        if item and target and target[-1].startswith("- "):
            target[-1] += "\n- " + text
        else:
            target.append(f"- {text}" if item else text)

    def set(self, name: str, value: Any) -> None:
        self.data[name] = value
        if isinstance(value, str):
            self.text_fields.append(value)

    def add_status(self, status: StatusLine) -> None:
        self.data.setdefault("statuses", {})[status.label] = status.value
        self.structured = True

    def add_quote(self, quote: dict[str, Any]) -> None:
        self.data.setdefault("quotes", []).append(quote)

    def all_text(self) -> str:
        return " ".join([*self.prose_before, *self.text_fields, *self.prose_after])


def apply_labelled(draft: Draft, labelled: Field, raw: str) -> bool:
    """Put a ``Label: value`` line into its field; False when the label names no field."""
    if kinds.list_has_role(draft.list_key, kinds.Role.ROUTE):
        route_field = route_field_of(labelled.label)
        if route_field and route_field in draft.data.get("fields", {}):
            return False  # stated twice: the second stays prose as written
        if route_field:
            before = draft.route_fields[-1][0] if draft.route_fields else None
            if labelled.after_semicolon and before is not None and _next_in_order(before) == route_field:
                # 'Immediate return: …; later read-back: …': shown on the line it was written on
                # (the page lists the fields in the model's order, so only the field after it).
                draft.same_line.append(route_field)
            draft.data.setdefault("fields", {})[route_field] = labelled.value
            draft.route_fields.append((route_field, labelled.label, labelled.value))
            draft.note_label(route_field, labelled.label)
            draft.text_fields.append(labelled.value)
            draft.structured = True
            return True
        if labelled.label.lower() == "guarantee strength" and _guarantee(draft, labelled.value):
            draft.structured = True
            return True
    name = field_of(draft.list_key, labelled.label)
    # A supersession stays the record's text, from which ``finish`` reads its IDs.
    unlabelled = ("id", "evidence", "quotes", "statuses", "amendments", "superseded_by")
    if name is None or name in unlabelled or name in draft.data:
        return False
    if name == "label" and "\n" in labelled.value:
        return False
    if name in kinds.status_field_names(draft.list_key):
        # A kind's status field takes a controlled value: the sentence stays prose, where
        # the status is read from (a claim's 'Conclusion status: claimed. Its table …').
        return False
    draft.set(name, labelled.value)
    draft.note_label(name, labelled.label)
    if name not in LEAD_FIELDS:
        draft.structured = True
    return True


def _next_in_order(route_field: str) -> str | None:
    """The route's labelled field after this one, in the model's order."""
    names = list(ROUTE_FIELD_LABELS)
    index = names.index(route_field)
    return names[index + 1] if index + 1 < len(names) else None


def _guarantee(draft: Draft, value: str) -> bool:
    strength = value.strip().rstrip(".").lower()
    if strength not in {g.value for g in GuaranteeStrength}:
        return False
    draft.data.setdefault("guarantee", []).append({"strength": strength})
    return True


def evidence_of(text: str) -> list[str]:
    """The evidence anchors written in a record's prose, in order, each once, every path
    attributed to the source named last before it (``recognisers/evidence.py``)."""
    return evidence_anchors(text)


def _narrative_route(draft: Draft) -> None:
    """A route with some but not all seven labelled fields keeps them as prose, as written:
    inventing the missing ones is not the importer's business (rule KB304 wants all seven)."""
    fields = draft.data.get("fields") or {}
    if (
        not kinds.list_has_role(draft.list_key, kinds.Role.ROUTE)
        or not fields
        or len(fields) == len(ROUTE_FIELD_LABELS)
    ):
        return
    del draft.data["fields"]
    for name in fields:
        draft.labels.pop(name, None)
    draft.same_line.clear()
    written = [f"{label}: {value}" for _, label, value in draft.route_fields]
    draft.prose_after[:0] = written
    draft.text_fields = [t for t in draft.text_fields if t not in {v for _, _, v in draft.route_fields}]


def _status_field_lines(draft: Draft) -> None:
    """A status line naming one of the kind's status fields, by the field's name or its
    label (a claim's ``Conclusion status: claimed`` or ``Claim conclusion status:
    claimed``), is that field: the controlled value and its qualifier, as written
    (``claimed; default off``)."""
    spec = kinds.spec_of_list(draft.list_key)
    for name, field_label in spec.status_fields if spec else ():
        statuses = draft.data.get("statuses") or {}
        if name in draft.data:
            continue
        label = next((label for label in (name.replace("_", " "), field_label) if label in statuses), None)
        if label is None:
            continue
        phrase = str(statuses.pop(label))
        if split_status(phrase) is not None:
            draft.data[name] = phrase
        if not statuses:
            del draft.data["statuses"]


def status_stated_first(list_key: str, name: str) -> str | None:
    """The status field a text field's value opens with: the field's title opens with the
    status field's name (a claim's 'Conclusion status and boundary' states its conclusion
    status first, ``wired. Bounded by …``)."""
    spec = kinds.spec_of_list(list_key)
    info = spec.model.model_fields.get(name) if spec else None
    if spec is None or info is None or not info.title:
        return None
    title = " ".join(info.title.lower().split())
    return next(
        (status for status, _ in spec.status_fields if title.startswith(status.replace("_", " ") + " and ")),
        None,
    )


def finish(draft: Draft, prose_statuses: bool, partial_routes_as_prose: bool = False) -> dict[str, Any]:
    """The record as a mapping in its model's field order. A member of a published set
    (``partial_routes_as_prose``) keeps a route with only some labelled fields narrative;
    a single document keeps them as fields, so the check names the missing ones (KB304)."""
    if partial_routes_as_prose:
        _narrative_route(draft)
    if draft.prose_before:
        draft.data["body"] = "\n\n".join(draft.prose_before)
    if draft.prose_after:
        draft.data["remarks"] = "\n\n".join(draft.prose_after)
    text = draft.all_text()
    if prose_statuses:
        for part in [*draft.prose_before, *draft.text_fields, *draft.prose_after]:
            for label, value in statuses_in_prose(part).items():
                draft.data.setdefault("statuses", {}).setdefault(label, value)
    if "statuses" in draft.data:
        # One field under its current label (``learning`` is ``learning conclusion status``).
        named: dict[str, Any] = {}
        for label, value in draft.data["statuses"].items():
            named.setdefault(status_label_of(label), value)
        draft.data["statuses"] = named
    _status_field_lines(draft)
    if draft.labels:
        draft.data["labels"] = dict(draft.labels)
    if draft.same_line:
        draft.data["same_line"] = list(draft.same_line)
    if prose_statuses and "id" in draft.data and "superseded_by" not in draft.data:
        # Read from the record's text, which is kept as written (as its statuses are).
        replacing = superseded_by(str(draft.data["id"]), draft.data.get("label"), text)
        if replacing:
            draft.data["superseded_by"] = replacing
    if kinds.list_has_role(draft.list_key, kinds.Role.ROUTE) and "guarantee" not in draft.data:
        guarantee = guarantee_clause(text)
        if guarantee:
            draft.data["guarantee"] = guarantee
    # Each text on its own: a clause ('Evidence: …') ends with its paragraph or field.
    parts = [*draft.prose_before, *draft.text_fields, *draft.prose_after]
    evidence = list(
        dict.fromkeys([*(anchor for part in parts for anchor in evidence_of(part)), *draft.named_evidence])
    )
    if evidence and draft.list_key != "limitations":
        draft.data["evidence"] = evidence
    return {key: draft.data[key] for key in key_order(draft.list_key) if key in draft.data}


def key_order(list_key: str) -> list[str]:
    """The order keys are written in: identity first, then the kind's own fields, then the rest
    of the common record fields (each group in its model's field order)."""
    fields = list(list_models()[list_key].model_fields)
    if "id" not in fields or list_key == "supplied":
        return fields
    common = [name for name in RecordBase.model_fields if name in fields]
    lead = [name for name in ("id", "label", "part_of") if name in fields]
    own = [name for name in fields if name not in common]
    return lead + own + [name for name in common if name not in lead]
