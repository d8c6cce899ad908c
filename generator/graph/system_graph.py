"""Link stage: one resolved graph per system — IDs, pages, references, backlinks, evidence URLs.

Every record has one home page (``PagePlacement.home``, supplied by the renderer: the
first page of the system that holds records, the result, else the memory report, else
the system page); other pages link there. References are collected from structured
fields and from prose, so each record can list what cites it.
"""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import NamedTuple

from generator.graph.anchors import PageAnchors
from generator.graph.placement import PagePlacement
from generator.model.anchors import LineRange
from generator.model.ids import anchor_of, grammar, kind_of, range_ids, resolve_id, sort_key, title_anchor
from generator.model.kinds import shared_kind_titles, status_fields
from generator.model.profile import AXIS_TITLES, axis_anchor
from generator.model.prose import (
    MEMORY_REPORT_SECTION_TITLES,
    Section,
)
from generator.model.records import Annotation, RecordBase, Source, Supplied
from generator.model.runs import RunEntry, RunHistory
from generator.model.sets import (
    DOCUMENT_SECTION_TITLES,
    SetAmendment,
    annotation_member,
    record_member,
)
from generator.model.system import SystemRecords
from generator.model.url_policy import (
    SourceLinks,
    source_links,
)
from generator.model.walk import Contents, collect


@dataclass(frozen=True, slots=True)
class Place:
    """Where something can be linked to: a system page and an anchor on it."""

    slug: str
    page: str
    anchor: str
    title: str


class Amended(NamedTuple):
    """An amendment of an analysis set's reconciliation and its anchor on the reconciliation page."""

    anchor: str
    amendment: SetAmendment


class ProseSection(NamedTuple):
    """A prose section of the system's documents: where it is, and what it holds of its own
    (a section's blocks, a subsection being one of its own; or a document field's value)."""

    place: Place
    content: object


