"""Render stage: resolved graphs → Markdown pages, one ``PageSpec`` per page type.

The page registry is the public API for page types: register a ``PageSpec`` (path
pattern, nav title, template, view builder) and the page is rendered, linked and
placed in the navigation. ``urls`` owns every page path, href and anchor.
"""

from generator.render.registry import (
    Nav,
    PageRequest,
    PageSpec,
    page_spec,
    register_page,
    registered_pages,
    unregister_page,
)

__all__ = [
    "Nav",
    "PageRequest",
    "PageSpec",
    "page_spec",
    "register_page",
    "registered_pages",
    "unregister_page",
]
