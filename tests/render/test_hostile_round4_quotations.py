"""Hostile quotations and link targets, now that a quotation of Markdown is read as
Markdown, a code quotation is highlighted and a relative link target is a tooltip.

Three doors, each with its own cases: the Markdown a quotation holds (its HTML, links,
images and macros stay inert), the target of a link the KB does not publish (it is an
attribute value now: it cannot end the attribute or be read as Markdown), and the text of a
code quotation (no fence opens, no element closes, and a huge one is shown plain in time
linear in it). Each is read as the built page reads it: Python-Markdown with the site's
extensions over the page the pipeline renders.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

import markdown
import pytest
from hostile_support import make_records

from generator.graph.system_graph import link_system
from generator.model.base import Quote
from generator.model.records import Route
from generator.model.system import SystemRecords
from generator.pipeline import run_pipeline
from generator.render.quote_html import highlighted_code, quote_html
from generator.render.registry import PLACEMENT
from generator.render.text import Linker

EXTENSIONS = ["attr_list", "md_in_html", "admonition", "tables", "toc", "pymdownx.superfences"]
RESULT = "systems/demo/result.md"

# The elements and attributes the renderer itself writes for a quotation and its text.
OWN_TAGS = {
    "div", "p", "strong", "em", "code", "a", "ul", "ol", "li", "table", "thead", "tbody",
    "tr", "th", "td", "blockquote", "pre", "span", "br", "hr",
}  # fmt: skip
OWN_ATTRIBUTES = {"class", "href", "title", "style", "start"}


class _Live(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag not in OWN_TAGS:
            self.found.append(f"<{tag}>")
        for name, value in attrs:
            if name not in OWN_ATTRIBUTES:
                self.found.append(f"{tag} {name}=")
            if name == "href" and not re.match(r"(?:https://|#|\.\./)", value or ""):
                self.found.append(f"{tag} href={value}")
            if name == "style" and not re.fullmatch(r"text-align: (?:left|right|center);", value or ""):
                self.found.append(f"{tag} style={value}")


def _live(html: str) -> list[str]:
    parser = _Live()
    parser.feed(html)
    parser.close()
    return parser.found


def _linker() -> Linker:
    system = SystemRecords(slug="t", records=[Route(id="RTE-1", label="One", body="A route.")])
    return Linker(link_system(system, PLACEMENT), "index", html=True)


def _built(tmp_path: Path, quote_yaml: str) -> str:
    """The result page's HTML with one claim quoting ``quote_yaml``."""
    claims = (
        "claims:\n  - id: CLM-1\n    label: Quoted\n    conclusion_status: claimed\n"
        f"    quotes:\n{quote_yaml}"
    )
    records = make_records(tmp_path, {"claims.yaml": claims})
    result = run_pipeline(records, tmp_path)
    assert result.errors == []
    page = result.pages[RESULT].split("\n---\n", 1)[1]
    return markdown.markdown(page, extensions=EXTENSIONS)


def _quote_of(html: str) -> str:
    start = html.index('<div class="kb-quote">')
    return html[start : html.index('<span class="kb-quote__source">', start)]


# ---------------------------------------------------------------- Markdown in a quotation

HOSTILE_MARKDOWN = [
    "<script>alert(1)</script>\n\n<img src=x onerror=alert(1)>",
    "| a | b |\n|---|---|\n| <script>x</script> | [y](javascript:alert(1)) |",
    "- [x](data:text/html;base64,PHNjcmlwdD4=)\n  - ![i](javascript:alert(1))",
    "> <iframe src=https://evil.example></iframe>\n> {{ config.site_name }}",
    '## <b onclick="x">heading</b>\n\n[z](https://e.org "t" onclick=alert(1))',
    "<details open><summary>x</summary>\n\n```html\n<script>alert(1)</script>\n```\n</details>",
]