@dataclass
class SystemGraph:
    """The resolved graph of one system, asked through its queries.

    The storage below (underscored) is filled once by ``link_system`` and read only through
    the queries: what is declared (``record``, ``supplied_record``, ``source``,
    ``is_declared``, ``resolve``), what a kind holds (``records_of_kind``, in declaration
    order; ``records_in_id_order``, ``supplied_in_id_order``), who cites an ID and what it
    cites (``cited_by``, ``cites``), what amends it (``amendments_of``), what supersedes it
    within the run and what it supersedes (``superseded_by``, ``supersedes``) and where things are
    published (``place_of``, ``page_of``, ``records_on_member_pages``, ``section_anchor``,
    ``prose_sections``). Each answers in constant time or in the size of its answer: the
    lists are built once, when linking or on first use.
    """

    system: SystemRecords
    placement: PagePlacement
    home_page: str
    # Every run of the system, when it has more than one (``model/runs.py``); None for one run.
    history: RunHistory | None = None
    _records: dict[str, RecordBase] = field(default_factory=dict, init=False, repr=False)
    _supplied: dict[str, Supplied] = field(default_factory=dict, init=False, repr=False)
    # target ID → places that reference it (records and sections), deduplicated, sorted.
    _cited_by: dict[str, list[Place]] = field(default_factory=dict, init=False, repr=False)
    _sources: dict[str, Source | Supplied] = field(default_factory=dict, init=False, repr=False)
    # record ID → the IDs its fields and prose cite (the forward direction of _cited_by).
    _cites: dict[str, list[str]] = field(default_factory=dict, init=False, repr=False)
    _declared: frozenset[str] = field(default=frozenset(), init=False, repr=False)  # records and supplied
    # In an analysis set, record ID → the page of the member that declares it.
    _record_pages: dict[str, str] = field(default_factory=dict, init=False, repr=False)
    # In an analysis set, amended record ID → its amendments, in the reconciliation's order.
    _amended: dict[str, list[Amended]] = field(default_factory=dict, init=False, repr=False)
    # id(section) → its anchor on its page, allocated once per page (``graph/anchors.py``):
    # a prose section never takes a record's anchor, the theme's or another section's.
    _section_anchors: dict[int, str] = field(default_factory=dict, init=False, repr=False)
    # Every prose section of the system's documents, in page order. Search indexes them.
    _prose_sections: list[ProseSection] = field(default_factory=list, init=False, repr=False)

    # ------------------------------------------------------------------ what is declared

    def record(self, record_id: str) -> RecordBase | None:
        """The record the system declares under an ID (None for a supplied or unknown ID)."""
        return self._records.get(record_id)

    def supplied_record(self, record_id: str) -> Supplied | None:
        """The supplied record of an ID: declared elsewhere, cited here."""
        return self._supplied.get(record_id)

    def source(self, source_id: str) -> Source | Supplied | None:
        """The source record (declared here, or supplied) an evidence anchor cites."""
        return self._sources.get(source_id)

    def is_declared(self, record_id: str) -> bool:
        """Whether the system declares or is supplied the ID."""
        return record_id in self._declared

    def resolve(self, token: str) -> str | None:
        """The declared ID a prose token names (longest match), or None."""
        return resolve_id(token, self._declared)

    def records_of_kind(self, kind: str) -> Sequence[RecordBase]:
        """The system's records of a kind (its code, as ``kind_of`` gives it), in declaration order."""
        return self._by_kind.get(kind, ())

    @functools.cached_property
    def _by_kind(self) -> dict[str | None, tuple[RecordBase, ...]]:
        grouped: dict[str | None, list[RecordBase]] = {}
        for record in self._records.values():
            grouped.setdefault(kind_of(record.id), []).append(record)
        return {kind: tuple(records) for kind, records in grouped.items()}

    @functools.cached_property
    def records_in_id_order(self) -> Sequence[RecordBase]:
        """Every record of the system, in ID order."""
        return tuple(self._records[record_id] for record_id in sorted(self._records, key=sort_key))

    @functools.cached_property
    def supplied_in_id_order(self) -> Sequence[Supplied]:
        """Every supplied record of the system, in ID order."""
        return tuple(self._supplied[record_id] for record_id in sorted(self._supplied, key=sort_key))

    # ------------------------------------------------------------------ who cites what

    def cited_by(self, record_id: str) -> Sequence[Place]:
        """The places (records and sections) that cite an ID, one per anchor, sorted by page,
        title and anchor."""
        return self._cited_by.get(record_id, ())

    def cites(self, record_id: str) -> Sequence[str]:
        """The declared IDs a record's fields and prose cite, in ID order."""
        return self._cites.get(record_id, ())

    def amendments_of(self, record_id: str) -> Sequence[Amended]:
        """In an analysis set, the reconciliation's amendments of a record, in its order."""
        return self._amended.get(record_id, ())

    def superseded_by(self, record_id: str) -> Sequence[str]:
        """The records of this run that supersede a record, as it names them (declared IDs only)."""
        record = self._records.get(record_id)
        if record is None:
            return ()
        return tuple(
            target for target in record.superseded_by if target in self._declared and target != record_id
        )

    def supersedes(self, record_id: str) -> Sequence[str]:
        """The records a record supersedes within this run (those naming it in ``superseded_by``),
        in ID order."""
        return self._superseded.get(record_id, ())

    @functools.cached_property
    def _superseded(self) -> dict[str, tuple[str, ...]]:
        found: dict[str, list[str]] = {}
        for record in self._records.values():
            for target in dict.fromkeys(record.superseded_by):
                if target != record.id:
                    found.setdefault(target, []).append(record.id)
        return {target: tuple(sorted(ids, key=sort_key)) for target, ids in found.items()}

    # ------------------------------------------------------------------ where it is published

    @property
    def records_on_member_pages(self) -> bool:
        """Whether each record lives on the page of the set member that declares it (an
        analysis set with records) rather than all on the home page."""
        return bool(self._record_pages)

    def section_anchor(self, section: Section) -> str | None:
        """A prose section's anchor on its page, as allocated; None for a section the graph
        did not see."""
        return self._section_anchors.get(id(section))

    def document_section(self, document: str, key: str) -> Place | None:
        """Where a document's section (``'overview'``, ``'bounded_synthesis'``) is published:
        its page and anchor; None when the system has no such document or section."""
        doc = getattr(self.system, document, None)
        value = getattr(doc, key, None) if doc is not None else None
        page = self.placement.documents.get(document)
        anchor = self._section_anchors.get(id(value)) if isinstance(value, Section) else None
        if page is None or anchor is None:
            return None
        return Place(self.slug, page, anchor, (getattr(value, "title", None) or key).strip())

    @property
    def prose_sections(self) -> Sequence[ProseSection]:
        """Every prose section of the system's documents, in page order."""
        return self._prose_sections

    @property
    def slug(self) -> str:
        """Where the run's pages live below ``systems/``: the system's slug for its current
        run, ``<slug>/runs/<run-id>`` for an earlier one."""
        return self.run.path_slug if self.run is not None else self.system.slug

    @property
    def run(self) -> RunEntry | None:
        """This graph's run in the system's history (None when the system has one run)."""
        return self.history.entry(self.system.run_folder) if self.history is not None else None

    @property
    def is_current(self) -> bool:
        return self.run is None or self.run.current

    @functools.cached_property
    def status_counts(self) -> tuple[Counter[str], dict[str, Counter[str]]]:
        """Conclusion-status values of the system's records: in total and per status field.

        Computed once per graph: the status matrix counts every system on every build, and
        ``kbgen serve`` keeps an unchanged system's graph across rebuilds."""
        totals: Counter[str] = Counter()
        per_field: dict[str, Counter[str]] = {}
        for record in self.system.records:
            for label, value in status_fields(record):
                totals[value] += 1
                per_field.setdefault(label, Counter())[value] += 1
        return totals, per_field

    @functools.cached_property
    def status_holders(self) -> tuple[tuple[str, str, str], ...]:
        """(record ID, status field label, value) of every conclusion status of the system's
        records, in their order: what ``status_counts`` counts, for the status matrix's
        lists of the records behind each count."""
        return tuple(
            (record.id, label, value)
            for record in self.system.records
            for label, value in status_fields(record)
        )

    @property
    def annotation_page(self) -> str:
        """Annotations belong to the memory report; without one, to the system page."""
        pages = self.placement
        return pages.memory_report if self.system.memory_report is not None else pages.system

    def annotation_page_of(self, annotation: Annotation) -> str:
        """The page an annotation is published on: in a set, its member's page."""
        if self.system.analysis_set is not None:
            return self.placement.member_page(annotation_member(annotation))
        return self.annotation_page

    def page_of(self, record_id: str) -> str:
        """The page a declared record is published on."""
        return self._record_pages.get(record_id, self.home_page)

    @property
    def profile_page(self) -> str:
        """The memory-comparison profile belongs to the memory report; without one, to the home page."""
        return self.placement.memory_report if self.system.memory_report is not None else self.home_page

    @property
    def limitations_anchor(self) -> str:
        """The anchor of the section that lists the limitations on the home page."""
        if self.home_page == self.placement.memory_report:
            return title_anchor(MEMORY_REPORT_SECTION_TITLES["limitations_and_checks"])
        return title_anchor("Limitations")

    def place_of(self, record_id: str) -> Place | None:
        """Where a record is published; None for supplied records (declared elsewhere)."""
        record = self._records.get(record_id)
        if record is None:
            return None
        return Place(
            self.slug, self.page_of(record_id), anchor_of(record_id), record.shown_label() or record_id
        )

    def links_of(self, source_id: str) -> SourceLinks | None:
        """The link builder of a cited source (its link policy, location and revision)."""
        return self._source_links.get(source_id)

    @functools.cached_property
    def _source_links(self) -> dict[str, SourceLinks]:
        """Each source's link builder, made once: every evidence anchor of the system asks
        for one, and making it parses the location and the link template."""
        found = {}
        for source_id, source in self._sources.items():
            location = str(source.location) if source.location is not None else None
            links, template = getattr(source, "links", None), getattr(source, "link_template", None)
            found[source_id] = source_links(links, location, source.revision, template)
        return found

    def evidence_url(self, source_id: str, path: str, line_range: LineRange | None) -> str | None:
        """The URL of a cited file at the pinned revision, with its line range, if linkable."""
        links = self.links_of(source_id)
        if links is None:
            return None
        start, end = (line_range.start, line_range.end) if line_range else (None, None)
        return links.file(path, start, end)

    def quote_url(
        self, source_id: str, path: str, line_range: LineRange | None, pin: str | None
    ) -> str | None:
        """A quotation's link: at its own pin when that is a commit; a captured file
        (pinned by a sha256 digest) has no link."""
        if pin is None:
            return self.evidence_url(source_id, path, line_range)
        links = self.links_of(source_id)
        if links is None or pin.startswith("sha256:"):
            return None
        start, end = (line_range.start, line_range.end) if line_range else (None, None)
        return links.file_at(pin, path, start, end)

    def revision_url(self, source_id: str, revision: str) -> str | None:
        """The URL of a source's tree at a revision, if the source's link policy gives one."""
        links = self.links_of(source_id)
        return links.tree(revision) if links is not None else None


