"""Generated pages as raw HTML record blocks: headings stay Markdown, record text stays data.

The generated pages keep as Markdown only the front matter and the headings (with their
attribute lists); record blocks and route maps are raw HTML that Python-Markdown
passes through. These tests check the page form, that the conversion still yields the
anchors and table of contents, that hostile record text shows literally in a built page,
and that the plugin refuses page URLs the raw HTML links do not match.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path

import markdown
import pytest
from hostile_support import CLEAN_SYSTEM, located, make_records

from generator.pipeline import PipelineResult, run_pipeline
from generator.render import rawhtml, urls

REPO_ROOT = Path(__file__).resolve().parents[2]
FIXTURE = REPO_ROOT / "tests" / "fixtures" / "render"
RESULT = "systems/demo/result.md"
EXTENSIONS = ["attr_list", "md_in_html", "admonition", "tables", "toc", "pymdownx.superfences"]
HEADING = re.compile(r"^#{1,6} .*\{ #[^}]*\}$")


@pytest.fixture(scope="module")
def demo() -> PipelineResult:
    result = run_pipeline(FIXTURE / "records", FIXTURE)
    assert result.errors == []
    return result


def _body(page: str) -> list[str]:
    """The lines of a generated page after its front matter."""
    lines = page.split("\n")
    return lines[lines.index("---", 1) + 1 :]


def test_record_blocks_are_raw_html_and_headings_markdown(demo: PipelineResult) -> None:
    lines = _body(demo.pages[RESULT])
    headings = [line for line in lines if line.startswith("#")]
    assert headings and all(HEADING.match(line) for line in headings)
    assert "#### CMP-1 — Agent loop { #cmp-1 .kb-record .kb-record--component }" in headings
    # No Markdown block syntax outside headings and the run table; no markdown="1" divs.
    markdown_blocks = [line for line in lines if re.match(r"(\*\*|- |> |!!! |```|\d+\. )", line)]
    assert markdown_blocks == []
    assert not any(" markdown>" in line or 'markdown="' in line for line in lines)
    assert '<div class="kb-backlinks">' in lines


def test_raw_html_blocks_hold_no_blank_line_and_end_with_one(demo: PipelineResult) -> None:
    for path, page in demo.pages.items():
        lines = _body(page)
        for index, line in enumerate(lines[:-1]):
            if line in ("</div>", "</table>", "</ul>", "</ol>") or (
                line.startswith("<p>") and line.endswith("</p>")
            ):
                following = lines[index + 1]
                assert following == "" or following.startswith("<"), f"{path}:{index}: {following!r}"


def test_conversion_keeps_the_anchors_and_the_table_of_contents(demo: PipelineResult) -> None:
    page = demo.pages[RESULT]
    converter = markdown.Markdown(extensions=EXTENSIONS)
    converted = converter.convert("\n".join(_body(page)))
    declared = re.findall(r"\{ #([^\s}]+)", page)
    for anchor in declared:
        assert f'id="{anchor}"' in converted, anchor
    toc_ids: list[str] = []
    stack = list(converter.toc_tokens)  # type: ignore[attr-defined]
    while stack:
        token = stack.pop()
        toc_ids.append(token["id"])
        stack.extend(token["children"])
    assert sorted(toc_ids) == sorted(declared)
    assert '<h4 class="kb-record kb-record--component" id="cmp-1">' in converted


def test_raw_html_links_are_final_directory_urls(demo: PipelineResult) -> None:
    assert urls.url_href(RESULT, "systems/demo/index.md", "a") == "../#a"
    assert urls.url_href(RESULT, RESULT, "a") == "#a"
    assert urls.url_file_href(RESULT, RESULT, "a") == "./#a"
    html_lines = [line for line in _body(demo.pages[RESULT]) if line.startswith("<")]
    hrefs = [href for line in html_lines for href in re.findall(r'href="([^"]*)"', line)]
    relative = [href for href in hrefs if not href.startswith("https://")]
    assert relative and not [href for href in relative if ".md" in href.split("#")[0]]


def test_a_markdown_value_is_refused_inside_raw_html() -> None:
    from generator.render.markdown import Md

    with pytest.raises(TypeError):
        rawhtml.html_value(Md("\\*"))
    assert (
        rawhtml.html_value("<b>{{ x }}</b> `a`")
        == "&lt;b&gt;&#123;&#123; x &#125;&#125;&lt;/b&gt; &#96;a&#96;"
    )


def test_code_block_keeps_blank_lines_and_trailing_spaces_without_a_blank_line() -> None:
    block = rawhtml.code_block("a  \n\n\tb\n")
    assert "\n\n" not in block
    assert "a&#32;&#32;&#10;\n\tb\n" in block


# ---------------------------------------------------------------- hostile record text

PAYLOADS = {
    "html_tags": "<b>bold</b> and <img src=x onerror=alert(1)>",
    "script": "<script>alert(1)</script>",
    "markdown_emphasis_and_link": "*emphasis*, **strong** and [a link](https://example.com/x)",
    "markdown_script_link": "[click](javascript:alert(1)){ onclick=alert(2) } and ![img](data:x)",
    "macro": "{{ config.site_name }} and {% raw %}",
    "closing_div": "</div></div></p> escapes the block",
    "javascript_url": "javascript:alert(document.cookie)",
    "backslash_escapes": "\\*not emphasis\\* and a back\\slash",
}


class _Text(HTMLParser):
    """The text of a page's article and the tags inside it."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.depth = 0
        self.text: list[str] = []
        self.tags: list[str] = []
        self.attrs: set[str] = set()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "article":
            self.depth += 1
        elif self.depth:
            self.tags.append(tag)
            self.attrs.update(name for name, _ in attrs)
            self.text.extend(f" {name}={value} " for name, value in attrs if name == "href")

    def handle_endtag(self, tag: str) -> None:
        if tag == "article":
            self.depth -= 1

    def handle_data(self, data: str) -> None:
        if self.depth:
            self.text.append(data)


