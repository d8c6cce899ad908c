"""Rendering: golden pages of a fixture system, the text renderer, the review hash, determinism.

The fixture ``tests/fixtures/render/records/demo/`` exercises every part of the
renderer: a run, a GitHub source and a source with a ``link_template``, records of
every kind (a route with the seven fields and a narrative route), a limitation, a
supplied record with an annotation in a memory report, a result with all sections,
typed, generic and lifecycle tables, placements, an included Markdown file, an
amendment and quotes. Each page ``run_pipeline`` renders for it is compared with
``tests/goldens/render/<page path>``; goldens change only through
``pytest --update-goldens``.
"""

from __future__ import annotations

import difflib
import hashlib
import html
import posixpath
import re
import shutil
from pathlib import Path

import jinja2
import markdown
import pytest
import yaml

from generator.graph.system_graph import link_system
from generator.model.base import Anchor
from generator.model.records import Component, Route, Source, Supplied
from generator.model.system import SystemRecords
from generator.pipeline import PipelineResult, run_pipeline
from generator.render import urls
from generator.render.registry import PLACEMENT, cross_pages, system_pages
from generator.render.text import Linker, escape

TESTS = Path(__file__).resolve().parents[1]
REPO_ROOT = TESTS.parent
FIXTURE = TESTS / "fixtures" / "render"
FIXTURE_RECORDS = FIXTURE / "records"
GOLDENS = TESTS / "goldens" / "render"
GOLDEN_PAGES = sorted(p.relative_to(GOLDENS).as_posix() for p in GOLDENS.rglob("*.md"))

# The Markdown extensions of mkdocs.yml that can turn text into markup.
MD_EXTENSIONS = ["attr_list", "md_in_html", "admonition", "tables", "toc", "pymdownx.superfences"]


def _html(text: str) -> str:
    return markdown.markdown(str(text), extensions=MD_EXTENSIONS)


def _visible(fragment: str) -> str:
    """The text a reader sees in an HTML fragment."""
    return html.unescape(re.sub(r"<[^>]+>", "", fragment))


def _tags(fragment: str) -> set[str]:
    return set(re.findall(r"<([a-zA-Z][a-zA-Z0-9]*)", fragment))


@pytest.fixture(scope="module")
def demo() -> PipelineResult:
    result = run_pipeline(FIXTURE_RECORDS, FIXTURE)
    assert [d.as_text() for d in result.diagnostics] == []
    return result


@pytest.fixture(scope="module")
def shipped() -> PipelineResult:
    result = run_pipeline(REPO_ROOT / "records", REPO_ROOT)
    assert result.errors == []
    return result


# ---------------------------------------------------------------- goldens


def _diff(expected: str, actual: str, name: str) -> str:
    return "".join(
        difflib.unified_diff(
            expected.splitlines(keepends=True),
            actual.splitlines(keepends=True),
            fromfile=f"tests/goldens/render/{name}",
            tofile=f"rendered {name}",
        )
    )


def test_goldens_cover_every_rendered_page(demo: PipelineResult, update_goldens: bool) -> None:
    if update_goldens:
        shutil.rmtree(GOLDENS, ignore_errors=True)
        for page, text in demo.pages.items():
            target = GOLDENS / page
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(text, encoding="utf-8", newline="\n")
    goldens = sorted(p.relative_to(GOLDENS).as_posix() for p in GOLDENS.rglob("*.md"))
    assert goldens == sorted(demo.pages), "run 'pytest --update-goldens' and review the new goldens"
    # Every page type the registry gives the demo system (it has a result and a memory
    # report, no set), and every cross-system page.
    (system,) = demo.systems
    expected = [urls.page_path(spec.key, "demo") for spec in system_pages(system.records)]
    expected += [urls.page_path(spec.key) for spec in cross_pages()]
    assert sorted(demo.pages) == sorted(expected)
    assert {"systems/demo/result.md", "systems/demo/memory-report.md"} <= set(expected)


@pytest.mark.parametrize("page", GOLDEN_PAGES)
def test_page_matches_golden(page: str, demo: PipelineResult, update_goldens: bool) -> None:
    assert page in demo.pages, f"{page} is no longer rendered; run 'pytest --update-goldens'"
    actual = demo.pages[page]
    golden = GOLDENS / page
    if update_goldens:
        golden.write_text(actual, encoding="utf-8", newline="\n")
    expected = golden.read_text(encoding="utf-8")
    if actual != expected:
        pytest.fail(f"{page} differs from its golden:\n{_diff(expected, actual, page)}", pytrace=False)


