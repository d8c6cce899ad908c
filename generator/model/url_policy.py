"""URL policy: which URLs the site may emit, and the restricted evidence-link template.

Every URL reaches a page through ``generator.render.link_markup.link``, which asks
``href_problem`` here; ``kbgen check`` asks the same questions of a source's
``location`` and ``link_template`` (rules KB406, KB407), so a check that passes means
no link is dropped or refused at build time. A location (and a template's URL) must
also be in its normal form (KB411): what the reviewer reads is where the browser goes.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from enum import StrEnum
from urllib.parse import quote, unquote, urlsplit

from pydantic_core import Url, ValidationError

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


# Pages cite the same file and record many times over: both URL functions below are pure
# and asked about every link, so a bounded memo answers most calls.
_URL_MEMO = 8192


@functools.lru_cache(maxsize=_URL_MEMO)
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


# Rounds of percent-decoding a path is read through for dots: a server that decodes once
# more than the browser (``%252e`` → ``%2e`` → ``.``) sees what the second round shows.
_DECODING_ROUNDS = 3


def _path_dots(path: str) -> str | None:
    """Why a URL path could be read as another one: a dot segment or an encoded dot."""
    for _ in range(_DECODING_ROUNDS):
        if "%2e" in path.lower():
            return (
                "has an encoded dot ('%2e') in its path, which a browser or server may read as a dot segment"
            )
        if any(segment in (".", "..") for segment in path.split("/")):
            return "has a '.' or '..' segment in its path, which a browser removes with what it names"
        decoded = unquote(path)
        if decoded == path:
            return None
        path = decoded
    return None


@functools.lru_cache(maxsize=_URL_MEMO)
def normal_form_problem(url: str) -> str | None:
    """Why an http/https URL is not in the normal form a browser follows (KB411), or None.

    A browser parses a link by the WHATWG URL rules before it follows it: a backslash is
    '/', dot segments (written, or encoded as ``%2e``) remove the segment before them, a
    user name before '@' is not the host, and a host is lower-cased, decoded and turned
    into its ASCII form. A location that any of these change would be reviewed as one
    repository and followed to another, so only the form they leave alone is accepted
    (compared with ``pydantic_core.Url``, the WHATWG parser of the ``url`` crate). Schemes
    other than http/https and invisible characters are ``href_problem``'s (KB406).
    """
    if _has_invisible(url):
        return None
    try:
        written = urlsplit(url)
        scheme = written.scheme.lower()
        host = (written.hostname or "").strip("[]")
    except ValueError:
        return None  # refused by the URL type before the check sees it
    if scheme not in WEB_SCHEMES:
        return None
    if "\\" in url:
        return "contains a backslash, which a browser reads as '/'"
    if "@" in written.netloc:
        return f"names a user before '@': the link goes to {host!r}, not to what precedes the '@'"
    dots = _path_dots(written.path)
    if dots is not None:
        return dots
    try:
        parsed = Url(url)
    except ValidationError:
        return None
    normal_host = (parsed.host or "").strip("[]")
    if normal_host != host:
        return f"names the host {host!r}, which a browser reads as {normal_host!r}; write {normal_host!r}"
    if unquote(parsed.path or "/") != unquote(written.path or "/"):
        return f"has the path {written.path!r}, which a browser reads as {parsed.path!r}"
    return None


@functools.lru_cache(maxsize=_URL_MEMO)
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


# ---------------------------------------------------------------- source link policies


class LinkPolicy(StrEnum):
    """How a source's evidence links are built."""

    GIT = "git"  # <location>/blob/<revision>/<path>#L<start>-L<end>, <location>/tree/<revision>
    TEMPLATE = "template"  # the source's link_template, for every link of the source
    NONE = "none"  # no links: anchors and the reviewed boundary are shown as text


# Hosts that serve /blob/ and /tree/ pages of a repository, as GitHub does.
_GIT_HOSTS = frozenset({"github.com", "gitlab.com", "bitbucket.org", "codeberg.org", "gitea.com"})


def is_git_host(location: str) -> bool:
    """Whether a location looks like a GitHub- or GitLab-like repository host."""
    parts = urlsplit(location)
    host = (parts.hostname or "").lower()
    return (
        host in _GIT_HOSTS
        or host.startswith(("gitlab.", "git."))
        or host.endswith(".sr.ht")
        or parts.path.rstrip("/").endswith(".git")
    )


def link_policy(links: str | None, location: str | None, template: str | None) -> LinkPolicy:
    """The policy a source's links follow: the one it states, else its template's, else
    git links for a repository host and none for any other location."""
    if links is not None:
        return LinkPolicy(links)
    if template:
        return LinkPolicy.TEMPLATE
    if location is not None and is_git_host(location):
        return LinkPolicy.GIT
    return LinkPolicy.NONE


