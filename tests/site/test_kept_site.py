"""``kbgen serve`` keeps its site folder between rebuilds (generator/mkdocs/kept_site.py):
a page whose output is the one written before is not written again, what a rebuild no
longer makes is deleted, and any folder no serve claims is emptied as MkDocs empties it."""

from __future__ import annotations

import logging
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import mkdocs.utils
import pytest
from mkdocs.commands.build import build
from mkdocs.config import load_config
from site_support import REPO_ROOT, make_project

from generator.mkdocs import kept_site
from generator.mkdocs.kept_site import KeptSiteFolder
from generator.mkdocs.pagecache import Finished
from generator.mkdocs.plugin import RecordsPlugin


@pytest.fixture
def keeper(tmp_path: Path) -> Iterator[KeptSiteFolder]:
    keeper = KeptSiteFolder()
    keeper.configure(str(tmp_path / "site"))
    kept_site.install(keeper)
    yield keeper
    kept_site.uninstall(keeper)


def _write(path: Path, text: str = "x") -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def test_only_the_claimed_folder_is_kept_and_mkdocs_empties_the_others(keeper, tmp_path: Path) -> None:
    other = tmp_path / "other"
    _write(other / "a" / "page.html")
    _write(other / ".hidden")
    mkdocs.utils.clean_directory(str(other))
    assert sorted(os.listdir(other)) == [".hidden"]  # as MkDocs empties a folder
    served = _write(tmp_path / "site" / "page.html")
    mkdocs.utils.clean_directory(str(tmp_path / "site"))
    assert served.is_file()  # claimed: only the build's start is noted
    assert [entry for entry in os.listdir(tmp_path / "site") if entry.startswith(".kb")] == []


def test_uninstalling_the_last_keeper_gives_mkdocs_its_own_clean_back() -> None:
    # In a process of its own: serve sessions of other tests here may still hold keepers.
    code = """
import mkdocs.utils
from generator.mkdocs import kept_site
own = mkdocs.utils.clean_directory
first, second = kept_site.KeptSiteFolder(), kept_site.KeptSiteFolder()
kept_site.install(first)
kept_site.install(second)
kept_site.uninstall(first)
assert mkdocs.utils.clean_directory is not own  # one keeper still serves
kept_site.uninstall(second)
assert mkdocs.utils.clean_directory is own
"""
    environment = {**os.environ, "PYTHONPATH": str(REPO_ROOT)}
    done = subprocess.run([sys.executable, "-c", code], env=environment, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


def test_a_page_is_kept_only_when_its_file_holds_that_very_output(keeper, tmp_path: Path) -> None:
    site = tmp_path / "site"
    page = str(_write(site / "a" / "index.html", "old"))
    finished = Finished.of("old")
    assert not keeper.keep("a.md", page, finished)  # before a build begins nothing is kept
    mkdocs.utils.clean_directory(str(site))
    assert keeper.keep("a.md", page, finished)  # written before (above), the same output
    assert keeper.kept_pages == {"a.md"}
    assert not keeper.keep("a.md", page, Finished.of("old"))  # equal text, not the page written
    os.unlink(page)
    assert not keeper.keep("a.md", page, finished)  # its file is gone


def test_the_sweep_deletes_what_the_build_neither_wrote_nor_kept(keeper, tmp_path: Path) -> None:
    site = tmp_path / "site"
    kept = _write(site / "kept" / "index.html")
    stale = _write(site / "gone" / "deep" / "index.html")
    stale_top = _write(site / "old.json")
    hidden = _write(site / ".cache" / "state")
    finished = Finished.of("x")
    keeper.keep("kept.md", str(kept), finished)  # the page written by the build before
    mkdocs.utils.clean_directory(str(site))  # this build begins
    assert keeper.keep("kept.md", str(kept), finished)
    written = _write(site / "new" / "index.html")  # written by this build
    deleted = keeper.sweep()
    assert sorted(deleted) == sorted([str(stale), str(stale_top)])
    assert kept.is_file() and written.is_file() and hidden.is_file()
    assert not (site / "gone").exists()  # emptied folders go too
    assert keeper.sweep() == []  # a sweep belongs to one build


def test_the_note_of_a_kept_page_is_left_out_and_others_are_not(keeper, tmp_path: Path, caplog) -> None:
    site = tmp_path / "site"
    page = str(_write(site / "a" / "index.html"))
    finished = Finished.of("x")
    keeper.keep("a.md", page, finished)
    mkdocs.utils.clean_directory(str(site))
    keeper.keep("a.md", page, finished)
    log = logging.getLogger("mkdocs.commands.build")
    with caplog.at_level(logging.INFO, logger="mkdocs.commands.build"):
        log.info("Page skipped: 'a.md'. Generated empty output.")
        log.info("Page skipped: 'b.md'. Generated empty output.")
    shown = [record.getMessage() for record in caplog.records]
    assert shown == ["Page skipped: 'b.md'. Generated empty output."]


def test_a_rebuild_writes_only_the_pages_an_edit_changed(tmp_path: Path, monkeypatch, caplog) -> None:
    project = make_project(tmp_path / "project", git=False)
    monkeypatch.chdir(project)
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")
    monkeypatch.delenv("KBGEN_RECORDS", raising=False)
    site = tmp_path / "served"

    def rebuild(start: bool) -> RecordsPlugin:
        config = load_config(str(project / "mkdocs.yml"), site_dir=str(site))
        if start:
            config.plugins.on_startup(command="serve", dirty=False)
        build(config, serve_url="http://127.0.0.1:8000/")
        plugin = config.plugins["kb-records"]
        assert isinstance(plugin, RecordsPlugin)
        return plugin

    plugin = rebuild(start=True)
    pages = {path: path.stat().st_mtime_ns for path in site.rglob("*.html")}
    records = project / "records" / "demo" / "records.yaml"
    records.write_text(records.read_text(encoding="utf-8").replace("then the answer.", "then a reply."))
    with caplog.at_level(logging.INFO):
        rebuild(start=False)
    assert plugin.memory is not None
    kept = plugin.memory.site.kept_pages
    assert "index.md" in kept and "systems/demo/result.md" not in kept
    rewritten = {path for path, mtime in pages.items() if path.stat().st_mtime_ns != mtime}
    assert site / "systems" / "demo" / "result" / "index.html" in rewritten
    assert site / "index.html" not in rewritten
    result = site / "systems" / "demo" / "result" / "index.html"
    assert "then a reply." in result.read_text(encoding="utf-8")
    assert not [record for record in caplog.records if "Page skipped" in record.getMessage()]
    plugin.on_shutdown()
    assert plugin.memory.site not in set(kept_site._KEEPERS)
