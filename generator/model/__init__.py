"""Typed record model: vocabularies, ID grammar, anchors, records, prose and files."""

from generator.model.anchors import LineRange, find_anchors, parse_anchor
from generator.model.base import Anchor, Quote
from generator.model.files import RecordFile, Run, record_file_model
from generator.model.ids import RecordKind, anchor_of, kind_of
from generator.model.kinds import KINDS, KindRegistry, KindSpec, Role, registered, using
from generator.model.prose import MemoryReport, Result, Section
from generator.model.records import (
    Absence,
    Amendment,
    Annotation,
    AuthorityPath,
    Claim,
    Component,
    Limitation,
    OperativeObject,
    RecordBase,
    Route,
    Source,
    Supplied,
)

__all__ = [
    "KINDS",
    "Absence",
    "Amendment",
    "Anchor",
    "Annotation",
    "AuthorityPath",
    "Claim",
    "Component",
    "KindRegistry",
    "KindSpec",
    "Limitation",
    "LineRange",
    "MemoryReport",
    "OperativeObject",
    "Quote",
    "RecordBase",
    "RecordFile",
    "RecordKind",
    "Result",
    "Role",
    "Route",
    "Run",
    "Section",
    "Source",
    "Supplied",
    "anchor_of",
    "find_anchors",
    "kind_of",
    "parse_anchor",
    "record_file_model",
    "registered",
    "using",
]
