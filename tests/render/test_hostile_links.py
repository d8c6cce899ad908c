"""Hostile corpus: links, URLs, link templates, labels, tables and escaping.

Every URL the site emits is built by ``generator.render.link_markup.link``; record text
reaches a page only through ``generator.render.markdown.escape``. Check-time cases
assert the rule code, file, line and column; render-time cases assert that the
planted text stays inert in the HTML Python-Markdown makes of the page.
"""

from __future__ import annotations

import html
import os
import re
import shutil
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path

import markdown
import pytest
from hostile_support import located, make_records
from mkdocs.utils.meta import get_data
from source_scan import string_constants

from generator.pipeline import run_pipeline

REPO_ROOT = Path(__file__).resolve().parents[2]
GENERATOR = REPO_ROOT / "generator"
MD_EXTENSIONS = ["attr_list", "md_in_html", "admonition", "tables", "toc", "pymdownx.superfences"]
SOURCES = "records/demo/sources.yaml"
RECORDS = "records/demo/records.yaml"
RESULT = "records/demo/result.yaml"

SOURCES_HEAD = """sources:
  - id: SRC-1
    source_kind: Git
    identity: https://github.com/example/demo
"""
SOURCES_TAIL = """    revision: "0123456789abcdef"
    layers:
      - layer: implementation
        scope: The files named by the anchors.
"""


def _sources(extra: str) -> str:
    """sources.yaml of the demo with ``extra`` lines (line 5 onwards) after the identity."""
    return SOURCES_HEAD + extra + SOURCES_TAIL


def _check(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, kbgen, changes: dict) -> set:
    make_records(tmp_path, changes)
    monkeypatch.chdir(tmp_path)
    result = kbgen("check", "records", "--format", "json")
    assert result.code == 1, result.out
    return located(result)


def _pages_html(tmp_path: Path, changes: dict) -> dict[str, str]:
    """Render the planted demo system and turn every page into HTML as MkDocs would."""
    records = make_records(tmp_path, changes)
    result = run_pipeline(records, tmp_path)
    assert [d.as_text() for d in result.errors] == []
    return {path: _html(text) for path, text in result.pages.items()}


def _html(page: str) -> str:
    """A page's HTML as MkDocs makes it: the frontmatter is metadata, not content."""
    body, _meta = get_data(page)
    return markdown.markdown(body, extensions=MD_EXTENSIONS)


BAD_SCHEME = re.compile(r"^\s*(?:javascript|data|vbscript)\s*:", re.IGNORECASE)


