"""Cross-record rules about what the site will link and show: URLs, link templates,
table shapes and heading labels.

A check that passes means the strict build meets no refused URL, no malformed
template, no cut table row and no heading broken across lines.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import TYPE_CHECKING

from generator.check.registry import check_rule
from generator.diagnostics import Diagnostic, Rule, error, warning
from generator.model.ids import anchor_of, is_theme_anchor, title_anchor
from generator.model.records import Source, Supplied
from generator.model.url_policy import (
    LinkPolicy,
    TemplateError,
    is_git_host,
    link_policy,
    normal_form_problem,
    parse_link_template,
    template_form_problem,
    template_url_problem,
    web_url_problem,
)

if TYPE_CHECKING:
    from generator.check.context import Context

KB108 = Rule(
    "KB108",
    "table-row-width",
    "A generic table row has more or fewer cells than columns.",
    doc="a generic table row has more or fewer cells than the table has columns",
)

KB109 = Rule(
    "KB109",
    "label-line",
    "A label, title, name or revision spans more than one line.",
    doc=(
        "text that is not prose spans more than one line: a label, title, system name, source kind, "
        "revision, path, pin, locator, status label, axis name or any other non-prose value or key (they "
        "become headings, badges, code or URLs; a label's surrounding whitespace is dropped)"
    ),
)

KB211 = Rule(
    "KB211",
    "section-anchor",
    "A section title would take the anchor of a record, an annotation or the theme.",
    doc=(
        "a prose section's title would take the anchor of a record, an annotation or the theme (`RTE-1`, `On "
        "RTE-1`, `Top`)"
    ),
)

KB406 = Rule(
    "KB406",
    "unsafe-url",
    "A location is not an http or https URL.",
    doc="a source's or supplied record's `location` is not an `http`/`https` URL",
)

KB411 = Rule(
    "KB411",
    "location-normal-form",
    "A location or link template is not in the form a browser follows.",
    doc=(
        "a source's or supplied record's `location`, or what a `link_template` expands to, is not in the "
        "normal form a browser follows: a backslash, a `.` or `..` path segment, an encoded dot (`%2e`, "
        "also double-encoded `%252e`), a user name before `@`, or a host or path the WHATWG URL parser "
        "rewrites (`gith%75b.com`, a Unicode host): the link would go elsewhere than the record reads"
    ),
)

KB407 = Rule(
    "KB407",
    "link-template",
    "A link template uses unknown fields or yields no http(s) URL.",
    doc=(
        "a `link_template` uses anything but `{location}`, `{revision}`, `{path}`, `{start}`, `{end}` (and "
        "`{{`/`}}` for braces), or does not yield an `http`/`https` URL; `links: template` without a "
        "`link_template`"
    ),
)

KB408 = Rule(
    "KB408",
    "git-links-off-git",
    "A source that is not on a git host would get /blob/ and /tree/ links.",
    doc=(
        "warning: a source whose location is not a git host (GitHub, GitLab, Bitbucket, Codeberg, …) states "
        "`links: git`, so it would get `/blob/` and `/tree/` links"
    ),
)

KB410 = Rule(
    "KB410",
    "source-unpinned",
    "A git source states no revision, or a capture no digest: its anchors cannot be pinned.",
    doc=(
        "error: a git source (its kind names Git, or its links are git links) states no revision, or a "
        "capture (its kind names a capture) states no `sha256:` digest as its revision: none of its evidence "
        "anchors can be pinned or linked to the text they cite"
    ),
)


_NORMAL_FORM_HINT = (
    "Write the URL as a browser reads it: no '.' or '..' segments, encoded dots, backslashes or user name."
)


@check_rule(KB406, KB411, order=140)
def rule_urls(ctx: Context) -> Iterator[Diagnostic]:
    """KB406: a source's or supplied record's location must be an http/https URL; KB411:
    in the normal form a browser follows, checked as written (the model keeps it so)."""
    for owner, origin, _ in ctx.owners:
        if isinstance(owner, Source | Supplied) and owner.location is not None:
            location = str(owner.location)
            if (form := normal_form_problem(location)) is not None:
                yield error(
                    KB411,
                    f"location {location!r} {form}",
                    *ctx.at(origin, ("location",)),
                    hint=_NORMAL_FORM_HINT,
                )
            elif (problem := web_url_problem(location)) is not None:
                yield error(
                    KB406,
                    f"location {location!r} {problem}",
                    *ctx.at(origin, ("location",)),
                    hint="Write the repository's http or https URL.",
                )


@check_rule(KB407, KB411, order=150)
def rule_link_templates(ctx: Context) -> Iterator[Diagnostic]:
    """KB407: a link template uses only the named fields and yields an http/https URL;
    KB411: in the normal form a browser follows."""
    for owner, origin, _ in ctx.owners:
        template = owner.link_template if isinstance(owner, Source) else None
        if not template:
            continue
        try:
            parsed = parse_link_template(template)
        except TemplateError as exc:
            where = ctx.in_text(origin, ("link_template",), exc.offset)
            yield error(KB407, f"link template: {exc}", *where)
            continue
        problem = template_url_problem(parsed, str(owner.location) if owner.location else None)
        if problem:
            yield error(
                KB407,
                f"link template expands to a URL that {problem}",
                *ctx.at(origin, ("link_template",)),
                hint="Start the template with {location} or an https:// URL.",
            )
        elif (form := template_form_problem(parsed)) is not None:
            yield error(
                KB411,
                f"link template expands to a URL that {form}",
                *ctx.at(origin, ("link_template",)),
                hint=_NORMAL_FORM_HINT,
            )


@check_rule(KB408, KB407, order=160)
def rule_link_policies(ctx: Context) -> Iterator[Diagnostic]:
    """KB407: 'links: template' needs a template; KB408: git links only on a git host."""
    for owner, origin, _ in ctx.owners:
        if not isinstance(owner, Source):
            continue
        location = str(owner.location) if owner.location is not None else None
        policy = link_policy(owner.links, location, owner.link_template)
        if policy is LinkPolicy.TEMPLATE and not owner.link_template:
            yield error(
                KB407,
                f"{owner.id} sets 'links: template' but has no link_template",
                *ctx.at(origin, ("links",)),
                hint="Add a link_template, or choose 'links: git' or 'links: none'.",
            )
        elif policy is LinkPolicy.GIT and location is not None and not is_git_host(location):
            yield warning(
                KB408,
                f"{owner.id} is not on a git host ({location}) but would get /blob/ and /tree/ links",
                *ctx.at(origin, ("links",) if owner.links else ("location",)),
                hint="Write 'links: none' (anchors shown as text) or a link_template with 'links: template'.",
            )


# A capture's digest as sources write it: ``sha256:<hex>`` or ``SHA-256 <hex>``.
_DIGEST = re.compile(r"(?:sha256:|SHA-?256:?\s*)`?[0-9a-fA-F]{64}`?", re.I)


@check_rule(KB410, order=170)
def rule_source_pins(ctx: Context) -> Iterator[Diagnostic]:
    """KB410: a git source states the revision its anchors are pinned at, and a capture (a
    paper or page captured as a file) states its digest: otherwise no evidence anchor of
    it can link to the text it cites, and nothing else says so."""
    for owner, origin, _ in ctx.owners:
        if not isinstance(owner, Source):
            continue
        kind = owner.source_kind.lower()
        location = str(owner.location) if owner.location is not None else None
        git = (
            "git" in kind.split()
            or "git" in kind
            or (link_policy(owner.links, location, owner.link_template) is LinkPolicy.GIT)
        )
        if "capture" in kind and not (owner.revision and _DIGEST.search(owner.revision)):
            yield error(
                KB410,
                f"{owner.id} is a capture without its digest: its anchors cannot be pinned",
                *ctx.at(origin, ("revision",) if owner.revision else ("source_kind",)),
                hint="Write the capture's digest as its revision ('sha256:<64 hex>').",
            )
        elif git and not owner.revision and ctx.at(origin, ("revision",)) == ctx.at(origin):
            # (A revision written but refused by the schema is KB101's, not this rule's.)
            yield error(
                KB410,
                f"{owner.id} is a git source without a revision: its anchors cannot be pinned or linked",
                *ctx.at(origin, ("source_kind",)),
                hint="Write the commit the analysis inspected as its revision.",
            )


@check_rule(KB108, order=180)
def rule_table_rows(ctx: Context) -> Iterator[Diagnostic]:
    """KB108: every row of a generic table has exactly one cell per column."""
    for _, origin, contents in ctx.owners:
        for path, table in contents.tables:
            width = len(table.columns)
            for index, row in enumerate(table.rows):
                if len(row) != width:
                    yield error(
                        KB108,
                        f"table row has {len(row)} cells for {width} columns",
                        *ctx.at(origin, (*path, "rows", index)),
                        hint="Give every row one cell per column; write '' for an empty cell.",
                    )


@check_rule(KB109, order=190)
def rule_labels(ctx: Context) -> Iterator[Diagnostic]:
    """KB109: text that is not prose is one line. Prose (``Text``: bodies, notes, cells)
    may hold paragraphs; a label, title, name, revision, path, status label, axis name or
    any other value becomes part of a heading, a badge, a code span or a URL, where a line
    break would end it or plant structure after it."""
    for _, origin, contents in ctx.owners:
        for path, text, is_key in contents.one_line:
            if len(text.strip().splitlines()) > 1:
                where = ctx.key_at(origin, path) if is_key else ctx.at(origin, path)
                yield error(
                    KB109,
                    f"{path[-1]!r} spans more than one line"
                    if is_key
                    else f"{path[-1]} spans more than one line",
                    *where,
                    hint="Write it on one line; put longer text in 'body' or a paragraph.",
                )


def _named(name: object, is_key: bool) -> str:
    return repr(name) if is_key else str(name)


@check_rule(KB211, order=200)
def rule_section_anchors(ctx: Context) -> Iterator[Diagnostic]:
    """KB211: a prose section's title would give it the anchor of a record, of an
    annotation or of the theme (``RTE-1``, ``On RTE-1``, ``Top``): every link to that
    anchor would land on the section. The renderer gives such a section the next free
    anchor; the check refuses the title, so the site never depends on that."""
    records = {anchor_of(record.id): record.id for record in ctx.system.records}
    records.update({anchor_of(supplied.id): supplied.id for supplied in ctx.system.supplied})
    notes = {
        "on-" + anchor_of(note.target): f"the annotation of {note.target}" for note in ctx.system.annotations
    }
    for _, origin, contents in ctx.owners:
        for path, section in contents.sections:
            if not section.title:
                continue
            anchor = title_anchor(section.title)
            owner_name = records.get(anchor) or notes.get(anchor)
            if owner_name is None and not is_theme_anchor(anchor):
                continue
            what = f"record {owner_name}" if owner_name in records.values() else owner_name or "the theme"
            yield error(
                KB211,
                f"section title {section.title.strip()!r} takes the anchor #{anchor} of {what}",
                *ctx.at(origin, (*path, "title")),
                hint="Retitle the section (e.g. 'About RTE-1'): links to the anchor must reach what owns it.",
            )
