"""Render stage: resolved graphs → Markdown pages, one ``PageSpec`` per page type.

The page registry is the public API for page types: a ``PageSpec`` (path pattern, nav
title, template, view builder) in a ``PageRegistry`` is rendered, linked and placed in
the navigation. ``PAGES`` holds the built-in page types; importing this package builds
it (``builtin_pages``) before any page is rendered. ``urls`` owns every page path, href
and anchor.
"""

from generator.render.builtin_pages import PAGES
from generator.render.registry import (
    PLACEMENT,
    Nav,
    PageRegistry,
    PageRequest,
    PageSpec,
    active_pages,
    page_spec,
    registered_pages,
    using_pages,
)

__all__ = [
    "PAGES",
    "PLACEMENT",
    "Nav",
    "PageRegistry",
    "PageRequest",
    "PageSpec",
    "active_pages",
    "page_spec",
    "registered_pages",
    "using_pages",
]