class _LiveMarkup(HTMLParser):
    """Collects what would act in a browser: script-like tags, handlers, bad URLs, comments."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("script", "img", "iframe", "object", "embed", "svg", "style"):
            self.found.append(f"<{tag}>")
        for name, value in attrs:
            if name.startswith("on"):
                self.found.append(f"{tag} {name}=")
            if name in ("href", "src", "action") and value and BAD_SCHEME.search(value):
                self.found.append(f"{tag} {name}={value}")

    def handle_comment(self, data: str) -> None:
        self.found.append(f"<!--{data}-->")


def live_markup(page_html: str) -> list[str]:
    parser = _LiveMarkup()
    parser.feed(page_html)
    parser.close()
    return parser.found


def _assert_inert(pages: dict[str, str]) -> None:
    for path, page in pages.items():
        assert live_markup(page) == [], path


# ---------------------------------------------------------------- KB406 unsafe locations


@pytest.mark.parametrize(
    "location",
    [
        "javascript:alert(1)",
        "JaVaScRiPt:alert(1)",
        "data:text/html,<script>alert(1)</script>",
        "vbscript:msgbox(1)",
        "x:a)<script>alert(1)</script>",
        " javascript:alert(1)",
    ],
)
def test_source_location_with_a_script_scheme(tmp_path, monkeypatch, kbgen, location):
    found = _check(tmp_path, monkeypatch, kbgen, {"sources.yaml": _sources(f"    location: '{location}'\n")})
    assert found == {("KB406", SOURCES, 5, 15)}


def test_supplied_location_with_javascript(tmp_path, monkeypatch, kbgen):
    supplied = "supplied:\n  - id: RT-CMP-x\n    declared_in: the member\n    location: javascript:alert(1)\n"
    found = _check(tmp_path, monkeypatch, kbgen, {"supplied.yaml": supplied})
    assert found == {("KB406", "records/demo/supplied.yaml", 4, 15)}


# ---------------------------------------------------------------- KB407 link templates

LOCATION = "    location: https://git.example/demo\n"


@pytest.mark.parametrize(
    ("template", "offset"),
    [
        ("{nope}", 0),
        ("{location}/{0}", 11),
        ("{location}/{", 11),
        ("{location}/{path:>200000000}", 11),
        ("{location.__class__.__mro__}", 0),
        ("{location}/}", 11),
        ("{location}/{path!r}", 11),
        ("{location}/{path[0]}", 11),
    ],
)
def test_link_template_with_format_string_tricks(tmp_path, monkeypatch, kbgen, template, offset):
    changes = {"sources.yaml": _sources(LOCATION + f"    link_template: '{template}'\n")}
    found = _check(tmp_path, monkeypatch, kbgen, changes)
    assert found == {("KB407", SOURCES, 6, 21 + offset)}


@pytest.mark.parametrize(
    "template",
    ["javascript:alert(1)//{path}", "java\\tscript:x/{path}", "//evil.example/{path}", "data:,{path}"],
)
def test_link_template_that_yields_a_script_url(tmp_path, monkeypatch, kbgen, template):
    changes = {"sources.yaml": _sources(LOCATION + f'    link_template: "{template}"\n')}
    found = _check(tmp_path, monkeypatch, kbgen, changes)
    assert found == {("KB407", SOURCES, 6, 20)}


def test_link_template_braces_and_fields_make_a_working_link(tmp_path):
    template = "{location}/-/blob/{revision}/{path}?x={{y}}#L{start}-{end}"
    changes = {"sources.yaml": _sources(LOCATION + f'    link_template: "{template}"\n')}
    pages = _pages_html(tmp_path, changes)
    assert (
        'href="https://git.example/demo/-/blob/0123456789abcdef/src/agent.py?x=%7By%7D#L1-40"'
        in (pages["systems/demo/result.md"])
    )


# ---------------------------------------------------------------- KB108, KB109, KB107


@pytest.mark.parametrize(("row", "col"), [("[a, b, c]", 15), ("[a]", 15)])
def test_generic_table_row_of_the_wrong_width(tmp_path, monkeypatch, kbgen, row, col):
    table = (
        "  limitations:\n    blocks:\n      - table:\n          kind: generic\n"
        f"          columns: [Name, Value]\n          rows:\n            - [x, y]\n            - {row}\n"
    )
    result = (CLEAN_RESULT + table).replace("  bounded_synthesis: {}\n", "  bounded_synthesis: {}\n")
    found = _check(tmp_path, monkeypatch, kbgen, {"result.yaml": result})
    assert found == {("KB108", RESULT, CLEAN_RESULT.count("\n") + 8, col)}


def test_label_that_breaks_its_heading(tmp_path, monkeypatch, kbgen):
    records = CLEAN_RECORDS.replace(
        "    label: Agent loop\n", "    label: |\n      Agent loop\n      { onclick=alert(1) }\n"
    )
    found = _check(tmp_path, monkeypatch, kbgen, {"records.yaml": records})
    assert found == {("KB109", RECORDS, 3, 12)}


def test_section_title_that_breaks_its_heading(tmp_path, monkeypatch, kbgen):
    result = CLEAN_RESULT.replace("  run_identity:\n", '  run_identity:\n    title: "Run\\n# injected"\n')
    found = _check(tmp_path, monkeypatch, kbgen, {"result.yaml": result})
    assert found == {("KB109", RESULT, 5, 12)}


def test_system_name_that_breaks_its_heading(tmp_path, monkeypatch, kbgen):
    run = CLEAN_RUN.replace("  system: Demo\n", '  system: "Demo\\n# injected { onclick=alert(1) }"\n')
    found = _check(tmp_path, monkeypatch, kbgen, {"run.yaml": run})
    assert found == {("KB109", "records/demo/run.yaml", 2, 11)}


def test_whitespace_only_quote(tmp_path, monkeypatch, kbgen):
    records = CLEAN_RECORDS.replace(
        "    evidence:\n      - SRC-1 src/agent.py:1-40\n",
        '    quotes:\n      - text: "   \\n\\t "\n        path: src/agent.py\n',
        1,
    )
    found = _check(tmp_path, monkeypatch, kbgen, {"records.yaml": records})
    assert found == {("KB107", RECORDS, 8, 15)}


def test_folded_label_with_a_trailing_newline_renders_one_heading(tmp_path):
    records = CLEAN_RECORDS.replace("    label: Agent loop\n", "    label: >\n      Agent loop\n\n")
    pages = _pages_html(tmp_path, {"records.yaml": records})
    assert re.search(
        r'<h4 class="kb-record kb-record--component" id="cmp-1">CMP-1 — Agent loop',
        pages["systems/demo/result.md"],
    )


# ---------------------------------------------------------------- render: planted text stays inert

PAYLOADS = [
    "be6cb82)<script>window.__pwned=1</script>(",
    '){ onclick="window.__pwned=1" }(',
    "[x](javascript:alert(1))",
    "{ onmouseover=alert(1) }",
    "x\n[x]: javascript:alert(1)\n\n[x]",
    "<javascript:alert(1)> <https://evil.example>",
    "*[HTML]: javascript:alert(1)\n[^1]: <script>x</script>",
    "&lt;script&gt;alert(1)&lt;/script&gt;",
    "<!-- swallow </div> {% raw %} {{ config }}",
    "JaVaScRiPt:alert(1) java\tscript:x  javascript:y //evil.example",
    "line\u2028# heading \u202egnp.exe",
]


ONE_LINE_PAYLOADS = [" ".join(payload.split()) for payload in PAYLOADS]


@pytest.mark.parametrize("payload", ONE_LINE_PAYLOADS)
def test_reviewed_revision_that_closes_its_link(tmp_path, payload):
    run = CLEAN_RUN.replace('    revision: "0123456789abcdef"\n', f"    revision: {_yaml(payload)}\n")
    pages = _pages_html(tmp_path, {"run.yaml": run})
    _assert_inert(pages)
    shown = html.unescape(re.sub(r"<[^>]+>", "", pages["systems/demo/index.md"]))
    assert payload in shown


@pytest.mark.parametrize("payload", [p for p in PAYLOADS if len(p.splitlines()) > 1])
def test_reviewed_revision_across_lines(tmp_path, monkeypatch, kbgen, payload):
    run = CLEAN_RUN.replace('    revision: "0123456789abcdef"\n', f"    revision: {_yaml(payload)}\n")
    found = _check(tmp_path, monkeypatch, kbgen, {"run.yaml": run})
    assert found == {("KB109", "records/demo/run.yaml", 10, 15)}


@pytest.mark.parametrize("payload", PAYLOADS)
def test_status_label_with_link_or_attribute_syntax(tmp_path, payload):
    label = " ".join(payload.split())
    records = CLEAN_RECORDS.replace(
        "      implementation conclusion status: wired\n", f"      {_yaml(label)}: wired\n", 1
    )
    _assert_inert(_pages_html(tmp_path, {"records.yaml": records}))


@pytest.mark.parametrize("payload", PAYLOADS)
def test_guarantee_scope_with_link_or_attribute_syntax(tmp_path, payload):
    records = CLEAN_RECORDS.replace(
        "      - strength: protocol\n", f"      - strength: protocol\n        scope: {_yaml(payload)}\n"
    )
    _assert_inert(_pages_html(tmp_path, {"records.yaml": records}))


@pytest.mark.parametrize("payload", PAYLOADS)
def test_record_body_with_markdown_and_html_tricks(tmp_path, payload):
    records = CLEAN_RECORDS.replace(
        "    form: Symbolic code.\n", f"    form: Symbolic code.\n    body: {_yaml(payload)}\n"
    )
    pages = _pages_html(tmp_path, {"records.yaml": records})
    _assert_inert(pages)
    if "&lt;" in payload:  # an entity is shown as written, not decoded into a tag
        assert "&amp;lt;script&amp;gt;" in pages["systems/demo/result.md"]


def test_evidence_path_with_a_quote_that_would_break_the_attribute(tmp_path):
    records = CLEAN_RECORDS.replace(
        "      - SRC-1 src/agent.py:1-40\n", "      - 'SRC-1 src/a\"onmouseover=\"alert(1).py:1-40'\n", 1
    )
    pages = _pages_html(tmp_path, {"records.yaml": records})
    _assert_inert(pages)
    assert "src/a%22onmouseover%3D%22alert%281%29.py" in pages["systems/demo/result.md"]


def test_system_name_with_frontmatter_and_link_syntax(tmp_path):
    run = CLEAN_RUN.replace(
        "  system: Demo\n", "  system: '[Demo](javascript:alert(1)) --- <script>x</script>'\n"
    )
    pages = _pages_html(tmp_path, {"run.yaml": run})
    _assert_inert(pages)


# ---------------------------------------------------------------- check passes, so the strict build passes


def _strict_build(root: Path, records: Path) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("KBGEN_RECORDS", "SOURCE_DATE_EPOCH")}
    env["NO_MKDOCS_2_WARNING"] = "1"
    args = [sys.executable, "-m", "generator.cli.main", "build", "--records", str(records)]
    args += ["--site-dir", str(root / "site"), "-f", str(REPO_ROOT / "mkdocs.yml")]
    return subprocess.run(args, cwd=root, env=env, capture_output=True, text=True, timeout=300, check=False)


def test_folded_label_with_a_trailing_newline_builds_strictly(tmp_path):
    records = CLEAN_RECORDS.replace("    label: Agent loop\n", "    label: >\n      Agent loop\n\n")
    proc = _strict_build(tmp_path, make_records(tmp_path, {"records.yaml": records}))
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_source_and_limitation_of_a_memory_report_system_build_strictly(tmp_path):
    """A memory-report system has no source register: its sources and limitations still get anchors."""
    records = tmp_path / "records"
    shutil.copytree(REPO_ROOT / "records" / "decapod", records / "decapod")
    run = records / "decapod" / "run.yaml"
    text = run.read_text(encoding="utf-8").replace("    source: SRC-1\n", "    source: SRC-2\n", 1)
    text += (
        "sources:\n- id: SRC-2\n  source_kind: Git\n  identity: a second clone\n"
        "  location: https://github.com/example/other\n  revision: abc123\n"
        "limitations:\n- title: Cites SRC-2 and MEM-RTE-decision-memory\n"
        "  affected: MEM-RTE-decision-memory\n"
    )
    run.write_text(text, encoding="utf-8")
    proc = _strict_build(tmp_path, records)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    page = (tmp_path / "site" / "systems" / "decapod" / "memory-report" / "index.html").read_text(
        encoding="utf-8"
    )
    assert 'id="src-2"' in page and 'id="limitations-and-checks"' in page


def test_limitation_of_a_system_without_result_or_report_builds_strictly(tmp_path):
    changes = {
        "result.yaml": None,
        "run.yaml": CLEAN_RUN.replace("  disposition: complete\n", "  disposition: blocked\n"),
        "limits.yaml": "limitations:\n  - title: Storage unread\n    affected: RTE-2\n",
    }
    proc = _strict_build(tmp_path, make_records(tmp_path, changes))
    assert proc.returncode == 0, proc.stdout + proc.stderr


# ---------------------------------------------------------------- one place builds links

# model/inline_markup.py reads record text's link syntax (it looks for "](") and writes none;
# mkdocs/direct.py reads the attribute lists of generated headings and writes HTML.
ALLOWED = {
    "render/link_markup.py",
    "render/markdown.py",
    "render/text.py",
    "model/inline_markup.py",
    "mkdocs/direct.py",
}
# Markdown link or attribute-list syntax inside a string literal of Python code.
_MARKUP_IN_PY = re.compile(r"\]\(|\{\s*[.#:]|\{:")


def test_no_module_outside_the_text_modules_builds_link_or_attribute_markup():
    offenders = []
    for path in sorted(GENERATOR.rglob("*.py")):
        relative = path.relative_to(GENERATOR).as_posix()
        if relative in ALLOWED:
            continue
        for line, value in string_constants(path):
            if _MARKUP_IN_PY.search(value):
                offenders.append(f"{relative}:{line}: {value!r}")
    assert offenders == []


# In templates a link's href or an attribute list may hold only constants and slugs.
_TEMPLATE_LINK = re.compile(r"\]\([^)\n]*\{\{")
_TEMPLATE_ATTRS = re.compile(r"\{ [#.][^}\n]*?\{\{\s*([^}]*?)\s*\}\}")
_SLUG_CALLS = re.compile(
    r"^(?:anchor_of|slugify|kind_slug|section_anchor)\(|^(?:graph\.limitations_anchor|vocab\.anchor|entry\.anchor)$"
)


def test_templates_build_no_link_from_values():
    offenders = []
    for path in sorted((GENERATOR / "templates").rglob("*.j2")):
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if _TEMPLATE_LINK.search(line):
                offenders.append(f"{path.name}:{number}: link with a value href: {line.strip()}")
            for match in _TEMPLATE_ATTRS.finditer(line):
                if not _SLUG_CALLS.search(match.group(1)):
                    offenders.append(f"{path.name}:{number}: attribute from a value: {line.strip()}")
    assert offenders == []


# ---------------------------------------------------------------- helpers and clean files

CLEAN = REPO_ROOT / "tests" / "fixtures" / "check" / "clean-run" / "records" / "demo"
CLEAN_RUN = (CLEAN / "run.yaml").read_text(encoding="utf-8")
CLEAN_RECORDS = (CLEAN / "records.yaml").read_text(encoding="utf-8")
CLEAN_RESULT = (CLEAN / "result.yaml").read_text(encoding="utf-8")


def _yaml(text: str) -> str:
    """A double-quoted YAML scalar holding ``text`` exactly."""
    import json

    return json.dumps(text, ensure_ascii=True)


@pytest.mark.parametrize(
    "path",
    ["src/%2e%2e/%2e%2e/etc/passwd", "src/agent.py?raw=1", "src/agent.py#L1", "src/%2Fhidden.py"],
)
def test_an_evidence_path_that_would_change_the_linked_file(
    path: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, kbgen
) -> None:
    """Encoded '..', a query or a fragment in an anchor path is KB402, at the anchor."""
    records = CLEAN_RECORDS.replace("SRC-1 src/agent.py:1-40", f"SRC-1 {path}")
    found = _check(tmp_path, monkeypatch, kbgen, {"records.yaml": records})
    assert ("KB402", RECORDS, 8, 9) in found, found
