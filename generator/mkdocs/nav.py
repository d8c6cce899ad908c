"""The generated 'Systems' section of the navigation, from the page registry."""

from __future__ import annotations

import html
from typing import Any

from generator.render.registry import (
    RUN_CHANGES_PAGE,
    RUN_HISTORY_PAGE,
    Nav,
    PageSpec,
    cross_pages,
    page_spec,
)


def _nav_entry(spec: PageSpec, path: str) -> Any:
    return path if spec.nav is Nav.SECTION_INDEX else {spec.title: path}


def systems_nav(summaries: list[dict[str, Any]]) -> list[Any]:
    """The generated 'Systems' section: the section's index page, one section per system
    (its current run's pages in registry order, and its changes page), then the other
    cross-system pages."""
    cross = [spec for spec in cross_pages() if spec.nav is not Nav.NONE]
    entries: list[Any] = [_nav_entry(spec, spec.path) for spec in cross if spec.nav is Nav.SECTION_INDEX]
    for summary in summaries:
        pages = [
            _nav_entry(spec, page["path"])
            for page in summary["pages"]
            if (spec := page_spec(page["key"])).nav is not Nav.NONE
        ]
        pages.extend(_runs_nav(summary))
        # The theme prints nav titles unescaped: a system name is data, so escape it.
        entries.append({html.escape(str(summary["name"])): pages})
    entries.extend(_nav_entry(spec, spec.path) for spec in cross if spec.nav is Nav.ENTRY)
    return entries


def _runs_nav(summary: dict[str, Any]) -> list[Any]:
    """A system's changes page and (three runs or more) its history page. Its earlier
    runs are not in the navigation: every page of the site carries the whole navigation,
    so a section per earlier run would put the whole history on each page of each run,
    and a system of 200 runs would build a site quadratic in its runs. They are listed
    once, in the system page's Runs table (each earlier run's pages link back through its
    banner)."""
    entries: list[Any] = []
    if summary.get("changes"):
        entries.append({page_spec(RUN_CHANGES_PAGE).title: summary["changes"]})
    if summary.get("history"):
        entries.append({page_spec(RUN_HISTORY_PAGE).title: summary["history"]})
    return entries


def systems_index() -> PageSpec:
    """The page the 'Systems' nav entry of mkdocs.yml points at: the section's index page."""
    return next(spec for spec in cross_pages() if spec.nav is Nav.SECTION_INDEX)


def expand_nav(nav: list[Any], summaries: list[dict[str, Any]]) -> list[Any]:
    """Replace the nav entry that points at the systems index by the generated section.

    The navigation is rebuilt from the records on every build, so it is never stale.
    """
    spec = systems_index()
    index = spec.path
    expanded: list[Any] = []
    for item in nav:
        if item == index:
            expanded.append({spec.title: systems_nav(summaries)})
        elif isinstance(item, dict) and len(item) == 1:
            ((title, value),) = item.items()
            if value == index:
                expanded.append({title: systems_nav(summaries)})
            elif isinstance(value, list):
                expanded.append({title: expand_nav(value, summaries)})
            else:
                expanded.append(item)
        else:
            expanded.append(item)
    return expanded
