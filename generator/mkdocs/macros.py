"""Macros for hand-authored pages in ``kb/`` (mkdocs-macros-plugin, ``modules: [generator.mkdocs.macros]``).

``{{ record_link("oh-my-pi", "RTE-11") }}`` links a record with its ID and label,
``{{ comparison_table(axes=[...]) }}`` and ``{{ status_matrix() }}`` embed the views of
the comparison page and the status matrix. They read the graphs the kb-records plugin
published for this build, and link through the same URL and link builders as the
generated pages.

A reference to a system, record or axis that does not exist never renders: the macro
records the page and line it was called from and the kb-records plugin fails the
build with those messages (mkdocs-macros-plugin would print a traceback and exit).
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from generator.model.profile import ALL_AXES, AXES
from generator.render import urls
from generator.render.comparison import comparison_matrix, shown_axes
from generator.render.cross import status_matrix_view
from generator.render.environment import render
from generator.render.inline_form import label
from generator.render.link_markup import link
from generator.render.markdown import Md, escape
from generator.render.registry import MEMORY_COMPARISON_PAGE, STATUS_MATRIX_PAGE, PageRequest, page_spec

if TYPE_CHECKING:
    from generator.graph.system_graph import SystemGraph

PLUGIN_NAME = "kb-records"


@dataclass
class MacroProblems:
    """Broken references met while rendering hand-authored pages, as ``page:line: message``."""

    found: list[str] = field(default_factory=list)

    def add(self, page: Any, message: str) -> Md:
        self.found.append(f"{_page_source(page)}:{_calling_line(page)}: {message}")
        return Md("")

    def take(self) -> list[str]:
        taken, self.found = self.found, []
        return taken


def _page_source(page: Any) -> str:
    docs = getattr(getattr(page, "file", None), "src_uri", None) or "?"
    return f"kb/{docs}" if docs != "?" else docs


def _calling_line(page: Any) -> int:
    """The line of the page's Markdown file that called the macro (front matter included).

    The calling template frame is found by the marker Jinja puts in the globals of its
    compiled code, the same way Jinja maps its own tracebacks to template lines.
    """
    frame = sys._getframe(1)
    while frame is not None and "__jinja_template__" not in frame.f_globals:
        frame = frame.f_back  # type: ignore[assignment]
    if frame is None:
        return 1
    line = frame.f_globals["__jinja_template__"].get_corresponding_lineno(frame.f_lineno)
    return int(line) + _front_matter_lines(page)


def _front_matter_lines(page: Any) -> int:
    """How many lines of the page file precede the Markdown the macros see."""
    markdown = getattr(page, "markdown", None)
    path = getattr(getattr(page, "file", None), "abs_src_path", None)
    if not markdown or not path or not Path(path).is_file():
        return 0
    raw = Path(path).read_text(encoding="utf-8-sig").replace("\r\n", "\n")
    start = raw.find(markdown.split("\n", 1)[0]) if markdown.strip() else -1
    return raw.count("\n", 0, start) if start > 0 else 0


class RecordMacros:
    """The macros of one build, bound to the graphs the kb-records plugin published."""

    def __init__(self, env: Any, graphs: list[SystemGraph], problems: MacroProblems) -> None:
        self.env = env
        self.graphs = {graph.slug: graph for graph in graphs}
        self.problems = problems

    @property
    def here(self) -> str:
        """The path below docs_dir of the page being rendered."""
        return str(self.env.page.file.src_uri)

    def record_link(self, system: str, record_id: str) -> Md:
        """The record's ID and label, linking to its anchor on its home page."""
        graph = self.graphs.get(system)
        if graph is None:
            return self.problems.add(self.env.page, f"record_link: no system {system!r} in the records")
        record, place = graph.record(record_id), graph.place_of(record_id)
        if record is None or place is None:
            return self.problems.add(
                self.env.page, f"record_link: system {system!r} publishes no record {record_id!r}"
            )
        shown = record.shown_label()
        text = escape(record_id) + (escape(" — ") + label(shown) if shown else "")
        return link(Md(text), urls.href(self.here, urls.page_path(place.page, system), place.anchor))

    def comparison_table(self, axes: list[str] | tuple[str, ...] | None = None) -> Md:
        """The comparison page's tables, with the chosen axes (all by default)."""
        chosen = list(axes) if axes is not None else list(AXES)
        unknown = [axis for axis in chosen if axis not in ALL_AXES]
        if unknown:
            return self.problems.add(
                self.env.page, f"comparison_table: {', '.join(map(repr, unknown))} is not an axis"
            )
        request = self._request(MEMORY_COMPARISON_PAGE)
        # An extra axis no system carries has no column to show.
        shown = shown_axes(request)
        table = comparison_matrix(request, [axis for axis in chosen if axis in shown])
        # A blank line first: the matrix is a raw HTML block even right after a paragraph.
        return Md("\n" + render("embed-comparison.md.j2", {"matrix": table}).strip("\n") + "\n")

    def status_matrix(self) -> Md:
        """The status matrix's per-system table."""
        return Md(render("embed-status-matrix.md.j2", status_matrix_view(self._request(STATUS_MATRIX_PAGE))))

    def _request(self, key: str) -> PageRequest:
        return PageRequest(page_spec(key), self.here, list(self.graphs.values()), {})


def define_env(env: Any) -> None:
    """mkdocs-macros-plugin's hook: register the record macros for this build."""
    plugin = env.conf.plugins.get(PLUGIN_NAME)
    if plugin is None:
        return
    macros = plugin.macros_for(env)
    for name in ("record_link", "comparison_table", "status_matrix"):
        env.macro(getattr(macros, name), name)


__all__ = ["MacroProblems", "RecordMacros", "define_env"]
