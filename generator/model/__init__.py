"""Typed record model: vocabularies, ID grammar, anchors, records, prose and files."""

from .anchors import LineRange, find_anchors, parse_anchor
from .base import Anchor, Quote
from .files import RECORD_LIST_KEYS, RecordFile, Run
from .ids import RecordKind, anchor_of, kind_of
from .prose import MemoryReport, Result, Section
from .records import (
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
    "RECORD_LIST_KEYS",
    "Absence",
    "Amendment",
    "Anchor",
    "Annotation",
    "AuthorityPath",
    "Claim",
    "Component",
    "Limitation",
    "LineRange",
    "MemoryReport",
    "OperativeObject",
    "Quote",
    "RecordBase",
    "RecordFile",
    "RecordKind",
    "Result",
    "Route",
    "Run",
    "Section",
    "Source",
    "Supplied",
    "anchor_of",
    "find_anchors",
    "kind_of",
    "parse_anchor",
]
