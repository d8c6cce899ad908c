"""The changes page body (``render_run_changes``): Markdown that Python-Markdown, with the
site's extensions, turns into headings with their anchors, links into both runs and red-green
word changes, where hostile record text stays text."""

from __future__ import annotations

import re
from dataclasses import replace
from html.parser import HTMLParser
from pathlib import Path

import markdown
import pytest
from run_diff_support import checked, edit, record, rename_id, run_copy

from generator.graph.run_diff import RunDiff, diff_runs
from generator.render.run_changes import render_run_changes

EXTENSIONS = ["attr_list", "md_in_html", "admonition", "tables", "toc", "pymdownx.superfences"]
HOSTILE = "<script>alert(1)</script> {{ 7*7 }} [x](javascript:alert(1)) </div>\n\n<b>bold</b> *stars* `tick`"


def _old_href(record_id: str) -> str:
    return f"../runs/old/result.md#{record_id.lower()}"


def _new_href(record_id: str) -> str:
    return f"result.md#{record_id.lower()}"


@pytest.fixture
def diff(tmp_path: Path) -> RunDiff:
    old, new = run_copy(tmp_path, "old"), run_copy(tmp_path, "new")
    rename_id(new, "RTE-2", "RTE-7")

    def routes(data: dict) -> None:
        route = record(data, "routes", "RTE-1")
        route["statuses"]["operation conclusion status"] = "observed"
        route["guarantee"][0]["strength"] = "policy"
        route["body"] = HOSTILE

    edit(new, "routes.yaml", routes)
    edit(new, "components.yaml", lambda d: d["components"][0].update(label="Sandbox {policy} <engine>"))
    edit(new, "findings.yaml", lambda d: d["limitations"].append({"title": HOSTILE, "affected": "RTE-1"}))
    return diff_runs(checked(old), checked(new))


class _Elements(HTMLParser):
    """Every start tag with its attributes, and the text."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))

    def handle_data(self, data: str) -> None:
        self.text.append(data)


def _converted(page: str) -> tuple[str, _Elements]:
    html = markdown.Markdown(extensions=EXTENSIONS).convert(page)
    parsed = _Elements()
    parsed.feed(html)
    return html, parsed


def test_the_page_converts_with_its_anchors_and_links(diff: RunDiff) -> None:
    page = render_run_changes(diff, _old_href, _new_href)
    html, parsed = _converted(page)
    declared = re.findall(r"\{ #([^\s}]+) \}", page)
    assert {"top", "conclusions-that-moved", "renumbered-records", "changed-records", "limitations"} <= set(
        declared
    )
    assert {"changed-rte-1", "changed-cmp-1"} <= set(declared)
    # Conclusions first, word diffs last.
    order = [page.index(f"{{ #{anchor} }}") for anchor in ("conclusions-that-moved", "renumbered-records")]
    assert order == sorted(order) and order[-1] < page.index("{ #changed-records }")
    for anchor in declared:
        assert f'id="{anchor}"' in html, anchor
    hrefs = [attrs.get("href") for tag, attrs in parsed.tags if tag == "a"]
    assert "../runs/old/result.md#rte-2" in hrefs and "result.md#rte-7" in hrefs
    assert "../runs/old/result.md#cmp-1" in hrefs and "result.md#cmp-1" in hrefs


def test_word_changes_are_red_and_green(diff: RunDiff) -> None:
    page = render_run_changes(diff, _old_href, _new_href)
    _, parsed = _converted(page)
    classes = {(tag, attrs.get("class")) for tag, attrs in parsed.tags}
    assert ("del", "kb-diff__del") in classes and ("ins", "kb-diff__ins") in classes
    assert (
        '<p><strong>operation conclusion status:</strong> <del class="kb-diff__del">uninspected</del>' in page
    )
    # Word diffs are collapsed until opened.
    assert '<details class="kb-diff__words">\n<summary>Word changes</summary>' in page
    flagged = replace(diff, changed=tuple(replace(c, possible_different_referent=True) for c in diff.changed))
    assert 'class="kb-diff__flag"' in render_run_changes(flagged, _old_href, _new_href)


def test_hostile_record_text_stays_text(diff: RunDiff) -> None:
    page = render_run_changes(diff, _old_href, _new_href)
    _, parsed = _converted(page)
    tags = {tag for tag, _ in parsed.tags}
    assert "script" not in tags and "b" not in tags
    assert not [a for tag, a in parsed.tags if tag == "a" and "javascript" in (a.get("href") or "")]
    text = "".join(parsed.text)
    assert "<script>alert(1)</script>" in text and "{{ 7*7 }}" in text and "</div>" in text
    # Record text is Markdown in a diff too: emphasis and code are elements, a link to a
    # script URL is its text and its target, shown as code.
    assert "stars tick" in text and "x (javascript:alert(1))" in text
    assert {"em", "code"} <= tags
    assert "Sandbox {policy} <engine>" in text
    # Every raw HTML block holds no blank line, so none ends early.
    for block in re.findall(r"^<div class=\"kb-diff[^\n]*\n(?:.*\n)*?</div>$", page, re.M):
        assert "\n\n" not in block


def test_an_empty_diff_says_nothing_changed(tmp_path: Path) -> None:
    folder = run_copy(tmp_path)
    page = render_run_changes(diff_runs(checked(folder), checked(folder)), _old_href, _new_href)
    assert "*Nothing changed between the two runs.*" in page
    assert "## " not in page


def test_records_without_a_link_show_their_id(diff: RunDiff) -> None:
    page = render_run_changes(diff, lambda _: None, lambda _: None, title="Changes")
    assert page.startswith("# Changes { #top }\n")
    assert "<li>RTE-2 → RTE-7 (route) Tool approval — confidence" in page
    assert "Old run: RTE-1 · new run: RTE-1" in page


def test_the_page_is_deterministic(diff: RunDiff) -> None:
    assert render_run_changes(diff, _old_href, _new_href) == render_run_changes(diff, _old_href, _new_href)


def test_a_label_is_formatted_in_its_heading(tmp_path: Path) -> None:
    """A changed record's heading shows its label's Markdown as the record's heading does."""
    old, new = run_copy(tmp_path, "old"), run_copy(tmp_path, "new")
    edit(new, "components.yaml", lambda d: d["components"][0].update(label="The **sandbox** `engine`"))
    page = render_run_changes(diff_runs(checked(old), checked(new)), _old_href, _new_href)
    assert "### CMP-1 — The **sandbox** `engine` { #changed-cmp-1 }" in page
    html, _ = _converted(page)
    assert "The <strong>sandbox</strong> <code>engine</code>" in html
