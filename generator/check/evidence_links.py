"""A source whose evidence anchors cannot link (KB412): it states no location, so every
anchor citing it is shown as plain text (a repository location without a revision is
KB410's error). A source that says ``links: none``, or is a capture pinned by its digest,
is shown as text on purpose and is not reported.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from typing import TYPE_CHECKING

from generator.check.registry import check_rule
from generator.diagnostics import Diagnostic, Rule, warning
from generator.model.anchors import find_anchors
from generator.model.records import Source
from generator.model.url_policy import link_gap

if TYPE_CHECKING:
    from generator.check.context import Context

KB412 = Rule(
    "KB412",
    "source-unlinkable",
    "A source's evidence anchors cannot link: it states no location.",
    doc=(
        "warning: a source states no `location` (and no capture digest), so the "
        "evidence anchors citing it are shown as plain text (the message counts them; `kbgen linkcheck` "
        "counts them in the built site); a source with `links: none` or a capture pinned by its digest is "
        "shown as text on purpose (located at the source)"
    ),
)


def _missing(source: Source) -> str | None:
    location = str(source.location) if source.location is not None else None
    gap = link_gap(source.links, location, source.revision, source.link_template)
    # A repository source without a revision is an error of its own already (KB410).
    return gap if gap != "no revision" else None


@check_rule(KB412, order=300)
def rule_unlinkable_sources(ctx: Context) -> Iterator[Diagnostic]:
    """KB412: a source that leaves the anchors citing it unlinked, with how many."""
    lacking = {
        record.id: (record, missing)
        for record in ctx.system.records
        if isinstance(record, Source) and (missing := _missing(record)) is not None
    }
    if not lacking:
        return
    cited: Counter[str] = Counter()
    for _, _, contents in ctx.owners:
        cited.update(anchor.source for _, anchor in contents.anchors if anchor.path)
        for _, text in contents.texts:
            cited.update(a.source for a in find_anchors(text) if a.path and not a.lookalike and not a.locator)
    for text in ctx.system.prose.values():
        cited.update(a.source for a in find_anchors(text) if a.path and not a.lookalike and not a.locator)
    for source_id, (record, missing) in lacking.items():
        count = cited[source_id]
        if not count:
            continue
        yield warning(
            KB412,
            f"{source_id} states {missing}, so the {count:,} evidence anchor{'s' * (count != 1)} citing it "
            f"{'are' if count != 1 else 'is'} shown as plain text",
            *ctx.at(ctx.system.origin(record)),
            hint="State the source's http/https location and the revision its anchors are pinned at, or "
            "'links: none' if they are not meant to link.",
        )
