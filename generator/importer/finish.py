"""The gathered records put together as the files of a system folder."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from generator.diagnostics import Rule
from generator.importer.context import Gathered
from generator.importer.doc_types import DocumentType
from generator.importer.drafts import Draft, finish, key_order
from generator.importer.import_rules import KB601, KB607
from generator.importer.refusals import as_paragraph, mend
from generator.importer.run import commit_statement, run_from_frontmatter, run_from_text, run_references
from generator.importer.sections import SHARED
from generator.model import kinds
from generator.model.files import Run
from generator.model.sets import DOCUMENT_SECTION_TITLES

KB613 = Rule(
    "KB613",
    "import-quote-source",
    "A quotation's commit matches several sources and its record does not say which.",
    doc=(
        "`kbgen import`, warning: a quotation's commit is the revision of several sources and its record "
        "cites neither with the quoted file; it is attributed to the first"
    ),
)


def _is_source(record_id: str) -> bool:
    return kinds.has_role(record_id, kinds.Role.EVIDENCE_SOURCE)


def assemble(
    gathered: Gathered,
    spec: DocumentType,
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
    refused = set(records)
    records, annotations, limitations = _refusals(gathered, body, records, annotations, limitations)
    refused -= set(records)
    # A record kept as prose is not 'declared in another member': it is not supplied either.
    supplied = _supplied(gathered, set(records) | refused, spec.cited_only)
    sources = [rid for rid in records if _is_source(rid)] + [s["id"] for s in supplied if _is_source(s["id"])]
    first_source = sources[0] if sources else None
    if form == "text":
        run = run_from_text(title, _prose_text(body, ("run_identity", "boundary_and_evidence")), first_source)
    else:
        run = run_from_frontmatter(title, front, first_source)
    identity = body.get("run_identity")
    if isinstance(identity, dict) and identity.get("blocks"):
        references, identity["blocks"] = run_references(identity["blocks"])
        if references:
            run["references"] = references
    if not gathered.contract.is_today:
        run["contract"] = gathered.contract.name.value
    run = {key: run[key] for key in Run.model_fields if key in run}
    _pin_supplied_sources(supplied, front, body, run)
    _quote_sources(gathered, records, annotations, run, supplied)
    _pinned_evidence(gathered, records, supplied)
    files: dict[str, dict[str, Any]] = {
        "run.yaml": {"run": run, **({"supplied": supplied} if supplied else {})}
    }
    for kind in kinds.registered():
        listed = [record for rid, record in records.items() if gathered.drafts[rid].list_key == kind.list_key]
        if listed:
            files[kind.file_name] = {kind.list_key: listed}
    if limitations:
        files["limitations.yaml"] = {"limitations": limitations}
    if annotations:
        files["annotations.yaml"] = {"annotations": annotations}
    if isinstance(front.get("memory-comparison"), dict):
        files["profile.yaml"] = {"memory_comparison": front["memory-comparison"]}
    document = _document(spec.model, title, doc_type, body)
    files[spec.file_name] = {spec.model: _with_identity(document, front, spec) if set_member else document}
    return files


def _refusals(
    gathered: Gathered,
    body: dict[str, Any],
    records: dict[str, dict[str, Any]],
    annotations: list[dict[str, Any]],
    limitations: list[dict[str, Any]],
) -> tuple[dict[str, dict[str, Any]], list[dict[str, Any]], list[dict[str, Any]]]:
    """Every record as its model accepts it; what it refuses goes back to prose (``refusals``)."""
    kept: dict[str, dict[str, Any]] = {}
    for record_id, record in records.items():
        draft = gathered.drafts[record_id]
        mended = mend(draft.list_key, record, _warner(gathered, draft))
        if mended is None:
            _unplace(body, record_id, draft.list_key, as_paragraph(record))
        else:
            kept[record_id] = mended
    for record_id in records.keys() - kept.keys():
        del gathered.drafts[record_id]
    kept_annotations = []
    for draft, record in zip(gathered.annotations, annotations, strict=True):
        mended = mend("annotations", record, _warner(gathered, draft))
        if mended is None:
            _section_blocks(body, ("annotations",)).append(as_paragraph(record))
        else:
            kept_annotations.append(mended)
    kept_limitations = []
    for draft, record in zip(gathered.limitations, limitations, strict=True):
        mended = mend("limitations", record, _warner(gathered, draft))
        if mended is None:
            _section_blocks(body, ("limitations", "limitations_and_checks")).append(as_paragraph(record))
        else:
            kept_limitations.append(mended)
    return kept, kept_annotations, kept_limitations


def _warner(gathered: Gathered, draft: Draft) -> Callable[[str], None]:
    """Report a refusal at the line of the record's declaration."""

    def warn(message: str) -> None:
        gathered.warn(KB601, message, draft.line, draft.col)

    return warn


