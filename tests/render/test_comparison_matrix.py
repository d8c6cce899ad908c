"""The memory-comparison matrix as rendered (render/matrix.py): chips, marks, headers,
the value filter's counts, and the fourteen-axis variant.

Built from tests/fixtures/profile-fourteen/records: the profile fixture KB with the four
extra axes on Alpha's profile (profile-variants.md: their basis stated once for the
axis; faithfulness_tested not determinable). The browser tests read the same page in
Chromium (tests/browser/test_comparison_page.py).
"""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

from generator.model.profile import ALL_AXES, AXIS_TITLES, BASIS_VALUES, EXTRA_AXES, AxisProfile
from generator.model.vocab import ProfileAssessment
from generator.pipeline import PipelineResult, run_pipeline
from generator.render.matrix import ASSESSMENT_MARKS, BASIS_STROKES, SystemCells, axis_header
from generator.render.text import CrossLinker

TESTS = Path(__file__).resolve().parents[1]
FOURTEEN = TESTS / "fixtures" / "profile-fourteen"
PAGE = "comparisons/memory.md"


@pytest.fixture(scope="module")
def kb() -> PipelineResult:
    result = run_pipeline(FOURTEEN / "records", FOURTEEN)
    assert [d.code for d in result.diagnostics] == []  # alpha's OBJ-2 markup is Markdown, no finding
    return result