def _page_anchors(graph: SystemGraph, page: str, titles: dict[str, str]) -> PageAnchors:
    """The anchors a page owns before its prose sections get theirs: its records', its
    annotations', its own section and kind titles'."""
    records = [anchor_of(rid) for rid in graph._records if graph.page_of(rid) == page]
    notes = [
        "on-" + anchor_of(a.target) for a in graph.system.annotations if graph.annotation_page_of(a) == page
    ]
    return PageAnchors([*records, *notes], [*titles.values(), *shared_kind_titles().values()])


def _section_places(
    graph: SystemGraph, page: str, doc: object, titles: dict[str, str]
) -> Iterator[tuple[Place, object, PageAnchors]]:
    anchors = _page_anchors(graph, page, titles)
    for key, title in titles.items():
        value = getattr(doc, key)
        if isinstance(value, Section) and value.title:
            shown = value.title.strip()
            anchor = anchors.section(shown)
        else:
            shown, anchor = title, anchors.own(title)
        if isinstance(value, Section):
            graph._section_anchors[id(value)] = anchor
        yield Place(graph.slug, page, anchor, shown), value, anchors


def _ids_in(value: object, contents: Contents | None = None) -> Iterator[str]:
    """Every ID the texts of ``value`` write (``contents``: what its walk found, if known),
    and every ID a range between two of them spans (``RTE-21–RTE-29`` cites RTE-22 to
    RTE-28 too)."""
    for text in (contents or collect(value)).texts:
        for match in grammar().in_text.finditer(text.text):
            yield match.group(0)
        if "–" in text.text or "—" in text.text:
            for match in grammar().range_in_text.finditer(text.text):
                yield from range_ids(match.group("first"), match.group("last")) or ()