def test_golden_result_page_shows_the_rendered_features(demo: PipelineResult) -> None:
    """Spot checks, so a golden regenerated with a regression does not pass unreviewed."""
    result = demo.pages["systems/demo/result.md"]
    blob = "https://github.com/example/demo/blob/0123456789abcdef0123456789abcdef01234567"
    assert "#### RTE-1 — Prompt → answer { #rte-1 .kb-record .kb-record--route }" in result
    assert f'<a href="{blob}/src/agent/loop.py#L10-L20">10-20</a>' in result
    assert f'<a href="{blob}/src/agent/loop.py#L30">30</a>' in result
    assert "https://git.example.org/team/demo-docs/-/blob/fedcba9876543210/docs/loop.md#L3-3" in result
    elsewhere = 'class="kb-elsewhere" href="../#rt-rte-context-resolve" title="declared elsewhere"'
    assert f"<a {elsewhere}>RT-RTE-context-resolve</a>" in result
    assert '<strong>Referenced by:</strong> <a href="#rte-1">RTE-1</a>, <a href="#rte-2">RTE-2</a>' in result
    assert '<p class="admonition-title">Amendment: history amendment</p>' in result
    assert "&lt;b&gt;markup&lt;/b&gt;, <em>stars</em>,\n&#123;&#123; 7*7 &#125;&#125;" in result
    assert "<td>MEM-OBJ-1, MEM-RTE-3</td>" in result  # proposal tags stay literal
    objects = '<a href="#obj-1">OBJ-1</a> and <a href="#obj-2">OBJ-2</a>'
    assert f"<p><strong>{objects}</strong>: retained for the session" in result
    assert '<a href="#mem-rte-knowledge-store">MEM-RTE-knowledge-store</a>-backed' in result
    index = demo.pages["systems/demo/index.md"]
    assert "### RT-RTE-context-resolve — Context resolution { #rt-rte-context-resolve" in index
    assert ".kb-record--elsewhere" in index


# ---------------------------------------------------------------- links resolve


_LINK_TARGET = re.compile(r"(?<!\\)\]\(([^()\s]*)\)")  # an escaped bracket is text, not a link
_HREF = re.compile(r'<a [^>]*href="([^"]*)"')
# Attribute-list anchors, and the empty spans that anchor profile table rows.
# An attribute list's anchor, or an HTML element's id (an anchor span, an amendment's div).
_ANCHOR = re.compile(r"\{ #([^\s}]+)|<[a-z]+\b[^>]*?\bid=\"([^\"]+)\"")


def _link_targets(page: str, text: str, pages: dict[str, str]) -> list[str]:
    """The link targets of a page as file hrefs: Markdown links on Markdown lines, and the
    final URLs of raw HTML blocks mapped back to the page files they publish."""
    by_url = {urls.site_url(path): path for path in pages}
    targets: list[str] = []
    for line in text.split("\n"):
        if not line.startswith("<"):
            targets += _LINK_TARGET.findall(line)
            continue
        for href in map(html.unescape, _HREF.findall(line)):
            path, _, fragment = href.partition("#")
            if re.match(r"^[a-z][a-z0-9+.-]*:", href) or not path:
                targets.append(href)
                continue
            url = posixpath.normpath(posixpath.join(urls.site_url(page), path)) + "/"
            target = by_url.get(url.removeprefix("./"), f"{url} (a URL of no page)")
            targets.append(urls.href(page, target, fragment or None))
    return targets


def _broken_links(pages: dict[str, str]) -> list[str]:
    """Links between generated pages whose page or anchor does not exist."""
    anchors = {page: {a or b for a, b in _ANCHOR.findall(text)} for page, text in pages.items()}
    broken = []
    for page, text in pages.items():
        for target in _link_targets(page, text, pages):
            if re.match(r"^[a-z][a-z0-9+.-]*:", target):
                continue
            path, _, fragment = target.partition("#")
            resolved = posixpath.normpath(posixpath.join(posixpath.dirname(page), path)) if path else page
            if (
                resolved in (urls.KB_JSON, urls.COMPARISON_CSV)
                or resolved.endswith(("/ARTIFACT.yaml", "/ARTIFACT.yaml.txt"))
            ) and not fragment:
                continue  # a download the site ships beside its pages (exports, a set's manifest)
            if resolved not in pages:
                broken.append(f"{page}: {target} (no such page)")
            elif fragment and fragment not in anchors[resolved]:
                broken.append(f"{page}: {target} (no such anchor)")
    return sorted(set(broken))


