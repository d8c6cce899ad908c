"""Record text and labels are Markdown, rendered safely.

Strong, emphasis, code spans and links, in both forms of the one renderer (Markdown lines
and raw HTML blocks): what each becomes, what a link may lead to (a web page, a record of
the KB, else its text followed by its target), and a hostile corpus that tries to plant
HTML, attributes, script and data URLs and raw links through the Markdown the renderer now
reads. The Markdown form is checked in the HTML Python-Markdown makes of it, with the
site's extensions.
"""

from __future__ import annotations

import html
import re
from html.parser import HTMLParser

import markdown
import pytest

from generator.graph.system_graph import SystemGraph, link_system
from generator.model.inline_markup import parse_inline, plain_text
from generator.model.records import Component, Route, Source, Supplied
from generator.model.system import SystemRecords
from generator.render.inline_form import html_label, label
from generator.render.registry import PLACEMENT
from generator.render.text import Linker

MD_EXTENSIONS = ["attr_list", "md_in_html", "admonition", "tables", "toc", "pymdownx.superfences"]
BLOB = "https://github.com/example/t/blob/abc1234"


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
            Component(id="CMP-1", label="The `loop` CLI"),
            Route(id="RTE-1", label="**Prompt** → *answer*", body="A route."),
            Route(id="MEM-RTE-knowledge-store", body="Long."),
        ],
        supplied=[Supplied(id="RT-RTE-context-resolve", declared_in="the runtime member")],
    )
    return link_system(system, PLACEMENT)


@pytest.fixture(scope="module")
def md() -> Linker:
    return Linker(_graph(), "index")


@pytest.fixture(scope="module")
def h(md: Linker) -> Linker:
    return Linker(md.graph, "index", html=True)


def _html(text: str) -> str:
    return markdown.markdown(str(text), extensions=MD_EXTENSIONS)


def _visible(fragment: str) -> str:
    return html.unescape(re.sub(r"<[^>]+>", "", fragment))


# ---------------------------------------------------------------- what each construct becomes


def test_strong_emphasis_and_code_in_both_forms(md: Linker, h: Linker) -> None:
    text = "**Run state:** `kb/run-state.md` and *Remote write…* stay"
    assert md.inline(text) == "**Run state:** `kb/run-state.md` and *Remote write…* stay"
    assert _html(md.inline(text)) == (
        "<p><strong>Run state:</strong> <code>kb/run-state.md</code> and <em>Remote write…</em> stay</p>"
    )
    assert h.inline(text) == (
        "<strong>Run state:</strong> <code>kb/run-state.md</code> and <em>Remote write…</em> stay"
    )


def test_ids_and_anchors_link_inside_emphasis(md: Linker, h: Linker) -> None:
    out = h.inline("**RTE-1 and SRC-1 src/__init__.py:3** *CMP-1*")
    assert out.startswith('<strong><a href="#rte-1">RTE-1</a> and <a href="#src-1">SRC-1</a> ')
    assert f'<a href="{BLOB}/src/__init__.py#L3">src/__init__.py</a>' in out  # no strong in the path
    assert out.endswith('</strong> <em><a href="#cmp-1">CMP-1</a></em>')
    assert "<strong>init</strong>" not in _html(md.inline("SRC-1 src/__init__.py:3"))


def test_underscores_are_text(md: Linker, h: Linker) -> None:
    assert h.inline("memory_summary.md and _x_ and __init__") == "memory_summary.md and _x_ and __init__"
    assert _visible(_html(md.inline("_x_ and __init__"))) == "_x_ and __init__"


def test_a_backslash_writes_punctuation_as_text(md: Linker, h: Linker) -> None:
    assert h.inline("\\*not emphasis\\* and back\\slash") == "*not emphasis* and back\\slash"
    assert _visible(_html(md.inline("\\*not emphasis\\*"))) == "*not emphasis*"


def test_a_web_link_is_a_link(md: Linker, h: Linker) -> None:
    text = "see [the **docs**](https://example.org/a_(b)) now"
    assert h.inline(text) == 'see <a href="https://example.org/a_%28b%29">the <strong>docs</strong></a> now'
    assert '<a href="https://example.org/a_%28b%29">the <strong>docs</strong></a>' in _html(md.inline(text))


def test_a_link_to_a_record_by_id_or_anchor(md: Linker, h: Linker) -> None:
    assert h.inline("[the route](RTE-1)") == '<a href="#rte-1">the route</a>'
    assert h.inline("[the store](#mem-rte-knowledge-store)") == (
        '<a href="#mem-rte-knowledge-store">the store</a>'
    )
    assert h.inline("[context](RT-RTE-context-resolve)") == '<a href="#rt-rte-context-resolve">context</a>'
    from_result = Linker(md.graph, "result", html=True).inline("[the route](RTE-1)")
    assert from_result == '<a href="../#rte-1">the route</a>'


