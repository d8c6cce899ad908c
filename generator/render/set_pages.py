"""The pages of an analysis set's members: overview, runtime, epistemic and reconciliation
(the memory member is the memory report page), and the review projected from the overview.

Each member page shows its document's sections in the spec's order and the records its
member declares; references to records of other members link to their member's page.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any

from generator.graph.system_graph import amendment_anchors
from generator.model.inline_markup import plain_text
from generator.model.set_manifest import (
    MANIFEST_FILE,
    MANIFEST_TEXT_FILE,
    manifest_digest,
    member_digests,
    set_members,
)
from generator.model.sets import (
    EPISTEMIC_SECTION_TITLES,
    GENERATED_REVIEW_TYPE,
    LEDGER_LABELS,
    MEMBER_TYPES,
    OVERVIEW_SECTION_TITLES,
    RECONCILIATION_SECTION_TITLES,
    RUNTIME_SECTION_TITLES,
    LedgerEntry,
)
from generator.model.system import SystemRecords
from generator.model.vocab import Member
from generator.render import urls
from generator.render.contract_view import contract_statement, contract_view
from generator.render.environment import frontmatter
from generator.render.link_markup import link
from generator.render.registry import OVERVIEW_PAGE, PageRequest
from generator.render.views import (
    RecordPageView,
    evidence_basis,
    reviewed_source_identity,
    sources_of,
    system_name,
    theme_text,
)

if TYPE_CHECKING:
    from generator.graph.system_graph import SystemGraph

# Document key and section titles of each member page.
MEMBER_DOCUMENTS: dict[str, tuple[str, dict[str, str]]] = {
    "overview": ("overview", OVERVIEW_SECTION_TITLES),
    "runtime": ("runtime_report", RUNTIME_SECTION_TITLES),
    "epistemic": ("epistemic_report", EPISTEMIC_SECTION_TITLES),
    "reconciliation": ("reconciliation_report", RECONCILIATION_SECTION_TITLES),
}


def is_set(system: SystemRecords) -> bool:
    return system.analysis_set is not None


def _member_frontmatter(graph: SystemGraph, doc: Any) -> Any:
    run = graph.system.run
    the_set = graph.system.analysis_set
    values: dict[str, Any] = {
        "type": doc.type,
        "title": theme_text(doc.title),
        "description": theme_text(doc.description) if doc.description else None,
        "run-id": doc.run_id or (run.run_id if run else None) or (the_set.run_id if the_set else None),
        "system": system_name(graph),
        "reviewed-boundary": doc.reviewed_boundary or (the_set.reviewed_boundary if the_set else None),
        "render_macros": False,
    }
    return frontmatter({key: value for key, value in values.items() if value is not None})


def _ledger_heading_text(entry: LedgerEntry) -> tuple[str, ...]:
    return (*entry.routes, plain_text(entry.route_function), plain_text(entry.target))


def ledger_suffixes(entries: list[LedgerEntry]) -> list[str]:
    """What each ledger entry's heading adds after its routes, function and target: its
    number when another entry reads the same, so no two headings of the page are alike."""
    texts = [_ledger_heading_text(entry) for entry in entries]
    counts = Counter(texts)
    return [f" (entry {number})" if counts[text] > 1 else "" for number, text in enumerate(texts, 1)]


def member_view(request: PageRequest) -> dict[str, Any]:
    """A member page: its sections in order, its records, its annotations."""
    graph = request.graph
    key, titles = MEMBER_DOCUMENTS[request.spec.key]
    doc = getattr(graph.system, key)
    assert doc is not None
    view = RecordPageView(graph, request.spec.key, doc)
    ledger = getattr(doc, "authority_route_ledger", None)
    return {
        **view.context(),
        "doc": doc,
        "section_titles": titles,
        "sources": sources_of(graph) if request.spec.key == OVERVIEW_PAGE else [],
        "annotations": [
            a for a in graph.system.annotations if graph.annotation_page_of(a) == request.spec.key
        ],
        "ledger_labels": LEDGER_LABELS,
        "ledger_suffixes": ledger_suffixes(ledger.entries) if ledger is not None else [],
        "amendments": amendment_anchors(getattr(doc, "amendments", [])),
        "frontmatter": _member_frontmatter(graph, doc),
    }


def _review_type(overview_type: str) -> str:
    """The spec's generated-review type, beside the overview's own type
    (``agentic-systems/types/agentic-system-analysis-overview.md`` → ``…/generated-review.md``)."""
    return overview_type.replace(MEMBER_TYPES[Member.OVERVIEW], GENERATED_REVIEW_TYPE)


def set_review_view(request: PageRequest) -> dict[str, Any]:
    """The review of a set: projected from the overview, pinning the manifest's SHA-256."""
    graph = request.graph
    overview = graph.system.overview
    assert overview is not None
    view = RecordPageView(graph, request.spec.key, overview)
    the_set = graph.system.analysis_set
    assert the_set is not None
    digest = manifest_digest(graph.system)
    folder = urls.page_path(OVERVIEW_PAGE, graph.slug).rsplit("/", 1)[0]
    artifact, text_copy = f"{folder}/{MANIFEST_FILE}", f"{folder}/{MANIFEST_TEXT_FILE}"
    title = system_name(graph)
    contract = contract_view(graph)
    values: dict[str, Any] = {
        "type": _review_type(overview.type),
        "title": theme_text(f"{title} — review"),
        "description": theme_text(overview.description) if overview.description else None,
        "generated-by": "kbgen",
        "analysis-run": the_set.run_id,
        "source-identity": reviewed_source_identity(graph),
        "reviewed-revision": the_set.reviewed_boundary,
        "analysis-artifact": artifact,
        "analysis-artifact-sha256": digest,
        "run-id": the_set.run_id,
        "system": title,
        "render_macros": False,
    }
    return {
        **view.context(),
        "doc": overview,
        "title": f"{title} — review",
        "evidence_basis": evidence_basis(graph, view.html_linker),
        "route_contract": contract_statement(contract),
        "manifest_sha256": digest,
        # The link opens the text copy: a browser would download the .yaml.
        "manifest_link": link(MANIFEST_FILE, urls.file_href(request.path, text_copy)),
        "overview_href": urls.file_href(request.path, urls.page_path(OVERVIEW_PAGE, graph.slug)),
        "frontmatter": frontmatter({k: v for k, v in values.items() if v is not None}),
    }


def set_members_view(graph: SystemGraph, page_path: str) -> list[dict[str, Any]]:
    """The system page's list of members: title, link and canonical digest."""

    digests = member_digests(graph.system)
    found = []
    for member in set_members(graph.system):
        name = f"{member.value}.md"
        target = urls.page_path(graph.placement.member_page(member), graph.slug)
        found.append(
            {
                "member": member.value,
                "href": urls.href(page_path, target),
                "file": name,
                "sha256": digests[name],
            }
        )
    return found
