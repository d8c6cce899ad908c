"""What an import could not keep, written with the run it imported (``import-findings.yaml``).

``kbgen import`` measures what of a document the records keep (its structure and its
text); each construct it could not keep becomes one entry of the run's findings file, a
record file like any other, reviewed in the pull request that adds the run. An analyst
resolves an entry by fixing the records and deleting it, or accepts it
(``resolution: accepted``) with a ``reason``. The construct ``kind`` is a free word
(``record``, ``status``, ``evidence anchor``, ``sentence`` …), so a new figure of the
import's measures needs no change here.
"""

from __future__ import annotations

import re
from enum import StrEnum
from typing import Annotated

from pydantic import AfterValidator, Field, StringConstraints
from pydantic_core import PydanticCustomError

from generator.model.base import RecordId, Strict, WrittenTitle

IMPORT_FINDINGS_FILE = "import-findings.yaml"
IMPORT_FINDINGS_KEY = "import_findings"
TEXT_CAP = 300  # the characters of a construct's text kept in an entry

_RULE = re.compile(r"KB[0-9]{3}\Z")
_DIGEST = re.compile(r"[0-9a-f]{64}\Z")


def _rule_code(code: str) -> str:
    if _RULE.match(code) is None:
        raise PydanticCustomError("rule_code", "a rule code is KB and three digits", {})
    return code


def _digest(text: str) -> str:
    if _DIGEST.match(text) is None:
        raise PydanticCustomError("sha256", "A SHA-256 is 64 lower-case hex digits", {})
    return text


class Resolution(StrEnum):
    OPEN = "open"
    ACCEPTED = "accepted"


class ImportFinding(Strict):
    """One construct an import could not keep: the rule that measured it, where the document
    states it, what it is, and whether an analyst accepted the loss."""

    rule: Annotated[str, AfterValidator(_rule_code)] = Field(
        description="The import rule that found the loss (KB614 structure, KB612 text …).",
        json_schema_extra={"pattern": r"^KB[0-9]{3}$"},
    )
    document: WrittenTitle = Field(description="The document's file name, as the import read it.")
    document_sha256: Annotated[str, AfterValidator(_digest)] = Field(
        title="Document SHA-256",
        description="The SHA-256 of the document's text as the import read it.",
        json_schema_extra={"pattern": "^[0-9a-f]{64}$"},
    )
    line: int = Field(ge=1, description="The construct's line in the document.")
    col: int = Field(ge=1, description="The construct's column in the document.")
    kind: WrittenTitle = Field(description="The construct's kind: record, label, status, sentence …")
    text: Annotated[str, StringConstraints(min_length=1, max_length=TEXT_CAP)] = Field(
        description="The construct as the document states it (capped)."
    )
    record: RecordId | None = Field(default=None, description="The record the construct belongs to.")
    resolution: Resolution = Field(
        default=Resolution.OPEN,
        description="open until an analyst fixes the records (and deletes the entry) or accepts the loss.",
    )
    reason: Annotated[str, StringConstraints(max_length=2000)] | None = Field(
        default=None, description="Why an accepted loss is accepted (required when accepted)."
    )
