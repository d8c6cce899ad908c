"""Round four in Chromium: payloads in every frontmatter value and in the records folder's
name, on the sites of all three engines.

The hostile KB of ``tests/support/metadata_sites.py`` (titles, descriptions, system
names ending attributes and elements; a records folder named to
end the edit button's ``href``) is built by MkDocs with edit links, ProperDocs and
Zensical. Every page of each site is opened: no dialog opens (each payload calls
``alert``), no element carries an event-handler attribute or is one the payloads plant
(``img[src=x]``, an ``svg`` with ``onload``, a script holding ``alert``), the description
is the record's text, and the edit link stays on the edit host.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browser_support import serve_directory
from metadata_sites import EDIT_PREFIX, ENGINES, PAYLOADS, build_sites, site_pages

pytestmark = [pytest.mark.browser, pytest.mark.slow]

# Zensical links every page to the repository even under `edit_uri: ""` (the rendered
# configuration's "off"); those links name page paths, not record files.
REPO_URL = "https://git.example.org/team/kb/"


@pytest.fixture(scope="module")
def hostile_sites(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    return build_sites(tmp_path_factory.mktemp("round4"), hostile=True)


@pytest.fixture(scope="module")
def served(hostile_sites: dict[str, Path]) -> Iterator[dict[str, str]]:
    with (
        serve_directory(hostile_sites["mkdocs"]) as mkdocs,
        serve_directory(hostile_sites["properdocs"]) as properdocs,
        serve_directory(hostile_sites["zensical"]) as zensical,
    ):
        yield {"mkdocs": mkdocs, "properdocs": properdocs, "zensical": zensical}


PLANTED_JS = """() => {
  const handlers = [...document.querySelectorAll('*')].flatMap(e =>
    [...e.attributes].filter(a => a.name.startsWith('on')).map(a => e.tagName + '@' + a.name))
  const planted = document.querySelectorAll('img[src="x"], svg[onload], b').length
  const scripts = [...document.scripts].filter(s => /alert\\(/.test(s.textContent)).length
  const meta = document.querySelector('meta[name="description"]')
  const edit = document.querySelector('a[rel="edit"]')
  return {handlers, planted, scripts, description: meta ? meta.content : null,
          edit: edit ? edit.href : null, title: document.title}
}"""


@pytest.mark.parametrize("engine", ENGINES)
def test_no_payload_runs_or_plants_anything(
    browsing: Any, hostile_sites: dict[str, Path], served: dict[str, str], engine: str
) -> None:
    dialogs: list[str] = []
    pages = [page for page in site_pages(hostile_sites[engine]) if page.endswith("index.html")]
    assert "systems/demo/overview/index.html" in pages
    found: dict[str, Any] = {}
    for page_path in pages:
        page = browsing.page.context.new_page()
        page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
        try:
            page.goto(f"{served[engine]}/{page_path.removesuffix('index.html')}")
            page.wait_for_load_state("load")
            found[page_path] = page.evaluate(PLANTED_JS)
        finally:
            page.close()
    assert dialogs == []
    assert {p: f["handlers"] for p, f in found.items() if f["handlers"]} == {}
    assert {p: f["planted"] for p, f in found.items() if f["planted"]} == {}
    assert {p: f["scripts"] for p, f in found.items() if f["scripts"]} == {}
    assert found["systems/demo/overview/index.html"]["description"] == PAYLOADS["attribute"]
    assert found["systems/demo/runtime/index.html"]["description"] == PAYLOADS["single"]
    assert found["systems/demo/runtime/index.html"]["title"].startswith(PAYLOADS["element"])
    edits = [f["edit"] for f in found.values() if f["edit"]]
    assert all(edit.startswith(REPO_URL) and "#" not in edit and "?" not in edit for edit in edits), edits
    if engine == "mkdocs":
        assert any(edit.startswith(EDIT_PREFIX + "r%22%3E%3Cimg") for edit in edits), edits