def _hostile_records_yaml() -> str:
    """The demo's records.yaml with every payload as one paragraph of CMP-1's form (from line 5)."""
    form = "\n\n".join(PAYLOADS.values())
    indented = "\n".join(f"      {line}" if line else "" for line in form.split("\n"))
    records_yaml = (CLEAN_SYSTEM / "records.yaml").read_text(encoding="utf-8")
    return records_yaml.replace("    form: Symbolic code.\n", f"    form: |\n{indented}\n", 1)


@pytest.fixture(scope="module")
def hostile_site(tmp_path_factory: pytest.TempPathFactory) -> _Text:
    root = tmp_path_factory.mktemp("hostile")
    records = make_records(root, {"records.yaml": _hostile_records_yaml()})
    env = {k: v for k, v in os.environ.items() if k not in ("KBGEN_RECORDS", "SOURCE_DATE_EPOCH")}
    env["NO_MKDOCS_2_WARNING"] = "1"
    args = [sys.executable, "-m", "generator.cli.main", "build", "--records", str(records)]
    args += ["--site-dir", str(root / "site"), "-f", str(REPO_ROOT / "mkdocs.yml")]
    proc = subprocess.run(args, cwd=root, env=env, capture_output=True, text=True, timeout=600, check=False)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    pages = sorted((root / "site" / "systems" / "demo").rglob("index.html"))
    parser = _Text()
    for page in pages:
        parser.feed(page.read_text(encoding="utf-8"))
    return parser


# What a reader sees of a payload (with each href the parser met): record text is Markdown
# (strong, emphasis, code, links the KB can follow), everything else is text; a link it
# cannot follow shows its target.
SHOWN = {
    "markdown_emphasis_and_link": "emphasis, strong and href=https://example.com/x a link",
    "markdown_script_link": "click (javascript:alert(1)){ onclick=alert(2) } and ![img](data:x)",
    "backslash_escapes": "*not emphasis* and a back\\slash",
}


@pytest.mark.parametrize("payload", PAYLOADS.values(), ids=PAYLOADS.keys())
def test_record_text_markup_shows_literally_in_the_built_page(hostile_site: _Text, payload: str) -> None:
    text = " ".join("".join(hostile_site.text).split())
    shown = SHOWN.get(next(name for name, value in PAYLOADS.items() if value == payload), payload)
    assert " ".join(shown.split()) in text
    assert (
        "script" not in hostile_site.tags and "img" not in hostile_site.tags and "b" not in hostile_site.tags
    )
    assert "href=javascript:" not in text.replace(" ", "")
    assert "href=data:" not in text.replace(" ", "")
    assert not any(name.startswith("on") for name in hostile_site.attrs)


