"""The changes page body in headless Chromium, with the site's theme and ``kb.css``: removed
words struck through in red, added words underlined in green, the flag of a possible
different referent, word diffs collapsed until opened, and hostile record text shown as
text.

A body made from two made-up runs (every kind of change, hostile text) is converted with
the site's extensions and served beside a built site, with that site's stylesheets; the
shipped changes page, between oh-my-pi's two runs, is read in tests/browser/test_runs_site.py.
The screenshot lands in ``test-artifacts/run-changes-page.png``.
"""

from __future__ import annotations

import re
import shutil
import struct
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import markdown
import pytest
from browser_support import REPO_ROOT, build_site, serve_directory
from run_diff_support import checked, edit, record, rename_id, run_copy

from generator.graph.run_diff import diff_runs
from generator.render.run_changes import render_run_changes

pytestmark = pytest.mark.browser

RECORDS = REPO_ROOT / "tests" / "fixtures" / "profile" / "records"
EXTENSIONS = ["attr_list", "md_in_html", "admonition", "tables", "toc", "pymdownx.superfences"]
PAGE = "run-changes/"


def _changes_markdown(root: Path) -> str:
    old, new = run_copy(root, "old"), run_copy(root, "new")
    rename_id(new, "RTE-2", "RTE-7")

    def routes(data: dict) -> None:
        route = record(data, "routes", "RTE-1")
        route["statuses"]["operation conclusion status"] = "observed, in one recorded run"
        route["guarantee"][0]["strength"] = "policy"
        route["fields"]["later_read_back"] = (
            "OBJ-1 is replayed on every later turn, <script>alert(1)</script>."
        )
        route["evidence"].append("SRC-1 src/agent/replay.py:1-12")

    edit(new, "routes.yaml", routes)
    edit(new, "components.yaml", lambda d: d["components"][0].update(label="Sandbox policy engine"))
    diff = diff_runs(checked(old), checked(new))
    # CMP-1 is relabelled on the same files and text, a sure pair: flag it, as a weak pair
    # whose labels share no word would be, to see the flag.
    flagged = tuple(replace(c, possible_different_referent=c.new.id == "CMP-1") for c in diff.changed)
    diff = replace(diff, changed=flagged)
    return render_run_changes(diff, lambda i: f"old/#{i.lower()}", lambda i: f"new/#{i.lower()}")


@pytest.fixture(scope="module")
def changes_site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    root = tmp_path_factory.mktemp("changes")
    site = build_site(root / "site", RECORDS)
    shell = (site / "glossary" / "index.html").read_text(encoding="utf-8")
    styles = "\n".join(re.findall(r'<link rel="stylesheet"[^>]*>', shell))
    body = markdown.Markdown(extensions=EXTENSIONS).convert(_changes_markdown(root))
    page = site / PAGE
    page.mkdir()
    (page / "index.html").write_text(
        f'<!doctype html><html><head><meta charset="utf-8">{styles}</head>'
        '<body data-md-color-scheme="default"><div class="md-content">'
        f'<article class="md-content__inner md-typeset">{body}</article></div></body></html>',
        encoding="utf-8",
    )
    with serve_directory(Path(site)) as url:
        yield url
    shutil.rmtree(root, ignore_errors=True)


def _style(page, selector: str, prop: str) -> str:  # type: ignore[no-untyped-def]
    return page.eval_on_selector(selector, f"el => getComputedStyle(el).getPropertyValue('{prop}')")


def test_removed_words_are_red_and_struck_added_words_green_and_underlined(browsing, changes_site) -> None:
    page = browsing.page
    page.goto(f"{changes_site}/{PAGE}")
    assert "line-through" in _style(page, "del.kb-diff__del", "text-decoration-line")
    assert _style(page, "del.kb-diff__del", "color") == "rgb(165, 14, 14)"
    assert "underline" in _style(page, "ins.kb-diff__ins", "text-decoration-line")
    assert _style(page, "ins.kb-diff__ins", "color") == "rgb(13, 101, 45)"
    flag = page.locator(".kb-diff__flag")
    assert flag.count() == 1 and "Possibly a different referent" in flag.inner_text()
    assert page.locator("#changed-rte-1").is_visible() and page.locator("#renumbered-records").is_visible()
    # Word diffs are collapsed until opened.
    words = page.locator("#changed-rte-1 ~ .kb-diff details.kb-diff__words").first
    assert words.get_attribute("open") is None
    words.locator("summary").click()
    # The route's hostile text is text: no script ran, its tag is on the page as written.
    assert page.locator("article script").count() == 0 and browsing.errors == []
    assert "<script>alert(1)</script>" in words.inner_text()
    assert browsing.traffic.blocked == []


def test_screenshot_of_the_changes_page(browsing, changes_site) -> None:
    page = browsing.page
    page.goto(f"{changes_site}/{PAGE}")
    page.wait_for_load_state("load")
    artifacts = REPO_ROOT / "test-artifacts"
    artifacts.mkdir(exist_ok=True)
    target = artifacts / "run-changes-page.png"
    page.screenshot(path=str(target), full_page=True)
    data = target.read_bytes()
    assert data.startswith(b"\x89PNG\r\n\x1a\n")
    width, height = struct.unpack(">II", data[16:24])
    assert width >= 1000 and height >= 600
