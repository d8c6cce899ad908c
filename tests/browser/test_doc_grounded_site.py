"""A document-grounded system on the site: locators as text, pinned quotes, no /blob/ links.

The fixture system ``tests/fixtures/doc-grounded`` (written for the tests) is built with
``kbgen build`` and served; the result page is read in headless Chromium and its links
are followed.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browser_support import build_site, serve_directory

pytestmark = pytest.mark.browser

RECORDS = Path(__file__).resolve().parent.parent / "fixtures" / "doc-grounded" / "records"
RESULT = "systems/paper-agent/result/"
DIGEST = "sha256:c093b5e0f1a2d3c4b5a69788796a5b4c3d2e1f00112233445566778899aabbcc"


def expect(target: Any) -> Any:
    from playwright.sync_api import expect as playwright_expect

    return playwright_expect(target)


@pytest.fixture(scope="module")
def paper_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    site = build_site(tmp_path_factory.mktemp("paper") / "site", records=RECORDS)
    with serve_directory(site) as url:
        yield url


def test_locators_and_pinned_quotes_are_shown_as_text(browsing, paper_url):
    page = browsing.page
    page.goto(f"{paper_url}/{RESULT}")
    article = page.locator("article")
    expect(article).to_contain_text("SRC-1 §3.1")
    expect(article).to_contain_text("SRC-1 Appendix C")
    expect(article).to_contain_text("SRC-1 Table 2")
    expect(page.locator(".kb-quote__source").first).to_contain_text(
        f"captures/paper-v2.md:81-82 §3.1 @ {DIGEST}"
    )
    expect(page.locator('a[href*="/blob/"], a[href*="/tree/"]')).to_have_count(0)
    expect(page.locator('.kb-quote__source a[href*="arxiv.org"]')).to_have_count(0)
    assert browsing.errors == []


def test_record_links_of_a_document_grounded_result_land_on_their_records(browsing, paper_url):
    page = browsing.page
    page.goto(f"{paper_url}/{RESULT}")
    for record_id in ("cmp-1", "obj-1", "rte-1", "clm-1", "src-1"):
        link = page.locator(f'article a[href$="#{record_id}"]:visible').first
        href = link.get_attribute("href")
        assert href is not None, record_id
        link.click()
        page.wait_for_url(f"**#{record_id}")
        expect(page.locator(f'[id="{record_id}"]')).to_be_attached()
        page.goto(f"{paper_url}/{RESULT}")
    assert browsing.errors == []
    assert browsing.traffic.blocked == []