def _nested_sections(
    graph: SystemGraph, place: Place, section: Section, anchors: PageAnchors
) -> Iterator[tuple[Place, object]]:
    yield place, section.blocks
    for sub in section.sections:
        title = (sub.title or place.title).strip()
        anchor = anchors.section(title)
        graph._section_anchors[id(sub)] = anchor
        yield from _nested_sections(graph, Place(place.slug, place.page, anchor, title), sub, anchors)


class _References:
    """Target ID → the places that cite it, one entry per (page, anchor)."""

    def __init__(self, graph: SystemGraph) -> None:
        self.graph = graph
        self.found: dict[str, dict[tuple[str, str], Place]] = {}

    def add(self, target: str | None, place: Place) -> None:
        if target is None or target == place.title:
            return
        self.found.setdefault(target, {})[(place.page, place.anchor)] = place

    def add_text(self, value: object, place: Place) -> None:
        """Every declared ID written in the texts of ``value`` is cited by ``place``."""
        for token in _ids_in(value):
            self.add(self.graph.resolve(token), place)

    def sorted(self) -> dict[str, list[Place]]:
        return {
            target: sorted(places.values(), key=lambda p: (p.page, sort_key(p.title), p.anchor))
            for target, places in sorted(self.found.items())
        }


def _record_targets(graph: SystemGraph, record_id: str, record: RecordBase) -> set[str]:
    """What a record cites: IDs in its texts, its parent, affected findings, evidence sources."""
    targets = {graph.resolve(token) for token in _ids_in(record, graph.system.contents(record))}
    if record.part_of:
        targets.add(record.part_of)
    for amendment in record.amendments:
        targets.update(amendment.affects)
    for key in ("alternative_to", "reads", "writes", "superseded_by"):
        targets.update(getattr(record, key, ()))
    for evidence in record.evidence:
        targets.add(evidence.source)
    targets.discard(record_id)
    return {target for target in targets if target is not None}


def _cite_from_records(graph: SystemGraph, references: _References) -> None:
    for record_id, record in graph._records.items():
        place = graph.place_of(record_id)
        assert place is not None
        place = Place(place.slug, place.page, place.anchor, record_id)
        targets = _record_targets(graph, record_id, record)
        graph._cites[record_id] = sorted(targets, key=sort_key)
        for target in targets:
            references.add(target, place)


def _cite_from_notes(graph: SystemGraph, references: _References) -> None:
    """Limitations and annotations cite from their section of their page."""
    system = graph.system
    for limitation in system.limitations:
        place = Place(graph.slug, graph.home_page, graph.limitations_anchor, "Limitations")
        references.add_text(limitation, place)
    for annotation in system.annotations:
        place = Place(
            graph.slug,
            graph.annotation_page_of(annotation),
            "on-" + anchor_of(annotation.target),
            f"On {annotation.target}",
        )
        references.add(annotation.target, place)
        references.add_text(annotation, place)


