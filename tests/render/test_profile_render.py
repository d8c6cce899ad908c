"""How profiles are shown: the profile table, the summaries and the comparison page.

The fixture KB (tests/fixtures/profile/records) holds two systems with profiles in
different evidence tiers (alpha: code-grounded, with a memory report; beta:
doc-grounded, records on its system page) and one without (gamma). Goldens of the
profile table and of the comparison page live in tests/goldens/profile/ and change
only through ``pytest --update-goldens``.
"""

from __future__ import annotations

import difflib
import html
import re
from html.parser import HTMLParser
from pathlib import Path

import markdown
import pytest
from hostile_support import make_records

from generator.pipeline import PipelineResult, run_pipeline

TESTS = Path(__file__).resolve().parents[1]
FIXTURE = TESTS / "fixtures" / "profile"
GOLDENS = TESTS / "goldens" / "profile"
CLEAN_PROFILE = TESTS / "fixtures" / "check" / "clean-memory-comparison-profile" / "records" / "demo"
MD_EXTENSIONS = ["attr_list", "md_in_html", "admonition", "tables", "toc", "pymdownx.superfences"]


@pytest.fixture(scope="module")
def kb() -> PipelineResult:
    result = run_pipeline(FIXTURE / "records", FIXTURE)
    # The one warning: alpha's OBJ-2 carries markup on purpose, to show it stays text.
    assert [d.code for d in result.diagnostics] == []
    return result


def _profile_section(page: str) -> str:
    """The 'Memory comparison' table section of a page (up to the end of the page)."""
    start = page.index("## Memory comparison { #memory-comparison }")
    return page[start:]


def _golden(name: str, actual: str, update: bool) -> None:
    golden = GOLDENS / name
    if update:
        golden.parent.mkdir(parents=True, exist_ok=True)
        golden.write_text(actual, encoding="utf-8", newline="\n")
    expected = golden.read_text(encoding="utf-8")
    if actual != expected:
        diff = "".join(
            difflib.unified_diff(
                expected.splitlines(True), actual.splitlines(True), f"golden {name}", "rendered"
            )
        )
        pytest.fail(f"{name} differs from its golden:\n{diff}", pytrace=False)


def test_profile_table_matches_golden(kb: PipelineResult, update_goldens: bool) -> None:
    _golden(
        "alpha-memory-report-profile.md",
        _profile_section(kb.pages["systems/alpha/memory-report.md"]),
        update_goldens,
    )


def test_comparison_page_matches_golden(kb: PipelineResult, update_goldens: bool) -> None:
    _golden("comparisons-memory.md", kb.pages["comparisons/memory.md"], update_goldens)


def test_comparison_page_groups_by_tier_and_lists_systems_without_a_profile(kb: PipelineResult) -> None:
    page = kb.pages["comparisons/memory.md"]
    code, doc, without = (
        page.index(h) for h in ('id="code-grounded"', 'id="doc-grounded"', "## Systems without")
    )
    assert code < page.index(">Alpha agent</a>") < doc < page.index(">Beta notes</a>") < without
    assert page.index("[Gamma loop](../systems/gamma/index.md)") > without
    assert "[every record and profile (JSON)](../exports/kb.json)" in page
    assert "[this comparison (CSV)](../exports/memory-comparison.csv)" in page


def test_a_value_links_to_its_first_evidence_record(kb: PipelineResult) -> None:
    page = kb.pages["comparisons/memory.md"]
    assert (
        '<a class="kb-chip kb-chip--wired kb-profile-value" href="../../systems/alpha/result/#mem-obj-store"'
        ' title="natural-language: wired — evidence MEM-OBJ-store — Notes are prose."'
        ' data-kb-value="natural-language"><span class="kb-chip__value">natural-language</span>'
        '<span class="kb-chip__basis"><span class="kb-sr"> (</span>wired'
        '<span class="kb-sr">)</span></span></a>'
    ) in page
    assert 'href="../../systems/beta/#obj-1" title="files: wired — evidence OBJ-1' in page


def test_profile_lives_on_the_memory_report_else_the_home_page(kb: PipelineResult) -> None:
    assert "{ #memory-comparison }" in kb.pages["systems/alpha/memory-report.md"]
    assert "{ #memory-comparison }" not in kb.pages["systems/alpha/result.md"]
    assert "{ #memory-comparison }" in kb.pages["systems/beta/index.md"]
    assert "memory-comparison" not in kb.pages["systems/gamma/index.md"]


