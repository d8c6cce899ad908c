"""mkdocs-material's search plugin is handed no generated page's HTML (generator/mkdocs/plugin.py,
``_hide_from_page_index``): it leaves those pages out of its index all the same, and its pass
over every page's HTML, which drops its own attributes, costs a build seconds at a hundred
systems. A hand-written page still reaches it whole."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from mkdocs.config import load_config
from mkdocs.structure.files import File
from mkdocs.structure.pages import Page
from site_support import make_project

from generator.mkdocs.plugin import RecordsPlugin

HTML = '<h1 id="title">Title</h1>\n<p data-search-exclude="yes">Some words.</p>\n'


def _page(config, path: str, generated: bool) -> Page:
    page = Page(None, File(path, config.docs_dir, config.site_dir, config.use_directory_urls), config)
    page.content = HTML
    page.meta = {"search": {"exclude": True}} if generated else {}
    return page


@pytest.fixture
def configured(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Any, RecordsPlugin]:
    """The demo project's configuration, loaded from its folder, and its kb-records plugin."""
    project = make_project(tmp_path, git=False)
    monkeypatch.chdir(project)
    config = load_config(str(project / "mkdocs.yml"))
    plugin = config.plugins["kb-records"]
    assert isinstance(plugin, RecordsPlugin)
    return config, plugin


def test_the_search_plugin_sees_no_generated_page_and_the_page_keeps_its_html(
    configured: tuple[Any, RecordsPlugin], monkeypatch: pytest.MonkeyPatch
) -> None:
    config, plugin = configured
    monkeypatch.setattr(plugin.publisher, "is_generated", lambda source: source.startswith("systems/"))
    search = config.plugins["material/search"]
    search.on_config(config)
    generated, written = _page(config, "systems/demo/result.md", True), _page(config, "index.md", False)
    for page in (generated, written):
        config.plugins.on_page_context({"page": page}, page=page, config=config, nav=None)
    assert generated.content == HTML  # handed back whole, after the search plugin ran
    assert written.content == HTML.replace(' data-search-exclude="yes"', "")  # the theme's own pass
    assert [entry["location"] for entry in search.search_index.entries] == [""]  # the hand-written page
    assert plugin._hidden == {}


def test_html_hidden_when_a_build_fails_is_not_given_to_the_next_build(
    configured: tuple[Any, RecordsPlugin], monkeypatch: pytest.MonkeyPatch
) -> None:
    config, plugin = configured
    monkeypatch.setattr(plugin.publisher, "is_generated", lambda source: True)
    page = _page(config, "systems/demo/result.md", True)
    plugin._hide_from_page_index({}, page=page, config=config, nav=None)  # the search plugin then fails
    plugin.on_build_error(error=RuntimeError("the theme failed"))
    again = _page(config, "systems/demo/result.md", True)
    again.content = ""  # printed as remembered in the next build: nothing to hide
    plugin._show_after_page_index({}, page=again, config=config, nav=None)
    assert again.content == ""
