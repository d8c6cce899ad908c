"""A one-shot build shares the converting and theming of its generated pages with forked
children, the build from the first page, a child from the last (generator/mkdocs/
parallel_pages.py): the site, the messages and the strict failure are those of a build on
one core, also when a child warns, fails or sends nothing."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from site_support import REPO_ROOT, make_project, tree_hashes

from generator.mkdocs.parallel_pages import SharedEnds
from generator.mkdocs.plugin import RecordsPlugin

# Each build runs in a process of its own: a test worker has other threads (pytest-xdist's),
# and a process with other threads is never forked. ``trouble`` makes the last page but one
# of the pages shared with each child (the second a child takes; or the pages named) warn in
# every process, or fail in the child alone. The build waits a little on each page, so that
# a child, which takes pages from the last, reaches that page first.
BUILD = """
import json, logging, os, sys, time
import generator.mkdocs.parallel_pages as parallel
from generator.mkdocs.plugin import RecordsPlugin
from material.plugins.search.plugin import SearchPlugin
from mkdocs.plugins import CombinedEvent
from mkdocs.structure.pages import Page

site, forking, trouble = sys.argv[1], sys.argv[2] == "fork", sys.argv[3]
# "hook": another plugin's on_post_page hook, which sees every page's output in the build.
seen_after = {}
if trouble == "hook":
    def on_post_page(self, output, *, page, config):
        seen_after[page.file.src_uri] = len(output)
        return output
    SearchPlugin.on_post_page = on_post_page
parallel.PARALLEL_FROM = 2 if forking else 10**9
build_pid = os.getpid()
shares = []
troubled = dict(zip(("converting", "theming"), sys.argv[4:]))

class RecordedEnds(parallel.SharedEnds):
    def __init__(self, pages, ends):
        super().__init__(pages, ends)
        shares.append([page.file.src_uri for page in pages])
        troubled.setdefault("converting" if len(shares) == 1 else "theming", pages[-2].file.src_uri)

parallel.SharedEnds = RecordedEnds

def make_trouble(step, page):
    if os.getpid() == build_pid and forking:
        time.sleep(0.02)
    if troubled.get(step) != page.file.src_uri:
        return
    if trouble == "warn":
        logging.getLogger("mkdocs.plugins.trouble").warning("%s %s trouble", step, page.file.src_uri)
    elif trouble == "fail" and os.getpid() != build_pid:
        raise RuntimeError("the child fails")

render = Page.render
def troubled_render(self, config, files):
    make_trouble("converting", self)
    return render(self, config, files)
Page.render = troubled_render

page_context = SearchPlugin.on_page_context
def troubled_context(self, context, *, page, config, nav):
    make_trouble("theming", page)
    return page_context(self, context, page=page, config=config, nav=nav)
SearchPlugin.on_page_context = troubled_context

write_outputs = RecordsPlugin._write_outputs
counts = {}
def counted_write_outputs(self, *, config):
    counts["converted"] = self.parallel.converted_elsewhere
    counts["themed"] = self.parallel.themed_elsewhere
    counts["written"] = self.parallel.written
    counts["seen_after"] = seen_after
    return write_outputs(self, config=config)
# The plugin's post-build event is two steps (CombinedEvent): the first is counted.
RecordsPlugin.on_post_build = CombinedEvent(counted_write_outputs, RecordsPlugin._sweep_served_folder)

