"""The gathered records put together as the files of a system folder."""

from __future__ import annotations

import re
from typing import Any

from ..model import kinds
from ..model.files import Run
from ..model.ids import kind_of
from .context import Gathered
from .drafts import finish
from .run import commit_statement, run_from_frontmatter, run_from_text
from .sections import DOCUMENT_TITLES

SUPPLIED_FROM = "another member of the analysis set (not declared in the imported document)"
# The file each top-level list is written to, as the shipped systems are laid out.
FILE_OF_LIST = {"authority_paths": "authority"}


def assemble(
    gathered: Gathered,
    kind: str,
    title: str,
    doc_type: str,
    front: dict[str, Any],
    body: dict[str, Any],
    form: str,
    set_member: bool = False,
) -> dict[str, dict[str, Any]]:
    """File name → top-level mapping, in a stable order."""
    records = {record_id: finish(draft, True, set_member) for record_id, draft in gathered.drafts.items()}
    annotations = [finish(draft, False) for draft in gathered.annotations]
    limitations = [finish(draft, False) for draft in gathered.limitations]
    supplied = _supplied(gathered, set(records))
    sources = [rid for rid in records if kind_of(rid) == "SRC"] + [
        s["id"] for s in supplied if kind_of(s["id"]) == "SRC"
    ]
    first_source = sources[0] if sources else None
    if form == "text":
        run = run_from_text(title, _prose_text(body, ("run_identity", "boundary_and_evidence")), first_source)
    else:
        run = run_from_frontmatter(title, front, first_source)
    run = {key: run[key] for key in Run.model_fields if key in run}
    _pin_supplied_sources(supplied, front, body, run)
    _quote_sources(gathered, records, annotations, run, supplied)
    files: dict[str, dict[str, Any]] = {
        "run.yaml": {"run": run, **({"supplied": supplied} if supplied else {})}
    }
    for spec in kinds.registered():
        listed = [record for rid, record in records.items() if gathered.drafts[rid].list_key == spec.list_key]
        if listed:
            files[f"{FILE_OF_LIST.get(spec.list_key, spec.list_key)}.yaml"] = {spec.list_key: listed}
    if limitations:
        files["limitations.yaml"] = {"limitations": limitations}
    if annotations:
        files["annotations.yaml"] = {"annotations": annotations}
    if isinstance(front.get("memory-comparison"), dict):
        files["profile.yaml"] = {"memory_comparison": front["memory-comparison"]}
    document = _document(kind, title, doc_type, body)
    files["result.yaml" if kind == "result" else "report.yaml"] = {
        kind: _with_identity(document, front, kind) if set_member else document
    }
    return files


def _supplied(gathered: Gathered, declared: set[str]) -> list[dict[str, Any]]:
    """A supplied record for every ID the document cites but does not declare, with a warning."""
    for draft in gathered.drafts.values():
        gathered.cite_value(draft.data.get("part_of"), draft.line, draft.col)
    out = []
    for record_id, (line, col) in gathered.cited.items():
        if record_id in declared:
            continue
        gathered.warn(
            "KB607",
            f"{record_id} is cited but not declared in the document; it is recorded as a supplied record",
            line,
            col,
            hint="Declare it in the document, or name the member that declares it in 'declared_in'.",
        )
        entry: dict[str, Any] = {"id": record_id, "declared_in": SUPPLIED_FROM}
        if record_id in gathered.supplied_labels:
            entry["label"] = gathered.supplied_labels[record_id]
        out.append(entry)
    return out


def _pin_supplied_sources(
    supplied: list[dict[str, Any]], front: dict[str, Any], body: dict[str, Any], run: dict[str, Any]
) -> None:
    """The reviewed source, when supplied, carries the revision (and location) the document states."""
    boundary = run.get("reviewed_boundary") or {}
    stated = commit_statement(_prose_text(body, ("boundary_and_evidence",)))
    for entry in supplied:
        if entry["id"] != boundary.get("source"):
            continue
        entry["revision"] = boundary["revision"]
        location = front.get("source-identity")
        if isinstance(location, str) and location.startswith(("https://", "http://")):
            entry["location"] = location
    if stated and not boundary:
        for entry in supplied:
            if entry["id"] == stated[0]:
                entry["revision"] = stated[1]


