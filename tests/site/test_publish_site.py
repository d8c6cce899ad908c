"""The built site's checks: links and anchors (kbgen linkcheck) and the build manifest."""

from __future__ import annotations

import io
import json
import shutil
from pathlib import Path

import pytest
from rich.console import Console

from generator.cli.main import main
from generator.cli.site_links import SiteLinks, check_site
from generator.mkdocs.site_manifest import MANIFEST_NAME, pin_problems, verify_manifest
from generator.util.progress import progress_bar
from tests.conftest import FIXTURES, REPO_ROOT

# Slow (builds the shipped site and checks every link): deselected by -m "not slow".
pytestmark = pytest.mark.slow

BROKEN = FIXTURES / "linkcheck" / "broken-site"
PINNED = "be6cb8217cd4c1dafcc86793ae5d809ea4d7396a"


@pytest.fixture(scope="module")
def two_builds(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """The shipped records built twice, into two site folders."""
    sites = []
    for name in ("first", "second"):
        site = tmp_path_factory.mktemp(name) / "site"
        code = main(["build", "-f", str(REPO_ROOT / "mkdocs.yml"), "--site-dir", str(site)])
        assert code == 0
        sites.append(site)
    return sites[0], sites[1]


def quiet() -> Console:
    return Console(file=io.StringIO())


def broken_links() -> set[tuple[str, int, int, str]]:
    found = check_site(BROKEN, {}, quiet())
    return {(Path(p.file).relative_to(BROKEN).as_posix(), p.line, p.col, p.href) for p in found}


def test_linkcheck_reports_each_broken_link_of_the_fixture() -> None:
    assert broken_links() == {
        ("guide/index.html", 6, 1, "../assets/logo.png"),
        ("index.html", 4, 1, "assets/missing.css"),
        ("index.html", 8, 1, "#nowhere"),
        ("index.html", 11, 1, "guide/#no-such-heading"),
        ("index.html", 12, 1, "missing/"),
        ("index.html", 13, 1, "../outside.html"),
        ("index.html", 16, 1, "javascript:alert(1)"),
        ("index.html", 18, 1, "https://github.com/o/r/blob/main/a.ts#L3"),
        ("index.html", 19, 1, f"https://github.com/o/r/blob/{PINNED}/a.ts#line3"),
    }


def test_linkcheck_fails_on_the_broken_fixture(kbgen) -> None:
    result = kbgen("linkcheck", str(BROKEN), "--records", str(BROKEN / "no-records"))
    assert result.code == 1
    assert f"{BROKEN.as_posix()}/index.html:12:1: broken link 'missing/'" in result.out
    assert "9 broken links" in result.err


def test_evidence_link_must_name_the_sources_pinned_revision(tmp_path: Path) -> None:
    page = tmp_path / "index.html"
    page.write_text(
        '<a href="https://github.com/o/r/blob/0123456789abcdef/a.ts#L1">moved</a>\n'
        f'<a href="https://github.com/o/r/blob/{PINNED}/a.ts#L1">pinned</a>\n',
        encoding="utf-8",
    )
    site = SiteLinks(tmp_path, {"https://github.com/o/r": {PINNED}})
    (problem,) = site.check_page("index.html")
    assert (problem.line, problem.col) == (1, 1) and "pinned revisions" in problem.reason


def test_linkcheck_of_a_folder_without_pages_is_a_usage_error(kbgen, tmp_path: Path) -> None:
    assert kbgen("linkcheck", str(tmp_path)).code == 2


def test_the_real_site_has_no_broken_links(kbgen, two_builds: tuple[Path, Path]) -> None:
    site, _ = two_builds
    result = kbgen("linkcheck", str(site), "--records", str(REPO_ROOT / "records"))
    assert result.code == 0, result.out
    assert "0 broken links, 0 manifest problems" in result.err


def test_manifest_digests_are_stable_across_two_builds(two_builds: tuple[Path, Path]) -> None:
    first, second = (site / MANIFEST_NAME for site in two_builds)
    assert first.read_bytes() == second.read_bytes()


def test_manifest_lists_every_generated_page_with_its_run_id(two_builds: tuple[Path, Path]) -> None:
    site, _ = two_builds
    entries = {e["page"]: e for e in json.loads((site / MANIFEST_NAME).read_text("utf-8"))["pages"]}
    assert {"systems/oh-my-pi/result.md", "systems/oh-my-pi/review.md", "glossary.md"} <= entries.keys()
    result = entries["systems/oh-my-pi/result.md"]
    assert result["html"] == "systems/oh-my-pi/result/index.html"
    assert result["run_id"] == "AAS-2026-09-26-oh-my-pi-01"  # oh-my-pi's current run
    earlier = entries["systems/oh-my-pi/runs/aas-2026-09-05-oh-my-pi-02/result.md"]
    assert earlier["run_id"] == "AAS-2026-09-05-oh-my-pi-02"
    assert entries["glossary.md"]["run_id"] is None
    pin = entries["systems/oh-my-pi/review.md"]["pins"]
    assert pin == {"page": "systems/oh-my-pi/result.md", "sha256": result["markdown_sha256"]}
    assert verify_manifest(site) == []


def test_manifest_catches_a_changed_page(two_builds: tuple[Path, Path], tmp_path: Path) -> None:
    site = tmp_path / "site"
    shutil.copytree(two_builds[0], site)
    page = site / "systems" / "oh-my-pi" / "result" / "index.html"
    page.write_bytes(page.read_bytes() + b"<!-- edited -->")
    (problem,) = verify_manifest(site)
    assert "systems/oh-my-pi/result/index.html differs" in problem


def test_review_pin_that_does_not_match_its_result_is_reported() -> None:
    entries = [
        {"page": "s/result.md", "markdown_sha256": "a" * 64},
        {
            "page": "s/review.md",
            "markdown_sha256": "b" * 64,
            "pins": {"page": "s/result.md", "sha256": "c" * 64},
        },
    ]
    (problem,) = pin_problems(entries)
    assert problem.startswith("s/review.md pins s/result.md at SHA-256 " + "c" * 64)


@pytest.mark.parametrize(
    ("href", "reason"),
    [
        ("%2e%2e/%2e%2e/etc/passwd", "leaves the site"),
        ("/../outside.html", "leaves the site"),
        ("//evil.example/page", "is not http, https or mailto"),
        ("data:text/html,<script>alert(1)</script>", "is not http, https or mailto"),
        ("JavaScript:alert(1)", "is not http, https or mailto"),
    ],
)
def test_link_that_tries_to_leave_the_site_or_run_script(tmp_path: Path, href: str, reason: str) -> None:
    (tmp_path / "index.html").write_text(f'<p>\n  <a href="{href}">x</a>\n</p>\n', encoding="utf-8")
    (problem,) = check_site(tmp_path, {}, quiet())
    assert (problem.file, problem.line, problem.col) == ((tmp_path / "index.html").as_posix(), 2, 3)
    assert reason in problem.reason


@pytest.mark.parametrize("terminal", [False, True])
def test_progress_shows_on_a_terminal_only(terminal: bool) -> None:
    stream = io.StringIO()
    console = Console(file=stream, force_terminal=terminal, width=80)
    with progress_bar(console, "checking links", 2) as (progress, task):
        progress.advance(task, 2)
    assert bool(stream.getvalue()) is terminal
