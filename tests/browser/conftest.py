"""Session fixtures of the browser tests: the site built once, served, and headless Chromium."""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from browser_support import CHROMIUM, CHROMIUM_ARGS, Traffic, build_site, open_context, serve_directory
from browser_support import stub_evidence_host as _stub_evidence_host


@pytest.fixture(scope="session")
def site_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The site built once from the shipped records (``kbgen build --site-dir``)."""
    return build_site(tmp_path_factory.mktemp("site") / "site")


@pytest.fixture(scope="session")
def base_url(site_dir: Path) -> Iterator[str]:
    """The built site, served by ``http.server`` on 127.0.0.1."""
    with serve_directory(site_dir) as url:
        yield url


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Debian's headless Chromium driven by Playwright (no browser download), one per test
    module: Playwright's synchronous API keeps an event loop running while it is open, and
    the asyncio tests that follow (tests/lsp/test_lsp.py) need the thread's loop to themselves."""
    if not os.access(CHROMIUM, os.X_OK):
        pytest.skip(f"{CHROMIUM} is not installed (scripts/test.sh installs Debian's chromium)")
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            yield launched
        finally:
            launched.close()


@dataclass
class Browsing:
    page: Any
    traffic: Traffic
    errors: list[str]


@pytest.fixture
def browsing(browser: Any) -> Iterator[Browsing]:
    """A fresh page in its own context: localhost only, the evidence host stubbed."""
    traffic = Traffic()
    context = open_context(browser, traffic)
    page = context.new_page()
    _stub_evidence_host(page, traffic)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        yield Browsing(page, traffic, errors)
    finally:
        context.close()
