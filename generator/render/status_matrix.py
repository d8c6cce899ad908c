"""The status matrix: how many conclusion-status fields of each system's records hold each
value, per system and per system and record kind, each count a link to the records it
counts.

The records behind the counts are listed on the page below the tables, each line under
an anchor the counts link to: per system, per status, one line per record kind, its
records grouped by status field (what the first two tables count); then per system, per
status field, one line per status (what the per-field table counts: a field's label may be
written on records of several kinds, so its records are not one line of the first list).
The ``status_matrix`` macro's table on a hand-authored page links to the same anchors on
the status matrix's page. A record with several status fields holding one value is listed
once per field, as it is counted.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING, Any

from generator.model.ids import sort_key
from generator.model.kinds import registered, spec_of_id
from generator.model.vocab import ConclusionStatus
from generator.render import urls
from generator.render.graph_memo import GraphMemo
from generator.render.link_markup import html_link, link
from generator.render.markdown import Md, escape
from generator.render.rawhtml import Html, element
from generator.render.rawhtml import escape as html_escape
from generator.render.rawhtml import table as rawhtml_table
from generator.render.registry import GLOSSARY_PAGE, STATUS_MATRIX_PAGE, PageRequest
from generator.render.summary import summarize
from generator.render.text import CrossLinker

if TYPE_CHECKING:
    from generator.graph.system_graph import SystemGraph

STATUSES: tuple[str, ...] = tuple(status.value for status in ConclusionStatus)
OTHER_KIND = "other records"  # an ID of no kind in force (the checker reports it)


def status_anchor(slug: str, status: str, kind: str | None = None) -> str:
    """``status-oh-my-pi-wired``; with a kind, ``status-oh-my-pi-routes-wired``."""
    parts = ["status", slug, *([kind] if kind else []), status]
    return urls.slugify(" ".join(part.replace("/", " ") for part in parts))


def field_anchor(slug: str, status: str, field: str) -> str:
    """``status-oh-my-pi-field-implementation-conclusion-status-wired``: the line of a
    field's records holding one status."""
    return status_anchor(slug, status, f"field {field}")


def _kind_of(record_id: str) -> str:
    spec = spec_of_id(record_id)
    return spec.plural if spec is not None else OTHER_KIND


@dataclass(frozen=True)
class Holders:
    """One system's records by status, then kind, then status field."""

    by_status: dict[str, dict[str, dict[str, list[str]]]]

    @classmethod
    def of(cls, graph: SystemGraph) -> Holders:
        """Kinds in the registry's order, fields by name, records by ID: the same page
        whatever order the record files list them in."""
        found: dict[str, dict[str, dict[str, list[str]]]] = {}
        for record_id, label, value in graph.status_holders:
            kinds = found.setdefault(value, {})
            kinds.setdefault(_kind_of(record_id), {}).setdefault(label, []).append(record_id)
        order = {spec.plural: index for index, spec in enumerate(registered())}
        by_status = {
            status: {
                kind: {field: sorted(refs, key=sort_key) for field, refs in sorted(fields.items())}
                for kind, fields in sorted(
                    kinds.items(), key=lambda item: (order.get(item[0], len(order)), item[0])
                )
            }
            for status, kinds in ((status, found.get(status, {})) for status in STATUSES)
        }
        return cls(by_status)

    def by_field(self) -> dict[str, dict[str, list[str]]]:
        """Per status field (by name), per status some record's field holds (in the
        vocabulary's order), its records by ID, whatever their kind."""
        found: dict[str, dict[str, list[str]]] = {}
        for status, kinds in self.by_status.items():
            for fields in kinds.values():
                for field, refs in fields.items():
                    found.setdefault(field, {}).setdefault(status, []).extend(refs)
        return {
            field: {status: sorted(refs, key=sort_key) for status, refs in statuses.items()}
            for field, statuses in sorted(found.items())
        }

    def kinds(self) -> list[str]:
        """Every kind some status of the system has, in the registry's order."""
        found = {kind for kinds in self.by_status.values() for kind in kinds}
        order = {spec.plural: index for index, spec in enumerate(registered())}
        return sorted(found, key=lambda kind: (order.get(kind, len(order)), kind))

    def count(self, status: str, kind: str | None = None) -> int:
        kinds = self.by_status.get(status, {})
        chosen = [kinds.get(kind, {})] if kind is not None else list(kinds.values())
        return sum(len(records) for fields in chosen for records in fields.values())


