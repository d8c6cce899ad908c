"""The run identity and the shape of one record file.

A system folder holds any number of record files; each may carry any of the
top-level keys below, and the loader merges them (lists concatenate, ``run``,
``result``, ``memory_report`` and ``memory_comparison`` may appear once per system). The kind lists
(``sources``, ``routes``, …) come from the kind registry, so the record-file model
is built from it (``record_file_model()``); ``RecordFile`` names the current one.
"""

from __future__ import annotations

import datetime
from typing import Annotated, Any

from pydantic import BaseModel, Field, StringConstraints, create_model

from generator.model import kinds
from generator.model.base import RecordId, Strict, Text
from generator.model.ids import RUN_ID_PATTERN, IdGrammar
from generator.model.profile import MemoryComparison
from generator.model.prose import MemoryReport, Result, sync_document_models
from generator.model.records import Annotation, Limitation, Supplied
from generator.model.sets import SET_DOCUMENTS, AnalysisSet
from generator.model.vocab import BoundaryKind, Disposition, EvidenceTier

__all__ = ["RUN_ID_PATTERN", "ReviewedBoundary", "Run", "record_file_model", "record_list_keys"]


class ReviewedBoundary(Strict):
    """The immutable revision the analysis reviewed."""

    source: RecordId
    revision: Annotated[str, StringConstraints(min_length=7)]


class Run(Strict):
    """One analysis run of one system.

    For a complete result none of the boundary fields may be null (rule KB301).
    """

    system: Text = Field(description="The system's display name.")
    run_id: Annotated[str, IdGrammar(run=True)] | None = Field(
        default=None, description="AAS-YYYY-MM-DD-<system-slug>-NN"
    )
    run_date: datetime.date | None = None
    disposition: Disposition | None = None
    target_class: Text | None = None
    boundary_kind: BoundaryKind | None = None
    reviewed_boundary: ReviewedBoundary | None = None
    analysis_cutoff: datetime.date | None = None
    evidence_tier: EvidenceTier | None = None
    summary: Text | None = Field(default=None, description="One paragraph for the system index.")


# Top-level keys that hold one mapping per system, and lists that are not record kinds.
SINGLE_MODELS: dict[str, type[BaseModel]] = {
    "run": Run,
    "result": Result,
    "memory_report": MemoryReport,
    "analysis_set": AnalysisSet,
    **SET_DOCUMENTS,
    "memory_comparison": MemoryComparison,
}
OTHER_LIST_MODELS: dict[str, type[BaseModel]] = {
    "limitations": Limitation,
    "supplied": Supplied,
    "annotations": Annotation,
}

_BUILT: list[tuple[int, type[BaseModel]]] = []


def _build_record_file() -> type[BaseModel]:
    fields: dict[str, Any] = {"run": (Run | None, None)}
    for spec in kinds.registered():
        fields[spec.list_key] = (list[spec.model], Field(default_factory=list))  # type: ignore[name-defined]
    for key, model in OTHER_LIST_MODELS.items():
        fields[key] = (list[model], Field(default_factory=list))  # type: ignore[valid-type]
    fields["result"] = (Result | None, None)
    fields["memory_report"] = (MemoryReport | None, None)
    fields["analysis_set"] = (AnalysisSet | None, None)
    for key, model in SET_DOCUMENTS.items():
        fields[key] = (model | None, None)
    fields["memory_comparison"] = (MemoryComparison | None, None)
    return create_model(
        "RecordFile", __base__=Strict, __doc__="One YAML record file of a system folder.", **fields
    )


def record_file_model() -> type[BaseModel]:
    """The model of one record file for the kinds registered now."""
    version = kinds.registry_version()
    if not _BUILT or _BUILT[0][0] != version:
        sync_document_models()
        _BUILT[:] = [(version, _build_record_file())]
    return _BUILT[0][1]


def record_list_keys() -> tuple[str, ...]:
    """The top-level lists that declare records, in kind order."""
    return tuple(spec.list_key for spec in kinds.registered())


def list_models() -> dict[str, type[BaseModel]]:
    """The model of one entry of each top-level list."""
    return {**{spec.list_key: spec.model for spec in kinds.registered()}, **OTHER_LIST_MODELS}


def __getattr__(name: str) -> Any:
    # ``RecordFile`` and ``RECORD_LIST_KEYS`` follow the registry, so they are looked up on use.
    if name == "RecordFile":
        return record_file_model()
    if name == "RECORD_LIST_KEYS":
        return record_list_keys()
    raise AttributeError(name)
