"""The body of a changes page: what changed between two runs of one system, as Markdown.

``render_run_changes(diff, old_href, new_href)`` shows the counts, then conclusions
first: the statuses that moved on paired records (with the evidence behind each side),
the memory-comparison profile, the records newly found and no longer stated, the
renumbering (each pair with its confidence and why), and then the run, the changed
records (each linked to its anchor in each run's pages), the limitations, annotations
and supplied records and the prose documents, whose word diffs are collapsed
(``<details>``) until opened. Word changes are shown red and green as ``<del>``/``<ins>``
(classes ``kb-diff__del`` and ``kb-diff__ins``, ``kb.css``).

Headings are Markdown (a label formatted as on the record's own heading), for the
table of contents; everything else is raw HTML blocks built with ``rawhtml`` (every
character of record text that HTML, Markdown or macros would act on is an entity; every
value on one line, so no block holds a blank line), which Python-Markdown sets aside
instead of parsing. ``old_href(id)`` and ``new_href(id)`` give the final URL a link in
raw HTML writes (``urls.url_href`` to the record's page and anchor: MkDocs rewrites
links in Markdown only), or None for no link; every link goes through
``link_markup.html_link``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass

from generator.graph.field_diff import FieldChanges, TextChange
from generator.graph.profile_diff import AxisChange, ProfileDiff
from generator.graph.record_diff import RecordChange, RecordRef
from generator.graph.run_diff import CollectionDiff, ConclusionMove, DocumentChange, Renumbering, RunDiff
from generator.graph.word_diff import elided
from generator.render.environment import render
from generator.render.inline_form import html_label, html_unlinked, label
from generator.render.link_markup import html_link
from generator.render.markdown import Md, escape
from generator.render.rawhtml import Html, element
from generator.render.rawhtml import escape as html_escape
from generator.render.run_verdicts import SectionHref, verdict_blocks

TEMPLATE = "run-changes.md.j2"
CONTEXT_WORDS = 12  # shared words kept beside each change in a word diff

Href = Callable[[str], str | None]


@dataclass(frozen=True)
class RecordSection:
    """One renumbered or changed record: its heading, links into both runs and its changes."""

    id: str  # the new run's ID: the section's anchor is derived from it
    heading: Md
    links: Html
    changes: Html


@dataclass(frozen=True)
class ConclusionGroup:
    """The statuses that moved on one paired record: links into both runs, the moves and
    the evidence behind each side."""

    links: Html
    changes: Html


@dataclass(frozen=True)
class ListSection:
    """A section of changes to one list without record IDs (limitations, …)."""

    title: str
    anchor: str
    changes: Html


def render_run_changes(
    diff: RunDiff,
    old_href: Href,
    new_href: Href,
    title: str | None = None,
    sections: tuple[SectionHref, SectionHref] | None = None,
) -> str:
    """The changes page's Markdown, from its title heading on (no front matter).
    ``sections`` gives each run's href of a document section (the verdicts link there)."""
    old_run = diff.old_run_id or "the old run"
    new_run = diff.new_run_id or "the new run"
    lists = [
        ListSection(name, anchor, _collection(collection))
        for name, anchor, collection in (
            ("Limitations", "limitations", diff.limitations),
            ("Annotations", "annotations", diff.annotations),
            ("Supplied records", "supplied-records", diff.supplied),
        )
        if collection
    ]
    context = {
        "title": title or f"Changes from {old_run} to {new_run}",
        "empty": diff.is_empty,
        "counts": _counts(diff),
        "conclusions": _conclusion_groups(diff.conclusions, old_href, new_href),
        "verdicts": verdict_blocks(diff.verdicts, *(sections or (_no_section, _no_section))),
        "statements": _conclusion_groups(diff.statements, old_href, new_href),
        "run": _block(_fields(diff.run)) if diff.run else None,
        "added": _items_list([_listed(ref, new_href) for ref in diff.added]),
        "removed": _items_list([_listed(ref, old_href) for ref in diff.removed]),
        "renumbered": _items_list([_renumbering(pair, old_href, new_href) for pair in diff.renumbered]),
        "changed": [_section(change, old_href, new_href) for change in diff.changed],
        "lists": lists,
        "profile": _profile(diff.profile) if diff.profile else None,
        "documents": _documents(diff.documents) if diff.documents else None,
    }
    return render(TEMPLATE, context)


