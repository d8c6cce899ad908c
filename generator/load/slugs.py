"""System slugs: the grammar of a system folder's name and the names the site keeps for itself.

A system's slug becomes a URL segment (``systems/<slug>/``) and a folder of the built
site, so it must be a plain lower-case word list and must not collide with a page or a
folder the site generates. The renderer and the checker both read these constants.
"""

from __future__ import annotations

import re

SLUG_PATTERN = r"[a-z0-9]+(?:-[a-z0-9]+)*"
SLUG = re.compile(SLUG_PATTERN)

# Names the theme, the plugins and the hand-written pages use beside system folders
# (assets/, search/, sitemap.xml, 404.html, kb/authoring.md), and names kept for
# cross-system pages to come (comparisons, export). The generated pages' own names come
# from the page registry (``generator.render.urls.reserved_slugs``).
SITE_NAMES = frozenset(
    {
        "search",
        "assets",
        "comparisons",
        "export",
        "systems",
        "authoring",
        "types",
        "javascripts",
        "stylesheets",
        "sitemap",
        "404",
    }
)


def reserved_slugs() -> frozenset[str]:
    """Every name a system folder may not take: the site's own and the generated pages'."""
    # Imported here: the page registry renders pages, which needs the loaded model.
    from generator.render.urls import reserved_slugs as page_names

    return SITE_NAMES | page_names()


def slug_problem(name: str) -> tuple[str, str] | None:
    """(rule code, reason) when ``name`` cannot be a system slug, else None."""
    if not SLUG.fullmatch(name):
        return "KB306", "is not a slug: lower-case letters and digits in words joined by single '-'"
    if name in reserved_slugs():
        return "KB307", "is reserved: the site uses this name for a generated page or folder"
    return None


def suggest_slug(name: str) -> str:
    """A slug close to ``name``: lower-cased, every run of other characters one '-'."""
    words = re.findall(r"[a-z0-9]+", name.lower())
    slug = "-".join(words) or "system"
    return f"{slug}-system" if slug in reserved_slugs() else slug