def test_shipped_pages_link_only_to_existing_anchors(shipped: PipelineResult) -> None:
    assert _broken_links(shipped.pages) == []


def test_demo_pages_link_only_to_existing_anchors(demo: PipelineResult) -> None:
    assert _broken_links(demo.pages) == []


def test_records_of_a_system_without_result_or_report_are_published(tmp_path: Path) -> None:
    system = tmp_path / "records" / "bare"
    system.mkdir(parents=True)
    for name in ("run.yaml", "sources.yaml"):
        shutil.copyfile(FIXTURE_RECORDS / "demo" / name, system / name)
    run = (system / "run.yaml").read_text(encoding="utf-8")
    (system / "run.yaml").write_text(run.replace("-demo-01", "-bare-01"), encoding="utf-8")
    (system / "records.yaml").write_text("components:\n  - id: CMP-1\n    label: Loop\n", encoding="utf-8")
    result = run_pipeline(tmp_path / "records", tmp_path)
    assert result.errors == []
    assert _broken_links(result.pages) == []
    assert "{ #cmp-1 " in result.pages["systems/bare/index.md"]


# ---------------------------------------------------------------- status matrix


def _table_rows(html: str) -> list[list[str]]:
    """Each body row of the raw HTML tables in ``html``: its cells' HTML."""
    body = "".join(re.findall(r"<tbody>(.*?)</tbody>", html, flags=re.S))
    return [
        re.findall(r"<td[^>]*>(.*?)</td>", row, flags=re.S)
        for row in re.findall(r"<tr>(.*?)</tr>", body, flags=re.S)
    ]


DEMO_NAME = '<a href="../demo/">Demo agent</a>'


def test_status_matrix_counts_claim_and_absence_statuses(demo: PipelineResult) -> None:
    matrix = demo.pages["systems/status-matrix.md"]
    (row,) = _table_rows(matrix[: matrix.index("## By record kind")])
    assert row[0] == DEMO_NAME
    absent, _inapplicable, _uninspected, claimed = row[1:5]
    # Each count links to the list of the records it counts, below on the page.
    assert (absent, claimed) == (
        '<a href="#status-demo-absent">1</a>',
        '<a href="#status-demo-claimed">1</a>',
    )
    assert '<li id="status-demo-absent"><strong>absent</strong> (1)' in matrix
    assert '<li id="status-demo-claimed"><strong>claimed</strong> (1)' in matrix


def test_status_matrix_splits_each_count_by_record_kind_and_lists_the_records(demo: PipelineResult) -> None:
    """ "Which routes are only claimed, not wired?": a row per record kind, each count a link
    to the line that lists those records, under their status field."""
    matrix = demo.pages["systems/status-matrix.md"]
    rows = _table_rows(matrix[matrix.index("## By record kind") : matrix.index("## By status field")])
    assert {row[0] for row in rows} == {DEMO_NAME}
    kinds = [row[1] for row in rows]
    assert kinds == [
        "components",
        "operative objects",
        "routes",
        "claims",
        "evidenced absences",
    ]  # registry order
    routes = rows[2]
    assert '<a href="#status-demo-routes-wired">1</a>' in routes
    assert '<a href="#status-demo-routes-afforded">1</a>' in routes
    # No route is claimed: no link.
    assert routes[2:6] == ["0", "0", '<a href="#status-demo-routes-uninspected">1</a>', "0"]
    line = matrix[matrix.index('<li id="status-demo-routes-wired">') :]
    line = line[: line.index("</li>")]
    assert line == (
        '<li id="status-demo-routes-wired">routes (1): <span class="kb-status-records__field">'
        "implementation conclusion status</span>: "
        '<a href="../demo/result/#rte-1" title="Prompt → answer">RTE-1</a>'
    )