@dataclass(frozen=True, slots=True)
class SourceLinks:
    """Everything needed to build a source's evidence links: one place for their shapes."""

    policy: LinkPolicy
    location: str | None
    revision: str | None
    template: LinkTemplate | None

    def file(self, path: str, start: int | None = None, end: int | None = None) -> str | None:
        """The URL of a file at the pinned revision, with an optional line range."""
        return self.file_at(self.revision, path, start, end)

    def file_at(self, revision: str | None, path: str, start: int | None, end: int | None) -> str | None:
        """The URL of a file at ``revision``; None when the policy or the data gives none."""
        if self.location is None or not revision or self.policy is LinkPolicy.NONE:
            return None
        if self.policy is LinkPolicy.TEMPLATE:
            if self.template is None:
                return None
            url = self.template.expand(self._values(revision, path, start, end))
            return url if start is not None else url.split("#", 1)[0]
        url = (
            f"{repository_base(self.location)}/blob/{quote(revision, safe='')}/{quote(path, safe=PATH_SAFE)}"
        )
        if start is not None:
            url += f"#L{start}" if start == end else f"#L{start}-L{end}"
        return url

    def tree(self, revision: str) -> str | None:
        """The URL of the source's tree at ``revision`` (the reviewed boundary)."""
        if self.location is None or self.policy is LinkPolicy.NONE:
            return None
        if self.policy is LinkPolicy.TEMPLATE:
            if self.template is None:
                return None
            return self.template.expand(self._values(revision, "", None, None)).split("#", 1)[0]
        return f"{repository_base(self.location)}/tree/{quote(revision, safe='')}"

    def _values(self, revision: str, path: str, start: int | None, end: int | None) -> dict[str, str]:
        return {
            "location": (self.location or "").rstrip("/"),
            "revision": revision,
            "path": path,
            "start": "" if start is None else str(start),
            "end": "" if end is None else str(end),
        }


# Values a link template is expanded with to see that it yields a web URL (KB407).
SAMPLE_VALUES = {"revision": "0123abc", "path": "dir/file.txt", "start": "1", "end": "2"}
SAMPLE_LOCATION = "https://example.org/repo"


def template_url_problem(template: LinkTemplate, location: str | None) -> str | None:
    """Why a template's URLs would not be web URLs, asked of its expansion with sample
    values (KB407): a template that starts with ``command:`` or a relative path."""
    filled = (location or "").rstrip("/") or SAMPLE_LOCATION
    return web_url_problem(template.expand({"location": filled, **SAMPLE_VALUES}))


def template_form_problem(template: LinkTemplate) -> str | None:
    """Why a template's own text makes URLs a browser reads as others (KB411): asked of its
    expansion with a sample location, since the location is checked on its own."""
    return normal_form_problem(template.expand({"location": SAMPLE_LOCATION, **SAMPLE_VALUES}))


def links_refusal(links: str | None, location: str | None, template: str | None) -> str | None:
    """Why a source may have no evidence links at all: what ``kbgen check`` refuses of its
    location (KB406, KB411) and its template (KB407, KB411). Every consumer of ``source_links`` (the
    site, the editor) gets no link for such a source, not a link it must remember to drop."""
    if location is not None:
        problem = normal_form_problem(location) or web_url_problem(location)
        if problem is not None:
            return f"location {problem}"
    policy = link_policy(links, location, template)
    if policy is LinkPolicy.TEMPLATE and not template:
        return "'links: template' without a link_template"
    if template:
        try:
            parsed = parse_link_template(template)
        except TemplateError as exc:
            return f"link template: {exc}"
        problem = template_url_problem(parsed, location) or template_form_problem(parsed)
        if problem is not None:
            return f"link template expands to a URL that {problem}"
    return None


def source_links(
    links: str | None, location: str | None, revision: str | None, template: str | None
) -> SourceLinks:
    """The link builder of one source; a source whose location or template the check
    refuses (KB406, KB407, KB411) links nothing."""
    if links_refusal(links, location, template) is not None:
        return SourceLinks(LinkPolicy.NONE, location, revision, None)
    parsed = parse_link_template(template) if template else None
    return SourceLinks(link_policy(links, location, template), location, revision, parsed)


def link_gap(
    links: str | None, location: str | None, revision: str | None, template: str | None
) -> str | None:
    """What a source lacks for its evidence anchors to link ('no location', 'no revision'), or
    None: they link, or are text on purpose (``links: none``, a capture pinned by its digest,
    a location that is not a repository), or the check refuses its links already (KB406,
    KB407). Such a source's anchors are shown as text they should not be (KB412)."""
    if links is not None or links_refusal(links, location, template) is not None:
        return None
    policy = link_policy(links, location, template)
    captured = (revision or "").lower().startswith(("sha256:", "sha-256"))
    if policy is LinkPolicy.NONE and location is None and not captured:
        return "no location"
    if policy is LinkPolicy.GIT and not revision:
        return "no revision"
    return None


def unlinked_reason(
    links: str | None, location: str | None, revision: str | None, template: str | None
) -> str | None:
    """Why a source's evidence anchors are shown as text rather than linked to the cited
    lines, or None when they link: a page says it once, on the source's record."""
    refusal = links_refusal(links, location, template)
    if refusal is not None:
        return f"not linked: its {refusal}"
    policy = link_policy(links, location, template)
    if policy is LinkPolicy.NONE:
        if links == "none":
            return "shown as text: the source says 'links: none'"
        if revision and revision.lower().startswith(("sha256:", "sha-256")):
            return "shown as text: a capture, pinned by its digest, not a repository"
        if location is None:
            return "shown as text: the source states no location"
        return "shown as text: the source is not on a git host (a paper, a page or a capture)"
    if policy is LinkPolicy.GIT and not revision:
        return "not linked: the source states no revision to pin its anchors at"
    return None