@pytest.mark.parametrize("page", ["systems/alpha/index.md", "systems/alpha/review.md"])
def test_system_and_review_pages_summarise_each_axis_in_one_line(kb: PipelineResult, page: str) -> None:
    text = kb.pages[page]
    # A raw HTML list (Python-Markdown sets it aside): one item a line, final URLs.
    lines = [
        line for line in text.splitlines() if line.startswith("<li><a ") and "#memory-comparison-" in line
    ]
    assert len(lines) == 10
    assert lines[0].endswith("known: files (wired), in-memory (wired)</li>")
    assert "memory-report/#memory-comparison-storage-substrate" in lines[0]
    assert lines[5].endswith(": absent</li>")


def test_cited_records_link_back_to_the_axis_that_cites_them(kb: PipelineResult) -> None:
    result = kb.pages["systems/alpha/result.md"]
    backlink = '<a href="../memory-report/#memory-comparison-curation-operations">'
    assert backlink + "Memory comparison: Curation operations (memory report)</a>" in result


# ---------------------------------------------------------------- hostile text in a profile


def _clean_files() -> dict[str, str | bytes | None]:
    from hostile_support import CLEAN_SYSTEM

    files: dict[str, str | bytes | None] = {path.name: None for path in CLEAN_SYSTEM.iterdir()}
    files.update({path.name: path.read_text(encoding="utf-8") for path in sorted(CLEAN_PROFILE.iterdir())})
    return files


def _pages_with_profile_text(tmp_path: Path, old: str, new: str) -> dict[str, str]:
    files = _clean_files()
    profile = str(files["profile.yaml"])
    assert old in profile
    files["profile.yaml"] = profile.replace(old, new, 1)
    records = make_records(tmp_path, files)
    result = run_pipeline(records, tmp_path)
    assert result.errors == [], [d.as_text() for d in result.errors]
    return result.pages


PAYLOADS = [
    "<script>alert(1)</script><img src=x onerror=alert(2)>",
    "[click](javascript:alert(1)){ onclick=alert(3) }",
    "{{ config.extra }} | cell | break",
]
# What a reader sees of a payload in a table cell: record text is Markdown, and a link to
# no web page or record of the KB is its text followed by its target.
SHOWN = {PAYLOADS[1]: "click (javascript:alert(1)){ onclick=alert(3) }"}


@pytest.mark.parametrize("payload", PAYLOADS)
def test_markup_in_a_profile_note_stays_text(tmp_path: Path, payload: str) -> None:
    pages = _pages_with_profile_text(tmp_path, 'note: "Only prose is retained."', f"note: {_yaml(payload)}")
    for path in ("systems/demo/index.md", "comparisons/memory.md"):
        rendered = markdown.markdown(pages[path], extensions=MD_EXTENSIONS)
        assert _active_markup(rendered) == []
    table = markdown.markdown(pages["systems/demo/index.md"], extensions=MD_EXTENSIONS)
    assert SHOWN.get(payload, payload) in _visible(table)
    # On the comparison page the note is the title of its axis's mark, as written.
    comparison = markdown.markdown(pages["comparisons/memory.md"], extensions=MD_EXTENSIONS)
    assert f"known: {payload}" in _titles(comparison)


@pytest.mark.parametrize("payload", PAYLOADS)
def test_markup_in_the_scope_stays_text_on_the_comparison_page(tmp_path: Path, payload: str) -> None:
    pages = _pages_with_profile_text(
        tmp_path,
        'scope: "Notes retained across runs and the route that reads them back."',
        f"scope: {_yaml(payload)}",
    )
    rendered = markdown.markdown(pages["comparisons/memory.md"], extensions=MD_EXTENSIONS)
    assert _active_markup(rendered) == []
    # The header, the tier and one system: no cell broke out.
    assert len(re.findall(r"<tr[ >]", rendered)) == 3
    assert len(re.findall(r"<td[ >]", rendered)) == 10
    assert SHOWN.get(payload, payload) in _visible(rendered)


class _Tags(HTMLParser):
    """Every element that would run or fetch something: scripts, images, handlers, script URLs."""

    def __init__(self) -> None:
        super().__init__()
        self.active: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("script", "img", "iframe", "object"):
            self.active.append(tag)
        for name, value in attrs:
            if name.startswith("on") or (value or "").strip().lower().startswith("javascript:"):
                self.active.append(f"{tag} {name}={value}")


def _active_markup(fragment: str) -> list[str]:
    parser = _Tags()
    parser.feed(fragment)
    return parser.active


class _Titles(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.titles: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.titles += [value or "" for name, value in attrs if name == "title"]


def _titles(fragment: str) -> list[str]:
    """The title attributes of a fragment's elements, as the browser reads them."""
    parser = _Titles()
    parser.feed(fragment)
    return parser.titles


def _visible(fragment: str) -> str:
    """The text a reader sees in an HTML fragment."""
    return html.unescape(re.sub(r"<[^>]+>", "", fragment))


def _yaml(text: str) -> str:
    import json

    return json.dumps(text, ensure_ascii=True)