@pytest.mark.parametrize("text", HOSTILE_MARKDOWN)
def test_markdown_in_a_quotation_stays_inert(text: str) -> None:
    quote = Quote(text=text, path="README.md", source="SRC-1")
    html = str(quote_html(_linker(), quote))
    assert _live(html) == [], html
    assert "\n\n" not in html
    shown = markdown.markdown(f'<div class="kb-quote">\n{html}\n</div>', extensions=EXTENSIONS)
    assert _live(shown) == [], shown
    assert "javascript:" not in re.sub(r">[^<]*<", "><", shown)


def test_markdown_in_a_built_quotation_stays_inert(tmp_path: Path) -> None:
    quoted = "\n".join(f"          {line}" for line in HOSTILE_MARKDOWN[1].split("\n"))
    html = _built(tmp_path, f"      - path: README.md\n        source: SRC-1\n        text: |-\n{quoted}\n")
    quote = _quote_of(html)
    assert _live(quote) == [], quote
    assert "&lt;script&gt;x&lt;/script&gt;" in quote


# ---------------------------------------------------------------- a link target as a tooltip

# (a target as written, the tooltip as the page carries it: markdown-it has read the
# destination, so angle brackets are gone and a backslash escape is its character)
HOSTILE_TARGETS = [
    ('x"onmouseover="alert(1).md', "x&quot;onmouseover=&quot;alert&#40;1&#41;.md"),
    ("<a[b](https://evil.example)>", "a&#91;b&#93;&#40;https://evil.example&#41;"),
    ("<`{{x}}`*y*_z_>", "&#96;&#123;&#123;x&#125;&#125;&#96;&#42;y&#42;&#95;z&#95;"),
    ("<../a b.md>", "../a b.md"),
]


@pytest.mark.parametrize(("target", "title"), HOSTILE_TARGETS)
def test_a_hostile_relative_target_is_one_inert_attribute(target: str, title: str) -> None:
    linker = _linker()
    for form in (linker, Linker(linker.graph, "index")):
        written = str(form.inline(f"[text]({target})"))
        html = markdown.markdown(written, extensions=EXTENSIONS) if not form.html else written
        assert _live(html) == [], html
        assert f'title="{title}"' in written or f'title="{title}"' in html
        assert "evil.example" not in re.sub(r'title="[^"]*"', "", html).replace("&#", "")


@pytest.mark.parametrize("target", ["//evil.example/a", "file:///etc/passwd", "javascript:alert(1)"])
def test_a_target_naming_another_host_or_scheme_is_shown_not_hidden(target: str) -> None:
    written = str(_linker().inline(f"[text]({target})"))
    assert "kb-unpublished-link" not in written
    assert written.startswith("text (<code>") and "href" not in written


# ---------------------------------------------------------------- a code quotation

HOSTILE_CODE = [
    "let a = 1;\n```\n<script>alert(1)</script>\n```",
    "~~~mermaid\ngraph TD; A-->B\n~~~",
    "const s = `</code></pre><script>alert(1)</script>`;",
    "/* {{ config.site_name }} {% raw %} */\n\n\n\nlet b = '&amp;';",
]


@pytest.mark.parametrize("text", HOSTILE_CODE)
def test_a_code_quotation_opens_no_fence_and_closes_no_element(tmp_path: Path, text: str) -> None:
    quoted = "\n".join(f"          {line}" if line else "" for line in text.split("\n"))
    html = _built(tmp_path, f"      - path: src/a.ts\n        source: SRC-1\n        text: |-\n{quoted}\n")
    quote = _quote_of(html)
    assert _live(quote) == [], quote
    assert 'class="mermaid"' not in html
    code = quote[quote.index("<code>") : quote.index("</code>")]
    shown = re.sub(r"<[^>]+>", "", code)
    import html as html_module

    assert html_module.unescape(shown).rstrip("\n") == text


def test_a_huge_code_quotation_is_shown_plain() -> None:
    unit = 'if (a) { b = "<c>"; } // `x`\n'
    large = unit * 400_000
    plain = highlighted_code(large, "typescript")  # past the cap: no lexer runs over it
    assert '<span class="' not in plain[:200]
    assert "&lt;c&gt;" in plain and "&#96;x&#96;" in plain
