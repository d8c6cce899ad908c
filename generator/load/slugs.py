"""System slugs: the grammar of a system folder's name and the names the site keeps for itself.

A system's slug becomes a URL segment (``systems/<slug>/``) and a folder of the built
site, so it must be a plain lower-case word list and must not collide with a page or a
folder the site generates. The names the site keeps are ``SITE_NAMES`` and the names
of the generated pages, which the page registry knows: the caller passes the whole set
(``generator.pipeline.reserved_names``).
"""

from __future__ import annotations

import re

from generator.diagnostics import Rule

KB306 = Rule(
    "KB306",
    "system-slug",
    "A system folder name is not a slug (lower-case words joined by '-').",
    doc="a system folder's name is not a slug `[a-z0-9]+(-[a-z0-9]+)*`",
)

KB307 = Rule(
    "KB307",
    "reserved-slug",
    "A system folder name is reserved for a page or folder of the site.",
    doc=(
        "a system folder's name is reserved by the site (`index`, `status-matrix`, `glossary`, `search`, "
        "`assets`, …; the site's own names are in `generator/load/slugs.py`, the generated pages' names come "
        "from the page registry)"
    ),
)

SLUG_PATTERN = r"[a-z0-9]+(?:-[a-z0-9]+)*"
SLUG = re.compile(SLUG_PATTERN)

# Names the theme, the plugins and the hand-written pages use beside system folders
# (assets/, search/, sitemap.xml, 404.html, kb/authoring.md), and names kept for
# cross-system pages to come (comparisons, export). The generated pages' own names come
# from the page registry (``generator.render.urls.reserved_slugs``), added by the caller.
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


def slug_problem(name: str, reserved: frozenset[str]) -> tuple[Rule, str] | None:
    """(rule, reason) when ``name`` cannot be a system slug (``reserved``: the names the
    site keeps for itself), else None."""
    if not SLUG.fullmatch(name):
        return KB306, "is not a slug: lower-case letters and digits in words joined by single '-'"
    if name in reserved:
        return KB307, "is reserved: the site uses this name for a generated page or folder"
    return None


def suggest_slug(name: str, reserved: frozenset[str]) -> str:
    """A slug close to ``name``: lower-cased, every run of other characters one '-'."""
    words = re.findall(r"[a-z0-9]+", name.lower())
    slug = "-".join(words) or "system"
    return f"{slug}-system" if slug in reserved else slug