def _section_blocks(body: dict[str, Any], keys: tuple[str, ...]) -> list[Any]:
    """The blocks of the first of ``keys`` the document has (made if none has)."""
    key = next((key for key in keys if key in body), keys[0])
    return body.setdefault(key, {}).setdefault("blocks", [])


def _unplace(body: dict[str, Any], record_id: str, list_key: str, paragraph: str) -> None:
    """Replace a record's placement with its text as a paragraph, where it was placed."""

    def walk(value: Any) -> bool:
        if isinstance(value, dict):
            return any(walk(item) for item in value.values())
        if not isinstance(value, list):
            return False
        for index, block in enumerate(value):
            if isinstance(block, dict) and record_id in (block.get("records") or []):
                rest = [other for other in block["records"] if other != record_id]
                value[index : index + 1] = [*([{"records": rest}] if rest else []), paragraph]
                return True
            if walk(block):
                return True
        return False

    if not walk(body):
        shared = body.setdefault(SHARED, {})
        shared.setdefault(list_key, {}).setdefault("blocks", []).append(paragraph)


def _supplied(gathered: Gathered, declared: set[str], declared_in: str) -> list[dict[str, Any]]:
    """A supplied record for every ID the document cites but does not declare, with a warning."""
    for draft in gathered.drafts.values():
        gathered.cite_value(draft.data.get("part_of"), draft.line, draft.col)
    out = []
    for record_id, (line, col) in gathered.cited.items():
        if record_id in declared:
            continue
        gathered.warn(
            KB607,
            f"{record_id} is cited but not declared in the document; it is recorded as a supplied record",
            line,
            col,
            hint="Declare it in the document, or name the member that declares it in 'declared_in'.",
        )
        entry: dict[str, Any] = {"id": record_id, "declared_in": declared_in}
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
    """Each quotation's source, and its pin where the source's revision does not hold it.

    The source is the one the attribution names (``— SRC-2 path``), else the one the
    record's text names with the quoted file (``SRC-2: `README.md```), else the source
    pinned at the commit the attribution names; when several sources share that revision
    (implementation and doctrine of one repository), the one whose evidence the record
    cites with that file, else the one the record cites at all, else the first (KB613).
    Without a commit: the one source the record cites with the quoted file, else the
    record's single cited source, else the reviewed source. A capture
    digest (``sha256:…``) and a full commit no source is pinned at are kept as the pin.
    """
    default = (run.get("reviewed_boundary") or {}).get("source")
    reviewed = _unquoted(str((run.get("reviewed_boundary") or {}).get("revision") or ""))
    revisions = {
        entry["id"]: _unquoted(str(entry["revision"]))
        for entry in [*records.values(), *supplied]
        if _is_source(str(entry.get("id", ""))) and entry.get("revision")
    }
    owners = [*records.values(), *annotations, {"quotes": gathered.prose_quotes}]
    for owner in owners:
        anchors = [str(anchor) for anchor in owner.get("evidence", [])]
        cited = list(dict.fromkeys(anchor.split(" ", 1)[0] for anchor in anchors))
        fallback = cited[0] if len(cited) == 1 else default
        for quote in owner.get("quotes", []):
            pin = gathered.quote_commits.get(id(quote))
            digest = pin if pin and pin.startswith("sha256:") else None
            commit = None if digest else pin
            source = gathered.quote_sources.get(id(quote)) or _named_source(owner, quote["path"])
            if source is None and commit:
                source = _source_at(gathered, quote, commit, revisions, anchors, cited)
            source = source or _citing_source(quote["path"], anchors) or fallback
            held = revisions.get(source or "", reviewed)  # the revision the source is pinned at
            keep_pin = digest or (commit if len(commit or "") in (40, 64) and held != commit else None)
            if source:
                ordered = {"text": quote["text"], "path": quote["path"], "source": source}
                if "lines" in quote:
                    ordered["lines"] = quote["lines"]
                if keep_pin:
                    ordered["pin"] = keep_pin
                quote.clear()
                quote.update(ordered)
            elif keep_pin:
                quote["pin"] = keep_pin


