"""Payloads in every frontmatter value and in the records folder's name, on three engines.

A small KB (``tests/support/metadata_sites.py``) is built clean and hostile by MkDocs
(with edit links), ProperDocs and Zensical. Parsed with ``html.parser``, every page of a
hostile site has no element (a tag with its attribute names) more than the clean one, no link
target the clean site lacks (the edit links aside, which name the records folder and
stay inside the edit URL's path), and its descriptions read back as the records wrote
them.
"""

from __future__ import annotations

from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest
from metadata_sites import (
    EDIT_PREFIX,
    ENGINES,
    HOSTILE_FOLDER,
    PAYLOADS,
    build_sites,
    page_shape,
    site_pages,
)

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def sites(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict[str, Path]]:
    return {
        "clean": build_sites(tmp_path_factory.mktemp("clean"), hostile=False),
        "hostile": build_sites(tmp_path_factory.mktemp("hostile"), hostile=True),
    }


@pytest.mark.parametrize("engine", ENGINES)
def test_a_hostile_site_has_the_clean_sites_elements_and_attributes(
    sites: dict[str, dict[str, Path]], engine: str
) -> None:
    clean, hostile = sites["clean"][engine], sites["hostile"][engine]
    pages = site_pages(clean)
    assert "systems/demo/overview/index.html" in pages and "systems/plain/result/index.html" in pages
    assert site_pages(hostile) == pages
    planted = {
        page: sorted((page_shape(hostile / page).elements - page_shape(clean / page).elements).elements())
        for page in pages
    }
    assert {page: found for page, found in planted.items() if found} == {}


@pytest.mark.parametrize("engine", ENGINES)
def test_a_hostile_site_links_nowhere_new(sites: dict[str, dict[str, Path]], engine: str) -> None:
    clean, hostile = sites["clean"][engine], sites["hostile"][engine]
    new: dict[str, list[str]] = {}
    for page in site_pages(clean):
        added = page_shape(hostile / page).targets - page_shape(clean / page).targets
        outside = [target for target in added if not _inside_the_edit_path(target)]
        if outside:
            new[page] = sorted(outside)
    assert new == {}


def _inside_the_edit_path(target: str) -> bool:
    parts = urlsplit(target)
    return (
        target.startswith(EDIT_PREFIX)
        and not parts.query
        and not parts.fragment
        and unquote(parts.path).startswith(f"/team/kb/edit/main/{HOSTILE_FOLDER}/")
    )


@pytest.mark.parametrize("engine", ENGINES)
def test_descriptions_read_back_as_written(sites: dict[str, dict[str, Path]], engine: str) -> None:
    site = sites["hostile"][engine]
    assert page_shape(site / "systems/demo/overview/index.html").description == PAYLOADS["attribute"]
    assert page_shape(site / "systems/demo/review/index.html").description == PAYLOADS["attribute"]
    assert page_shape(site / "systems/demo/runtime/index.html").description == PAYLOADS["single"]
    assert page_shape(site / "systems/demo/epistemic/index.html").description == PAYLOADS["entity"]


def test_the_edit_links_of_mkdocs_name_the_hostile_folder_encoded(sites: dict[str, dict[str, Path]]) -> None:
    page = page_shape(sites["hostile"]["mkdocs"] / "systems/plain/result/index.html")
    edits = [target for target in page.targets if target.startswith(EDIT_PREFIX)]
    assert edits and all(_inside_the_edit_path(target) for target in edits)
