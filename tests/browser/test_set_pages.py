"""A reader of an analysis set on the built site: a runtime reference from the memory
report lands on the runtime page's record, and an amendment on the reconciliation page
leads to the record it amends, which shows it; on the fixture set and on the shipped
instinctual-memory set."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browser_support import LANDED_JS, build_site, serve_directory

pytestmark = pytest.mark.browser

SET_RECORDS = Path(__file__).resolve().parent.parent / "fixtures" / "check" / "clean-set" / "records"
MEMORY = "systems/demo/memory-report/"
RUNTIME = "systems/demo/runtime/"
RECONCILIATION = "systems/demo/reconciliation/"


def expect(target: Any) -> Any:
    from playwright.sync_api import expect as playwright_expect

    return playwright_expect(target)


@pytest.fixture(scope="module")
def set_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The site built from the fixture set, served on 127.0.0.1."""
    site = build_site(tmp_path_factory.mktemp("set-site") / "site", SET_RECORDS)
    with serve_directory(site) as url:
        yield url


def assert_lands_on(page: Any, anchor: str, path: str) -> None:
    expect(page).to_have_url(re.compile(re.escape(path) + r"(index\.html)?#" + re.escape(anchor) + "$"))
    target = page.locator(f'[id="{anchor}"]')
    expect(target).to_be_visible()
    expect(target).to_be_in_viewport()
    page.wait_for_function(LANDED_JS, arg=anchor, timeout=5_000)


def test_runtime_reference_from_memory_report_lands_on_runtime_record(browsing, set_url):
    page = browsing.page
    page.goto(f"{set_url}/{MEMORY}")
    link = page.locator("#read-back ~ p a", has_text="RTE-2").first
    expect(link).to_have_attribute("href", "../runtime/#rte-2")
    link.click()
    assert_lands_on(page, "rte-2", RUNTIME)
    expect(page.locator('[id="rte-2"]')).to_contain_text("Read notes back")
    assert browsing.errors == []


def test_amendment_leads_to_the_amended_record(browsing, set_url):
    page = browsing.page
    page.goto(f"{set_url}/{RECONCILIATION}#amendment-rte-2")
    assert_lands_on(page, "amendment-rte-2", RECONCILIATION)
    page.locator('[id="amendment-rte-2"] a', has_text="RTE-2").first.click()
    assert_lands_on(page, "rte-2", RUNTIME)
    marker = page.locator(".kb-amended a", has_text="Amendment: RTE-2")
    expect(marker).to_have_count(1)
    marker.click()
    assert_lands_on(page, "amendment-rte-2", RECONCILIATION)
    assert browsing.errors == []


SHIPPED = "systems/instinctual-memory/"


def test_shipped_memory_report_reference_lands_on_runtime_record(browsing, base_url):
    page = browsing.page
    page.goto(f"{base_url}/{SHIPPED}memory-report/")
    link = page.locator('a[href="../runtime/#rte-3"]').first
    expect(link).to_have_text("RTE-3")
    link.click()
    assert_lands_on(page, "rte-3", SHIPPED + "runtime/")
    assert browsing.errors == []


def test_shipped_amendment_leads_to_each_record_it_amends(browsing, base_url):
    """The RTE-2 and RTE-3 amendment: each amended record shows 'Amended', linking back."""
    page = browsing.page
    reconciliation = SHIPPED + "reconciliation/"
    for record in ("rte-2", "rte-3"):
        page.goto(f"{base_url}/{reconciliation}#amendment-rte-2")
        assert_lands_on(page, "amendment-rte-2", reconciliation)
        amends = page.locator('[id="amendment-rte-2"] p', has_text="Amends:")
        amends.locator("a", has_text=record.upper()).click()
        assert_lands_on(page, record, SHIPPED + "runtime/")
        marker = page.locator(f'[id="{record}"] + .kb-amended')
        expect(marker).to_contain_text("Amended")
        marker.locator("a").click()
        assert_lands_on(page, "amendment-rte-2", reconciliation)
    assert browsing.errors == []


def test_shipped_ledger_entry_route_lands_on_runtime_record(browsing, base_url):
    """A typed ledger entry's heading links each route where the runtime member declares it;
    its status is the glossary badge and its supporting quotations follow it."""
    page = browsing.page
    epistemic = SHIPPED + "epistemic/"
    page.goto(f"{base_url}/{epistemic}#ledger-16")
    assert_lands_on(page, "ledger-16", epistemic)
    heading = page.locator('[id="ledger-16"]')
    expect(heading).to_contain_text(
        "RTE-5, RTE-8 — operational admission/selection/consumption: "
        "Selected statements rendered into context/project block"
    )
    expect(page.locator(".kb-ledger-entry")).to_have_count(21)
    # No two entries' headings read alike, in the page or in its table of contents.
    headings = page.locator(".kb-ledger-entry").all_inner_texts()
    assert len(set(headings)) == 21
    contents = page.locator('.md-sidebar--secondary a[href^="#ledger-"]').all_inner_texts()
    assert len(contents) == 21 and len(set(contents)) == 21
    expect(page.locator('[id="ledger-16"] ~ p a.kb-badge--implemented').first).to_have_text("implemented")
    expect(page.locator('[id="ledger-21"] ~ .kb-quote').first).to_contain_text("let evidence")
    heading.locator("a", has_text="RTE-8").click()
    assert_lands_on(page, "rte-8", SHIPPED + "runtime/")
    assert browsing.errors == []