def _pinned_evidence(
    gathered: Gathered, records: dict[str, dict[str, Any]], supplied: list[dict[str, Any]]
) -> None:
    """``- Evidence: `a`, `b` @ <commit>``: each path is the evidence of the one source pinned
    at that commit (as a quotation's is); with none, or several, no source is invented and
    the line stays the record's text only."""
    revisions = {
        entry["id"]: _unquoted(str(entry["revision"]))
        for entry in [*records.values(), *supplied]
        if _is_source(str(entry.get("id", ""))) and entry.get("revision")
    }
    for record_id, record in records.items():
        found = []
        for path, commit in gathered.drafts[record_id].pinned_evidence:
            sources = [source for source, revision in revisions.items() if revision == commit]
            if len(sources) == 1:
                found.append(f"{sources[0]} {path}")
        if found:
            record["evidence"] = list(dict.fromkeys([*record.get("evidence", []), *found]))
            ordered = {
                key: record[key] for key in key_order(gathered.drafts[record_id].list_key) if key in record
            }
            record.clear()
            record.update(ordered)


def _unquoted(revision: str) -> str:
    return revision.strip().strip("`").strip()


def _source_at(
    gathered: Gathered,
    quote: dict[str, Any],
    commit: str,
    revisions: dict[str, str],
    anchors: list[str],
    cited: list[str],
) -> str | None:
    """The source pinned at ``commit`` for this quotation (see ``_quote_sources``)."""
    candidates = [source for source, revision in revisions.items() if revision.startswith(commit)]
    if len(candidates) <= 1:
        return candidates[0] if candidates else None
    path = quote["path"]
    by_path = [c for c in candidates if any(a.split(":", 1)[0] == f"{c} {path}" for a in anchors)]
    if len(by_path) == 1:
        return by_path[0]
    by_citation = [c for c in candidates if c in cited]
    if len(by_citation) == 1:
        return by_citation[0]
    line, col = gathered.quote_places.get(id(quote), (1, 1))
    gathered.warn(
        KB613,
        f"the quotation of {path} at {commit[:12]} matches {', '.join(candidates)}, and its record "
        f"does not say which; it is attributed to {candidates[0]}",
        line,
        col,
        hint="Cite the file in the record's evidence with the source it belongs to.",
    )
    return candidates[0]


def _citing_source(path: str, anchors: list[str]) -> str | None:
    """The one source whose evidence the record cites with the quoted file, if one does."""
    sources = {
        anchor.split(" ", 1)[0] for anchor in anchors if anchor.split(" ", 1)[-1].split(":", 1)[0] == path
    }
    return next(iter(sources)) if len(sources) == 1 else None


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


def _with_identity(document: dict[str, Any], front: dict[str, Any], spec: DocumentType) -> dict[str, Any]:
    """A set member's document carries its frontmatter's description, run and boundary, and
    what else its type keeps of it (``spec.identity_keys``)."""
    if not spec.member_identity or (spec.identity_needs_run_id and "run-id" not in front):
        return document
    identity = {key: str(front[name]) for name, key in MEMBER_FIELDS.items() if front.get(name)}
    if spec.run_holds_boundary:
        identity.pop("reviewed_boundary", None)  # the run holds it
    for name, key in spec.identity_keys.items():
        if front.get(name):
            identity[key] = str(front[name])
    title, doc_type = document.pop("title"), document.pop("type")
    return {"title": title, "type": doc_type, **identity, **document}


def _document(kind: str, title: str, doc_type: str, body: dict[str, Any]) -> dict[str, Any]:
    titles = DOCUMENT_SECTION_TITLES[kind]
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