def _quote_sources(
    gathered: Gathered,
    records: dict[str, dict[str, Any]],
    annotations: list[dict[str, Any]],
    run: dict[str, Any],
    supplied: list[dict[str, Any]],
) -> None:
    """Each quotation's source: the one pinned at the commit its attribution names, else the
    one its record's evidence cites (when only one), else the reviewed source."""
    default = (run.get("reviewed_boundary") or {}).get("source")
    pinned = {
        str(entry["revision"]): entry["id"]
        for entry in [*records.values(), *supplied]
        if kind_of(entry.get("id", "")) == "SRC" and entry.get("revision")
    }
    owners = [*records.values(), *annotations, {"quotes": gathered.prose_quotes}]
    for owner in owners:
        cited = {anchor.split(" ", 1)[0] for anchor in owner.get("evidence", [])}
        fallback = next(iter(cited)) if len(cited) == 1 else default
        for quote in owner.get("quotes", []):
            commit = gathered.quote_commits.get(id(quote))
            source = _named_source(owner, quote["path"]) or next(
                (s for rev, s in pinned.items() if commit and rev.startswith(commit)), fallback
            )
            if source:
                ordered = {"text": quote["text"], "path": quote["path"], "source": source}
                if "lines" in quote:
                    ordered["lines"] = quote["lines"]
                quote.clear()
                quote.update(ordered)


def _named_source(record: dict[str, Any], path: str) -> str | None:
    """The source a record's text names with the quoted file (``Source: SRC-2: `README.md```):
    several sources may be pinned at one commit (implementation and doctrine of one repo)."""
    written = re.compile(rf"\b(SRC-[0-9]+): `{re.escape(path)}`")
    for value in record.values():
        match = written.search(value) if isinstance(value, str) else None
        if match:
            return match.group(1)
    return None


# Frontmatter fields a member of an analysis set keeps on its document.
MEMBER_FIELDS = {"description": "description", "run-id": "run_id", "reviewed-boundary": "reviewed_boundary"}


def _with_identity(document: dict[str, Any], front: dict[str, Any], kind: str) -> dict[str, Any]:
    """A set member's document carries its frontmatter's description, run and boundary."""
    if kind == "result" or (kind == "memory_report" and "run-id" not in front):
        return document
    identity = {key: str(front[name]) for name, key in MEMBER_FIELDS.items() if front.get(name)}
    if kind == "memory_report" and front.get("report-status"):
        identity["report_status"] = str(front["report-status"])
    if kind == "overview":
        identity.pop("reviewed_boundary", None)  # the run holds it
        if front.get("inputs-commit"):
            identity["inputs_commit"] = str(front["inputs-commit"])
    title, doc_type = document.pop("title"), document.pop("type")
    return {"title": title, "type": doc_type, **identity, **document}


def _document(kind: str, title: str, doc_type: str, body: dict[str, Any]) -> dict[str, Any]:
    titles = DOCUMENT_TITLES[kind]
    document: dict[str, Any] = {"title": title, "type": doc_type or "imported"}
    for key in titles:
        document[key] = body.get(key, {})
    if body.get("amendments"):  # a reconciliation's typed amendments, after its prose
        document["amendments"] = body["amendments"]
    return document


def _prose_text(body: dict[str, Any], keys: tuple[str, ...]) -> str:
    parts: list[str] = []

    def walk(value: Any) -> None:
        if isinstance(value, str):
            parts.append(value)
        elif isinstance(value, dict):
            for item in value.values():
                walk(item)
        elif isinstance(value, list):
            for item in value:
                walk(item)

    for key in keys:
        walk(body.get(key))
    return "\n".join(parts)