def _cite_from_sections(graph: SystemGraph, references: _References) -> None:
    system = graph.system
    for key, titles in DOCUMENT_SECTION_TITLES.items():
        doc = getattr(system, key)
        if doc is None:
            continue
        page = graph.placement.documents[key]
        for place, value, anchors in _section_places(graph, page, doc, titles):
            parts = (
                _nested_sections(graph, place, value, anchors)
                if isinstance(value, Section)
                else [(place, value)]
            )
            for sub_place, sub_value in parts:
                references.add_text(sub_value, sub_place)
                graph._prose_sections.append(ProseSection(sub_place, sub_value))


def _cite_from_reconciliation(graph: SystemGraph, references: _References) -> None:
    """Each amendment cites (and is listed on) the record it amends; its findings cite too."""
    report = graph.system.reconciliation_report
    if report is None:
        return
    for anchored in amendment_anchors(report.amendments):
        anchor, amendment = anchored
        place = Place(graph.slug, graph.placement.reconciliation, anchor, amendment_title(amendment))
        for ref in (*amendment.targets, *amendment.affects):
            references.add(ref, place)
        references.add_text(amendment, place)
        for target in dict.fromkeys(amendment.targets):
            graph._amended.setdefault(target, []).append(anchored)
    supersessions = Place(graph.slug, graph.placement.reconciliation, "supersessions", "Supersessions")
    for supersession in report.supersessions:
        references.add(supersession.superseded, supersessions)
        references.add(supersession.by, supersessions)
        references.add_text(supersession, supersessions)
    conflicts = Place(
        graph.slug, graph.placement.reconciliation, "unresolved-conflicts", "Unresolved conflicts"
    )
    for conflict in report.unresolved_conflicts:
        for ref in conflict.affects:
            references.add(ref, conflicts)
        references.add_text(conflict, conflicts)


def amendment_title(amendment: SetAmendment) -> str:
    """'Amendment: RTE-2, RTE-3': the records it amends."""
    return "Amendment: " + ", ".join(amendment.targets)


def amendment_anchors(amendments: Iterable[SetAmendment]) -> list[Amended]:
    """A stable anchor per amendment, from its first target: ``amendment-rte-4``, then
    ``amendment-rte-4-2``, …"""
    seen: dict[str, int] = {}
    anchored: list[Amended] = []
    for amendment in amendments:
        base = "amendment-" + anchor_of(amendment.targets[0])
        seen[base] = seen.get(base, 0) + 1
        anchored.append(Amended(base if seen[base] == 1 else f"{base}-{seen[base]}", amendment))
    return anchored


def _set_pages(graph: SystemGraph) -> None:
    """In an analysis set, each record lives on its member's page; the overview is home."""
    if graph.system.analysis_set is None:
        return
    graph.home_page = graph.placement.overview if graph.system.overview is not None else graph.home_page
    for record_id, record in graph._records.items():
        graph._record_pages[record_id] = graph.placement.member_page(record_member(record))


def _cite_from_profile(graph: SystemGraph, references: _References) -> None:
    """Each axis of the profile cites its records (and the IDs in its notes) from its row."""
    profile = graph.system.memory_comparison
    if profile is None:
        return
    for axis, entry in profile.axes.items():
        title = f"Memory comparison: {AXIS_TITLES.get(axis, axis)}"
        place = Place(graph.slug, graph.profile_page, axis_anchor(axis), title)
        for ref in [*entry.records, *(r for evidence in entry.evidence.values() for r in evidence.records)]:
            references.add(ref, place)
        references.add_text(entry, place)


def link_system(
    system: SystemRecords, placement: PagePlacement, history: RunHistory | None = None
) -> SystemGraph:
    """Build the resolved graph of one checked system, its content placed on ``placement``'s
    pages; ``history``: every run of the system, when it has more than one."""
    graph = SystemGraph(system=system, placement=placement, home_page=placement.home(system), history=history)
    for record in system.records:
        graph._records.setdefault(record.id, record)
    for supplied in system.supplied:
        graph._supplied.setdefault(supplied.id, supplied)
    graph._declared = frozenset(graph._records) | frozenset(graph._supplied)
    graph._sources.update(system.source_records())
    _set_pages(graph)
    references = _References(graph)
    _cite_from_records(graph, references)
    _cite_from_notes(graph, references)
    _cite_from_sections(graph, references)
    _cite_from_reconciliation(graph, references)
    _cite_from_profile(graph, references)
    graph._cited_by = references.sorted()
    return graph