def _no_section(document: str, section: str) -> None:
    return None


def _counts(diff: RunDiff) -> Html:
    """The counts on one line, conclusions first, each linked to its section when it has one."""
    counts = diff.counts
    changed = f"{counts.changed}" + (
        f" ({counts.possible_different_referents} possibly naming something else)"
        if counts.possible_different_referents
        else ""
    )
    statuses = [
        ("newly stated", counts.conclusions_newly_stated),
        ("no longer stated", counts.conclusions_no_longer_stated),
        ("fields renamed", counts.status_fields_renamed),
    ]
    stated = [
        html_link(html_escape(f"{name}: {number}"), "#statuses-stated-in-one-run")
        if number
        else html_escape(f"{name}: {number}")
        for name, number in statuses
    ]
    moved = html_escape(f"Conclusions moved: {counts.conclusions_moved}")
    if diff.conclusions:
        moved = html_link(moved, "#conclusions-that-moved")
    verdicts = html_escape(f"verdicts moved: {counts.verdicts_moved}")
    if diff.verdicts:
        verdicts = html_link(verdicts, "#verdicts-that-moved")
    moved += Html(" · ") + verdicts
    items = [
        ("newly found", str(counts.added), "added-records", diff.added),
        ("no longer stated", str(counts.removed), "removed-records", diff.removed),
        ("renumbered", str(counts.renumbered), "renumbered-records", diff.renumbered),
        ("changed", changed, "changed-records", diff.changed),
        ("unchanged", str(counts.unchanged), None, ()),
    ]
    parts = [
        html_link(html_escape(f"{name}: {number}"), f"#{anchor}")
        if anchor and shown
        else html_escape(f"{name}: {number}")
        for name, number, anchor, shown in items
    ]
    return element(
        "p",
        _strong("Conclusions")
        + Html(" ")
        + moved
        + Html(" · ")
        + html_escape("statuses ")
        + Html(" · ").join(stated)
        + Html(" ")
        + _strong("Records")
        + Html(" ")
        + Html(" · ").join(parts),
        {"class": "kb-diff kb-diff--counts"},
    )


def _listed(ref: RecordRef, href: Href) -> Html:
    """``RTE-21`` (linked) ``(route) label``: one item of the added or removed list, the
    label formatted (``inline_form.html_label``)."""
    shown = html_escape(f" ({ref.kind})") + _shown_label(ref)
    return html_link(ref.id, href(ref.id)) + shown


def _items_list(items: list[Html]) -> Html | None:
    """A raw HTML list, one item a line (no blank line inside the block)."""
    if not items:
        return None
    inner = Html("\n").join(element("li", item) for item in items)
    return element("ul", Html("\n") + inner + Html("\n"), {"class": "kb-diff-list"})


def _pair_links(old: RecordRef, new: RecordRef, old_href: Href, new_href: Href) -> Html:
    return (
        html_escape("Old run: ")
        + html_link(old.id, old_href(old.id))
        + html_escape(" · new run: ")
        + html_link(new.id, new_href(new.id))
    )


def _pair_title(old: RecordRef, new: RecordRef) -> Html:
    """``RTE-2 → RTE-7 (route) label``, the label formatted as on the record's heading."""
    head = new.id if old.id == new.id else f"{old.id} → {new.id}"
    return html_escape(f"{head} ({new.kind})") + _shown_label(new)


def _shown_label(ref: RecordRef) -> Html:
    """A record's label after its ID and kind, formatted (``inline_form.html_label``, the
    renderer of the headings' labels), or nothing."""
    return Html(" ") + html_label(ref.label) if ref.label else Html("")


def _conclusion_groups(
    moves: tuple[ConclusionMove, ...], old_href: Href, new_href: Href
) -> list[ConclusionGroup]:
    """One group per paired record, in the diff's order: its moves, then its evidence."""
    groups: list[tuple[ConclusionMove, list[ConclusionMove]]] = []
    for move in moves:
        if not groups or groups[-1][0].new_record != move.new_record:
            groups.append((move, []))
        groups[-1][1].append(move)
    found = []
    for first, members in groups:
        links = element(
            "p",
            _pair_title(first.old_record, first.new_record)
            + html_escape(" — ")
            + _pair_links(first.old_record, first.new_record, old_href, new_href),
        )
        lines = [
            _paragraph(
                f"{move.renamed_from} → {move.field}" if move.renamed_from else move.field,
                _status(move.change, move.old, move.new),
            )
            for move in members
        ]
        lines.append(_paragraph("Old run's evidence", _plain(first.old_evidence)))
        lines.append(_paragraph("New run's evidence", _plain(first.new_evidence)))
        found.append(ConclusionGroup(links, _block(lines)))
    return found