def test_inside_a_link_ids_and_code_are_not_links(h: Linker) -> None:
    out = h.inline("[RTE-1 and `SRC-1`](https://example.org)")
    assert out == '<a href="https://example.org">RTE-1 and <code>SRC-1</code></a>'


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        # a file the KB does not publish, a record it does not know, an anchor of no record:
        # the text, its target the tooltip
        (
            "[theory builder](../../notes/defs.md)",
            '<span class="kb-unpublished-link" title="../../notes/defs.md">theory builder</span>',
        ),
        ("[gone](RTE-99)", '<span class="kb-unpublished-link" title="RTE-99">gone</span>'),
        ("[top](#top)", '<span class="kb-unpublished-link" title="#top">top</span>'),
        # an ID in the text of a link that is not one still links
        (
            "[RTE-1](runtime.md)",
            '<span class="kb-unpublished-link" title="runtime.md"><a href="#rte-1">RTE-1</a></span>',
        ),
        # a target of another scheme is shown after the text
        ("[x](javascript:alert(1))", "x (<code>javascript:alert(1)</code>)"),
        ("[empty]()", "empty"),
    ],
)
def test_a_link_the_kb_cannot_follow_is_text_with_its_target(h: Linker, text: str, shown: str) -> None:
    assert h.inline(text) == shown


def test_an_image_stays_text(md: Linker, h: Linker) -> None:
    assert h.inline("![x](https://example.org/i.png)") == "![x](https://example.org/i.png)"
    rendered = _html(md.inline("![x](https://example.org/i.png)"))
    assert "<img" not in rendered and "<a" not in rendered
    assert _visible(rendered) == "![x](https://example.org/i.png)"


def test_labels_are_formatted_without_links() -> None:
    assert label("The `loop` CLI") == "The `loop` CLI"
    assert html_label("**Prompt** → *answer*") == "<strong>Prompt</strong> → <em>answer</em>"
    assert html_label("[docs](https://example.org) and RTE-1") == "docs and RTE-1"
    assert label("a {: .x } <b>") == "a &#123;: .x &#125; &lt;b&gt;"


def test_plain_text_drops_the_markers() -> None:
    assert plain_text("**Run state:** `kb/x.md` [docs](https://e.org) *a*") == "Run state: kb/x.md docs a"
    assert plain_text("memory_summary.md ![i](j) <b>") == "memory_summary.md ![i](j) <b>"


def test_a_heading_label_shows_formatted_and_its_contents_entry_is_text() -> None:
    page = f"## RTE-1 — {label('**Prompt** → *answer* with `code`')} {{ #rte-1 }}\n"
    converter = markdown.Markdown(extensions=MD_EXTENSIONS)
    rendered = converter.convert(page)
    assert rendered == (
        '<h2 id="rte-1">RTE-1 — <strong>Prompt</strong> → <em>answer</em> with <code>code</code></h2>'
    )
    assert converter.toc_tokens[0]["name"] == "RTE-1 — Prompt → answer with code"  # type: ignore[attr-defined]


# ---------------------------------------------------------------- hostile corpus

HOSTILE = [
    "- <script>alert(1)</script>\n- [x](javascript:alert(1))\n  - <img src=x onerror=alert(1)>",
    "[x](javascript:alert(1))",
    "[x](JaVaScRiPt:alert(1))",
    "[x]( javascript:alert(1) )",
    "[x](<javascript:alert(1)>)",
    "[x](java&#115;cript:alert(1))",
    "[x](data:text/html;base64,PHNjcmlwdD4=)",
    "[x](vbscript:msgbox(1))",
    "[x](//evil.example/a)",
    '[x](https://e.org "t" onclick=alert(1))',
    '[x](https://e.org/"onmouseover="alert(1))',
    "[x](https://e.org){ onclick=alert(1) }",
    "[x](https://e.org){: .evil #id onclick=alert(1) }",
    "**x**{ onclick=alert(1) }",
    "*x*{: onmouseover=alert(1) }",
    "`x`{ onclick=alert(1) }",
    "[<img src=x onerror=alert(1)>](https://e.org)",
    "[x](https://e.org/<script>)",
    "**<script>alert(1)</script>**",
    "*<img src=x onerror=alert(1)>*",
    "`</code><script>alert(1)</script>`",
    "[`</a><script>x</script>`](https://e.org)",
    "![x](javascript:alert(1)) ![y](data:image/svg+xml,<svg onload=alert(1)>)",
    "<https://evil.example> <javascript:alert(1)> https://bare.example",
    "[x][ref]\n\n[ref]: javascript:alert(1)",
    "**[x](javascript:alert(1))**",
    "[**x**](javascript:alert(1)){ .y }",
    "[a [b](javascript:x) c](https://e.org)",
    "&lt;script&gt; &#x3C;b&#x3E; &amp;",
    "x\n# heading\n- item\n> quote\n```\nfence",
    "**x\n# heading**",
    "[x](https://e.org)\n{: .evil }",
    "{{ config.site_name }} {% raw %} [x]({{ config }})",
    "<!-- [x](https://e.org) -->",
    "\\<script>alert(1)\\</script>",
]


