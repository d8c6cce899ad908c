"""Which record field a table column or a labelled line fills.

The names come from the models' field titles (``Field(title=...)``); the few other
spellings the analysis documents use are listed in ``ALIASES``, so a document written
with the model's own titles needs nothing here.
"""

from __future__ import annotations

from functools import lru_cache

from ..model import kinds
from ..model.files import list_models
from ..model.records import ROUTE_FIELD_LABELS

# Other spellings of a field's title, per list key: folded label → model field.
ALIASES: dict[str, dict[str, str]] = {
    "*": {"label": "label", "part of": "part_of"},
    "sources": {
        "source id": "id",
        "kind": "source_kind",
        "evidence layer": "layer",
        "inspected scope": "scope",
        "access gaps and conclusion prevented": "access_gaps",
    },
    "components": {
        "source-native component": "source_native",
        "form/substrate and role": "form",
        "representational form": "form",
    },
    "objects": {
        "source-native part": "source_native",
        "form / storage / lineage": "form",
        "representational form": "form",
    },
    "routes": {"endpoints/progression": "progression", "endpoints and progression": "progression"},
    "claims": {
        "source-native claim and evidence": "claim",
        "conclusion status and boundary": "boundary",
        "claimed operation": "claim",
    },
    "authority_paths": {"horizon and evidence": "horizon", "channels": "channel"},
    "limitations": {
        "limitation": "title",
        "affected records": "affected",
        "affected source, record, or route ids": "affected",
        "conclusion prevented": "prevents",
        "evidence that would resolve it": "resolving_evidence",
    },
}


def fold(label: str) -> str:
    return " ".join(label.lower().split())


def field_of(list_key: str, label: str) -> str | None:
    """The model field a column header or line label names for records of ``list_key``."""
    return _labels(list_key, kinds.registry_version()).get(fold(label))


@lru_cache(maxsize=64)
def _labels(list_key: str, version: int) -> dict[str, str]:
    """Folded label → field for one list (recomputed when the kind registry changes)."""
    found: dict[str, str] = {}
    model = list_models().get(list_key)
    for name, info in model.model_fields.items() if model else ():
        found.setdefault(fold(name.replace("_", " ")), name)
        if info.title:
            found[fold(info.title)] = name
    found.update(ALIASES["*"])
    found.update(ALIASES.get(list_key, {}))
    return found


def route_field_of(label: str) -> str | None:
    """The route's labelled field (``Immediate return`` → ``immediate_return``)."""
    folded = fold(label)
    return next((name for name, title in ROUTE_FIELD_LABELS.items() if fold(title) == folded), None)


def list_key_of_id(record_id: str) -> str | None:
    spec = kinds.spec_of_id(record_id)
    return spec.list_key if spec else None
