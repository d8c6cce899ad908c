"""Which record field a table column or a labelled line fills.

The names come from the models' field titles (``Field(title=...)``); the few other
spellings the analysis documents use are each kind's ``title_aliases`` (its spec in
``model/kinds.py``) and, for the lists that hold no records, ``LIST_ALIASES``, so a
document written with the model's own titles needs nothing here.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from generator.importer.folding import words
from generator.model import kinds
from generator.model.files import list_models, record_file_model
from generator.model.records import ROUTE_FIELD_LABELS, STATUS_LABEL_ALIASES, status_label
from generator.model.sets import DOCUMENT_SECTION_TITLES

# Other spellings of a field's title for every list, and for the lists that hold no
# records: folded label → model field. A kind's own are its spec's ``title_aliases``.
COMMON_ALIASES: dict[str, str] = {"label": "label", "part of": "part_of"}
LIST_ALIASES: dict[str, dict[str, str]] = {
    "limitations": {
        "limitation": "title",
        "affected records": "affected",
        "affected ids": "affected",
        "affected source, record, or route ids": "affected",
        "conclusion prevented": "prevents",
        "evidence that would resolve it": "resolving_evidence",
    },
}


# The labelled lines of a result's run identity that name a companion file of the run:
# folded label → (its role, the reference field it fills). ``**Run state:** `path` ``.
RUN_REFERENCE_LABELS: dict[str, tuple[str, str]] = {
    "run state": ("run state", "path"),
    "generated review": ("generated review", "path"),
    "analysis artifact": ("artifact manifest", "path"),
    "analysis artifact sha-256": ("artifact manifest", "sha256"),
    "retained result": ("retained result", "path"),
    "memory analysis report": ("memory analysis report", "path"),
    "memory analysis report sha-256": ("memory analysis report", "sha256"),
}


def aliases_of(list_key: str) -> dict[str, str]:
    """The other spellings of the field titles of one list: its kind spec's, else the table's."""
    spec = kinds.spec_of_list(list_key)
    return dict(spec.title_aliases) if spec is not None else LIST_ALIASES.get(list_key, {})


# Paragraphs that, after a record declared by a paragraph, are still that record's text
# (an amendment a lens makes to it, the reasons a record was retained, its supersession).
CONTINUATION_LABELS = ("amendment", "retained reasons", "retained reason", "superseded by")


def continues_record(text: str) -> bool:
    """``Amendment (memory lens): …`` or ``Retained reasons: …``: the record's text goes on."""
    head, colon, _ = text.lstrip("*_ ").partition(":")
    if not colon or len(head) > 80:
        return False
    label = fold(head.replace("*", ""))
    return any(label == name or label.startswith(name + " (") for name in CONTINUATION_LABELS)


# A column header that opens with one of these names that field whatever follows, in a
# list whose model has the field ('Source-native object and lineage', 'Source-native
# object and memory classification').
FIELD_PREFIXES: dict[str, str] = {"source-native": "source_native"}


def fold(label: str) -> str:
    return " ".join(label.lower().split())


def field_of(list_key: str, label: str) -> str | None:
    """The model field a column header or line label names for records of ``list_key``."""
    folded = fold(label)
    found = _labels(list_key, kinds.active()).get(folded)
    if found is None:
        model = list_models().get(list_key)
        fields = model.model_fields if model is not None else {}
        found = next(
            (name for prefix, name in FIELD_PREFIXES.items() if folded.startswith(prefix) and name in fields),
            None,
        )
    return found


@lru_cache(maxsize=64)
def _labels(list_key: str, registry: kinds.KindRegistry) -> dict[str, str]:
    """Folded label → field for one list (once per kind registry)."""
    found: dict[str, str] = {}
    model = list_models().get(list_key)
    for name, info in model.model_fields.items() if model else ():
        found.setdefault(fold(name.replace("_", " ")), name)
        if info.title:
            found[fold(info.title)] = name
    found.update(COMMON_ALIASES)
    found.update(aliases_of(list_key))
    return found


# Other wordings of a route's labelled fields, from earlier versions of the route contract
# (model/contracts.py), as the published runs write them: 'Selection', 'Selector',
# 'Invalidation/expiry', 'Expiry', 'Activation', 'Activation/effect', 'Effect'.
ROUTE_FIELD_ALIASES: dict[str, str] = {
    "selection": "selection_predicate",
    "selector": "selection_predicate",
    "invalidation/expiry": "invalidation_or_expiry",
    "invalidation": "invalidation_or_expiry",
    "expiry": "invalidation_or_expiry",
    "activation": "activation_or_effect",
    "activation/effect": "activation_or_effect",
    "effect": "activation_or_effect",
    "later read back": "later_read_back",
}


def route_field_of(label: str) -> str | None:
    """The route's labelled field (``Immediate return`` → ``immediate_return``), by its title
    or an earlier contract's wording (``Selection``, ``Invalidation/expiry``)."""
    folded = fold(label)
    found = next((name for name, title in ROUTE_FIELD_LABELS.items() if fold(title) == folded), None)
    return found or ROUTE_FIELD_ALIASES.get(folded)


def status_label_of(label: str) -> str:
    """A status label under its current name: ``learning`` (an earlier contract's wording)
    → ``learning conclusion status`` (``STATUS_LABEL_ALIASES``, declared with the model
    so a hand-written record and the status matrix fold it the same way)."""
    return status_label(label)


def list_key_of_id(record_id: str) -> str | None:
    spec = kinds.spec_of_id(record_id)
    return spec.list_key if spec else None


@lru_cache(maxsize=4)
def _model_names(registry: kinds.KindRegistry) -> tuple[frozenset[str], frozenset[str]]:
    """(field names, folded field labels) of every model a record file can hold: names are
    structure when the import is measured, labels may be dropped from a measured unit."""
    names: set[str] = set()
    labels: set[str] = set()

    def walk(schema: Any) -> None:
        if isinstance(schema, dict):
            for name, item in (schema.get("properties") or {}).items():
                names.add(name)
                labels.add(fold(name.replace("_", " ")))
                if isinstance(item, dict) and isinstance(item.get("title"), str):
                    labels.add(fold(item["title"]))
            for item in schema.values():
                walk(item)
        elif isinstance(schema, list):
            for item in schema:
                walk(item)

    walk(record_file_model().model_json_schema())
    labels.update(COMMON_ALIASES)
    for aliases in LIST_ALIASES.values():
        labels.update(aliases)
    for spec in registry.specs:
        labels.update(label for label, _ in spec.title_aliases)
    labels.update(fold(title) for title in ROUTE_FIELD_LABELS.values())
    labels.update(ROUTE_FIELD_ALIASES)
    labels.update(STATUS_LABEL_ALIASES)
    labels.update({"guarantee strength", "amendment"})
    labels.update(RUN_REFERENCE_LABELS)
    labels.update(fold(title) for title in kinds.shared_kind_titles().values())
    labels.update(fold(title) for titles in DOCUMENT_SECTION_TITLES.values() for title in titles.values())
    return frozenset(names), frozenset(" ".join(words(label)) for label in labels)


def model_names() -> tuple[frozenset[str], frozenset[str]]:
    return _model_names(kinds.active())