def test_status_matrix_per_field_counts_link_to_a_line_of_the_records_they_count(
    demo: PipelineResult,
) -> None:
    """A field's label is written on records of several kinds ('implementation conclusion
    status' on a component, an object and a route): each non-zero count of the per-field table
    links to a line of its own that lists exactly the records it counts; a zero links nowhere."""
    matrix = demo.pages["systems/status-matrix.md"]
    rows = _table_rows(matrix[matrix.index("## By status field") : matrix.index("## Records by status {")])
    links = [
        (int(count), href)
        for row in rows
        for cell in row[2:]
        for href, count in re.findall(r'<a href="#([^"]+)">(\d+)</a>', cell)
    ]
    assert len(links) == 5
    implementation = next(row for row in rows if row[1] == "implementation conclusion status")
    assert implementation[2:7] == [
        "0",
        "0",
        "0",
        "0",
        '<a href="#status-demo-field-implementation-conclusion-status-afforded">1</a>',
    ]
    for count, anchor in links:
        opening = f'<li id="{anchor}">'
        assert matrix.count(opening) == 1, anchor
        line = matrix[matrix.index(opening) :]
        line = line[: line.index("</li>")]
        assert len(re.findall(r"<a href=", line)) == count, line
    wired = matrix[matrix.index('<li id="status-demo-field-implementation-conclusion-status-wired">') :]
    assert wired[: wired.index("</li>")] == (
        '<li id="status-demo-field-implementation-conclusion-status-wired">wired (3): '
        '<a href="../demo/result/#cmp-1" title="Agent loop">CMP-1</a>, '
        '<a href="../demo/result/#obj-1" title="Conversation history">OBJ-1</a>, '
        '<a href="../demo/result/#rte-1" title="Prompt → answer">RTE-1</a>'
    )


# ---------------------------------------------------------------- escape()

LITERAL_TEXTS = [
    "<script>alert(1)</script>",
    '<a href="x">y</a> <img src=x onerror=alert(1)>',
    "[x](javascript:alert(1)) and ![img](x.png) and <https://example.org>",
    "*em* _u_ **strong** __strong__",
    "{ #id .cls } and {: .cls }",
    "{{ 7*7 }} {% if x %}y{% endif %} {# note #}",
    "a | b | c",
    "`tick` and ``double``",
    "back\\slash \\*",
    "&amp; &lt; &#60;",
    "# not a heading",
    "## not a heading either",
    "- not an item",
    "+ not an item",
    "* not an item",
    "1. not a list",
    "2) not a list",
    "> not a quote",
    "<!-- not a comment -->",
    "first line\n# second line\n- third line\n10. fourth line",
]


@pytest.mark.parametrize("text", LITERAL_TEXTS)
def test_escape_renders_text_literally(text: str) -> None:
    rendered = _html(escape(text))
    assert _tags(rendered) <= {"p"}, rendered
    assert _visible(rendered) == text


@pytest.mark.parametrize(
    "text",
    [
        *(t for t in LITERAL_TEXTS if "{%" not in t),
        pytest.param("{% if x %}y{% endif %}", id="jinja-block"),
        pytest.param("{# note #}", id="jinja-comment"),
    ],
)
def test_escaped_text_holds_no_macro_syntax(text: str) -> None:
    escaped = str(escape(text))
    assert not re.search(r"\{[{%#]", escaped)
    assert jinja2.Environment().from_string(escaped).render() == escaped


@pytest.mark.parametrize(
    "text",
    [
        pytest.param("Title\n---", id="setext-h2"),
        pytest.param("Title\n===", id="setext-h1"),
        pytest.param("---", id="thematic-break"),
        pytest.param('!!! warning "Pwned"\n    body', id="admonition"),
        pytest.param("~~~\nx_y <b>\n~~~", id="tilde-fence"),
    ],
)
def test_escape_neutralises_block_markers(text: str) -> None:
    rendered = _html(escape(text))
    assert _tags(rendered) <= {"p"}, rendered
    assert _visible(rendered) == text


# ---------------------------------------------------------------- the linker