# What a value a run does not set is called, here as on the history page.
NOT_STATED = "not stated"


def _plain(items: tuple[str, ...]) -> Html:
    if not items:
        return element("em", html_escape(NOT_STATED))
    return Html("; ").join(element("code", html_escape(_one_line(item))) for item in items)


def _renumbering(pair: Renumbering, old_href: Href, new_href: Href) -> Html:
    """``RTE-2`` → ``RTE-7`` (both linked) ``(route) label — confidence 0.82: why``."""
    why = "; ".join(pair.why) or "no signal above its threshold"
    return (
        html_link(pair.old.id, old_href(pair.old.id))
        + html_escape(" → ")
        + html_link(pair.new.id, new_href(pair.new.id))
        + html_escape(f" ({pair.new.kind})")
        + _shown_label(pair.new)
        + html_escape(f" — confidence {pair.confidence:.2f}: {_one_line(why)}")
    )


def _section(change: RecordChange, old_href: Href, new_href: Href) -> RecordSection:
    head = change.new.id if change.old.id == change.new.id else f"{change.old.id} → {change.new.id}"
    heading = escape(head) + (escape(" — ") + label(change.new.label) if change.new.label else "")
    links = element("p", _pair_links(change.old, change.new, old_href, new_href))
    lines = list(_record_lines(change))
    if change.fields.texts:
        lines.append(
            _collapsed("Word changes", [_paragraph(t.title, _words(t)) for t in change.fields.texts])
        )
    if not lines:
        lines = [element("p", element("em", html_escape("No change but the ID.")))]
    return RecordSection(change.new.id, Md(heading), links, _block(lines))


def _record_lines(change: RecordChange) -> Iterator[Html]:
    if change.possible_different_referent:
        overlap = f"{change.label_overlap:.0%}" if change.label_overlap is not None else "few"
        yield element(
            "p",
            _strong("Possibly a different referent:")
            + html_escape(
                f" the labels share {overlap} of their words (paired at {change.basis.confidence:.2f})."
            ),
            {"class": "kb-diff__flag"},
        )
    for move in change.statuses:
        title = f"{move.renamed_from} → {move.title}" if move.renamed_from else move.title
        yield _paragraph(title, _status(move.change, move.old, move.new))
    for guarantee in change.guarantees:
        yield _paragraph(f"Guarantee {guarantee.change}", _move(guarantee.old, guarantee.new))
    if change.evidence_added or change.evidence_removed:
        yield _paragraph("Evidence", _items(change.evidence_added, change.evidence_removed))
    for moved in change.evidence_moved:
        yield _paragraph("Evidence under another source ID", _move(moved.old, moved.new))
    yield from _fields(change.fields, texts=False)


def _collapsed(summary: str, lines: list[Html]) -> Html:
    """A ``<details>`` block, closed until opened: one element a line, no blank line."""
    inner = Html("\n").join([element("summary", html_escape(summary)), *lines])
    return element("details", Html("\n") + inner + Html("\n"), {"class": "kb-diff__words"})


def _fields(fields: FieldChanges, texts: bool = True) -> list[Html]:
    lines = [_paragraph(text.title, _words(text)) for text in fields.texts] if texts else []
    lines += [_paragraph(value.title, _move(value.old, value.new)) for value in fields.values]
    lines += [_paragraph(change.title, _items(change.added, change.removed)) for change in fields.lists]
    return lines


def _words(change: TextChange) -> Html:
    if all(op.op == "equal" for op in change.ops):
        return element("em", html_escape("spacing only"))
    shown = [
        _formatted(op.text) if op.op == "equal" else _del(op.text) if op.op == "delete" else _ins(op.text)
        for op in elided(change.ops, CONTEXT_WORDS)
    ]
    note = [element("em", html_escape("(compared whole)"))] if change.whole else []
    return Html(" ").join([*shown, *note])


