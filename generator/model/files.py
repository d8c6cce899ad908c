"""The run identity and the shape of one record file.

A system folder holds any number of record files; each may carry any of the
top-level keys below, and the loader merges them (lists concatenate, ``run``,
``result`` and ``memory_report`` may appear once per system).
"""

from __future__ import annotations

import datetime
from typing import Annotated

from pydantic import Field, StringConstraints

from .base import RecordId, Strict, Text
from .prose import MemoryReport, Result
from .records import (
    Absence,
    Annotation,
    AuthorityPath,
    Claim,
    Component,
    Limitation,
    OperativeObject,
    Route,
    Source,
    Supplied,
)
from .vocab import BoundaryKind, Disposition, EvidenceTier

RUN_ID_PATTERN = (
    r"^AAS-(?P<date>[0-9]{4}-[0-9]{2}-[0-9]{2})-(?P<slug>[a-z0-9]+(?:-[a-z0-9]+)*)-(?P<seq>[0-9]{2})$"
)


class ReviewedBoundary(Strict):
    """The immutable revision the analysis reviewed."""

    source: RecordId
    revision: Annotated[str, StringConstraints(min_length=7)]


class Run(Strict):
    """One analysis run of one system.

    For a complete result none of the boundary fields may be null (rule KB301).
    """

    system: Text = Field(description="The system's display name.")
    run_id: Annotated[str, StringConstraints(pattern=RUN_ID_PATTERN)] | None = Field(
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


class RecordFile(Strict):
    """One YAML record file of a system folder."""

    run: Run | None = None
    sources: list[Source] = Field(default_factory=list)
    components: list[Component] = Field(default_factory=list)
    objects: list[OperativeObject] = Field(default_factory=list)
    routes: list[Route] = Field(default_factory=list)
    claims: list[Claim] = Field(default_factory=list)
    absences: list[Absence] = Field(default_factory=list)
    authority_paths: list[AuthorityPath] = Field(default_factory=list)
    limitations: list[Limitation] = Field(default_factory=list)
    supplied: list[Supplied] = Field(default_factory=list)
    annotations: list[Annotation] = Field(default_factory=list)
    result: Result | None = None
    memory_report: MemoryReport | None = None


RECORD_LIST_KEYS: tuple[str, ...] = (
    "sources",
    "components",
    "objects",
    "routes",
    "claims",
    "absences",
    "authority_paths",
)