def test_record_text_markdown_is_formatted_in_the_built_page(hostile_site: _Text) -> None:
    """Strong, emphasis and a web link of record text are elements; the link's href is the
    URL as written (the one link builder encodes it)."""
    assert {"em", "strong", "a"} <= set(hostile_site.tags)
    assert " href=https://example.com/x " in hostile_site.text


def test_markdown_markup_in_record_text_checks_clean(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, kbgen
) -> None:
    """Record text is Markdown, rendered safely: the hostile text checks clean, with no
    warning a reader would take for a broken install."""
    make_records(tmp_path, {"records.yaml": _hostile_records_yaml()})
    monkeypatch.chdir(tmp_path)
    result = kbgen("check", "--format", "json")
    assert result.code == 0
    assert located(result) == set()


# ---------------------------------------------------------------- configuration


def test_pages_without_directory_urls_are_refused(tmp_path: Path) -> None:
    shutil.copytree(REPO_ROOT / "kb", tmp_path / "kb")
    shutil.copytree(REPO_ROOT / "overrides", tmp_path / "overrides")
    shutil.copytree(FIXTURE / "records", tmp_path / "records")
    config = (REPO_ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    config = config.replace("use_directory_urls: true", "use_directory_urls: false")
    (tmp_path / "mkdocs.yml").write_text(config, encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if k not in ("KBGEN_RECORDS", "SOURCE_DATE_EPOCH")}
    env["NO_MKDOCS_2_WARNING"] = "1"
    proc = subprocess.run(
        [sys.executable, "-m", "generator.cli.main", "build", "--site-dir", str(tmp_path / "site")],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert proc.returncode != 0
    assert "use_directory_urls: true" in proc.stdout + proc.stderr
    assert "Traceback" not in proc.stdout + proc.stderr
    assert not (tmp_path / "site").exists()


# ---------------------------------------------------------------- one place builds links

GENERATOR = REPO_ROOT / "generator"


# Modules that name an href without writing one: the link builder itself, and the
# theme's navigation memo, which reads the links the theme printed to print them again.
LINK_MODULES = frozenset({"render/link_markup.py", "mkdocs/nav_memo.py"})


def test_no_module_but_the_link_builder_writes_an_html_link() -> None:
    from source_scan import string_constants

    offenders = [
        f"{relative}:{line}: {value!r}"
        for path in sorted(GENERATOR.rglob("*.py"))
        if (relative := path.relative_to(GENERATOR).as_posix()) not in LINK_MODULES
        for line, value in string_constants(path)
        if re.search(r"<a[\s>]|href=", value)
    ]
    assert offenders == []


def test_no_template_writes_an_href() -> None:
    offenders = [
        f"{path.name}:{number}: {line.strip()}"
        for path in sorted((GENERATOR / "templates" / "pages").glob("*.j2"))
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if "href=" in line or "<a " in line
    ]
    assert offenders == []


def test_a_code_quotation_loses_its_common_indentation(tmp_path: Path) -> None:
    """A quotation cut from deep in a file shows its lines, not the file's indentation."""
    quoted = (
        "components:\n  - id: CMP-9\n    label: Deep\n    quotes:\n"
        '      - text: "        if ready:\\n            run()"\n'
        "        path: src/agent.py\n        source: SRC-1\n        lines: [[12, 13]]\n"
    )
    records = make_records(tmp_path, {"quoted.yaml": quoted})
    result = run_pipeline(records, tmp_path)
    assert result.errors == []
    page = next(text for path, text in result.pages.items() if "CMP-9" in text and path.endswith("result.md"))
    # Highlighted as Python (its path's extension): the text without the token spans.
    assert '<div class="highlight language-python">' in page
    assert "<code>if ready:\n    run()\n</code>" in re.sub(r"</?span[^>]*>", "", page)


def test_no_fence_opens_in_raw_html_record_text() -> None:
    """A line of record text inside a raw HTML block that opens with ``~~~`` or three
    backticks would open a fence to Python-Markdown's fenced-code preprocessor (it runs
    before raw HTML is set aside): both marks are written as entities."""
    from generator.render.rawhtml import escape

    shown = escape("See below.\n~~~mermaid\nflowchart LR\n~~~\n```js\nalert(1)\n```")
    assert "~" not in shown and "`" not in shown
    assert "&#126;&#126;&#126;mermaid" in shown and "&#96;&#96;&#96;js" in shown
