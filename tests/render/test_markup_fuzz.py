"""Random inline text in every Markdown-form place the renderer writes record text, read
back as the site reads it (Python-Markdown with mkdocs.yml's extensions): no element but
the renderer's own, never an image, never a list inside a paragraph, no attribute or URL
the link builder did not write.

The samples are drawn from an alphabet of what Markdown, HTML and the linker act on
(brackets, bangs, backslashes, backticks, angle brackets, list markers, record IDs,
evidence anchors, web and script URLs), with a fixed seed: the same samples every run.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from html.parser import HTMLParser

import markdown
import pytest

from generator.graph.system_graph import SystemGraph, link_system
from generator.model.records import Component, Route, Source, Supplied
from generator.model.system import SystemRecords
from generator.render.inline_form import label
from generator.render.registry import PLACEMENT
from generator.render.text import Linker

# mkdocs.yml's markdown_extensions (the fences' custom Mermaid format changes no inline text).
MD_EXTENSIONS = ["attr_list", "md_in_html", "admonition", "tables", "toc", "pymdownx.superfences"]
SEED = 20261207
SAMPLES = 2000

ALPHABET = [
    *"![]()\\`*_<>&#-+=~{}|:.\"' ",
    "\n",
    "\n\n",
    "- ",
    "\n- ",
    "1. ",
    "\n2) ",
    "    ",
    "!!! ",
    "word",
    "CMP-1",
    "RTE-1",
    "RT-RTE-context-resolve",
    "MEM-RTE-knowledge-store",
    "SRC-1 src/a.py:3",
    "SRC-1 §2",
    "`CMP-1`",
    "`src/a.py:3`",
    "https://example.org/a_(b)",
    "[x](https://example.org)",
    "[y](CMP-1)",
    "[z](#rte-1)",
    "javascript:alert(1)",
    "data:text/html,x",
    "![i](x.png)",
    "<img src=x onerror=alert(1)>",
    "<script>",
    "{ .x onclick=y }",
    "{{ x }}",
    "&lt;",
    "**",
    "``",
]

# The renderer's own elements: prose and its lists, formatting, links and line breaks in
# cells; the table and the heading of the places the text is put in.
ALLOWED = {"p", "a", "strong", "em", "code", "br", "ul", "ol", "li", "h2"}
ALLOWED |= {"table", "thead", "tbody", "tr", "th", "td"}
# A link to a file the KB does not publish: its text, the target as a tooltip.
ALLOWED |= {"span"}
ALLOWED_ATTRIBUTES = {"href", "id", "class", "title", "start"}
SAFE_HREF = re.compile(r"(?:https?://|#|\.\./|[a-z0-9-]+/)")


def _graph() -> SystemGraph:
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
            Component(id="CMP-1", label="The loop"),
            Route(id="RTE-1", body="A route."),
            Route(id="MEM-RTE-knowledge-store", body="Long."),
        ],
        supplied=[Supplied(id="RT-RTE-context-resolve", declared_in="the runtime member")],
    )
    return link_system(system, PLACEMENT)


def _places(md: Linker) -> dict[str, Callable[[str], str]]:
    """Each Markdown-form place of record text, as the page templates put it."""
    table = "| a | b |\n| --- | --- |\n"
    return {
        "prose (record notes, summaries of a set)": lambda t: str(md.text(t)),
        "one line alone (a run's summary)": lambda t: str(md.cell(t)),
        "one line after a label (a profile's scope)": lambda t: f"**Scope:** {md.cell(t)}",
        "one line after a sentence (a set's ledger)": lambda t: f"**Superseded:** x. {md.cell(t)}",
        "table cell (target class, profile notes)": lambda t: f"{table}| x | {md.cell(t)} |",
        "heading label": lambda t: f"## RTE-1 — {label(t)} {{ #rte-1 }}",
    }


class _Elements(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[str] = []
        self.open: list[str] = []
        self.counts: dict[str, int] = {}

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.counts[tag] = self.counts.get(tag, 0) + 1
        if tag not in ALLOWED:
            self.found.append(f"<{tag}>")
        if tag in ("ul", "ol") and "p" in self.open:
            self.found.append(f"<{tag}> inside <p>")
        for name, value in attrs:
            if name not in ALLOWED_ATTRIBUTES or name.startswith("on"):
                self.found.append(f"{tag} {name}=")
            if name == "href" and not SAFE_HREF.match(value or ""):
                self.found.append(f"{tag} href={value}")
        if tag != "br":
            self.open.append(tag)

    def handle_endtag(self, tag: str) -> None:
        if tag in self.open:
            del self.open[len(self.open) - 1 - self.open[::-1].index(tag) :]

    def handle_comment(self, data: str) -> None:
        self.found.append(f"<!--{data}-->")


def _read(html: str) -> _Elements:
    parsed = _Elements()
    parsed.feed(html)
    parsed.close()
    return parsed


def _samples() -> list[str]:
    rng = random.Random(SEED)
    return ["".join(rng.choice(ALPHABET) for _ in range(rng.randint(1, 14))) for _ in range(SAMPLES)]


@pytest.fixture(scope="module")
def md() -> Linker:
    return Linker(_graph(), "index")


def test_the_samples_are_the_same_every_run() -> None:
    assert _samples()[:3] == _samples()[:3] and len(set(_samples())) > SAMPLES * 0.9


def test_random_inline_text_makes_only_the_renderers_elements(md: Linker) -> None:
    converter = markdown.Markdown(extensions=MD_EXTENSIONS)
    failures: list[str] = []
    for text in _samples():
        for place, written in _places(md).items():
            html = converter.reset().convert(written(text))
            parsed = _read(html)
            found = list(parsed.found)
            if place.startswith("table") and (parsed.counts.get("tr") != 2 or parsed.counts.get("td") != 2):
                found.append("the cell broke out of its row")
            if place == "heading label" and (parsed.counts.get("h2") != 1 or "<p" in html):
                found.append("the label broke out of its heading")
            if found:
                failures.append(f"{place}: {text!r} -> {found} in {html!r}")
    assert failures == [], "\n".join(failures[:20])