from generator.cli.main import main
code = main(["build", "--site-dir", site])
print(json.dumps({"code": code, "shares": shares, "troubled": troubled, **counts}))
"""


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    project = make_project(tmp_path_factory.mktemp("parallel"), git=False)
    records = project / "records"
    for n in range(1, 4):
        target = records / f"demo-{n}"
        shutil.copytree(records / "demo", target)
        run = target / "run.yaml"
        text = run.read_text(encoding="utf-8").replace("-demo-", f"-demo-{n}-")
        run.write_text(text.replace("system: Demo", f"system: Demo {n}"), encoding="utf-8")
    return project


def _build(
    project: Path, site: Path, forking: bool, trouble: str = "none", troubled: tuple[str, ...] = ()
) -> tuple[dict, str]:
    environment = {**os.environ, "PYTHONPATH": str(REPO_ROOT), "SOURCE_DATE_EPOCH": "1700000000"}
    environment.pop("KBGEN_RECORDS", None)
    done = subprocess.run(
        [sys.executable, "-c", BUILD, str(site), "fork" if forking else "one", trouble, *troubled],
        cwd=project,
        env=environment,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert done.stdout.strip(), done.stderr
    found = json.loads(done.stdout.strip().splitlines()[-1])
    messages = "\n".join([*done.stdout.strip().splitlines()[:-1], done.stderr])
    return found, messages.replace(str(site), "SITE")


@pytest.mark.slow
@pytest.mark.parametrize("trouble", ["none", "fail", "hook"])
def test_a_build_on_two_cores_writes_the_site_of_one_core(
    project: Path, tmp_path: Path, trouble: str
) -> None:
    one, one_messages = _build(
        project, tmp_path / "one", forking=False, trouble="hook" if trouble == "hook" else "none"
    )
    two, two_messages = _build(project, tmp_path / "two", forking=True, trouble=trouble)
    assert one["code"] == two["code"] == 0, two_messages
    assert one["shares"] == [] and one["converted"] == one["themed"] == one["written"] == []
    converting, theming = two["shares"]
    for shared, done in ((converting, two["converted"]), (theming, two["themed"])):
        if trouble != "fail":  # the child's pages are the last ones, the build's the first
            assert done and shared[0] not in done
            assert sorted(done) == sorted(shared[len(shared) - len(done) :])
        else:  # the child failed on its second page, which the build did itself, and the rest
            assert done == [shared[-1]]
    if trouble == "hook":  # another plugin sees each page: the child sends them, the build writes
        assert two["written"] == []
        assert two["seen_after"] == one["seen_after"] and set(theming) <= set(two["seen_after"])
    else:  # the theming child wrote the pages it themed; the manifest lists them all the same
        assert two["written"] == two["themed"]
    one_site, two_site = tree_hashes(tmp_path / "one"), tree_hashes(tmp_path / "two")
    assert "kb-manifest.json" in two_site and "sitemap.xml.gz" in two_site
    assert [
        path for path in one_site.keys() | two_site.keys() if one_site.get(path) != two_site.get(path)
    ] == []
    assert two_messages == one_messages


@pytest.mark.slow
def test_a_page_that_warns_in_a_child_fails_the_strict_build_as_on_one_core(
    project: Path, tmp_path: Path
) -> None:
    two, two_messages = _build(project, tmp_path / "two", forking=True, trouble="warn")
    converting, theming = two["troubled"]["converting"], two["troubled"]["theming"]
    one, one_messages = _build(project, tmp_path / "one", False, "warn", (converting, theming))
    assert one["code"] == two["code"] == 1
    for step, page in (("converting", converting), ("theming", theming)):
        assert two_messages.count(f"{step} {page} trouble") == 1, two_messages
    assert "Aborted with 2 warnings in strict mode" in two_messages
    assert converting not in two["converted"] and theming not in two["themed"]
    assert two["converted"] and two["themed"]  # the other pages came from the children
    assert two_messages == one_messages


def test_mkdocs_note_of_a_page_the_child_wrote_is_left_out_of_the_log() -> None:
    """The build prints a page the theming child wrote empty, and MkDocs notes that it
    skipped an empty page: that note is not shown, any other is."""
    import logging

    from generator.mkdocs.parallel_pages import _SkippedNotLogged

    def record(message: str, *args: object) -> logging.LogRecord:
        return logging.LogRecord("mkdocs.commands.build", logging.INFO, __file__, 1, message, args, None)

    written = {"systems/demo/index.md": "0" * 64}
    skipped = _SkippedNotLogged(written)
    assert not skipped.filter(record("Page skipped: 'systems/demo/index.md'. Generated empty output."))
    assert skipped.filter(record("Page skipped: '%s'. Generated empty output.", "about.md"))
    assert skipped.filter(record("Building page systems/demo/index.md"))


def test_the_child_writes_a_page_as_mkdocs_does_and_leaves_what_it_cannot_write_to_the_build(
    tmp_path: Path,
) -> None:
    import hashlib
    from types import SimpleNamespace

    from generator.mkdocs.parallel_pages import Written, write_page

    def page(path: Path) -> SimpleNamespace:
        return SimpleNamespace(file=SimpleNamespace(abs_dest_path=str(path)))

    output = "<p>caf\u00e9 \ud800</p>\n"  # a lone surrogate: MkDocs writes a character reference
    target = tmp_path / "a" / "b" / "index.html"
    written = write_page(page(target), output)  # type: ignore[arg-type]
    data = output.encode("utf-8", errors="xmlcharrefreplace")
    assert written == Written(hashlib.sha256(data).hexdigest()) and target.read_bytes() == data
    assert write_page(page(tmp_path / "blank.html"), " \n") is None  # type: ignore[arg-type]
    assert not (tmp_path / "blank.html").exists()  # MkDocs writes no blank page
    (tmp_path / "taken").mkdir()
    assert write_page(page(tmp_path / "taken"), output) is None  # type: ignore[arg-type]


class _File:
    def __init__(self, name: str) -> None:
        self.src_uri = name


class _Page:
    def __init__(self, name: str) -> None:
        self.file = _File(name)


def test_shared_pages_go_to_whoever_reaches_them_first_and_the_first_to_the_build() -> None:
    names = [f"p{n}.md" for n in range(6)]
    ends = SharedEnds.of([_Page(name) for name in names])  # type: ignore[misc]
    assert ends is not None
    child = ends.child_pages()
    assert ends.build_takes("p0.md") is True
    assert next(child).file.src_uri == "p5.md"
    assert ends.build_takes("p1.md") is True
    assert next(child).file.src_uri == "p4.md"
    assert ends.build_takes("p2.md") is True
    assert ends.build_takes("p3.md") is True  # the build reached it first
    assert list(child) == []  # the child stops where the build is
    assert ends.build_takes("p4.md") is False  # the child's, and so is the rest
    assert ends.build_takes("p5.md") is False
    assert ends.build_takes("hand-written.md") is None


def test_a_child_never_takes_the_first_page_and_a_lone_page_stays_with_the_build() -> None:
    ends = SharedEnds.of([_Page(f"p{n}.md") for n in range(3)])  # type: ignore[misc]
    assert ends is not None
    assert [page.file.src_uri for page in ends.child_pages()] == ["p2.md", "p1.md"]
    assert ends.build_takes("p0.md") is True and ends.build_takes("p1.md") is False
    alone = SharedEnds.of([_Page("only.md")])  # type: ignore[misc]
    assert alone is not None
    assert list(alone.child_pages()) == []
    assert alone.build_takes("only.md") is True


def test_without_a_lock_processes_can_share_the_pages_stay_with_the_build(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from generator.util import forking

    def no_sem_open(self: object, count: int) -> None:
        raise ImportError("This platform lacks a functioning sem_open implementation")

    monkeypatch.setattr(forking.TwoEnds, "__init__", no_sem_open)
    assert SharedEnds.of([_Page("p0.md"), _Page("p1.md")]) is None  # type: ignore[list-item]


def test_only_a_one_shot_build_shares_its_pages() -> None:
    plugin = RecordsPlugin()
    plugin.on_startup(command="serve", dirty=False)
    assert plugin.memory is not None and plugin.parallel.enabled is False
    plugin.on_startup(command="build", dirty=False)
    assert plugin.memory is None and plugin.parallel.enabled is True


@pytest.mark.parametrize("terminal", [False, True])
def test_a_build_on_a_terminal_starts_no_thread_that_would_keep_it_from_forking(terminal: bool) -> None:
    """A build says it is under way on a terminal (and nothing in a log), without rich's
    spinner, whose thread would keep the build's workers from forking."""
    import io
    import threading

    from rich.console import Console

    from generator.site.build import _building

    stream = io.StringIO()
    before = threading.active_count()
    with _building(Console(file=stream, force_terminal=terminal, width=80)):
        assert threading.active_count() == before
    assert ("building the site" in stream.getvalue()) is terminal
