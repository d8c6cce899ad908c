"""Hostile corpus, fourth round: record text a changes page now links.

A changes page writes each run's words (a word diff's sides, values, evidence, labels)
through that run's record-text renderer (``Linker.fragment``), inside raw HTML blocks.
What the old or the new run writes there must stay text:

- HTML, and the diff's own markers written as text (``</del><ins>``), are escaped;
- a link written in the text is shown as its text and its target, never followed:
  ``javascript:`` is no link, even around an ID, which still links to its record;
- a code span stays code (one holding an ID alone links to the record);
- macros and attribute lists (``{{ }}``, ``{ .x }``) are text.

Each page is read back as the site reads it: Python-Markdown with mkdocs.yml's extensions.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

import markdown
import pytest
from many_runs import earlier_run_id, make_many_runs

from generator.pipeline import run_pipeline

EXTENSIONS = ["attr_list", "md_in_html", "admonition", "tables", "toc", "pymdownx.superfences"]
CHANGES = "systems/demo/changes.md"
ROUTE = "  - id: RTE-1\n    label: Prompt to answer\n"


def _changes_html(tmp_path: Path, old_body: str, new_body: str) -> str:
    """The changes page of demo's two runs, whose RTE-1 bodies are these, as HTML."""
    system = make_many_runs(tmp_path / "records", 2)
    for folder, body in ((system / "runs" / earlier_run_id(0), old_body), (system, new_body)):
        records = folder / "records.yaml"
        quoted = "'" + body.replace("'", "''") + "'"
        text = records.read_text(encoding="utf-8").replace(ROUTE, f"{ROUTE}    body: {quoted}\n", 1)
        records.write_text(text, encoding="utf-8")
    found = run_pipeline(tmp_path / "records")
    assert not found.errors, [d.as_text() for d in found.errors]
    page = found.pages[CHANGES]
    return markdown.markdown(page.split("\n---\n", 1)[1], extensions=EXTENSIONS)


class _Tags(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict[str, str | None]]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))


def _tags(html: str) -> list[tuple[str, dict[str, str | None]]]:
    parsed = _Tags()
    parsed.feed(html)
    return parsed.tags


@pytest.mark.parametrize(
    "hostile",
    [
        "<script>alert(1)</script> CMP-1 feeds it",
        "CMP-1 <img src=x onerror=alert(1)> feeds it",
        "CMP-1 </del><ins>forged</ins><del> feeds it",
    ],
)
def test_html_in_a_changed_word_stays_text(tmp_path: Path, hostile: str) -> None:
    html = _changes_html(tmp_path, "CMP-1 feeds it quietly.", hostile)
    tags = _tags(html)
    assert not any(tag in ("script", "img") for tag, _ in tags)
    assert "forged</ins>" not in html
    assert sum(tag == "ins" for tag, _ in tags) == html.count('<ins class="kb-diff__ins">')
    assert re.search(r'<ins class="kb-diff__ins">[^<]*&lt;', html)
    assert '<a href="../#cmp-1">CMP-1</a>' in html  # the ID beside it still links


@pytest.mark.parametrize(
    "hostile",
    [
        "[CMP-1](javascript:alert(1)) feeds it",
        "[see](data:text/html,<b>x</b>) CMP-1 feeds it",
        "[CMP-1](//evil.example/x) feeds it",
    ],
)
def test_a_written_link_is_shown_never_followed(tmp_path: Path, hostile: str) -> None:
    html = _changes_html(tmp_path, "CMP-1 feeds it quietly.", hostile)
    hrefs = [attrs.get("href") or "" for tag, attrs in _tags(html) if tag == "a"]
    assert not any(href.startswith(("javascript:", "data:", "//")) for href in hrefs)
    assert "evil.example" not in "".join(hrefs)
    assert "../#cmp-1" in hrefs


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("CMP-1 feeds it.", "`CMP-1` feeds `<b onclick=x>CMP-1</b>` it."),  # code: an ID alone links
        ("CMP-1 feeds it {{ 7*7 }}.", "CMP-1 feeds it { .x onclick=alert(1) } {% raw %}."),
        ("CMP-1 feeds RTE-1.", "**CMP-1 feeds** *RTE-1 `{{ 7*7 }}`*"),  # markup cut by the diff
    ],
)
def test_macros_attributes_and_code_stay_text(tmp_path: Path, old: str, new: str) -> None:
    html = _changes_html(tmp_path, old, new)
    tags = _tags(html)
    assert not any("onclick" in attrs for _, attrs in tags)
    assert not any(tag == "b" for tag, _ in tags)
    assert "49" not in re.sub(r"<[^>]+>", "", html)
    assert "&lt;" in html or "7*7" in html  # the hostile words are shown, as text
    assert "../#cmp-1" in [attrs.get("href") for tag, attrs in tags if tag == "a"]
