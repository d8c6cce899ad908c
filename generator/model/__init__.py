"""Typed record model: vocabularies, ID grammar, anchors, records, prose and files."""

from generator.model.anchors import LineRange, find_anchors, parse_anchor
from generator.model.base import Anchor, Quote
from generator.model.files import Run, record_file_model
from generator.model.ids import RecordKind, anchor_of, kind_of
from generator.model.kinds import KindSpec, register_kind, registered, unregister_kind
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
        from generator.model import files

        return getattr(files, name)
    raise AttributeError(name)
