"""Typed record model: vocabularies, ID grammar, anchors, records, prose and files."""

from .anchors import LineRange, find_anchors, parse_anchor
from .base import Anchor, Quote
from .files import Run, record_file_model
from .ids import RecordKind, anchor_of, kind_of
from .kinds import KindSpec, register_kind, registered, unregister_kind
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
    "Absence",
    "Amendment",
    "Anchor",
    "Annotation",
    "AuthorityPath",
    "Claim",
    "Component",
    "KindSpec",
    "Limitation",
    "LineRange",
    "MemoryReport",
    "OperativeObject",
    "Quote",
    "RecordBase",
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
    "record_file_model",
    "register_kind",
    "registered",
    "unregister_kind",
]


def __getattr__(name: str) -> object:
    # Derived from the kind registry on use: see files.py.
    if name in ("RecordFile", "RECORD_LIST_KEYS"):
        from . import files

        return getattr(files, name)
    raise AttributeError(name)
