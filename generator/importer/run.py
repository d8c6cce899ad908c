"""The run identity: from Markdown frontmatter, or recognised in the text of a plain document.

Frontmatter keys (``run-id``, ``source-identity``, ``reviewed-boundary``) are taken as
written. A plain document states its run in prose; only statements of a fixed form are
read (``Boundary kind is whole-system``, ``Git commit <hex>``, ``SRC-1 at <hex>``,
``inspected <date>``, ``The target is an enclosing runtime:``) and each value must be in
its vocabulary, so nothing is guessed.
"""

from __future__ import annotations

import datetime
import re
from typing import Any

from generator.importer.columns import RUN_REFERENCE_LABELS, fold
from generator.model.contracts import TODAY, RouteContract, contract_at
from generator.model.files import RunReference
from generator.model.ids import RUN_ID_PATTERN
from generator.model.vocab import BoundaryKind, EvidenceTier

_RUN_ID = re.compile(RUN_ID_PATTERN.removeprefix("^").removesuffix("$"))  # found inside text
_COMMIT = re.compile(r"(?:(?P<source>SRC-[0-9]+) at|Git commit) `?(?P<revision>[0-9a-f]{7,40})\b")
_INSPECTED = re.compile(r"\binspected (?P<date>[0-9]{4}-[0-9]{2}-[0-9]{2})\b")
_TARGET = re.compile(r"\bThe target is an? (?P<target>[a-z][a-z -]{2,40}?)[:;.]")
_DISPOSITION = re.compile(
    r"\b(?:Analysis content|result|disposition) is (?P<value>complete|blocked|out-of-scope)\b"
)


def system_name(title: str) -> str:
    """The system's display name from the document title (``Decapod memory report`` → ``Decapod``)."""
    name = re.sub(
        r"\s+(?:memory (?:analysis )?report|agentic-system analysis|analysis)\Z",
        "",
        title.strip(),
        flags=re.I,
    )
    return name or title.strip()


def _date(value: str) -> datetime.date | None:
    try:
        return datetime.date.fromisoformat(value)
    except ValueError:
        return None


def run_from_text(title: str, text: str, first_source: str | None) -> dict[str, Any]:
    """The run fields a plain document states in its run identity and boundary sections."""
    run: dict[str, Any] = {"system": system_name(title)}
    run_id = _RUN_ID.search(text)
    if run_id:
        run["run_id"] = run_id.group(0)
        run["run_date"] = _date(run_id.group("date"))
    disposition = _DISPOSITION.search(text)
    if disposition:
        run["disposition"] = disposition.group("value")
    target = _TARGET.search(text)
    if target:
        run["target_class"] = target.group("target").strip()
    kind = _first_of(text, [k.value for k in BoundaryKind])
    if kind:
        run["boundary_kind"] = kind
    commit = _COMMIT.search(text)
    source = (commit.group("source") if commit else None) or first_source
    if commit and source:
        run["reviewed_boundary"] = {"source": source, "revision": commit.group("revision")}
    inspected = _INSPECTED.search(text)
    if inspected:
        run["analysis_cutoff"] = _date(inspected.group("date"))
    tier = _first_of(text, [t.value for t in EvidenceTier])
    if tier:
        run["evidence_tier"] = tier
    return {key: value for key, value in run.items() if value is not None}


def _first_of(text: str, values: list[str]) -> str | None:
    best: tuple[int, str] | None = None
    for value in values:
        index = text.find(value)
        if index >= 0 and (best is None or index < best[0]):
            best = (index, value)
    return best[1] if best else None


# Frontmatter run keys whose value is a date, and those kept as written.
_DATE_KEYS = {"run-date": "run_date", "analysis-cutoff": "analysis_cutoff"}
_TEXT_KEYS = {
    "result-disposition": "disposition",
    "target-class": "target_class",
    "boundary-kind": "boundary_kind",
    "evidence-tier": "evidence_tier",
}