# Each system's lists of records, which the page writes on every rebuild of ``kbgen serve``.
_LISTS: GraphMemo[Html] = GraphMemo()
_ROWS: GraphMemo[tuple[list[Html], list[list[Html]], list[list[Html]]]] = GraphMemo()
_ROWS_MD: GraphMemo[list[Md]] = GraphMemo()  # the counts of the macro's Markdown table


def _count_cell(count: int, href: str) -> Md:
    """A count, linking to the records it counts; a zero counts none and links nowhere."""
    return link(str(count), href) if count else Md("0")


def _html_count_cell(count: int, href: str) -> Html:
    """``_count_cell`` inside raw HTML."""
    return html_link(str(count), href) if count else Html("0")


@dataclass(frozen=True)
class _System:
    graph: SystemGraph
    holders: Holders
    name: str
    href: str
    matrix_path: str  # the status matrix's page, where the lists are
    at: str  # the page the counts are written on

    def _counted(self, kind: str | None) -> list[tuple[int, str]]:
        """Each status's count of the system's records (of one kind), with its line's anchor."""
        slug = self.graph.slug
        return [(self.holders.count(status, kind), status_anchor(slug, status, kind)) for status in STATUSES]

    def counts(self) -> list[Md]:
        """The system's counts, for the ``status_matrix`` macro's Markdown table."""
        return [
            _count_cell(count, urls.href(self.at, self.matrix_path, anchor))
            for count, anchor in self._counted(None)
        ]

    def html_name(self) -> Html:
        """The system's name linking to its page, inside raw HTML."""
        return html_link(self.name, urls.url_href(self.at, summarize(self.graph).path))

    def html_counts(self, kind: str | None = None) -> list[Html]:
        return [
            _html_count_cell(count, urls.url_href(self.at, self.matrix_path, anchor))
            for count, anchor in self._counted(kind)
        ]

    def html_field_counts(self, field: str, counts: dict[str, int]) -> list[Html]:
        return [
            _html_count_cell(
                counts.get(status, 0),
                urls.url_href(self.at, self.matrix_path, field_anchor(self.graph.slug, status, field)),
            )
            for status in STATUSES
        ]

    def html_rows(self) -> tuple[list[Html], list[list[Html]], list[list[Html]]]:
        """The system's rows of the page's three tables: its counts, per record kind, and
        per status field."""
        name = self.html_name()
        by_kind = [[name, html_escape(kind), *self.html_counts(kind)] for kind in self.holders.kinds()]
        _, per_field = self.graph.status_counts
        by_field = [
            [name, html_escape(label), *self.html_field_counts(label, per_field[label])]
            for label in sorted(per_field)
        ]
        return [name, *self.html_counts()], by_kind, by_field

    def records_by_field(self) -> Html:
        """Per status field: its line per status, the records whose field holds it."""
        key = ("by field", self.at, self.matrix_path, urls.raw_html_link_form())
        return _LISTS.get(self.graph, key, self._records_by_field)

    def _records_by_field(self) -> Html:
        linker = CrossLinker(self.graph, self.graph.home_page, html=True, at=self.at)
        items = []
        for field, statuses in self.holders.by_field().items():
            lines = [
                element(
                    "li",
                    html_escape(f"{status} ({len(refs)}): ")
                    + html_escape(", ").join(self._record(linker, ref) for ref in refs),
                    {"id": field_anchor(self.graph.slug, status, field)},
                )
                for status, refs in statuses.items()
            ]
            heading = element("strong", html_escape(field)) + html_escape(
                f" ({sum(len(refs) for refs in statuses.values())})"
            )
            inner = element("ul", Html("\n") + Html("\n").join(lines) + Html("\n"))
            items.append(element("li", heading + Html("\n") + inner))
        return element("ul", Html("\n") + Html("\n").join(items) + Html("\n"), {"class": "kb-status-records"})

    def records_list(self) -> Html:
        """Per status some record holds: its line per kind, the records under each field."""
        key = ("by status", self.at, self.matrix_path, urls.raw_html_link_form())
        return _LISTS.get(self.graph, key, self._records_list)

    def _records_list(self) -> Html:
        linker = CrossLinker(self.graph, self.graph.home_page, html=True, at=self.at)
        items = []
        for status in STATUSES:
            kinds = self.holders.by_status.get(status, {})
            if not kinds:
                continue
            lines = [
                element(
                    "li",
                    html_escape(f"{kind} ({self.holders.count(status, kind)}): ")
                    + html_escape("; ").join(
                        element("span", html_escape(field), {"class": "kb-status-records__field"})
                        + html_escape(": ")
                        + html_escape(", ").join(self._record(linker, ref) for ref in refs)
                        for field, refs in fields.items()
                    ),
                    {"id": status_anchor(self.graph.slug, status, kind)},
                )
                for kind, fields in kinds.items()
            ]
            heading = element("strong", html_escape(status)) + html_escape(f" ({self.holders.count(status)})")
            inner = element("ul", Html("\n") + Html("\n").join(lines) + Html("\n"))
            items.append(
                element("li", heading + Html("\n") + inner, {"id": status_anchor(self.graph.slug, status)})
            )
        return element("ul", Html("\n") + Html("\n").join(items) + Html("\n"), {"class": "kb-status-records"})

    @staticmethod
    def _record(linker: CrossLinker, ref: str) -> Html:
        record = linker.graph.record(ref)
        label = record.shown_label() if record is not None else None
        return html_link(ref, linker.href(ref), (), label or None)