class _Elements(HTMLParser):
    """Every element's tag, attributes and text, in document order."""

    def __init__(self) -> None:
        super().__init__()
        self.found: list[tuple[str, dict[str, str], list[str]]] = []
        self._open: list[list[str]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        text: list[str] = []
        self.found.append((tag, {name: value or "" for name, value in attrs}, text))
        if tag not in ("br", "input"):
            self._open.append(text)

    def handle_endtag(self, tag: str) -> None:
        if self._open:
            self._open.pop()

    def handle_data(self, data: str) -> None:
        for text in self._open:
            text.append(data)


def _elements(page: str, css_class: str) -> list[tuple[str, dict[str, str], str]]:
    parser = _Elements()
    parser.feed(page)
    return [
        (tag, attrs, "".join(text))
        for tag, attrs, text in parser.found
        if css_class in attrs.get("class", "").split()
    ]


def _facets(page: str) -> dict[tuple[str, str], int]:
    counts = {}
    for _, attrs, text in _elements(page, "kb-facet"):
        value = attrs.get("data-kb-value", attrs.get("data-kb-assessment", ""))
        counts[(attrs["data-kb-axis"], value)] = int(text.split()[-1])
    return counts


def test_the_fourteen_axes_are_columns_in_the_spec_s_order(kb: PipelineResult) -> None:
    page = kb.pages[PAGE]
    columns = re.findall(r'<th scope="col" data-kb-axis="([a-z_]+)"', page)
    assert tuple(columns) == ALL_AXES
    # Beta carries the ten only: its row has an empty cell for each extra axis.
    beta = page[page.index('<tr data-kb-system="beta">') :]
    beta = beta[: beta.index("</tr>")]
    assert beta.count('<td class="kb-cell kb-cell--missing"></td>') == len(EXTRA_AXES)


def test_facets_count_the_systems_in_the_vocabulary_s_order(kb: PipelineResult) -> None:
    counts = _facets(kb.pages[PAGE])
    assert counts[("learning_scope", "cross-task")] == 1
    assert counts[("learning_scope", "known")] == 1
    assert counts[("faithfulness_tested", "not-determinable")] == 1
    assert counts[("storage_substrate", "files")] == 2
    assert counts[("curation_operations", "absent")] == 2
    # No facet for what no system has.
    assert ("storage_substrate", "vector") not in counts
    # Beta lists in-memory before files; the filter follows the vocabulary (files first).
    substrate = [key[1] for key in counts if key[0] == "storage_substrate"]
    assert substrate == ["known", "files", "in-memory"]
    buttons = _elements(kb.pages[PAGE], "kb-facet")
    labels = {attrs["aria-label"] for _, attrs, _ in buttons}
    assert "Learning scope, cross-task: 1 system" in labels
    assert "Storage substrate, files: 2 systems" in labels


def test_a_basis_stated_for_the_axis_styles_each_chip_and_says_so(kb: PipelineResult) -> None:
    chips = [
        (attrs, text)
        for _, attrs, text in _elements(kb.pages[PAGE], "kb-chip")
        if attrs.get("data-kb-value") == "cross-task"
    ]
    ((attrs, text),) = chips
    assert attrs["class"] == "kb-chip kb-chip--wired kb-profile-value"
    assert attrs["title"] == (
        "cross-task: wired (for the axis) — evidence MEM-RTE-knowledge"
    )  # the axis's records; no note of its own (the axis's is the mark's)
    assert attrs["href"] == "../../systems/alpha/result/#mem-rte-knowledge"
    assert text == "cross-task (wired)"
    (mark,) = [
        attrs
        for _, attrs, _ in _elements(kb.pages[PAGE], "kb-mark--known")
        if attrs.get("href", "").endswith("#memory-comparison-learning-scope")
    ]
    assert mark["title"] == (
        "known (basis wired for the axis): Notes written in one run are read back in later runs."
    )


def test_a_cell_without_values_shows_its_assessment_mark_only(kb: PipelineResult) -> None:
    page = kb.pages[PAGE]
    cell = page[page.index('<td class="kb-cell" data-kb-axis="faithfulness_tested"') :]
    cell = cell[: cell.index("</td>")]
    assert 'data-kb-assessment="not-determinable"' in cell and "kb-chip" not in cell
    assert '<span aria-hidden="true">⊘</span><span class="kb-sr">not-determinable</span>' in cell


def test_a_supplied_record_is_named_declared_elsewhere(kb: PipelineResult) -> None:
    (attrs,) = [
        attrs
        for _, attrs, _ in _elements(kb.pages[PAGE], "kb-chip")
        if "RT-RTE-context-resolve" in attrs.get("title", "")
    ]
    assert "evidence RT-RTE-context-resolve (declared elsewhere)" in attrs["title"]
    assert attrs["href"] == "../../systems/alpha/#rt-rte-context-resolve"


def test_a_value_without_a_record_is_a_chip_without_a_link(kb: PipelineResult) -> None:
    graph = next(graph for graph in kb.graphs if graph.slug == "alpha")
    linker = CrossLinker(graph, graph.profile_page, html=True, at=PAGE)
    cells = SystemCells(linker, "systems/alpha/memory-report.md")
    entry = AxisProfile(assessment="known", values=["online"], basis="wired", records=[], note="n")
    chip = cells.chip(entry, "online")
    assert chip == (
        '<span class="kb-chip kb-chip--wired kb-profile-value" title="online: wired (for the axis)"'
        ' data-kb-value="online"><span class="kb-chip__value">online</span><span class="kb-chip__basis">'
        '<span class="kb-sr"> (</span>wired<span class="kb-sr">)</span></span></span>'
    )


def _alpha_cells(kb: PipelineResult) -> SystemCells:
    graph = next(graph for graph in kb.graphs if graph.slug == "alpha")
    linker = CrossLinker(graph, graph.profile_page, html=True, at=PAGE)
    return SystemCells(linker, "systems/alpha/memory-report.md")


def test_a_chip_leads_to_the_record_its_evidence_names_not_the_axis_s_first(kb: PipelineResult) -> None:
    entry = AxisProfile.model_validate(
        {
            "assessment": "known",
            "values": ["files", "kv"],
            "evidence": {
                "files": {"basis": "claimed", "records": ["MEM-RTE-knowledge"], "note": "n"},
                "kv": {"basis": "wired", "records": ["RTE-1", "OBJ-1"], "note": "n"},
            },
            "records": ["OBJ-1", "MEM-RTE-knowledge", "RTE-1"],
            "note": "n",
        }
    )
    cells = _alpha_cells(kb)
    assert cells.target(entry, "files") == "MEM-RTE-knowledge"
    assert cells.target(entry, "kv") == "RTE-1"
    chip = str(cells.chip(entry, "files"))
    assert 'href="../../systems/alpha/result/#mem-rte-knowledge"' in chip
    # The basis is written out (the chip's second line), not only in its title and style.
    assert (
        '<span class="kb-chip__basis"><span class="kb-sr"> (</span>claimed<span class="kb-sr">)</span>'
        in chip
    )


def test_a_basis_stated_for_the_axis_leads_to_the_axis_s_record_that_names_the_value(
    kb: PipelineResult,
) -> None:
    """Without an evidence entry per value the axis's records witness every value: the chip
    leads to the first of them whose text names the value (``knowledge`` in MEM-RTE-knowledge's
    label "Knowledge read-back", not OBJ-1's "Conversation history"), else the first."""
    entry = AxisProfile.model_validate(
        {
            "assessment": "known",
            "values": ["knowledge", "routing", "in-memory"],
            "basis": "afforded",
            "records": ["OBJ-1", "MEM-RTE-knowledge"],
            "note": "n",
        }
    )
    cells = _alpha_cells(kb)
    assert cells.target(entry, "knowledge") == "MEM-RTE-knowledge"
    assert cells.target(entry, "routing") == "OBJ-1"  # named by neither: the axis's first
    assert 'href="../../systems/alpha/result/#mem-rte-knowledge"' in str(cells.chip(entry, "knowledge"))
    empty = AxisProfile(assessment="known", values=["kv"], basis="wired", records=[], note="n")
    assert cells.target(empty, "kv") is None
    # A value outside the vocabulary (the checker reports it) is not sought in record text.
    stray = AxisProfile(
        assessment="known",
        values=["Knowledge"],
        basis="wired",
        records=["OBJ-1", "MEM-RTE-knowledge"],
        note="n",
    )
    assert cells.target(stray, "Knowledge") == "OBJ-1"


def test_every_assessment_has_a_mark_and_every_basis_a_stroke() -> None:
    assert set(ASSESSMENT_MARKS) == {assessment.value for assessment in ProfileAssessment}
    assert len(set(ASSESSMENT_MARKS.values())) == len(ASSESSMENT_MARKS)
    assert tuple(BASIS_STROKES) == BASIS_VALUES


@pytest.mark.parametrize("axis", ALL_AXES)
def test_a_column_header_is_no_wider_than_its_longest_word(axis: str) -> None:
    """A header wraps between words only; a long word gets a short title with the full
    one as its abbreviation's title, so a column is as narrow as its values."""
    header = str(axis_header(axis))
    shown = re.sub(r"<[^>]+>", "", header)
    assert max(len(word) for word in shown.split()) <= len("Faithfulness")
    if shown != AXIS_TITLES[axis]:
        assert header == f'<abbr title="{AXIS_TITLES[axis]}">{shown}</abbr>'


def test_the_page_is_the_same_on_every_render(kb: PipelineResult) -> None:
    again = run_pipeline(FOURTEEN / "records", FOURTEEN)
    assert again.pages[PAGE] == kb.pages[PAGE]