def run_from_frontmatter(title: str, front: dict[str, Any], first_source: str | None) -> dict[str, Any]:
    """The run fields of a Markdown document's frontmatter: ``system`` is the display name
    (else the title's), the run date comes from ``run-date`` (else the run ID), each other
    run key is taken as written and checked by the model like any record."""
    name = front.get("system")
    run: dict[str, Any] = {"system": str(name).strip() if name else system_name(title)}
    run_id = str(front.get("run-id") or "")
    match = _RUN_ID.fullmatch(run_id)
    if match:
        run["run_id"] = run_id
        run["run_date"] = _date(match.group("date"))
    for key, field in _DATE_KEYS.items():
        value = front.get(key)
        if isinstance(value, datetime.date):
            run[field] = value
        elif value is not None:
            run[field] = _date(str(value)) or str(value)
    for key, field in _TEXT_KEYS.items():
        if front.get(key) is not None:
            run[field] = str(front[key])
    if isinstance(front.get("description"), str) and front["description"].strip():
        run["summary"] = front["description"].strip()
    revision = front.get("reviewed-boundary") or front.get("source-revision")
    if isinstance(revision, str) and first_source:
        run["reviewed_boundary"] = {"source": first_source, "revision": revision}
    return {key: value for key, value in run.items() if value is not None}


def commit_statement(text: str) -> tuple[str, str] | None:
    """``SRC-1 at <hex>``: the source a plain document pins and its revision."""
    match = _COMMIT.search(text)
    if match and match.group("source"):
        return match.group("source"), match.group("revision")
    return None


# ``**Run state:** `kb/…/run-state.md` ``: a bold label, then one value (in backticks or not).
_REFERENCE_LINE = re.compile(
    r"\s*\*\*(?P<label>[^*\n]{1,80}?):\*\*[ \t]+(?:`(?P<code>[^`\s]+)`|(?P<bare>[^`\s*]+))"
)


def _reference_lines(paragraph: str) -> list[tuple[str, str, str]] | None:
    """(role, field, value) of each labelled line of a paragraph that states nothing else
    but run references (``columns.RUN_REFERENCE_LABELS``); None otherwise."""
    lines: list[tuple[str, str, str]] = []
    position, end = 0, len(paragraph.rstrip())
    while position < end:
        match = _REFERENCE_LINE.match(paragraph, position)
        named = RUN_REFERENCE_LABELS.get(fold(match.group("label"))) if match else None
        if match is None or named is None:
            return None
        lines.append((*named, match.group("code") or match.group("bare")))
        position = match.end()
    return lines


def run_references(blocks: list[Any]) -> tuple[list[dict[str, str]], list[Any]]:
    """The run references a result's run identity states, and its blocks without them.

    A paragraph is read when all it states is labelled paths and SHA-256s of the run's
    companion files; a SHA-256 joins the reference of its role just before it (the same
    paragraph's, or the paragraph before). A paragraph with anything else, or a value its
    field does not hold, stays prose as written."""
    references: list[dict[str, str]] = []
    kept: list[Any] = []
    for block in blocks:
        lines = _reference_lines(block) if isinstance(block, str) else None
        if lines is None or not _joined(references, lines):
            kept.append(block)
    return [{key: ref[key] for key in RunReference.model_fields if key in ref} for ref in references], kept


def _joined(references: list[dict[str, str]], lines: list[tuple[str, str, str]]) -> bool:
    """Add a paragraph's references to ``references``; False (nothing added) when one is not
    what the model holds."""
    added = [dict(ref) for ref in references]
    for role, key, value in lines:
        last = added[-1] if added else None
        if last is not None and last["role"] == role and key not in last:
            last[key] = value
        else:
            added.append({"role": role, key: value})
    try:
        for reference in added[max(len(references) - 1, 0) :]:  # the one joined, and those added
            RunReference.model_validate(reference)
    except ValueError:
        return False
    references[:] = added
    return True


def contract_from_frontmatter(front: dict[str, Any], single_result: bool) -> RouteContract:
    """The route contract a document was written under, inferred from its frontmatter: a
    single analysis result (the form before analysis sets) is read under the contract whose
    documents span its run date (``run-date``, else the run ID's date); any other document,
    and a document without frontmatter, under today's."""
    if not front or not single_result:
        return TODAY
    value = front.get("run-date")
    date = value if isinstance(value, datetime.date) else _date(str(value)) if value is not None else None
    if date is None:
        match = _RUN_ID.fullmatch(str(front.get("run-id") or ""))
        date = _date(match.group("date")) if match else None
    return contract_at(date)
