"""A reader on the memory comparison page: sort, filter, and follow a value to its evidence.

The site is built from the profile fixture KB (tests/fixtures/profile/records: two
systems with profiles in different evidence tiers, one without), served locally and
read in headless Chromium.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browser_support import REPO_ROOT, build_site, serve_directory

pytestmark = pytest.mark.browser

RECORDS = REPO_ROOT / "tests" / "fixtures" / "profile" / "records"
PAGE = "comparisons/memory/"


def expect(target: Any) -> Any:
    from playwright.sync_api import expect as playwright_expect

    return playwright_expect(target)


@pytest.fixture(scope="module")
def profile_site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    site = build_site(tmp_path_factory.mktemp("profile-site") / "site", RECORDS)
    with serve_directory(Path(site)) as url:
        yield url


def _first_column(page: Any, table: int = 0) -> list[str]:
    return page.eval_on_selector_all(
        f".kb-comparison >> nth={table}",
        "blocks => Array.from(blocks[0].querySelectorAll('tbody tr'))"
        ".filter(r => !r.hidden).map(r => r.cells[0].textContent.trim())",
    )


def _visible_systems(page: Any) -> list[str]:
    return page.eval_on_selector_all(
        ".kb-comparison tbody tr",
        "rows => rows.filter(r => !r.hidden).map(r => r.cells[0].textContent.trim())",
    )


def test_rows_are_grouped_by_tier_and_the_unprofiled_system_is_listed(profile_site: str, browsing) -> None:
    page = browsing.page
    page.goto(f"{profile_site}/{PAGE}")
    expect(page.locator("#code-grounded")).to_be_visible()
    expect(page.locator("#doc-grounded")).to_be_visible()
    assert _visible_systems(page) == ["Alpha agent", "Beta notes"]
    without = page.locator("#systems-without-a-profile + ul li")
    expect(without).to_have_text(["Gamma loop"])
    assert browsing.errors == []


def test_sorting_a_column_reorders_its_rows(profile_site: str, browsing) -> None:
    page = browsing.page
    page.goto(f"{profile_site}/{PAGE}")
    table = page.locator(".kb-comparison table").first
    header = table.locator("th button.kb-sort", has_text="Storage substrate")
    # One row per tier table: sort the storage column of the code-grounded table both ways
    # and check the header state, then sort by system in the doc-grounded one.
    header.click()
    expect(table.locator("th").nth(3)).to_have_attribute("aria-sort", "ascending")
    header.click()
    expect(table.locator("th").nth(3)).to_have_attribute("aria-sort", "descending")
    assert browsing.errors == []


def test_filtering_keeps_the_rows_that_mention_a_word(profile_site: str, browsing) -> None:
    page = browsing.page
    page.goto(f"{profile_site}/{PAGE}")
    box = page.locator("input.kb-comparison-filter")
    box.fill("beta")
    page.wait_for_function("document.querySelectorAll('.kb-comparison tbody tr:not([hidden])').length === 1")
    assert _visible_systems(page) == ["Beta notes"]
    box.fill("context-resolve")  # an evidence record only Alpha's profile cites
    page.wait_for_function(
        "Array.from(document.querySelectorAll('.kb-comparison tbody tr')).filter(r => !r.hidden).length === 1"
    )
    assert _visible_systems(page) == ["Alpha agent"]
    box.fill("")
    page.wait_for_function("document.querySelectorAll('.kb-comparison tbody tr:not([hidden])').length === 2")
    assert browsing.errors == []


def test_a_value_leads_to_its_evidence_record(profile_site: str, browsing) -> None:
    page = browsing.page
    page.goto(f"{profile_site}/{PAGE}")
    value = page.locator(".kb-comparison a.kb-profile-value", has_text="natural-language").first
    value.click()
    expect(page).to_have_url(re.compile(r"systems/alpha/result/(index\.html)?#mem-obj-store$"))
    expect(page.locator('[id="mem-obj-store"]')).to_be_visible()
    assert browsing.errors == []


def test_sorting_reverses_rows_by_system(profile_site: str, browsing) -> None:
    """With the filter cleared, a table's rows follow its sorted column."""
    page = browsing.page
    page.goto(f"{profile_site}/{PAGE}")
    # Put both systems in one table by filtering nothing: each tier table has one row,
    # so sorting is shown on the header state and on a table whose rows we reorder.
    page.evaluate(
        """() => {
          const [first, second] = document.querySelectorAll('.kb-comparison table');
          first.tBodies[0].appendChild(second.tBodies[0].rows[0]);
        }"""
    )
    header = page.locator(".kb-comparison table").first.locator("th button.kb-sort", has_text="System")
    header.click()
    assert _first_column(page) == ["Alpha agent", "Beta notes"]
    header.click()
    assert _first_column(page) == ["Beta notes", "Alpha agent"]
    assert browsing.errors == []
