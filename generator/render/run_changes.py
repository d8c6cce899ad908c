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
``link_markup.html_link``. ``RunTexts`` writes each run's record text (labels, values,
evidence, each side of a word diff) with its IDs and evidence anchors linked into that
run's pages, the old run's text into the old run's and the new run's into the new run's;
words both runs write are the new run's.
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
TextOf = Callable[[str], Html]  # a run of record text, on one line, as raw HTML


@dataclass(frozen=True)
class RunTexts:
    """How each run's record text and labels are written: by default formatted and linking
    nothing; a page gives each run's ``Linker.fragment`` and ``Linker.linked_label``
    (``render/text.py``), which link the IDs and evidence anchors of that run."""

    old: TextOf = html_unlinked
    new: TextOf = html_unlinked
    old_label: TextOf = html_label
    new_label: TextOf = html_label


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
    texts: RunTexts = RunTexts(),
    sections: tuple[SectionHref, SectionHref] | None = None,
) -> str:
    """The changes page's Markdown, from its title heading on (no front matter).
    ``sections`` gives each run's href of a document section (the verdicts link there)."""
    old_run = diff.old_run_id or "the old run"
    new_run = diff.new_run_id or "the new run"
    lists = [
        ListSection(name, anchor, _collection(collection, texts))
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
        "conclusions": _conclusion_groups(diff.conclusions, old_href, new_href, texts),
        "verdicts": verdict_blocks(diff.verdicts, *(sections or (_no_section, _no_section))),
        "statements": _conclusion_groups(diff.statements, old_href, new_href, texts),
        "run": _block(_fields(diff.run, texts)) if diff.run else None,
        "added": _items_list([_listed(ref, new_href, texts.new_label) for ref in diff.added]),
        "removed": _items_list([_listed(ref, old_href, texts.old_label) for ref in diff.removed]),
        "renumbered": _items_list(
            [_renumbering(pair, old_href, new_href, texts) for pair in diff.renumbered]
        ),
        "changed": [_section(change, old_href, new_href, texts) for change in diff.changed],
        "lists": lists,
        "profile": _profile(diff.profile, texts) if diff.profile else None,
        "documents": _documents(diff.documents, texts) if diff.documents else None,
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


def _listed(ref: RecordRef, href: Href, text: TextOf) -> Html:
    """``RTE-21`` (linked) ``(route) label``: one item of the added or removed list, the
    label written as its run's text."""
    shown = html_escape(f" ({ref.kind})") + _shown_label(ref, text)
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


def _pair_title(old: RecordRef, new: RecordRef, old_href: Href, new_href: Href, texts: RunTexts) -> Html:
    """``RTE-2 → RTE-7 (route) label``, each ID linked into its run, the new run's label."""
    new_id = html_link(new.id, new_href(new.id))
    head = new_id if old.id == new.id else html_link(old.id, old_href(old.id)) + html_escape(" → ") + new_id
    return head + html_escape(f" ({new.kind})") + _shown_label(new, texts.new_label)


def _shown_label(ref: RecordRef, text: TextOf) -> Html:
    """A record's label after its ID and kind, formatted as on the record's heading (its
    run's IDs linked), or nothing."""
    return Html(" ") + text(_one_line(ref.label)) if ref.label else Html("")


def _conclusion_groups(
    moves: tuple[ConclusionMove, ...], old_href: Href, new_href: Href, texts: RunTexts
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
            _pair_title(first.old_record, first.new_record, old_href, new_href, texts)
            + html_escape(" — ")
            + _pair_links(first.old_record, first.new_record, old_href, new_href),
        )
        lines = [
            _paragraph(
                f"{move.renamed_from} → {move.field}" if move.renamed_from else move.field,
                _status(move.change, move.old, move.new, texts),
            )
            for move in members
        ]
        lines.append(_paragraph("Old run's evidence", _plain(first.old_evidence, texts.old)))
        lines.append(_paragraph("New run's evidence", _plain(first.new_evidence, texts.new)))
        found.append(ConclusionGroup(links, _block(lines)))
    return found


# What a value a run does not set is called, here as on the history page.
NOT_STATED = "not stated"


def _plain(items: tuple[str, ...], text: TextOf) -> Html:
    """A run's evidence anchors, each linked to its lines at that run's source revision."""
    if not items:
        return element("em", html_escape(NOT_STATED))
    return Html("; ").join(text(_one_line(item)) for item in items)


def _renumbering(pair: Renumbering, old_href: Href, new_href: Href, texts: RunTexts) -> Html:
    """``RTE-2`` → ``RTE-7`` (both linked) ``(route) label — confidence 0.82: why``."""
    why = "; ".join(pair.why) or "no signal above its threshold"
    return (
        html_link(pair.old.id, old_href(pair.old.id))
        + html_escape(" → ")
        + html_link(pair.new.id, new_href(pair.new.id))
        + html_escape(f" ({pair.new.kind})")
        + _shown_label(pair.new, texts.new_label)
        + html_escape(f" — confidence {pair.confidence:.2f}: {_one_line(why)}")
    )


def _section(change: RecordChange, old_href: Href, new_href: Href, texts: RunTexts) -> RecordSection:
    head = change.new.id if change.old.id == change.new.id else f"{change.old.id} → {change.new.id}"
    heading = escape(head) + (escape(" — ") + label(change.new.label) if change.new.label else "")
    links = element("p", _pair_links(change.old, change.new, old_href, new_href))
    lines = list(_record_lines(change, texts))
    if change.fields.texts:
        lines.append(
            _collapsed("Word changes", [_paragraph(t.title, _words(t, texts)) for t in change.fields.texts])
        )
    if not lines:
        lines = [element("p", element("em", html_escape("No change but the ID.")))]
    return RecordSection(change.new.id, Md(heading), links, _block(lines))


def _record_lines(change: RecordChange, texts: RunTexts) -> Iterator[Html]:
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
        yield _paragraph(title, _status(move.change, move.old, move.new, texts))
    for guarantee in change.guarantees:
        yield _paragraph(f"Guarantee {guarantee.change}", _move(guarantee.old, guarantee.new, texts))
    if change.evidence_added or change.evidence_removed:
        yield _paragraph("Evidence", _items(change.evidence_added, change.evidence_removed, texts))
    for moved in change.evidence_moved:
        yield _paragraph("Evidence under another source ID", _move(moved.old, moved.new, texts))
    yield from _fields(change.fields, texts, with_words=False)


def _collapsed(summary: str, lines: list[Html]) -> Html:
    """A ``<details>`` block, closed until opened: one element a line, no blank line."""
    inner = Html("\n").join([element("summary", html_escape(summary)), *lines])
    return element("details", Html("\n") + inner + Html("\n"), {"class": "kb-diff__words"})


def _fields(fields: FieldChanges, texts: RunTexts, with_words: bool = True) -> list[Html]:
    lines = [_paragraph(text.title, _words(text, texts)) for text in fields.texts] if with_words else []
    lines += [_paragraph(value.title, _move(value.old, value.new, texts)) for value in fields.values]
    lines += [
        _paragraph(change.title, _items(change.added, change.removed, texts)) for change in fields.lists
    ]
    return lines


def _words(change: TextChange, texts: RunTexts) -> Html:
    """A word diff: the words both runs write (linked as the new run's), the old run's
    struck, the new run's inserted, each side's IDs and anchors linked into its run."""
    if all(op.op == "equal" for op in change.ops):
        return element("em", html_escape("spacing only"))
    shown = [
        _formatted(op.text, texts.new)
        if op.op == "equal"
        else _del(op.text, texts)
        if op.op == "delete"
        else _ins(op.text, texts)
        for op in elided(change.ops, CONTEXT_WORDS)
    ]
    note = [element("em", html_escape("(compared whole)"))] if change.whole else []
    return Html(" ").join([*shown, *note])


def _move(old: str | None, new: str | None, texts: RunTexts) -> Html:
    """``old → new``; a side that is not set shows as 'not stated'."""
    none = element("em", html_escape(NOT_STATED))
    return Html(" → ").join(
        [_del(old, texts) if old is not None else none, _ins(new, texts) if new is not None else none]
    )


def _status(change: str, old: str | None, new: str | None, texts: RunTexts) -> Html:
    """A status change: a move as ``old → new``; a status one run alone states says which
    run, so silence never reads as a value."""
    if change == "newly stated" and new is not None:
        return html_escape("newly stated: ") + _ins(new, texts)
    if change == "no longer stated" and old is not None:
        return html_escape("no longer stated (was ") + _del(old, texts) + html_escape(")")
    if change == "renamed" and new is not None:
        return html_escape("renamed, value kept: ") + _formatted(new, texts.new)
    return _move(old, new, texts)


def _items(added: Iterable[str], removed: Iterable[str], texts: RunTexts) -> Html:
    return Html("; ").join([*(_ins(item, texts) for item in added), *(_del(item, texts) for item in removed)])


def _collection(collection: CollectionDiff, texts: RunTexts) -> Html:
    lines = [_paragraph("Added", _ins(key, texts)) for key in collection.added]
    lines += [_paragraph("Removed", _del(key, texts)) for key in collection.removed]
    for item in collection.changed:
        lines.append(_paragraph("Changed", _formatted(item.key, texts.new)))
        lines.extend(_fields(item.fields, texts))
    return _block(lines)


def _profile(profile: ProfileDiff, texts: RunTexts) -> Html:
    lines = []
    if profile.old_present != profile.new_present:
        said = "The old run has no profile." if profile.new_present else "The new run has no profile."
        lines.append(element("p", element("em", html_escape(said))))
    if profile.scope is not None:
        lines.append(_paragraph("Scope", _words(profile.scope, texts)))
    for axis in profile.axes:
        lines.extend(_axis(axis, texts))
    return _block(lines)


def _axis(axis: AxisChange, texts: RunTexts) -> Iterator[Html]:
    values = _items(axis.values_added, axis.values_removed, texts)
    parts = [html_escape(f"{axis.change}.")]
    if axis.assessment is not None:
        parts.append(
            html_escape(" Assessment: ") + _move(axis.assessment.old, axis.assessment.new, texts) + "."
        )
    if axis.values_added or axis.values_removed:
        parts.append(html_escape(" Values: ") + values + ".")
    yield _paragraph(axis.axis.replace("_", " ").capitalize(), Html("").join(parts))
    for move in axis.basis:
        yield _paragraph(move.title, _move(move.old, move.new, texts))
    if axis.reshaped is not None:
        yield _paragraph("Reshaped", html_escape(axis.reshaped))
    if axis.note is not None:
        yield _paragraph(axis.note.title, _words(axis.note, texts))


def _documents(documents: tuple[DocumentChange, ...], texts: RunTexts) -> Html:
    lines = []
    for document in documents:
        sections = ": " + ", ".join(document.sections) if document.sections else ""
        lines.append(_paragraph(document.document.replace("_", " "), html_escape(document.change + sections)))
        if document.texts:
            words = [_paragraph(text.title, _words(text, texts)) for text in document.texts]
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


def _del(text: str, texts: RunTexts) -> Html:
    """What the old run alone writes, struck, linked into the old run's pages."""
    return element("del", _formatted(text, texts.old), {"class": "kb-diff__del"})


def _ins(text: str, texts: RunTexts) -> Html:
    """What the new run alone writes, inserted, linked into the new run's pages."""
    return element("ins", _formatted(text, texts.new), {"class": "kb-diff__ins"})


def _formatted(text: str, written: TextOf) -> Html:
    """A run of words of a diff, on one line, formatted as record text is (strong,
    emphasis, code; a link as its text and target) by its run's writer. Markup the diff
    cut in two (a change inside ``**…**``) shows its markers."""
    return written(_one_line(text))


def _one_line(text: str) -> str:
    """Text on one line: a line break inside a raw HTML block could end it early."""
    return " ".join(text.split())