def _graph():
    system = SystemRecords(
        slug="t",
        records=[
            Source.model_validate(
                {
                    "id": "SRC-1",
                    "source_kind": "Git",
                    "identity": "t",
                    "location": "https://github.com/example/t",
                    "revision": "abc1234",
                }
            ),
            Source.model_validate(
                {
                    "id": "SRC-2",
                    "source_kind": "Git",
                    "identity": "docs",
                    "location": "https://git.example.org/team/docs",
                    "revision": "r2",
                    "link_template": "{location}/-/blob/{revision}/{path}#L{start}-{end}",
                }
            ),
            Component(id="CMP-1"),
            Route(id="RTE-1", body="A route."),
            Route(id="RTE-12", body="Another route."),
            Route(id="MEM-RTE-knowledge", body="Short."),
            Route(id="MEM-RTE-knowledge-store", body="Long."),
        ],
        supplied=[Supplied(id="RT-RTE-context-resolve", declared_in="the runtime member")],
    )
    return link_system(system, PLACEMENT)


@pytest.fixture(scope="module")
def t() -> Linker:
    """A linker on the system page (the home page of a system without result or report)."""
    return Linker(_graph(), "index")


BLOB = "https://github.com/example/t/blob/abc1234"


def test_code_spans_stay_literal_and_unlinked(t: Linker) -> None:
    out = t.inline("see `RTE-1 <b>*x*</b> SRC-1 src/a.py:1-2` and RTE-1")
    assert "<b>" not in out  # a span holding '<' is escaped inline HTML, not a backtick span
    assert out.count("](") == 1
    assert out.endswith("and [RTE-1](#rte-1)")
    assert "<code>RTE-1 &lt;b&gt;*x*&lt;/b&gt; SRC-1 src/a.py:1-2</code>" in _html(out)


def test_a_record_s_evidence_written_as_code_links_there_and_is_listed_once(t: Linker) -> None:
    written = ("SRC-1 src/a.py:3-4,9", "SRC-1 src/b.py", "SRC-1 src/c.py:1")
    anchors = [Anchor.model_validate(a) for a in written]
    body = "Wired. SRC-1 `src/a.py:3-4,9`, `src/b.py`; see `src/c.py:2` and `src/other.py`."
    out = _html(t.citing(anchors).text(body))
    # An anchor of several ranges: the path and its first range link there, each further
    # range to its own lines.
    assert (
        f'<a href="{BLOB}/src/a.py#L3-L4"><code>src/a.py:3-4</code></a><code>,</code>'
        f'<a href="{BLOB}/src/a.py#L9"><code>9</code></a>'
    ) in out
    assert f'<a href="{BLOB}/src/b.py"><code>src/b.py</code></a>' in out
    # A span that is no anchor of the record, or other lines of its file, stays code.
    assert "<code>src/c.py:2</code>" in out and "<code>src/other.py</code>" in out
    assert _html(t.text(body)).count("<a ") == 1  # without the record's anchors: SRC-1 alone
    # The evidence line lists only what the text does not show: c.py:1.
    assert t.evidence_not_in(anchors, [body]) == anchors[2:]
    # An anchor written in prose (a field's text) is shown, linked, where it is written.
    assert t.evidence_not_in(anchors, [None], ["Grows (SRC-1 src/c.py:1)."]) == anchors[:2]
    assert t.evidence_not_in(anchors, [None], ["SRC-1 src/c.py:1-2"]) == anchors
    assert t.evidence_not_in([Anchor.model_validate("SRC-1 §3")], ["SRC-1 §3"]) == [
        Anchor.model_validate("SRC-1 §3")
    ]


def test_a_code_span_holding_an_id_alone_links_as_code(t: Linker) -> None:
    """The source contract writes IDs as code (```SRC-1```): they link, shown as code."""
    out = t.inline("cited by `SRC-1` and `RT-RTE-context-resolve`, not `SRC-1 x` or `RTE-99`")
    assert out.startswith(
        "cited by [`SRC-1`](#src-1) and [`RT-RTE-context-resolve`](#rt-rte-context-resolve)"
    )
    rendered = _html(out)
    assert '<a href="#src-1"><code>SRC-1</code></a>' in rendered
    assert "<code>SRC-1 x</code>" in rendered and "<code>RTE-99</code>" in rendered
    html_out = Linker(t.graph, "index", html=True).inline("`RTE-1`")
    assert html_out == '<a href="#rte-1"><code>RTE-1</code></a>'


def test_code_span_with_backticks_inside(t: Linker) -> None:
    out = t.inline("run ``a ` b`` now")
    assert "<code>a ` b</code>" in _html(out)


