"""The serve memory on its own: MkDocs' real pages, files and navigation, driven through
one object the way the plugin's events drive it, build after build."""

from __future__ import annotations

from pathlib import Path

import pytest
from mkdocs.config import load_config
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.files import File, Files
from mkdocs.structure.nav import get_navigation
from mkdocs.structure.pages import Page

from generator.mkdocs.pagecache import CACHED_OUTPUT, CACHED_TEMPLATE
from generator.mkdocs.serve_memory import ServeMemory

PAGES = {"index.md": "# Home\n\nSee [the other page](other.md).\n", "other.md": "# Other\n\nText.\n"}


@pytest.fixture
def project(tmp_path: Path) -> Path:
    (tmp_path / "docs").mkdir()
    (tmp_path / "mkdocs.yml").write_text("site_name: Memory\n", encoding="utf-8")
    return tmp_path


def _config(project: Path) -> MkDocsConfig:
    return load_config(str(project / "mkdocs.yml"))


def _build(memory: ServeMemory, project: Path, pages: dict[str, str], fail: bool = False) -> dict[str, Page]:
    """One build as the plugin's events run it; ``fail``: the build errs after converting."""
    docs = project / "docs"
    for old in docs.iterdir():
        old.unlink()
    for path, text in pages.items():
        (docs / path).write_text(text, encoding="utf-8")
    config = _config(project)
    memory.configure(config)
    files = Files([File(path, config.docs_dir, config.site_dir, config.use_directory_urls) for path in pages])
    built = {path: Page(None, files.get_file_from_path(path), config) for path in pages}
    for path, page in built.items():
        page.read_source(config)
        if not memory.before_conversion(page, pages[path], files):
            page.render(config, files)
            memory.after_conversion(page, page.content or "")
        else:
            page.render(config, files)  # the remembered conversion, restored
    if fail:
        memory.build_failed()
        return built
    nav = get_navigation(files, config)
    memory.nav_built(nav)
    memory.pick_replayed(config.theme.get_env(), files, generated=set(pages))
    for page in built.values():
        context = memory.page_context({}, page)
        output = context.get(CACHED_OUTPUT) or f"<html>{page.content}</html>"
        memory.finished(page, output)
    memory.build_succeeded()
    return built


def test_a_first_build_remembers_without_reusing(project: Path) -> None:
    memory = ServeMemory()
    _build(memory, project, PAGES)
    assert memory.last_restored == frozenset() and memory.last_replayed == frozenset()
    assert memory.pages.reused_conversions == 0


def test_an_unchanged_page_is_restored_and_printed_as_remembered(project: Path) -> None:
    memory = ServeMemory()
    first = _build(memory, project, PAGES)
    second = _build(memory, project, PAGES)
    assert memory.last_restored == frozenset(PAGES)
    assert memory.last_replayed == frozenset(PAGES)
    for path, page in second.items():
        assert page.content == ""  # emptied: the remembered page is printed as it is
        assert page.meta["template"] == CACHED_TEMPLATE
        assert page.title == first[path].title and page.toc.items[0].title == first[path].toc.items[0].title


def test_an_edited_page_is_converted_again_and_the_others_are_not(project: Path) -> None:
    memory = ServeMemory()
    _build(memory, project, PAGES)
    edited = {**PAGES, "other.md": "# Other\n\nNew text.\n"}
    second = _build(memory, project, edited)
    assert memory.last_restored == frozenset({"index.md"})
    assert "New text." in (second["other.md"].content or "")
    assert memory.last_replayed == frozenset({"index.md"})


def test_a_failed_build_teaches_nothing(project: Path) -> None:
    memory = ServeMemory()
    _build(memory, project, PAGES)
    edited = {**PAGES, "other.md": "# Other\n\nNew text.\n"}
    _build(memory, project, edited, fail=True)
    _build(memory, project, edited)
    # The failed build's conversion of the edited page was dropped; the last successful
    # build's conversion of the unchanged page is still there.
    assert memory.last_restored == frozenset({"index.md"})


def test_a_link_whose_target_went_away_is_converted_again(project: Path) -> None:
    memory = ServeMemory()
    _build(memory, project, PAGES)
    without_other = {"index.md": PAGES["index.md"], "third.md": "# Third\n"}
    _build(memory, project, without_other)
    # index.md looked up other.md when it was converted: with other.md gone it is converted
    # anew (its link now warns, as in a full build).
    assert "index.md" not in memory.last_restored


def test_a_changed_navigation_themes_remembered_conversions_again(project: Path) -> None:
    memory = ServeMemory()
    _build(memory, project, PAGES)
    renamed = {"index.md": PAGES["index.md"], "other.md": "# Renamed\n\nText.\n"}
    _build(memory, project, renamed)
    # index.md's conversion is reused, but the nav shows other.md's new title: not replayed.
    assert "index.md" in memory.last_restored
    assert "index.md" not in memory.last_replayed
