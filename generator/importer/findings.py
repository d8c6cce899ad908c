"""What an import could not keep, as the entries of the run's ``import-findings.yaml``.

Both measures (``structure.py``, KB614; ``coverage.py``, KB612) name what of a document
the records written do not keep; each such construct becomes one entry, written into the
folder with the records so the loss is reviewed, resolved or accepted there and ``kbgen
check`` keeps reporting it (KB616) until it is. An import that kept everything writes no
findings file.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import PurePosixPath
from typing import Any

from generator.diagnostics import Diagnostic
from generator.importer.coverage import KB612, Coverage
from generator.importer.import_rules import KB607
from generator.importer.structure import BECAME_SUPPLIED, KB614, Structure
from generator.model.import_findings import IMPORT_FINDINGS_FILE, IMPORT_FINDINGS_KEY, TEXT_CAP, Resolution

MAX_ENTRIES = 2000  # entries written per import; the summary says how many more were lost


@dataclass(frozen=True)
class Lost:
    """One construct of one document the records do not keep."""

    rule: str
    document: str  # the document's file name
    digest: str  # the SHA-256 of its text as read
    line: int
    col: int
    kind: str
    text: str
    record: str | None = None

    def entry(self) -> dict[str, Any]:
        """The entry as the findings file writes it (the model's field order)."""
        found: dict[str, Any] = {
            "rule": self.rule,
            "document": self.document,
            "document_sha256": self.digest,
            "line": self.line,
            "col": self.col,
            "kind": self.kind,
            "text": _capped(self.text),
        }
        if self.record is not None:
            found["record"] = self.record
        found["resolution"] = Resolution.OPEN.value
        return found


@dataclass(frozen=True)
class Findings:
    """An import's findings: every construct lost, in document order per document."""

    lost: tuple[Lost, ...] = ()

    def __len__(self) -> int:
        return len(self.lost)

    def file(self) -> dict[str, Any] | None:
        """The findings file's mapping (None when nothing was lost: no file is written)."""
        if not self.lost:
            return None
        return {IMPORT_FINDINGS_KEY: [lost.entry() for lost in self.lost[:MAX_ENTRIES]]}

    @property
    def written(self) -> int:
        return min(len(self.lost), MAX_ENTRIES)

    def __add__(self, other: Findings) -> Findings:
        return Findings((*self.lost, *other.lost))


def document_digest(text: str) -> str:
    """The SHA-256 of a document's text as the import read it (UTF-8, LF line breaks)."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def findings_of(text: str, display: str, structure: Structure, coverage: Coverage) -> Findings:
    """The constructs of one document that the records written do not keep, by line: the
    structure's losses, then the text's units (missing or too repeated to verify)."""
    document = PurePosixPath(display).name  # the file's name: never a folder of the machine
    digest = document_digest(text)
    lost = [
        Lost(
            KB614.code,
            document,
            digest,
            loss.line,
            loss.col,
            loss.kind,
            loss.stated,
            loss.record_id,
        )
        for loss in structure.losses
    ]
    lost += [
        Lost(KB612.code, document, digest, unit.line, unit.col, unit.kind, unit.text)
        for unit in (*coverage.missing, *coverage.unverified)
    ]
    return Findings(tuple(sorted(lost, key=lambda x: (x.line, x.col, x.rule, x.kind, x.text))))


def one_finding_per_id(diagnostics: Iterable[Diagnostic], structure: Structure) -> list[Diagnostic]:
    """The import's diagnostics without a KB607 ("cited but not declared") for an ID the
    document declares and the import made a supplied record: KB614 reports it, once."""
    became_supplied = {loss.record_id for loss in structure.losses if loss.what == BECAME_SUPPLIED}
    return [d for d in diagnostics if not (d.rule == KB607 and d.message.split(" ", 1)[0] in became_supplied)]


def _capped(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= TEXT_CAP else text[: TEXT_CAP - 1] + "…"


__all__ = ["IMPORT_FINDINGS_FILE", "MAX_ENTRIES", "Findings", "findings_of", "one_finding_per_id"]