def _systems(request: PageRequest) -> list[_System]:
    matrix_path = urls.page_path(STATUS_MATRIX_PAGE)
    found = []
    for graph in request.graphs:
        described = partial(_system, graph, request.path)
        holders, name, href = _SYSTEMS.get(graph, ("system", request.path), described)
        found.append(_System(graph, holders, name, href, matrix_path, request.path))
    return found


def _system(graph: SystemGraph, at: str) -> tuple[Holders, str, str]:
    summary = summarize(graph)
    return Holders.of(graph), summary.name, urls.href(at, summary.path)


# Each system's holders, name and link, which the page reads on every rebuild of ``kbgen
# serve`` (kept apart from the graph: a value that held it would keep it alive).
_SYSTEMS: GraphMemo[tuple[Holders, str, str]] = GraphMemo()


def _count_tables(systems: list[_System]) -> dict[str, Html]:
    """The page's three tables of counts, as raw HTML: what Python-Markdown made of them
    when they were Markdown (right-aligned counts, in a ``kb-counts`` box), written here so
    that the page, whose record lists grow with the KB, is not converted at all."""
    statuses = [Html(html_escape(value)) for value in STATUSES]
    by_system: list[list[Html]] = []
    by_kind: list[list[Html]] = []
    by_field: list[list[Html]] = []
    for system in systems:
        key = ("count rows", system.at, system.matrix_path, urls.raw_html_link_form())
        rows = _ROWS.get(system.graph, key, system.html_rows)
        by_system.append(rows[0])
        by_kind.extend(rows[1])
        by_field.extend(rows[2])

    def boxed(headers: list[Html], rows: list[list[Html]]) -> Html:
        table = rawhtml_table(headers, rows, one_cell_per_line=True, right_from=len(headers) - len(STATUSES))
        return element("div", Html("\n") + table + Html("\n"), {"class": "kb-counts"})

    return {
        "counts_table": boxed([Html("System"), *statuses], by_system),
        "kind_table": boxed([Html("System"), Html("Record kind"), *statuses], by_kind),
        "field_table": boxed([Html("System"), Html("Status field"), *statuses], by_field),
    }


def status_matrix_context(request: PageRequest) -> dict[str, Any]:
    """The counts per system, per system and record kind, and per status field, then the
    records behind each count."""
    systems = _systems(request)
    rows = [
        {
            "name": s.name,
            "href": s.href,
            "counts": _ROWS_MD.get(s.graph, ("counts", s.at, s.matrix_path), s.counts),
        }
        for s in systems
    ]
    lists = [
        {
            "title": escape(system.name),
            "anchor": status_anchor(system.graph.slug, "records"),
            "records": system.records_list(),
        }
        for system in systems
        if system.graph.status_holders
    ]
    field_lists = [
        {
            "title": escape(system.name),
            "anchor": status_anchor(system.graph.slug, "fields"),
            "records": system.records_by_field(),
        }
        for system in systems
        if system.graph.status_holders
    ]
    return {
        "statuses": list(STATUSES),
        "rows": rows,  # for the ``status_matrix`` macro's Markdown table on a hand-written page
        **_count_tables(systems),
        "lists": lists,
        "field_lists": field_lists,
        "glossary_href": urls.href(request.path, urls.page_path(GLOSSARY_PAGE), "conclusion-status"),
    }
