"""Incremental preview: the rebuilds of one ``serve`` session equal full builds, byte for byte.

A serve session is MkDocs' own loop run in-process: the configuration is loaded again
for every rebuild (as ``mkdocs serve`` does), the records plugin keeps its instance and
its memory of unchanged systems and pages. After each edit the session's site is
compared with a fresh full build of the same records, file by file.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from mkdocs.commands.build import build
from mkdocs.config import load_config
from mkdocs.exceptions import Abort
from site_support import REPO_ROOT, make_project, tree_hashes

from generator.load.fingerprint import SETTLED_NS, FileDigests, TextDigests, folder_fingerprint
from generator.mkdocs.pagecache import ThemeListing
from generator.mkdocs.plugin import RecordsPlugin
from generator.pipeline import PerGraph, SystemCache, run_pipeline

# Slow (serve sessions of several rebuilds, each compared with full builds): deselected by -m "not slow".
pytestmark = pytest.mark.slow

LINKED_SENTENCE = 'The route {{ record_link("demo", "RTE-1") }} answers.'
SECOND_ROUTE = """  - id: RTE-3
    label: Added route
    progression: User prompt, then CMP-1, then OBJ-9.
    owner: CMP-1
    statuses:
      implementation conclusion status: wired
"""


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    project = make_project(tmp_path, git=False)
    records = project / "records"
    _copy_system(records, "demo", "second", "Second demo")
    # A hand-written page that shows record text through a macro.
    (project / "kb" / "linked.md").write_text(
        "---\nrender_macros: true\n---\n\n# Linked\n\n" + LINKED_SENTENCE + "\n",
        encoding="utf-8",
    )
    monkeypatch.chdir(project)
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")
    monkeypatch.setenv("NO_MKDOCS_2_WARNING", "1")
    monkeypatch.delenv("KBGEN_RECORDS", raising=False)
    yield project


def _copy_system(records: Path, source: str, slug: str, name: str) -> None:
    shutil.copytree(records / source, records / slug)
    _rename_run(records / slug, source, slug, name)


def _rename_run(folder: Path, old: str, new: str, name: str) -> None:
    run = folder / "run.yaml"
    text = run.read_text(encoding="utf-8").replace(f"-{old}-", f"-{new}-")
    run.write_text(text.replace("system: Demo", f"system: {name}"), encoding="utf-8")


def _plugin(config: object) -> RecordsPlugin:
    plugin = config.plugins["kb-records"]  # type: ignore[attr-defined]
    assert isinstance(plugin, RecordsPlugin)
    return plugin


def _build(project: Path, site: Path, command: str | None) -> RecordsPlugin:
    """One build; ``command`` starts a session (serve or build), None continues the session."""
    config = load_config(str(project / "mkdocs.yml"), site_dir=str(site))
    if command is not None:
        config.plugins.on_startup(command=command, dirty=False)  # type: ignore[arg-type]
    build(config)
    return _plugin(config)


def _full_build(project: Path, site: Path) -> dict[str, str]:
    """A full build in a process of its own (this one holds the serve session's plugin)."""
    if site.exists():
        shutil.rmtree(site)
    command = [sys.executable, "-m", "generator.cli.main", "build", "--site-dir", str(site)]
    environment = {**os.environ, "PYTHONPATH": str(REPO_ROOT)}
    done = subprocess.run(command, cwd=project, env=environment, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    return tree_hashes(site)


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def _edit_sentence(records: Path) -> None:
    _edit(records / "demo" / "records.yaml", "then the answer.", "then the edited answer.")


def _add_referenced_record(records: Path) -> None:
    _edit(records / "second" / "records.yaml", "routes:\n", "routes:\n" + SECOND_ROUTE)
    objects = "\nobjects:\n  - id: OBJ-9\n    label: Added object\n    form: Text.\n"
    with (records / "second" / "records.yaml").open("a", encoding="utf-8") as handle:
        handle.write(objects)


def _rename_system(records: Path) -> None:
    (records / "second").rename(records / "third")
    _rename_run(records / "third", "second", "third", "Third demo")


def _remove_system(records: Path) -> None:
    shutil.rmtree(records / "demo")


def _add_theme_asset(records: Path) -> None:
    """A file added to the custom theme folder is copied into the site (the theme's file
    list is remembered between rebuilds: pagecache.ThemeListing)."""
    (records.parent / "overrides" / "assets" / "kb-added.txt").write_text("added\n", encoding="utf-8")


def _edit_linked_label(records: Path) -> None:
    """The label a hand-written page shows through record_link changes (the page is
    remembered under its expanded Markdown)."""
    _edit(records / "demo" / "records.yaml", "label: Prompt to answer", "label: Prompt to reply")


def _edit_hand_written_page(records: Path) -> None:
    _edit(records.parent / "kb" / "linked.md", LINKED_SENTENCE, "None.")


EDITS = [
    _edit_sentence,
    _add_referenced_record,
    _edit_linked_label,
    _edit_hand_written_page,
    _add_theme_asset,
    _rename_system,
    _remove_system,
]


def test_serve_rebuilds_equal_full_builds_after_edits(project: Path, tmp_path: Path) -> None:
    served, full = tmp_path / "served", tmp_path / "full"
    records = project / "records"
    for step, edit in enumerate([None, *EDITS]):
        if edit is not None:
            edit(records)
        expected = _full_build(project, full)
        plugin = _build(project, served, "serve" if step == 0 else None)
        memory = plugin.memory
        assert memory is not None
        if step == 1:  # one system edited: the other one and its pages were reused
            assert memory.systems.hits == 1
            assert memory.pages.reused_conversions > 0 and memory.pages.reused_pages > 0
            # and their files, already in the served folder, were not written again
            assert {"systems/second/index.md", "authoring.md"} <= memory.site.kept_pages
            assert "systems/demo/result.md" not in memory.site.kept_pages, memory.site.kept_pages
        assert tree_hashes(served) == expected, f"after {edit.__name__ if edit else 'the first build'}"
        if edit is _edit_linked_label:  # the hand-written pages that do not show it are remembered
            assert {"index.md", "authoring.md"} <= memory.last_replayed
            assert "linked.md" not in memory.last_replayed
        if edit is _rename_system:  # the file list changed; the unchanged system's pages
            # link to none of the renamed system's files: their conversions are reused
            assert {"systems/demo/index.md", "authoring.md"} <= memory.last_restored
            assert "systems/third/index.md" not in memory.last_restored
        if edit is _edit_hand_written_page:  # every other page is remembered, generated ones too
            assert {"index.md", "authoring.md", "systems/demo/index.md"} <= memory.last_replayed
            assert "linked.md" not in memory.last_replayed
    assert "assets/kb-added.txt" in expected


def test_serve_rebuild_reuses_nothing_after_a_failed_build(project: Path, tmp_path: Path) -> None:
    served, full = tmp_path / "served", tmp_path / "full"
    records = project / "records"
    _build(project, served, "serve")
    _edit(records / "demo" / "records.yaml", "owner: CMP-1", "owner: CMP-404")  # a dangling reference
    _build(project, served, None)  # errors: the last good pages are published again
    _edit(records / "demo" / "records.yaml", "owner: CMP-404", "owner: CMP-1")
    _edit_sentence(records)
    _build(project, served, None)
    assert tree_hashes(served) == _full_build(project, full)


def test_system_cache_reloads_only_the_edited_system(project: Path) -> None:
    records = project / "records"
    cache = SystemCache()
    first = run_pipeline(records, cache=cache)
    _edit_sentence(records)
    second = run_pipeline(records, cache=cache)
    assert (cache.hits, cache.misses) == (1, 3)
    assert second.pages == run_pipeline(records).pages
    assert second.pages["systems/second/result.md"] == first.pages["systems/second/result.md"]
    assert second.pages["systems/demo/result.md"] != first.pages["systems/demo/result.md"]


def test_system_cache_forgets_removed_systems(project: Path) -> None:
    records = project / "records"
    cache = SystemCache()
    run_pipeline(records, cache=cache)
    _remove_system(records)
    run_pipeline(records, cache=cache)
    assert [Path(folder).name for folder, _, _ in cache.entries] == ["second"]


def test_fingerprint_sees_content_kind_and_name_changes(project: Path) -> None:
    folder = project / "records" / "demo"
    before = folder_fingerprint(folder)
    stamp = os.stat(folder / "run.yaml")
    _edit(folder / "run.yaml", "Demo", "Demp")
    os.utime(folder / "run.yaml", ns=(stamp.st_atime_ns, stamp.st_mtime_ns))  # same time, new bytes
    edited = folder_fingerprint(folder)
    (folder / "notes").mkdir()
    nested = folder_fingerprint(folder)
    (folder / "notes").rmdir()
    (folder / "notes").symlink_to(folder / "run.yaml")
    linked = folder_fingerprint(folder)
    assert len({before, edited, nested, linked}) == 4


def test_remembered_file_digests_follow_every_change(project: Path) -> None:
    """Settled files are not read again; a rewrite with the same size and modification
    time still changes the fingerprint (the change time moves), and so does a write
    within the timestamp tick of the last hashing (the file had not settled)."""
    folder = project / "records" / "demo"
    run = folder / "run.yaml"
    old = time.time_ns() - 10 * SETTLED_NS
    for path in folder.iterdir():
        os.utime(path, ns=(old, old))
    time.sleep(SETTLED_NS / 1e9 * 1.5)  # the change times utime set have settled too
    digests = FileDigests()
    first = folder_fingerprint(folder, digests)
    assert folder_fingerprint(folder, digests) == first == folder_fingerprint(folder)
    stamp = os.stat(run)
    _edit(run, "Demo", "Demp")  # same size
    os.utime(run, ns=(stamp.st_atime_ns, stamp.st_mtime_ns))
    edited = folder_fingerprint(folder, digests)
    assert edited != first and edited == folder_fingerprint(folder)
    _edit(run, "Demp", "Demq")  # again at once: not settled when hashed, so hashed again
    assert folder_fingerprint(folder, digests) == folder_fingerprint(folder) != edited


def test_fingerprint_of_a_fifo_does_not_block(project: Path) -> None:
    folder = project / "records" / "demo"
    before = folder_fingerprint(folder)
    os.mkfifo(folder / "pipe.yaml")  # nothing writes to it: opening it for reading would wait
    assert folder_fingerprint(folder) != before


def test_per_graph_values_are_computed_for_new_graphs_only(project: Path) -> None:
    cache = SystemCache()
    records = project / "records"
    computed: list[str] = []
    memo = PerGraph(lambda graph: computed.append(graph.slug) or graph.slug.upper())
    first = run_pipeline(records, cache=cache).graphs
    assert memo.values(first) == [g.slug.upper() for g in first]
    assert sorted(computed) == ["demo", "second"]
    _edit_sentence(records)
    computed.clear()
    again = run_pipeline(records, cache=cache).graphs
    assert memo.values(again) == [g.slug.upper() for g in again]
    assert computed == ["demo"]  # the unchanged system kept its graph, and its value


class _Theme:
    """What ThemeListing uses of MkDocs' Theme: its folders and ``get_env``."""

    def __init__(self, names: list[str]) -> None:
        self.dirs, self.static_templates, self.names, self.listed = ["/theme"], [], names, 0

    def get_env(self) -> object:
        theme = self

        class Env:
            def list_templates(self, extensions: object = None, filter_func: object = None) -> list[str]:
                theme.listed += 1
                return [name for name in theme.names if filter_func is None or filter_func(name)]

        return Env()


def test_theme_listing_is_remembered_until_the_site_digest_changes() -> None:
    listing, theme = ThemeListing(), _Theme(["a.css", "b.html"])
    keep_css = lambda name: name.endswith(".css")  # noqa: E731
    for site in ("one", "one", "two"):
        fresh = _Theme(theme.names)
        fresh.listed = theme.listed
        listing.install(fresh, site)
        assert fresh.get_env().list_templates(filter_func=keep_css) == ["a.css"]  # type: ignore[attr-defined]
        theme = fresh
    assert theme.listed == 2  # listed for "one" once, then for "two"
    assert theme.get_env().list_templates() == ["a.css", "b.html"]  # type: ignore[attr-defined]


def test_text_digests_are_reused_for_the_same_text_only() -> None:
    digests, text = TextDigests(), "# Page\n" * 1000
    first = digests.of("a.md", text)
    assert first == hashlib.sha256(text.encode("utf-8")).hexdigest()
    digests.next_build()
    assert digests.of("a.md", text) == first
    edited = text.replace("Page", "Paje", 1)
    digests.next_build()
    assert digests.of("a.md", edited) == hashlib.sha256(edited.encode("utf-8")).hexdigest() != first


def test_site_digest_covers_page_names_and_other_files_but_not_page_contents(tmp_path: Path) -> None:
    from generator.mkdocs.pagecache import config_digest, uses_includes

    docs, theme = tmp_path / "docs", tmp_path / "theme"
    docs.mkdir()
    theme.mkdir()
    (docs / "page.md").write_text("# Page\n", encoding="utf-8")
    (docs / "style.css").write_text("a {}\n", encoding="utf-8")
    (theme / "main.html").write_text("{% extends 'base.html' %}\n", encoding="utf-8")

    def digest(includes: bool = False) -> str:
        return config_digest(None, [theme], docs, includes)

    def changed(action: Callable[[], object], includes: bool = False) -> bool:
        before = digest(includes)
        time.sleep(0.01)  # a new modification time, on file systems with coarse ones too
        action()
        return digest(includes) != before

    assert not changed(lambda: (docs / "page.md").write_text("# Page\n\nMore.\n", encoding="utf-8"))
    assert changed(
        lambda: (docs / "page.md").write_text("# Page\n\nMore!\n", encoding="utf-8"), includes=True
    )
    assert changed(lambda: (docs / "other.md").write_text("# Other\n", encoding="utf-8"))
    assert changed(lambda: (docs / "style.css").write_text("b {}\n", encoding="utf-8"))
    assert changed(lambda: (theme / "main.html").write_text("{# edited #}\n", encoding="utf-8"))
    assert uses_includes(["toc", "pymdownx.snippets"]) and not uses_includes(["toc", "attr_list"])


def test_a_remembered_conversion_follows_the_files_its_links_look_up(project: Path, tmp_path: Path) -> None:
    """A page's conversion is kept across a change of the site's file list only while each
    file its links looked up is found as before: a link whose target went away fails the
    strict rebuild, as it fails a full build."""
    served, full = tmp_path / "served", tmp_path / "full"
    page = project / "kb" / "second.md"
    page.write_text("# Second\n\nSee [the second system](systems/second/index.md).\n", encoding="utf-8")
    _build(project, served, "serve")
    _rename_system(project / "records")
    with pytest.raises(Abort):
        _build(project, served, None)
    page.write_text("# Second\n\nSee [the third system](systems/third/index.md).\n", encoding="utf-8")
    plugin = _build(project, served, None)
    assert plugin.memory is not None
    assert "second.md" not in plugin.memory.last_restored
    assert tree_hashes(served) == _full_build(project, full)
