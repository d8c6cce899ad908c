"""URL policy: which URLs the site may emit, and the restricted evidence-link template.

Every URL reaches a page through ``generator.render.links.link``, which asks
``href_problem`` here; ``kbgen check`` asks the same questions of a source's
``location`` and ``link_template`` (rules KB406, KB407), so a check that passes means
no link is dropped or refused at build time.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from urllib.parse import quote, urlsplit

WEB_SCHEMES = frozenset({"http", "https"})
TEMPLATE_FIELDS = ("location", "revision", "path", "start", "end")
# Characters kept as they are when a URL is percent-encoded. Parentheses, brackets,
# braces, quotes, angle brackets, '*', '\\' and whitespace are always encoded, so a URL
# can never close a Markdown link or an HTML attribute.
_URL_SAFE = ":/#@+~-._=?&%,!$;"
PATH_SAFE = "/@+~-._,"  # characters of a cited path kept as they are in its URL


def _has_invisible(text: str) -> bool:
    """Control, format (bidi overrides, zero-width), separator or whitespace characters.

    ``str.isprintable`` is false for exactly the categories C and Z except the plain space,
    and every whitespace character is in them: one C-level scan instead of one per character.
    """
    return " " in text or not text.isprintable()


def href_problem(url: str) -> str | None:
    """Why a URL may not be emitted, or None: http/https absolute, or the site's own relative."""
    if not url:
        return "is empty"
    if _has_invisible(url):
        return "contains whitespace, a control character or an invisible character"
    if "\\" in url:
        return "contains a backslash"
    if url.startswith("//"):
        return "is protocol-relative ('//host'); write the scheme"
    scheme = urlsplit(url).scheme
    if ":" in url.split("/", 1)[0].split("#", 1)[0].split("?", 1)[0] and not scheme:
        return "has a malformed scheme"
    if scheme and scheme.lower() not in WEB_SCHEMES:
        return f"uses the {scheme.lower()!r} scheme; only http and https are allowed"
    if scheme and not urlsplit(url).netloc:
        return "names no host"
    return None


def web_url_problem(url: str) -> str | None:
    """Why a URL is not an absolute http/https URL, or None."""
    problem = href_problem(url)
    if problem is None and not urlsplit(url).scheme:
        return "is not an absolute http or https URL"
    return problem


def encode_href(url: str) -> str:
    """Percent-encode what Markdown or HTML would act on; existing %XX escapes stay."""
    return quote(url, safe=_URL_SAFE)


# ---------------------------------------------------------------- link templates

_TEMPLATE_TOKEN = re.compile(r"\{\{|\}\}|\{([a-z]+)\}|[{}]")


class TemplateError(ValueError):
    """A link template is malformed; ``offset`` is where, in the template."""

    def __init__(self, message: str, offset: int) -> None:
        super().__init__(message)
        self.offset = offset


@dataclass(frozen=True, slots=True)
class LinkTemplate:
    """A parsed link template: literal text and named fields, in order."""

    parts: tuple[tuple[str, str | None], ...]  # (literal, field or None)

    def expand(self, values: dict[str, str]) -> str:
        """Fill the fields in; values are percent-encoded except ``location``."""
        out = []
        for literal, name in self.parts:
            out.append(literal)
            if name is not None:
                value = values[name]
                out.append(
                    value if name == "location" else quote(value, safe=PATH_SAFE if name == "path" else "")
                )
        return "".join(out)


def parse_link_template(template: str) -> LinkTemplate:
    """Parse ``{location}/-/blob/{revision}/{path}#L{start}-{end}``; ``{{``/``}}`` are braces.

    Only the five named fields: no format specs, conversions, indexing or attribute access.
    Raises ``TemplateError`` with the offset of the first problem. Linear in the template.
    """
    parts: list[tuple[str, str | None]] = []
    literal: list[str] = []
    position = 0
    for match in _TEMPLATE_TOKEN.finditer(template):
        literal.append(template[position : match.start()])
        position = match.end()
        token = match.group(0)
        if token in ("{{", "}}"):
            literal.append(token[0])
            continue
        name = match.group(1)
        if name is None or name not in TEMPLATE_FIELDS:
            fields = ", ".join("{" + f + "}" for f in TEMPLATE_FIELDS)
            if name:
                what = f"unknown field {token}"
            elif token == "}":
                what = "unmatched '}'"
            else:
                what = "'{' opens no plain field (no format specs, conversions, indexing or attributes)"
            message = f"{what}; the fields are {fields}, and '{{{{'/'}}}}' write braces"
            raise TemplateError(message, match.start())
        parts.append(("".join(literal), name))
        literal = []
    literal.append(template[position:])
    parts.append(("".join(literal), None))
    return LinkTemplate(tuple(parts))


def repository_base(location: str) -> str:
    """A repository URL without a trailing slash or ``.git``: the base of blob/tree URLs."""
    return location.rstrip("/").removesuffix(".git")
