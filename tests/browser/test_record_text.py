"""Record text is data: HTML, script links and macros written in a record never run.

Record text is Markdown of strong, emphasis, code spans and links; a link to a script URL
is shown as its text followed by its target, never as a link."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml
from browser_support import build_site, run_kbgen, serve_directory

pytestmark = pytest.mark.browser

SCRIPT = "<script>window.__pwned=1</script>"
IMG = '<img src=x onerror="window.__pwned=2">'
JS_LINK = "[click](javascript:window.__pwned=3)"
MACRO = "{{ 7*7 }}"
LABEL = 'Hostile <img src=x onerror="window.__pwned=4"> label {{ 7*7 }}'
BODY = f"Script: {SCRIPT} image: {IMG} link: {JS_LINK} macro: {MACRO} marker: pwned"
RESULT = "systems/evil/result/"


def expect(target: Any) -> Any:
    from playwright.sync_api import expect as playwright_expect

    return playwright_expect(target)


@pytest.fixture(scope="module")
def evil_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A scaffolded system with one extra component whose text is hostile, built and served."""
    root = tmp_path_factory.mktemp("evil")
    records = root / "records"
    assert run_kbgen("new", "evil", "--records", str(records)) == 0
    path = records / "evil" / "records.yaml"
    header = path.read_text(encoding="utf-8").splitlines()[0]
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    data["components"].append({"id": "CMP-2", "label": LABEL, "body": BODY})
    path.write_text(
        header + "\n" + yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=1000),
        encoding="utf-8",
    )
    site = build_site(root / "site", records=records)
    html = (site / RESULT / "index.html").read_text(encoding="utf-8")
    assert 'id="cmp-2"' in html, "the hostile component is not on the result page"
    with serve_directory(Path(site)) as url:
        yield url


def assert_not_pwned(page: Any) -> None:
    assert page.evaluate("typeof window.__pwned") == "undefined"


def test_hostile_record_text_is_shown_not_executed(browsing, evil_url):
    page = browsing.page
    page.goto(f"{evil_url}/{RESULT}#cmp-2")
    page.wait_for_load_state("load")
    page.wait_for_timeout(300)  # give a would-be onerror handler its chance
    assert_not_pwned(page)

    record = page.locator('[id="cmp-2"] + p')
    expect(record).to_be_visible()
    expect(record).to_contain_text(SCRIPT)
    expect(record).to_contain_text(IMG)
    expect(record).to_contain_text("click (javascript:window.__pwned=3)")
    expect(record.locator("code", has_text="javascript:window.__pwned=3")).to_have_count(1)
    expect(record).to_contain_text(MACRO)
    expect(record.get_by_text("<script>", exact=False)).to_be_visible()
    expect(record.get_by_text(MACRO, exact=False)).to_be_visible()
    expect(page.locator('[id="cmp-2"]')).to_contain_text(LABEL)
    assert "49" not in (record.text_content() or "")

    expect(page.locator("article script, article img[onerror], [onerror]")).to_have_count(0)
    expect(page.locator('a[href^="javascript:"]')).to_have_count(0)
    expect(page.locator('a[href*="javascript" i]')).to_have_count(0)
    assert browsing.errors == []


def test_hostile_record_text_in_search_results_stays_text(browsing, evil_url):
    page = browsing.page
    page.goto(f"{evil_url}/{RESULT}")
    box = page.locator("input.md-search__input")
    box.click()
    box.press_sequentially("pwned", delay=20)
    result = page.locator(".md-search-result__item").first
    expect(result).to_be_visible(timeout=15_000)
    expect(page.locator(".md-search-result")).to_contain_text(re.compile("Hostile"))
    page.wait_for_timeout(300)
    assert_not_pwned(page)
    expect(page.locator(".md-search-result img, .md-search-result script")).to_have_count(0)
    expect(page.locator('a[href^="javascript:"]')).to_have_count(0)
