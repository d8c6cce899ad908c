"""The run identity and the shape of one record file.

A system folder holds any number of record files; each may carry any of the
top-level keys below, and the loader merges them (lists concatenate, ``run``,
``result``, ``memory_report`` and ``memory_comparison`` may appear once per system). The kind lists
(``sources``, ``routes``, …) come from the kind registry in force, so the record-file
model is built from it (``record_file_model()``), once per registry; ``RecordFile`` is
the built-in kinds' model.
"""

from __future__ import annotations

import datetime
import re
from collections.abc import Callable
from functools import lru_cache
from typing import Annotated, Any

from pydantic import AfterValidator, BaseModel, Field, StringConstraints, create_model, model_validator
from pydantic_core import PydanticCustomError

from generator.model import kinds
from generator.model.base import RecordId, Strict, Text
from generator.model.contracts import ContractName
from generator.model.ids import RUN_ID_PATTERN, IdGrammar, whole_string
from generator.model.import_findings import IMPORT_FINDINGS_KEY, ImportFinding
from generator.model.profile import MemoryComparison
from generator.model.prose import SHARED_RECORD_DOCUMENTS, MemoryReport, Result, shared_records_model
from generator.model.records import Annotation, Limitation, Supplied
from generator.model.sets import SET_DOCUMENTS, AnalysisSet
from generator.model.vocab import BoundaryKind, Disposition, EvidenceTier, RunReferenceRole

__all__ = [
    "RUN_ID_PATTERN",
    "RecordFile",
    "ReviewedBoundary",
    "Run",
    "RunReference",
    "record_file_model",
    "record_list_keys",
]


class ReviewedBoundary(Strict):
    """The immutable revision the analysis reviewed."""

    source: RecordId
    revision: Annotated[str, StringConstraints(min_length=7)]


# A run reference's SHA-256 and path, as the editor schema states them (``^…$``) and as
# they are matched here (the whole string).
SHA256_PATTERN = r"^[0-9a-f]{64}$"
RUN_PATH_PATTERN = r"^[^\s`|]+$"
_SHA256 = whole_string(SHA256_PATTERN)
_RUN_PATH = whole_string(RUN_PATH_PATTERN)


def _matching(pattern: re.Pattern[str], code: str, message: str) -> Callable[[str], str]:
    def check(text: str) -> str:
        if pattern.match(text) is None:
            raise PydanticCustomError(code, message, {})
        return text

    return check


RunPath = Annotated[
    str,
    AfterValidator(_matching(_RUN_PATH, "run_path", "A path is one word, without spaces, backticks or '|'")),
    Field(
        max_length=1000,
        description="The file's path as the result writes it (in the method's repository).",
        json_schema_extra={"pattern": RUN_PATH_PATTERN},
    ),
]
Sha256 = Annotated[
    str,
    AfterValidator(_matching(_SHA256, "sha256", "A SHA-256 is 64 lower-case hex digits")),
    Field(description="64 lower-case hex digits.", json_schema_extra={"pattern": SHA256_PATTERN}),
]


class RunReference(Strict):
    """A file of the run that its result names: its role, its path as written (in the
    method's repository, never a page of this site) and its SHA-256 when stated."""

    role: RunReferenceRole
    path: RunPath | None = None
    sha256: Sha256 | None = Field(
        default=None, title="SHA-256", description="The SHA-256 of the file's bytes."
    )

    @model_validator(mode="after")
    def _names_something(self) -> RunReference:
        if self.path is None and self.sha256 is None:
            raise PydanticCustomError("missing", "A run reference needs a path or a SHA-256", {})
        return self


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
    current: bool | None = Field(
        default=None,
        description="This run is the system's current one, published at the system's own pages. "
        "Without a run saying so, the run with the latest run date is current.",
    )
    references: list[RunReference] = Field(
        default_factory=list,
        description="The run's companion files the result names (run state, generated review, "
        "memory analysis report …), each with its path and SHA-256 as stated.",
    )
    contract: ContractName | None = Field(
        default=None,
        description="The route contract the run was written under (see 'Route contract versions' in "
        "the authoring guide); today's when absent. An earlier contract's run is checked as that "
        "contract had it, and what today's would flag is listed on its pages.",
    )


# Top-level keys that hold one mapping per system, and lists that are not record kinds.
BUILTIN_SINGLE_MODELS: dict[str, type[BaseModel]] = {
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
    IMPORT_FINDINGS_KEY: ImportFinding,
}


@lru_cache(maxsize=8)
def _single_models(registry: kinds.KindRegistry) -> dict[str, type[BaseModel]]:
    if registry is kinds.KINDS:
        return BUILTIN_SINGLE_MODELS
    # The documents holding 'Shared records' take the registry's subsections: each is a
    # subclass of the built-in document, so code that asks isinstance(…, Result) holds.
    shared = shared_records_model(registry)
    models = dict(BUILTIN_SINGLE_MODELS)
    for key, model in BUILTIN_SINGLE_MODELS.items():
        if model in SHARED_RECORD_DOCUMENTS:
            models[key] = create_model(
                model.__name__,
                __base__=model,
                __doc__=model.__doc__,
                shared_records=(shared, Field(default_factory=shared)),
            )
    return models


def single_models() -> dict[str, type[BaseModel]]:
    """The model of each top-level key that holds one mapping, for the kinds in force."""
    return _single_models(kinds.active())


@lru_cache(maxsize=8)
def _record_file(registry: kinds.KindRegistry) -> type[BaseModel]:
    fields: dict[str, Any] = {"run": (Run | None, None)}
    for spec in registry.specs:
        fields[spec.list_key] = (list[spec.model], Field(default_factory=list))  # type: ignore[name-defined]
    for key, model in OTHER_LIST_MODELS.items():
        fields[key] = (list[model], Field(default_factory=list))  # type: ignore[valid-type]
    for key, model in _single_models(registry).items():
        if key != "run":
            fields[key] = (model | None, None)
    return create_model(
        "RecordFile", __base__=Strict, __doc__="One YAML record file of a system folder.", **fields
    )


def record_file_model() -> type[BaseModel]:
    """The model of one record file for the kinds in force."""
    return _record_file(kinds.active())


def record_list_keys() -> tuple[str, ...]:
    """The top-level lists that declare records, in kind order."""
    return tuple(spec.list_key for spec in kinds.registered())


def list_models() -> dict[str, type[BaseModel]]:
    """The model of one entry of each top-level list, for the kinds in force."""
    return {**{spec.list_key: spec.model for spec in kinds.registered()}, **OTHER_LIST_MODELS}


RecordFile = _record_file(kinds.KINDS)