def _move(old: str | None, new: str | None) -> Html:
    """``old → new``; a side that is not set shows as 'not stated'."""
    none = element("em", html_escape(NOT_STATED))
    return Html(" → ").join([_del(old) if old is not None else none, _ins(new) if new is not None else none])


def _status(change: str, old: str | None, new: str | None) -> Html:
    """A status change: a move as ``old → new``; a status one run alone states says which
    run, so silence never reads as a value."""
    if change == "newly stated" and new is not None:
        return html_escape("newly stated: ") + _ins(new)
    if change == "no longer stated" and old is not None:
        return html_escape("no longer stated (was ") + _del(old) + html_escape(")")
    if change == "renamed" and new is not None:
        return html_escape("renamed, value kept: ") + _formatted(new)
    return _move(old, new)


def _items(added: Iterable[str], removed: Iterable[str]) -> Html:
    return Html("; ").join([*(_ins(item) for item in added), *(_del(item) for item in removed)])


def _collection(collection: CollectionDiff) -> Html:
    lines = [_paragraph("Added", _ins(key)) for key in collection.added]
    lines += [_paragraph("Removed", _del(key)) for key in collection.removed]
    for item in collection.changed:
        lines.append(_paragraph("Changed", html_escape(_one_line(item.key))))
        lines.extend(_fields(item.fields))
    return _block(lines)


def _profile(profile: ProfileDiff) -> Html:
    lines = []
    if profile.old_present != profile.new_present:
        said = "The old run has no profile." if profile.new_present else "The new run has no profile."
        lines.append(element("p", element("em", html_escape(said))))
    if profile.scope is not None:
        lines.append(_paragraph("Scope", _words(profile.scope)))
    for axis in profile.axes:
        lines.extend(_axis(axis))
    return _block(lines)


def _axis(axis: AxisChange) -> Iterator[Html]:
    values = _items(axis.values_added, axis.values_removed)
    parts = [html_escape(f"{axis.change}.")]
    if axis.assessment is not None:
        parts.append(html_escape(" Assessment: ") + _move(axis.assessment.old, axis.assessment.new) + ".")
    if axis.values_added or axis.values_removed:
        parts.append(html_escape(" Values: ") + values + ".")
    yield _paragraph(axis.axis.replace("_", " ").capitalize(), Html("").join(parts))
    for move in axis.basis:
        yield _paragraph(move.title, _move(move.old, move.new))
    if axis.reshaped is not None:
        yield _paragraph("Reshaped", html_escape(axis.reshaped))
    if axis.note is not None:
        yield _paragraph(axis.note.title, _words(axis.note))


def _documents(documents: tuple[DocumentChange, ...]) -> Html:
    lines = []
    for document in documents:
        sections = ": " + ", ".join(document.sections) if document.sections else ""
        lines.append(_paragraph(document.document.replace("_", " "), html_escape(document.change + sections)))
        if document.texts:
            words = [_paragraph(text.title, _words(text)) for text in document.texts]
            lines.append(_collapsed("Word changes", words))
    return _block(lines)


def _block(lines: list[Html], classes: str = "kb-diff") -> Html:
    """A raw HTML block: a div at the line start, one element a line, no blank line."""
    inner = Html("\n") + Html("\n").join(lines) + Html("\n") if lines else Html("")
    return element("div", inner, {"class": classes})


def _paragraph(label: str, content: Html) -> Html:
    return element("p", _strong(f"{label}:") + Html(" ") + content)


def _strong(text: str) -> Html:
    return element("strong", html_escape(_one_line(text)))


def _del(text: str) -> Html:
    return element("del", _formatted(text), {"class": "kb-diff__del"})


def _ins(text: str) -> Html:
    return element("ins", _formatted(text), {"class": "kb-diff__ins"})


def _formatted(text: str) -> Html:
    """A run of words of a diff, on one line, formatted as record text is (strong,
    emphasis, code; a link as its text and target). Markup the diff cut in two (a change
    inside ``**…**``) shows its markers."""
    return html_unlinked(_one_line(text))


def _one_line(text: str) -> str:
    """Text on one line: a line break inside a raw HTML block could end it early."""
    return " ".join(text.split())