def test_longest_declared_id_wins(t: Linker) -> None:
    assert t.inline("MEM-RTE-knowledge-store") == "[MEM-RTE-knowledge-store](#mem-rte-knowledge-store)"
    assert t.inline("MEM-RTE-knowledge") == "[MEM-RTE-knowledge](#mem-rte-knowledge)"
    assert (
        t.inline("MEM-RTE-knowledge-store-backed rows")
        == "[MEM-RTE-knowledge-store](#mem-rte-knowledge-store)-backed rows"
    )
    assert t.inline("RTE-12 and RTE-1") == "[RTE-12](#rte-12) and [RTE-1](#rte-1)"


def test_undeclared_numbered_id_is_not_cut_to_a_declared_one(t: Linker) -> None:
    assert t.inline("RTE-13 and RTE-120") == "RTE-13 and RTE-120"


def test_ids_inside_evidence_paths_are_not_linked(t: Linker) -> None:
    out = t.inline("SRC-1 docs/RTE-1.md:3 and SRC-1 specs/MEM-RTE-knowledge-store/notes.md")
    assert "(#rte-1)" not in out
    assert "(#mem-rte-knowledge-store)" not in out
    assert f"[docs/RTE-1.md]({BLOB}/docs/RTE-1.md#L3):[3]({BLOB}/docs/RTE-1.md#L3)" in out
    assert f"[specs/MEM-RTE-knowledge-store/notes.md]({BLOB}/specs/MEM-RTE-knowledge-store/notes.md)" in out
    assert out.startswith("[SRC-1](#src-1) ")


def test_multi_range_anchor_links_each_range(t: Linker) -> None:
    out = t.inline("SRC-1 src/a.py:1-9,12,20-21")
    assert out == (
        f"[SRC-1](#src-1) [src/a.py]({BLOB}/src/a.py#L1-L9):[1-9]({BLOB}/src/a.py#L1-L9),"
        f"[12]({BLOB}/src/a.py#L12),[20-21]({BLOB}/src/a.py#L20-L21)"
    )


def test_one_source_several_paths(t: Linker) -> None:
    out = t.inline("SRC-1 a/b.py:1; c/d_e.py:2")
    assert f"[a/b.py]({BLOB}/a/b.py#L1)" in out
    assert f"[c/d\\_e.py]({BLOB}/c/d_e.py#L2)" in out
    assert out.count("[SRC-1]") == 1


def test_link_template_builds_evidence_urls(t: Linker) -> None:
    out = t.inline("SRC-2 docs/a.md:3-4")
    assert "(https://git.example.org/team/docs/-/blob/r2/docs/a.md#L3-4)" in out


def test_supplied_ids_are_marked_declared_elsewhere(t: Linker) -> None:
    out = t.inline("see RT-RTE-context-resolve")
    assert out == (
        'see [RT-RTE-context-resolve](#rt-rte-context-resolve){ .kb-elsewhere title="declared elsewhere" }'
    )
    rendered = _html(out)
    assert 'class="kb-elsewhere"' in rendered
    assert 'title="declared elsewhere"' in rendered
    from_result = Linker(t.graph, "result").inline("RT-RTE-context-resolve")
    assert from_result.startswith("[RT-RTE-context-resolve](index.md#rt-rte-context-resolve)")


def test_id_at_the_start_of_a_paragraph(t: Linker) -> None:
    out = t.text("RTE-1 starts here.\n\nCMP-1 starts the second.")
    assert out == "[RTE-1](#rte-1) starts here.\n\n[CMP-1](#cmp-1) starts the second."
    assert _html(out) == (
        '<p><a href="#rte-1">RTE-1</a> starts here.</p>\n<p><a href="#cmp-1">CMP-1</a> starts the second.</p>'
    )


@pytest.mark.parametrize("paragraph", ["# not a heading", "* not an item", "+ not an item", "-not an item"])
def test_heading_and_other_markers_stay_paragraphs(paragraph: str, t: Linker) -> None:
    rendered = _html(t.text(f"Intro RTE-1.\n\n{paragraph}\n\nRTE-1\n{paragraph}"))
    assert _tags(rendered) <= {"p", "a"}, rendered
    assert rendered.count("<p>") == 3
    assert f"<p>{html.escape(paragraph, quote=False)}</p>" in rendered


