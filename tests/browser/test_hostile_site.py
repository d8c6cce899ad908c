"""A site built from a hostile system: no planted script runs, no page links to a script URL.

Every payload, if it ran, would set ``window.__pwned`` or open a dialog. The system is
the clean demo with payloads planted in every field that reaches a page: the reviewed
revision, status labels, guarantee scopes, labels, bodies, table cells, quotes,
evidence paths, the system name and prose.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
from browser_support import build_planted_site, serve_directory

from generator.render.registry import registered_pages

pytestmark = pytest.mark.browser

RUN = "window.__pwned=1;alert(1)"
PAYLOADS = [
    f"<script>{RUN}</script>",
    f'<img src=x onerror="{RUN}">',
    f"[click](javascript:{RUN})",
    f'){{ onclick="{RUN}" }}(',
    "{ onmouseover=alert(1) }",
    f"<javascript:{RUN}> <JaVaScRiPt:{RUN}>",
    f"&lt;script&gt;{RUN}&lt;/script&gt;",
    "<!-- </div> {% raw %} {{ config }}",
    f"[x]: javascript:{RUN}",
    f"*[HTML]: javascript:{RUN}",
    f"[^1]: <script>{RUN}</script>",
    f'<svg onload="{RUN}"></svg> </div><script>{RUN}</script>',
]
ONE_LINE = " ".join(PAYLOADS)
PROSE = "\n\n".join(PAYLOADS)
BAD_URL = re.compile(r"^\s*(?:javascript|data|vbscript)\s*:", re.IGNORECASE)


def _q(text: str) -> str:
    return json.dumps(text)


def _plant(system: Path) -> None:
    """Rewrite the demo's files with a payload in every field that reaches a page."""
    run = (system / "run.yaml").read_text(encoding="utf-8")
    run = run.replace("  system: Demo\n", f"  system: {_q('Demo ' + ONE_LINE)}\n")
    run = run.replace(
        '    revision: "0123456789abcdef"\n', f"    revision: {_q('be6cb82)' + ONE_LINE + '(')}\n", 1
    )
    run = run.replace(
        "  summary: Demo is a tiny agent loop used by the checker tests.\n", f"  summary: {_q(PROSE)}\n"
    )
    (system / "run.yaml").write_text(run, encoding="utf-8")
    template = "{location}/blob/{revision}/{path}?q={{x}}#L{start}-L{end}"
    sources = (system / "sources.yaml").read_text(encoding="utf-8")
    sources = sources.replace(
        "    identity: https://github.com/example/demo\n",
        f"    identity: {_q(PROSE)}\n    link_template: {_q(template)}\n",
    )
    (system / "sources.yaml").write_text(sources, encoding="utf-8")
    records = (system / "records.yaml").read_text(encoding="utf-8")
    records = records.replace("    label: Agent loop\n", f"    label: {_q(ONE_LINE)}\n")
    records = records.replace(
        "      implementation conclusion status: wired\n", f"      {_q(ONE_LINE)}: wired\n", 1
    )
    records = records.replace(
        "      - strength: protocol\n", f"      - strength: protocol\n        scope: {_q(PROSE)}\n"
    )
    records = records.replace("    form: Symbolic code.\n", f"    form: {_q(PROSE)}\n    body: {_q(PROSE)}\n")
    records = records.replace(
        "      - SRC-1 src/agent.py:1-40\n",
        "      - 'SRC-1 src/a\"onmouseover=\"alert(1).py:1-40'\n"
        f"    quotes:\n      - text: {_q(PROSE)}\n        path: src/agent.py\n        source: SRC-1\n",
        1,
    )
    (system / "records.yaml").write_text(records, encoding="utf-8")
    result = (system / "result.yaml").read_text(encoding="utf-8")
    table = (
        "  bounded_synthesis:\n    title: " + _q(ONE_LINE) + "\n    blocks:\n"
        f"      - {_q(PROSE)}\n      - table:\n          kind: generic\n"
        f"          columns: [{_q(ONE_LINE)}, Note]\n          rows:\n"
        f"            - [{_q(PROSE)}, {_q(ONE_LINE)}]\n"
    )
    result = result.replace("  bounded_synthesis: {}\n", table)
    (system / "result.yaml").write_text(result, encoding="utf-8")


@pytest.fixture(scope="module")
def hostile_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_planted_site(tmp_path_factory.mktemp("hostile"), _plant)


@pytest.fixture(scope="module")
def hostile_url(hostile_site: Path) -> Iterator[str]:
    with serve_directory(hostile_site) as url:
        yield url


class _Urls(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.bad: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        for name, value in attrs:
            if (
                name in ("href", "src", "action", "formaction", "xlink:href")
                and value
                and BAD_URL.search(value)
            ):
                self.bad.append(f"<{tag} {name}={value!r}>")


def test_no_page_of_the_hostile_site_links_to_a_script_url(hostile_site: Path) -> None:
    bad = []
    pages = sorted(hostile_site.rglob("*.html"))
    assert len(pages) > 5
    for path in pages:
        parser = _Urls()
        parser.feed(path.read_text(encoding="utf-8"))
        bad += [f"{path.relative_to(hostile_site)}: {found}" for found in parser.bad]
    assert bad == []
    result = (hostile_site / "systems" / "demo" / "result" / "index.html").read_text(encoding="utf-8")
    assert "?q=%7Bx%7D#L1-L40" in result, "the link template was not used"
    assert result.count("&lt;script&gt;window.__pwned") > 10, "the payloads did not reach the page"


def _directory_url(path: str) -> str:
    stem = path.removesuffix(".md")
    return stem.removesuffix("index") if stem.endswith("index") else f"{stem}/"


# The home page and every page type of the registry, per-system ones for the demo system.
SITE_PAGES = ["", *(_directory_url(spec.path.replace("{slug}", "demo")) for spec in registered_pages())]


@pytest.mark.parametrize("page_path", SITE_PAGES)
def test_no_planted_script_runs(browsing: Any, hostile_site: Path, hostile_url: str, page_path: str) -> None:
    if not (hostile_site / page_path / "index.html").is_file():
        pytest.skip(f"the hostile system has no {page_path} page")
    page = browsing.page
    dialogs: list[str] = []
    page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
    page.goto(f"{hostile_url}/{page_path}".replace("//systems", "/systems"))
    page.wait_for_load_state("load")
    # Give would-be handlers their chance: every link of the article one can point at gets
    # the events a pointer resting on it sends (a route map's list of node links is folded
    # away: its nodes are the links). Sent to the link itself: a long table's sticky first
    # column may stand over part of a cell scrolled sideways, as it does for a reader.
    for link in page.locator("article a:visible").all()[:60]:
        for event in ("pointerover", "mouseover", "mouseenter", "mousemove", "focus"):
            link.dispatch_event(event)
    page.wait_for_timeout(300)
    assert page.evaluate("typeof window.__pwned") == "undefined"
    assert dialogs == []
    assert page.locator("article script, [onerror], [onclick], [onmouseover], [onload]").count() == 0
    assert browsing.errors == []
