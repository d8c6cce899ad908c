"""What a cross-system page derives from one system's graph is kept while the graph lives:
``kbgen serve`` rewrites the status matrix on every rebuild, and an edit to one system
writes only that system's part again; a graph linked anew is never served a stale part."""

from __future__ import annotations

import gc
import re
import shutil
import weakref
from pathlib import Path

from generator.graph.system_graph import SystemGraph
from generator.pipeline import SystemCache, link_records, run_pipeline
from generator.render import status_matrix
from generator.render.graph_memo import GraphMemo
from generator.render.registry import STATUS_MATRIX_PAGE
from generator.render.urls import page_path

ROOT = Path(__file__).resolve().parents[2]


def test_a_value_is_computed_once_per_graph_and_key_and_goes_with_its_graph() -> None:
    first, second = link_records(ROOT / "records").graphs[:2]
    memo: GraphMemo[str] = GraphMemo()
    calls: list[str] = []

    def compute(name: str) -> str:
        calls.append(name)
        return name

    assert memo.get(first, "a", lambda: compute("first a")) == "first a"
    assert memo.get(first, "a", lambda: compute("again")) == "first a"
    assert memo.get(first, "b", lambda: compute("first b")) == "first b"
    assert memo.get(second, "a", lambda: compute("second a")) == "second a"
    assert calls == ["first a", "first b", "second a"]
    assert len(memo) == 2
    del first
    gc.collect()
    assert len(memo) == 1


def test_the_status_matrix_is_the_same_page_from_kept_parts(tmp_path: Path) -> None:
    """Rendered again from the same graphs (as serve does), the page is the same bytes, and
    its per-system parts are not written again."""
    cache = SystemCache()
    path = page_path(STATUS_MATRIX_PAGE)
    first = run_pipeline(ROOT / "records", ROOT, cache).pages[path]
    written: list[str] = []
    plain = status_matrix._System.html_rows

    def counting(self: status_matrix._System) -> object:
        written.append(self.graph.slug)
        return plain(self)

    status_matrix._System.html_rows = counting  # type: ignore[method-assign,assignment]
    try:
        again = run_pipeline(ROOT / "records", ROOT, cache).pages[path]
    finally:
        status_matrix._System.html_rows = plain  # type: ignore[method-assign]
    assert again == first
    assert written == []


def test_an_edited_system_gets_its_new_labels_on_the_status_matrix(tmp_path: Path) -> None:
    """A record's label is the title of its link in the matrix's lists: after an edit, the
    page rendered from the kept parts is the page of a fresh build."""
    records = tmp_path / "records"
    shutil.copytree(ROOT / "records" / "decapod", records / "decapod")
    cache = SystemCache()
    path = page_path(STATUS_MATRIX_PAGE)
    before = run_pipeline(records, tmp_path, cache).pages[path]
    shown = re.search(r'href="[^"]*" title="([^"]+)"', before)
    assert shown is not None
    label = f"label: {shown.group(1)}"
    edited = next(file for file in sorted(records.glob("decapod/*.yaml")) if label in file.read_text("utf-8"))
    edited.write_text(edited.read_text("utf-8").replace(label, label + " edited here", 1), "utf-8")
    after = run_pipeline(records, tmp_path, cache).pages[path]
    assert "edited here" not in before
    assert f'title="{shown.group(1)} edited here"' in after
    assert after == run_pipeline(records, tmp_path).pages[path]


def test_what_the_status_matrix_keeps_does_not_keep_its_graphs_alive() -> None:
    result = run_pipeline(ROOT / "records", ROOT, SystemCache())
    assert page_path(STATUS_MATRIX_PAGE) in result.pages
    watched = [weakref.ref(graph) for graph in result.graphs]
    del result
    gc.collect()
    assert all(graph() is None for graph in watched)
    alive = sum(isinstance(graph, SystemGraph) for graph in gc.get_objects())
    for memo in (status_matrix._LISTS, status_matrix._ROWS, status_matrix._ROWS_MD, status_matrix._SYSTEMS):
        assert len(memo) <= alive  # an entry goes with its graph
