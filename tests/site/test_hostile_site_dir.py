"""Hostile corpus, site side: build and serve never destroy files, interleave or hide errors.

Each case builds a throwaway project (mkdocs.yml, kb/, overrides/, the demo records, a
git work tree and an uncommitted file) and asserts what ``kbgen build`` must refuse
with exit 2 and one clear line, leaving every file of the project byte-identical.
"""

from __future__ import annotations

import fcntl
import io
import logging
import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console
from site_support import REPO_ROOT, make_project, tree_hashes

import generator.check
import generator.cli.main
import generator.pipeline
import generator.site.build
from generator.util.output_guard import SITE_MARKER


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The throwaway project as the working folder, with a home folder of its own."""
    folder = make_project(tmp_path)
    (tmp_path / "home").mkdir()
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.delenv("KBGEN_RECORDS", raising=False)
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "0")
    monkeypatch.chdir(folder)
    return folder


def _refused(result: Any, what: str) -> None:
    assert result.code == 2, result.err
    lines = [line for line in result.err.splitlines() if line.strip()]
    assert len(lines) == 1, result.err
    assert lines[0].startswith("kbgen build: refusing site folder "), lines[0]
    assert what in lines[0], lines[0]
    assert "Traceback" not in result.err + result.out


# (--site-dir as typed in the project folder, the words of the refusal)
SOURCES = {
    "project-folder": (".", "it is the project folder"),
    "records-folder": ("records", "it is the records folder"),
    "inside-records": ("records/demo/out", "it is inside the records folder"),
    "docs-folder": ("kb", "it is the docs folder"),
    "inside-docs": ("kb/site", "it is inside the docs folder"),
    "overrides-folder": ("overrides", "it is the theme overrides folder"),
    "git-folder": (".git", "it is the git folder"),
    "inside-git-folder": (".git/site", "it is inside the git folder"),
    "parent-of-project": ("..", "it contains the project folder"),
    "file-system-root": ("/", "it is the file system root"),
    "home-folder": ("../home", "it is the home folder"),
}


@pytest.mark.parametrize("site_dir, what", list(SOURCES.values()), ids=list(SOURCES))
def test_build_into_the_sources(site_dir: str, what: str, project: Path, kbgen) -> None:
    before = tree_hashes(project.parent)
    result = kbgen("build", "--site-dir", site_dir)
    _refused(result, what)
    assert tree_hashes(project.parent) == before


def test_build_through_a_symlink_to_the_records(project: Path, kbgen) -> None:
    (project / "published").symlink_to(project / "records", target_is_directory=True)
    before = tree_hashes(project.parent)
    _refused(kbgen("build", "--site-dir", "published"), "it is the records folder")
    assert tree_hashes(project.parent) == before


def test_build_into_a_folder_holding_other_files(project: Path, kbgen) -> None:
    (project / "drafts").mkdir()
    (project / "drafts" / "chapter.md").write_text("a draft\n", encoding="utf-8")
    before = tree_hashes(project.parent)
    _refused(kbgen("build", "--site-dir", "drafts"), "it exists and is not a site built before")
    assert tree_hashes(project.parent) == before


def test_build_over_a_file(project: Path, kbgen) -> None:
    before = tree_hashes(project.parent)
    _refused(kbgen("build", "--site-dir", "notes.txt"), "is not a site built before")
    assert tree_hashes(project.parent) == before


def test_mkdocs_build_into_the_records(project: Path) -> None:
    """The plugin refuses too, before MkDocs cleans its site_dir (which spares only dotfiles)."""
    before = tree_hashes(project.parent)
    env = {**os.environ, "PYTHONPATH": str(REPO_ROOT), "NO_MKDOCS_2_WARNING": "1"}
    proc = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "-d", "records"],
        cwd=project,
        env=env,
        capture_output=True,
        text=True,
        timeout=180,
        check=False,
    )
    assert proc.returncode != 0, proc.stdout + proc.stderr
    assert "refusing site folder" in proc.stderr and "it is the records folder" in proc.stderr
    assert tree_hashes(project.parent) == before


def test_build_again_over_the_site_it_built(project: Path, kbgen) -> None:
    assert kbgen("build", "--site-dir", "site").code == 0
    assert (project / "site" / SITE_MARKER).is_file()
    result = kbgen("build", "--site-dir", "site")
    assert result.code == 0, result.err
    assert (project / "site" / "systems" / "demo" / "result" / "index.html").is_file()


# ---------------------------------------------------------------- concurrent builds


def _staging_leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if ".building-" in p.name)


@pytest.mark.slow
def test_two_builds_race_into_one_site_dir(project: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k != "KBGEN_RECORDS"}
    env.update(PYTHONPATH=str(REPO_ROOT), NO_MKDOCS_2_WARNING="1", SOURCE_DATE_EPOCH="0")
    command = [sys.executable, "-m", "generator.cli.main", "build", "--site-dir"]
    reference = subprocess.run([*command, "reference"], cwd=project, env=env, capture_output=True, text=True)
    assert reference.returncode == 0, reference.stderr
    shutil.copytree(project / "reference", project / "site")  # both builds replace a previous site
    racers = [
        subprocess.Popen(
            [*command, "site"],
            cwd=project,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(2)
    ]
    outcomes = [(racer.wait(timeout=300), *racer.communicate()) for racer in racers]
    for code, out, err in outcomes:
        assert code == 0 or (code == 1 and "another build is writing" in err), (code, out, err)
        assert "Traceback" not in out + err
    assert any(code == 0 for code, _, _ in outcomes)
    assert tree_hashes(project / "site") == tree_hashes(project / "reference")
    assert _staging_leftovers(project) == []


def test_build_while_another_build_holds_the_swap(
    project: Path, kbgen, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert kbgen("build", "--site-dir", "site").code == 0
    before = tree_hashes(project / "site")
    monkeypatch.setattr(generator.site.build, "LOCK_WAIT_SECONDS", 0.0)
    with (project / ".site.lock").open("a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        result = kbgen("build", "--site-dir", "site")
    assert result.code == 1
    assert f"another build is writing {project / 'site'}" in result.err
    assert tree_hashes(project / "site") == before
    assert _staging_leftovers(project) == []


# ---------------------------------------------------------------- one check, plain-text output


def _counting(calls: list[str], name: str, function: Callable[..., Any]) -> Callable[..., Any]:
    def counted(*args: Any, **kwargs: Any) -> Any:
        calls.append(name)
        return function(*args, **kwargs)

    return counted


def test_one_build_checks_once_and_loads_the_config_once(
    project: Path, kbgen, monkeypatch: pytest.MonkeyPatch
) -> None:
    """One kbgen build: one check of the records, one load of mkdocs.yml."""
    import mkdocs.config

    calls: list[str] = []
    counted = _counting(calls, "check_records", generator.check.check_system_folders)
    for module in (generator.check, generator.pipeline):
        monkeypatch.setattr(module, "check_system_folders", counted)
    monkeypatch.setattr(
        mkdocs.config, "load_config", _counting(calls, "load_config", mkdocs.config.load_config)
    )
    result = kbgen("build", "--site-dir", "site")
    assert result.code == 0, result.err
    assert sorted(calls) == ["check_records", "load_config"]
    assert "demo: ok" in result.err  # the plugin's check is the one kbgen reports


MARKUP = "[/oops] [bold]not bold[/bold] :thumbs_up:"


def _planted_error(project: Path) -> None:
    run = project / "records" / "demo" / "run.yaml"
    text = run.read_text(encoding="utf-8")
    assert "  disposition: complete\n" in text
    run.write_text(text.replace("disposition: complete", f'disposition: "{MARKUP}"'), encoding="utf-8")


def test_build_prints_record_text_that_looks_like_markup(project: Path, kbgen) -> None:
    _planted_error(project)
    result = kbgen("build", "--site-dir", "site")
    assert result.code == 1
    assert "records/demo/run.yaml:5:16: error KB104 " in result.err
    assert "nothing was built" in result.err
    assert "Traceback" not in result.err
    assert not (project / "site").exists()


def _serve_twice(project: Path, between: Callable[[], None]) -> tuple[bytes, bytes, str]:
    """Two serve-mode builds with ``between`` done in between: both results and the log."""
    from mkdocs.commands.build import build
    from mkdocs.config import load_config

    site = project.parent / "serve-site"
    page = site / "systems" / "demo" / "result" / "index.html"

    def rebuild() -> None:
        config = load_config("mkdocs.yml", site_dir=str(site))
        build(config, serve_url="http://127.0.0.1:8000/")

    startup = load_config("mkdocs.yml", site_dir=str(site))
    startup.plugins.on_startup(command="serve", dirty=False)
    console = Console(file=io.StringIO(), width=300, color_system=None)
    try:
        rebuild()
        good = page.read_bytes()
        between()
        with generator.site.build._mkdocs_log(console, logging.INFO):
            rebuild()  # does not raise: the last good pages are published again
    finally:
        startup.plugins.on_shutdown()
    return good, page.read_bytes(), console.file.getvalue()


def test_serve_log_prints_record_text_that_looks_like_markup(project: Path) -> None:
    """In serve the plugin logs record errors and republishes the last good pages; the log
    handler prints their text exactly (a '[/oops]' once crashed it and hid the errors)."""
    good, served, printed = _serve_twice(project, lambda: _planted_error(project))
    assert f"records/demo/run.yaml:5:16: error KB104 controlled-value: '{MARKUP}'" in printed
    assert "kb-records: showing the last good pages" in printed
    assert served == good


def test_serve_after_the_records_folder_vanished(project: Path) -> None:
    good, served, printed = _serve_twice(project, lambda: (project / "records").rename(project / "gone"))
    assert f"kb-records: records folder {project / 'records'} does not exist" in printed
    assert "kb-records: showing the last good pages" in printed
    assert served == good


@pytest.mark.parametrize("command", ["check", "build", "serve"])
def test_command_with_a_path_that_looks_like_markup(command: str, project: Path, kbgen) -> None:
    """Paths are printed as written: '[/oops]' once raised rich's MarkupError instead."""
    option = {"check": [], "build": ["-f"], "serve": ["-f"]}[command]
    result = kbgen(command, *option, MARKUP)
    assert result.code == 2, result.err
    assert MARKUP in result.err
    assert "Traceback" not in result.err
