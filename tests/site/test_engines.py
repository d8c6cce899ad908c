"""The KB outlives its engine: the shipped records on MkDocs, ProperDocs and Zensical.

MkDocs builds with the kb-records plugin (``kbgen build``); ProperDocs and Zensical build
the output of ``kbgen render`` with no plugin of ours. Each engine builds once per test
session; the three sites must offer the same pages and record anchors, and no internal
link or ``#fragment`` of any of them may be broken.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from rich.console import Console

from generator.cli.main import main
from generator.cli.site_links import check_site, html_pages, parse_page, pinned_revisions
from generator.pipeline import check_records

# Slow (three engines build the shipped records): deselected by -m "not slow".
pytestmark = pytest.mark.slow

REPO_ROOT = Path(__file__).resolve().parents[2]
ENGINES = ("mkdocs", "properdocs", "zensical")
BUILD_TIMEOUT = 600  # seconds; a shared machine may be slow, a hung engine must not hang CI


def _engine_build(command: list[str], folder: Path) -> None:
    done = subprocess.run(command, cwd=folder, capture_output=True, text=True, timeout=BUILD_TIMEOUT)
    assert done.returncode == 0, f"{command}: {done.stdout}\n{done.stderr}"


def _build_rendered(render: Path, engine: str, root: Path) -> Path:
    """Build a copy of the render with one engine (each writes its site beside mkdocs.yml)."""
    project = root / engine
    shutil.copytree(render, project)
    if engine == "properdocs":
        _engine_build([sys.executable, "-m", "properdocs", "build", "--strict", "-f", "mkdocs.yml"], project)
    else:
        _engine_build([sys.executable, "-m", "zensical", "build", "--strict"], project)
    return project / "site"


@pytest.fixture(scope="session")
def engine_sites(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """engine → its built site of the shipped records; each engine builds once per session."""
    root = tmp_path_factory.mktemp("engines")
    config = str(REPO_ROOT / "mkdocs.yml")
    assert main(["build", "-f", config, "--site-dir", str(root / "mkdocs-site")]) == 0
    sites = {"mkdocs": root / "mkdocs-site"}
    for engine in ENGINES[1:]:
        # Each engine gets the render made for it (Zensical: file links inside raw HTML).
        render = root / f"render-{engine}"
        assert main(["render", "-f", config, "--out", str(render), "--engine", engine]) == 0
        sites[engine] = _build_rendered(render, engine, root)
    return sites


def _content_ids(site: Path, page: str) -> set[str]:
    """The page's anchors, less the theme's own chrome (``__skip``, ``__toc``: they differ by engine)."""
    return {anchor for anchor in parse_page(site / page).ids if not anchor.startswith("__")}


def test_every_engine_publishes_the_same_pages(engine_sites: dict[str, Path]) -> None:
    pages = {engine: html_pages(site) for engine, site in engine_sites.items()}
    assert "systems/oh-my-pi/result/index.html" in pages["mkdocs"]
    for engine in ENGINES[1:]:
        assert pages[engine] == pages["mkdocs"], engine


def test_every_engine_publishes_the_same_record_anchors(engine_sites: dict[str, Path]) -> None:
    mkdocs = engine_sites["mkdocs"]
    for page in html_pages(mkdocs):
        expected = _content_ids(mkdocs, page)
        for engine in ENGINES[1:]:
            assert _content_ids(engine_sites[engine], page) == expected, f"{engine}: {page}"
    result = _content_ids(mkdocs, "systems/oh-my-pi/result/index.html")
    assert {"rte-11", "cmp-1", "src-1"} <= result


@pytest.mark.parametrize("engine", ENGINES)
def test_no_engine_publishes_a_broken_link(engine_sites: dict[str, Path], engine: str) -> None:
    pinned = pinned_revisions(check_records(REPO_ROOT / "records"))
    problems = check_site(engine_sites[engine], pinned, Console(quiet=True))
    assert [problem.as_text() for problem in problems] == []


@pytest.mark.parametrize("engine", ENGINES)
def test_every_engine_links_records_across_pages(engine_sites: dict[str, Path], engine: str) -> None:
    """The links are really there: the review links into the result at record anchors."""
    review = parse_page(engine_sites[engine] / "systems/oh-my-pi/review/index.html")
    targets = {href for _, _, href in review.links}
    assert any("result/#" in href for href in targets), sorted(targets)[:20]