class _Live(HTMLParser):
    """What would act in a browser: tags other than the renderer's own, handlers, any
    attribute the renderer does not write, a URL that is not the web or the page's."""

    # br: a table cell's paragraphs; ul, ol, li: the lines of record text that write a list;
    # span: a link's text whose target the KB does not publish (its tooltip)
    ALLOWED = {"p", "a", "strong", "em", "code", "h2", "br", "ul", "ol", "li", "span"}

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag not in self.ALLOWED:
            self.found.append(f"<{tag}>")
        for name, value in attrs:
            if name not in ("href", "id", "class", "title"):
                self.found.append(f"{tag} {name}=")
            if name == "href" and not re.match(r"(?:https://|#|\.\./)", value or ""):
                self.found.append(f"{tag} href={value}")
            if name == "class" and value not in ("kb-elsewhere", "kb-unpublished-link"):
                self.found.append(f"{tag} class={value}")

    def handle_comment(self, data: str) -> None:
        self.found.append(f"<!--{data}-->")


def _live(fragment: str) -> list[str]:
    parser = _Live()
    parser.feed(fragment)
    parser.close()
    return parser.found


@pytest.mark.parametrize("payload", HOSTILE)
def test_hostile_markdown_in_record_text_stays_inert(md: Linker, h: Linker, payload: str) -> None:
    for rendered in (_html(md.text(payload)), str(h.text(payload)), _html(md.cell(payload))):
        assert _live(rendered) == [], rendered
        assert "javascript:" not in re.sub(r">[^<]*<", "><", rendered)  # only as text, never markup
    heading = _html(f"## RTE-1 — {label(' '.join(payload.split()))} {{ #rte-1 }}")
    assert _live(heading) == [], heading
    assert heading.startswith('<h2 id="rte-1">') and heading.count("<h2") == 1
    assert _live(str(html_label(payload))) == []


@pytest.mark.parametrize("payload", HOSTILE)
def test_hostile_markdown_keeps_every_character_it_does_not_format(h: Linker, payload: str) -> None:
    """What the renderer does not format is shown: no character of the text is lost but
    the markers it reads (and a target it links)."""
    shown = _visible(str(h.text(payload)))
    for word in re.findall(r"[A-Za-z]{3,}", plain_text(payload)):
        assert word in shown


FORMS = [
    *HOSTILE,
    "Two parts:\n- one, RTE-1\n- two\n\n3. **three**\n   - nested `code`",
    "**Run state:** `kb/x.md` and *Remote write…*",
    "[`a]`](https://e.org) [**`b`**](https://e.org) a**b**c **a**b**c**",
    "****a**** *a **b** c* **a *b*** *a **b***",
    "**SRC-1 src/__init__.py:3** [RTE-1](runtime.md) [the route](#rte-1)",
    "| **x|y** | `a|b` [a|b](https://e.org/x|y)",
]
# The one place the two forms nest differently: both are strong emphasis.
_SAME_NESTING = ("<em><strong>", "<strong><em>"), ("</strong></em>", "</em></strong>")


def _normal(fragment: str) -> str:
    for references, character in (("&#x27;", "'"), ("&quot;", '"'), ("&#96;", "`"), ("&#123;", "{")):
        fragment = fragment.replace(references, character)
    for html_form, markdown_form in _SAME_NESTING:
        fragment = fragment.replace(html_form, markdown_form)
    return " ".join(fragment.replace("&#125;", "}").split())


@pytest.mark.parametrize("text", FORMS)
def test_the_markdown_form_reads_back_as_the_html_form(md: Linker, h: Linker, text: str) -> None:
    """What Python-Markdown makes of the Markdown form is what the HTML form writes: the
    emitted markers pair as the parser paired them, and nothing else becomes markup."""
    assert _normal(_html(md.text(text))) == _normal(str(h.text(text)))


