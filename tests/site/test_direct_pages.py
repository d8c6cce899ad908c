"""Generated pages' headings written without Python-Markdown (generator/mkdocs/direct.py).

Every generated page is converted both ways with the site's Markdown extensions: by
Python-Markdown whole (raw blocks taken out, as the build hands it over), and with its
headings written by ``DirectPages`` around Python-Markdown's conversion of what is left.
The HTML and the table of contents must be the same; a page the module cannot prove it
writes the same way is left whole to Python-Markdown.
"""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import markdown
import pytest
from hostile_support import CLEAN_SYSTEM, make_records
from mkdocs.config import load_config
from mkdocs.structure.toc import TableOfContents, get_toc
from site_support import make_project, tree_hashes

from generator.mkdocs.direct import DirectPages, Plan
from generator.mkdocs.splice import split_raw_blocks
from generator.pipeline import run_pipeline
from generator.render.markdown import escape

REPO_ROOT = Path(__file__).resolve().parents[2]
FIXTURES = REPO_ROOT / "tests" / "fixtures"


@pytest.fixture(scope="module")
def config():
    return load_config(str(REPO_ROOT / "mkdocs.yml"))


@pytest.fixture(scope="module")
def direct(config) -> DirectPages:
    pages = DirectPages(config)
    assert pages.enabled
    return pages


def _convert(config, text: str) -> tuple[str, TableOfContents]:
    md = markdown.Markdown(extensions=config["markdown_extensions"], extension_configs=config["mdx_configs"])
    return md.convert(text), get_toc(getattr(md, "toc_tokens", []))


def _toc(toc: TableOfContents) -> list[tuple[int, str, str, int]]:
    found: list[tuple[int, str, str, int]] = []

    def walk(items, depth):
        for item in items:
            found.append((depth, item.title, item.id, item.level))
            walk(item.children, depth + 1)

    walk(toc.items, 0)
    return found


def _body(page: str) -> str:
    return page.split("\n---\n", 1)[1] if page.startswith("---\n") else page


def _same_both_ways(config, direct: DirectPages, text: str) -> Plan | None:
    """The plan of a page's Markdown (raw blocks taken out), checked against Python-Markdown."""
    spliced = split_raw_blocks(text)
    plan = direct.plan(spliced.markdown, spliced.marker)
    if plan is None:
        return None
    html, toc = _convert(config, spliced.markdown)
    if plan.left is None:
        written, written_toc = plan.html, plan.toc
    else:
        left, left_toc = _convert(config, plan.left)
        assert len(left_toc) == 0  # no heading was left to Python-Markdown
        written, written_toc = plan.finish(left), plan.toc
    assert written == html
    assert _toc(written_toc) == _toc(toc)
    assert plan.anchors == {item[2] for item in _toc(toc)}
    return plan


def _all_pages(records: Path) -> list[str]:
    result = run_pipeline(records, REPO_ROOT)
    assert not result.errors
    return list(result.pages.values())


def test_shipped_pages_convert_to_the_same_html_and_contents(config, direct):
    pages = _all_pages(REPO_ROOT / "records")
    plans = [_same_both_ways(config, direct, _body(page)) for page in pages]
    planned = [plan for plan in plans if plan is not None]
    # Most pages have their headings written here; some are written whole.
    assert len(planned) >= 0.75 * len(pages)
    assert any(plan.left is None for plan in planned)
    assert sum(len(plan.headings) for plan in planned) > 500


@pytest.mark.parametrize(
    "records",
    sorted(
        path
        for path in FIXTURES.glob("*/records")
        if path.parent.name in {"render", "profile", "doc-grounded"}
    ),
    ids=lambda path: path.parent.name,
)
def test_fixture_pages_convert_to_the_same_html_and_contents(config, direct, records):
    for page in _all_pages(records):
        _same_both_ways(config, direct, _body(page))


def test_hostile_record_text_converts_to_the_same_html(config, direct, tmp_path):
    text = (CLEAN_SYSTEM / "records.yaml").read_text(encoding="utf-8")
    # A title with every character an inline pattern acts on, and a forged heading marker.
    title = (
        '"Tab *a* _b_ `c` [d](e) \\\\ &amp &#x41; </h4> <!--kb-heading:0000000000000000:0--> # not { #x }"'
    )
    prose = '"## Heading?\\n\\nTitle\\n---\\n\\n<!--kb-heading:0000000000000000:0-->"'
    text = text.replace("label: Agent loop", f"label: {title}", 1)
    text = text.replace("progression: User prompt, then CMP-1, then the answer.", f"progression: {prose}")
    assert title in text and prose in text
    records = make_records(tmp_path, {"records.yaml": text})
    for page in _all_pages(records):
        _same_both_ways(config, direct, _body(page))


def test_titles_of_every_character_are_written_as_python_markdown_writes_them(config, direct):
    """Random titles, escaped as the renderer escapes them: a heading written here is
    the one Python-Markdown writes; one it cannot prove is left to Python-Markdown."""
    alphabet = "ab \t*_`[]()<>&;#!\\|{}-+.=~:'\"\u00a0é→0123456789"
    rng = random.Random(7)
    written = 0
    for _ in range(400):
        title = "".join(rng.choice(alphabet) for _ in range(rng.randint(1, 12)))
        text = f"## {escape(title)} {{ #t .kb-x }}\n\nSome text.\n"
        plan = _same_both_ways(config, direct, text)
        written += plan is not None
    assert written > 100


@pytest.mark.parametrize(
    "text",
    [
        "## Title { #a }\n\n```\n# comment\n```\n",  # a fence: its lines are not headings
        "## Title { #a }\n\nText\n---\n",  # a setext heading left
        "## Title { #a }\n\n!!! note\n\n    # inside\n",  # a heading line inside a block
        "## Title { #a }\n\n## Again { #a }\n",  # a repeated anchor
        "## [Link](x.md) { #a }\n",  # a link in a title
        "## Title\n",  # no attribute list: the anchor is Python-Markdown's slug
        "## Title { .cls #a }\n",  # attributes in another order
        '<div markdown="1">\n\n## Title { #a }\n\n</div>\n',
    ],
)
def test_a_page_it_cannot_prove_is_left_whole(direct, text):
    spliced = split_raw_blocks(text)
    assert direct.plan(spliced.markdown, spliced.marker) is None


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("  - attr_list\n", "  - attr_list\n  - smarty\n"),  # an extension that changes titles
        ("      permalink: true\n", '      permalink: "#"\n'),  # a permalink it does not write
    ],
)
def test_another_markdown_configuration_turns_it_off(tmp_path, old, new):
    project = make_project(tmp_path, {old: new}, git=False)
    assert not DirectPages(load_config(str(project / "mkdocs.yml"))).enabled


BUILD = """
import sys
from pathlib import Path
import generator.mkdocs.direct as direct
from generator.cli.main import main
if sys.argv[2] == "off":
    direct.KNOWN_EXTENSIONS = frozenset()
sys.argv = ["kbgen", "build", "--site-dir", sys.argv[3]]
main()
"""


def test_a_site_built_with_and_without_it_is_the_same(tmp_path):
    project = make_project(tmp_path, git=False)
    sites = {}
    for mode in ("on", "off"):
        site = tmp_path / f"site-{mode}"
        proc = subprocess.run(
            [sys.executable, "-c", BUILD, str(project), mode, str(site)],
            cwd=project,
            capture_output=True,
            text=True,
            check=False,
        )
        assert proc.returncode == 0, proc.stdout + proc.stderr
        sites[mode] = tree_hashes(site)
    assert sites["on"] == sites["off"]
    assert len(sites["on"]) > 20