@pytest.mark.parametrize(("item", "tag"), [("1. an item", "ol"), ("12) an item", "ol"), ("- an item", "ul")])
def test_list_markers_make_a_list(item: str, tag: str, t: Linker) -> None:
    rendered = _html(t.text(f"Intro RTE-1.\n\n{item}\n{item}"))
    assert _tags(rendered) == {"p", "a", tag, "li"}, rendered
    assert rendered.count("<li>an item</li>") == 2
    # After a line of prose, a number other than 1 continues the paragraph.
    if item.startswith("12)"):
        assert _tags(_html(t.text(f"RTE-1\n{item}"))) == {"p", "a"}


def test_indented_paragraph_stays_a_paragraph(t: Linker) -> None:
    rendered = _html(t.text("a\n\n    b_c"))
    assert rendered == "<p>a</p>\n<p>b_c</p>"


def test_cell_keeps_a_table_row_intact(t: Linker) -> None:
    out = t.cell("a | b\n\nsecond RTE-1")
    assert out == "a \\| b<br><br>second [RTE-1](#rte-1)"
    assert "\n" not in out


# ---------------------------------------------------------------- review hash


def _frontmatter(page: str) -> dict:
    assert page.startswith("---\n")
    return yaml.safe_load(page.split("---\n", 2)[1])


@pytest.mark.parametrize("which", ["demo", "oh-my-pi"])
def test_review_hash_is_the_sha256_of_the_result_page(
    which: str, demo: PipelineResult, shipped: PipelineResult
) -> None:
    pages = demo.pages if which == "demo" else shipped.pages
    result_md = pages[f"systems/{which}/result.md"]
    review_md = pages[f"systems/{which}/review.md"]
    digest = hashlib.sha256(result_md.encode("utf-8")).hexdigest()
    meta = _frontmatter(review_md)
    assert meta["result-sha256"] == digest
    assert meta["projected-from"] == "result.md"
    assert f"(SHA-256 of its Markdown: `{digest}`)" in review_md


# ---------------------------------------------------------------- determinism


@pytest.mark.parametrize("records", [FIXTURE_RECORDS, REPO_ROOT / "records"], ids=["demo", "shipped"])
def test_two_runs_render_identical_pages(records: Path) -> None:
    first = run_pipeline(records, records.parent).pages
    second = run_pipeline(records, records.parent).pages
    assert list(first) == list(second)
    assert first == second


def _renamed_copy(tmp_path: Path) -> Path:
    """The fixture with its YAML files renamed so that they load in reverse order."""
    source = FIXTURE_RECORDS / "demo"
    target = tmp_path / "records" / "demo"
    shutil.copytree(source / "notes", target / "notes")
    names = sorted(p.name for p in source.glob("*.yaml"))
    for number, name in enumerate(reversed(names)):
        shutil.copyfile(source / name, target / f"{number:02d}-{name}")
    loaded = sorted(p.name.split("-", 1)[1] for p in target.glob("*.yaml"))
    assert loaded == names
    return target.parent


def test_page_paths_do_not_depend_on_file_order(tmp_path: Path, demo: PipelineResult) -> None:
    renamed = run_pipeline(_renamed_copy(tmp_path), tmp_path)
    assert renamed.errors == []
    assert list(renamed.pages) == list(demo.pages)


def test_pages_do_not_depend_on_file_order(tmp_path: Path, demo: PipelineResult) -> None:
    renamed = run_pipeline(_renamed_copy(tmp_path), tmp_path).pages
    differing = [page for page in demo.pages if renamed.get(page) != demo.pages[page]]
    assert differing == [], "\n".join(_diff(demo.pages[p], renamed[p], p) for p in differing)


def test_relative_urls_are_mkdocs_own() -> None:
    """The renderer relates URLs without MkDocs, exactly as MkDocs does."""
    from mkdocs.utils import get_relative_url

    from generator.render.urls import relative_url

    paths = [
        "",
        "systems/",
        "systems/demo/",
        "systems/demo/result/",
        "glossary/",
        "a/b/c/",
        "index.html",
        "a/b.html",
        "a/./b/../c/",
        "../x/",
        "/abs/",
        "exports/kb.json",
    ]
    for url in paths:
        for other in paths:
            assert relative_url(url, other) == get_relative_url(url, other), (url, other)