# ---------------------------------------------------------------- linear in the text

FLOODS = {
    "stars": "*a" * 50_000,
    "strong": "**a" * 35_000,
    "brackets": "[" * 100_000,
    "brackets_then_a_link": "[" * 100_000 + "[a](https://e.org)",
    "links": "[a](" * 25_000,
    "backticks": "`" * 100_000,
    "backtick_runs": "` `` ```" * 12_000,
    "images": "![a](" * 20_000,
    "mixed": "[*`a](b *c `d" * 8_000,
}


@pytest.mark.parametrize("name", FLOODS)
def test_a_flood_of_markers_renders_as_text(name: str, h: Linker) -> None:
    """A hostile run of markers renders (markdown-it-py bounds its scans) and its output
    keeps the structure of text: no element but the few the markers may make."""
    text = FLOODS[name]
    out = str(h.inline(text))
    tags = set(re.findall(r"<([a-z]+)", out))
    assert tags <= {"em", "strong", "code", "a"}
    if name in ("brackets", "links", "backticks", "images"):
        assert tags <= {"code"}
        assert _visible(out).replace(" (", "").replace(")", "") != ""
    if name == "stars":
        assert out.count("<em>") == 25_000
    if name == "brackets_then_a_link":
        assert out.endswith('<a href="https://e.org">a</a>') and out.count("<a ") == 1


def test_parse_gives_one_text_token_for_text_without_markers() -> None:
    [token] = parse_inline("plain words, <b>, {x} and #1")
    assert (token.type, token.content) == ("text", "plain words, <b>, {x} and #1")


def test_search_shows_labels_and_snippets_without_markers() -> None:
    from generator.outputs.search import graph_documents

    graph = _graph()
    entries = {doc.entry.id: doc.entry for doc in graph_documents(graph)}
    assert entries["RTE-1"].label == "Prompt → answer"
    assert entries["CMP-1"].label == "The loop CLI"
    docs = {doc.entry.id: doc for doc in graph_documents(graph)}
    assert docs["RTE-1"].label == "Prompt → answer"  # the label field indexes the words


# ---------------------------------------------------------------- lists in record prose


def test_lines_that_write_a_list_are_a_list(h: Linker) -> None:
    text = "- Storage: files, see RTE-1.\n- Form: `natural-language`\n  wrapped on.\n\nAfter the list."
    assert str(h.text(text)) == (
        "<ul>\n"
        '<li>Storage: files, see <a href="#rte-1">RTE-1</a>.</li>\n'
        "<li>Form: <code>natural-language</code>\nwrapped on.</li>\n"
        "</ul>\n"
        "<p>After the list.</p>"
    )


def test_a_numbered_list_keeps_its_first_number_and_an_item_its_nested_list(h: Linker) -> None:
    text = "5. Keep the metric:\n   - `keep` when it improves;\n   - `crash` when it fails.\n6. Log it."
    assert str(h.text(text)) == (
        '<ol start="5">\n'
        "<li>Keep the metric:\n<ul>\n<li><code>keep</code> when it improves;</li>\n"
        "<li><code>crash</code> when it fails.</li>\n</ul>\n</li>\n"
        "<li>Log it.</li>\n"
        "</ol>"
    )


def test_a_list_after_prose_lines_follows_their_paragraph(h: Linker) -> None:
    expected = "<p>Two parts:</p>\n<ul>\n<li>one</li>\n<li>two</li>\n</ul>"
    assert str(h.text("Two parts:\n- one\n- two")) == expected
    # A change of marker starts another list.
    assert str(h.text("- one\n1. two")) == "<ul>\n<li>one</li>\n</ul>\n<ol>\n<li>two</li>\n</ol>"


@pytest.mark.parametrize(
    "text",
    [
        "Founded in\n2024. It grew.",  # a number other than 1 does not interrupt prose
        " * - **quoted** code comment\n *   continued",  # an asterisk is no bullet
        "-not a marker\n---",
        "A sentence - with a dash.",
    ],
)
def test_prose_that_writes_no_list_stays_a_paragraph(h: Linker, text: str) -> None:
    rendered = str(h.text(text))
    assert rendered.startswith("<p>") and rendered.endswith("</p>")
    assert "<li>" not in rendered


def test_nesting_deeper_than_the_limit_is_the_item_s_text(h: Linker) -> None:
    text = "\n".join("  " * depth + "- level" for depth in range(8))
    rendered = str(h.text(text))
    assert rendered.count("<ul>") == 2
    assert rendered.count("level") == 8
