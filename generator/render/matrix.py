"""The memory-comparison matrix: one row per system, one compact column per axis (raw HTML).

A cell shows the axis's assessment as a small mark, then each value as a chip. A chip's
style is its evidence basis (per value, or the axis's where the document states one
basis for the axis), its basis is written under it, it links to the record its evidence
names, and its title names the basis, the records and the note. The mark links to the
axis's row in the system's profile table and carries the axis's note as its title. A
system's run and scope sit behind a disclosure in its row's first cell, which stays in
view when the table scrolls sideways.

The facets are the value filter: one button per assessment and value the systems have on
an axis, with the number of systems that have it. They are built here so that the counts
are part of the page; ``kb-comparison.js`` makes them work and shows them (without the
script they stay hidden, and the table is whole).

Marks, chips and facets are built from controlled values; the scope and the notes are
record text, which reaches the page only through the HTML linker and ``rawhtml.escape``
(an attribute value is escaped by ``rawhtml.element``).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field

from pydantic import BaseModel

from generator.model.profile import AXIS_TITLES, AXIS_VALUES, BASIS_VALUES, AxisProfile, axis_anchor
from generator.model.vocab import MEANINGS, ConclusionStatus, ProfileAssessment
from generator.render import urls
from generator.render.badges import vocab_anchor
from generator.render.link_markup import html_link
from generator.render.rawhtml import Html, element, escape
from generator.render.registry import GLOSSARY_PAGE
from generator.render.text import Linker

# The header of an axis whose title has a long word, so that no column is wider than its
# values; the full title is the abbreviation's title. Other headers wrap between words.
SHORT_TITLES: dict[str, str] = {
    "storage_substrate": "Substrate",
    "representational_form": "Form",
    "behavioral_authority": "Authority",
    "curation_operations": "Curation",
    "read_back_direction": "Direction",
    "read_back_signal": "Signal",
    "faithfulness_tested": "Faithfulness",
}

# The assessment of an axis as one character; the legend, the facets and each mark's
# title say the word, and screen readers read the word instead of the character.
ASSESSMENT_MARKS: dict[str, str] = {
    ProfileAssessment.KNOWN.value: "●",
    ProfileAssessment.PARTIAL.value: "◐",
    ProfileAssessment.ABSENT.value: "∅",
    ProfileAssessment.INAPPLICABLE.value: "–",
    ProfileAssessment.UNINSPECTED.value: "?",
    ProfileAssessment.NOT_DETERMINABLE.value: "⊘",
}
# How each basis draws its chips' border (kb.css), for the legend: colour only reinforces it.
BASIS_STROKES: dict[str, str] = {
    "claimed": "dashed",
    "afforded": "dotted",
    "wired": "solid",
    "observed": "thick",
    "causally supported": "double",
}

NOTHING = Html("")
SPACE = Html(" ")
NEWLINE = Html("\n")


def _one_line(text: str) -> str:
    return " ".join(text.split())


# Every controlled value of every axis: the values a record's text is searched for.
_VOCABULARY = frozenset(value for values in AXIS_VALUES.values() for value in values)


def _naming(value: str) -> re.Pattern[str]:
    """A value named in prose: ``vector`` in "vectors", ``in-memory`` in "in memory"."""
    words = r"[-\s]+".join(re.escape(word) for word in re.split(r"[-\s]+", value) if word)
    return re.compile(rf"(?<![\w-]){words}", re.IGNORECASE)


def _strings(data: object) -> Iterator[str]:
    """Every string of a record's JSON form (its fields' text, nested lists included)."""
    if isinstance(data, str):
        yield data
    elif isinstance(data, dict):
        for item in data.values():
            yield from _strings(item)
    elif isinstance(data, list):
        for item in data:
            yield from _strings(item)


def _screen_reader(text: str) -> Html:
    """Text for screen readers and the text filter, not shown (``.kb-sr``)."""
    return element("span", escape(text), {"class": "kb-sr"})


def _glyph(assessment: str) -> Html:
    """The assessment's character, hidden from screen readers (they read the word)."""
    return element("span", escape(ASSESSMENT_MARKS.get(assessment, "•")), {"aria-hidden": "true"})


def _mark(assessment: str) -> Html:
    """The assessment's character, and its word for screen readers and the text filter."""
    return _glyph(assessment) + _screen_reader(assessment)


def _named(assessment: str) -> Html:
    """The assessment's character and its word, both shown (the legend, the facets)."""
    return _glyph(assessment) + SPACE + escape(assessment)


def _glossary(page: str, value: ConclusionStatus | ProfileAssessment) -> str:
    return urls.url_href(page, urls.page_path(GLOSSARY_PAGE), vocab_anchor(value))


def axis_header(axis: str) -> Html:
    """The column header of an axis: its short title with the full one as ``abbr``."""
    title = AXIS_TITLES[axis]
    short = SHORT_TITLES.get(axis)
    return escape(title) if short is None else element("abbr", escape(short), {"title": title})


@dataclass(frozen=True)
class SystemCells:
    """The cells of one system's row on the page ``linker`` renders (an HTML linker)."""

    linker: Linker
    profile_path: str  # the page that shows the system's profile table
    texts: dict[str, str] = field(default_factory=dict, compare=False)  # record ID → its text

    def mark(self, axis: str, entry: AxisProfile) -> Html:
        """The assessment mark, linking to the axis's row; its title is the axis's note."""
        basis = f" (basis {entry.basis} for the axis)" if entry.basis else ""
        note = _one_line(entry.note or "")
        title = f"{entry.assessment}{basis}: {note}" if note else f"{entry.assessment}{basis}"
        href = urls.url_href(self.linker.path, self.profile_path, axis_anchor(axis))
        classes = ("kb-mark", f"kb-mark--{urls.slugify(entry.assessment)}")
        return html_link(_mark(entry.assessment), href, classes, title)

    def target(self, entry: AxisProfile, value: str) -> str | None:
        """The record a value's chip leads to: the first its evidence entry names; where the
        basis is stated for the axis (no entry per value, so the axis's records witness
        every value), the first of the axis's records whose text names the value, else the
        axis's first record; None without a record."""
        evidence = entry.evidence.get(value)
        if evidence is not None:
            return evidence.records[0] if evidence.records else None
        if not entry.records:
            return None
        if value not in _VOCABULARY:  # the checker reports it; its text is no pattern to seek
            return entry.records[0]
        naming = _naming(value)
        graph = self.linker.graph
        for ref in entry.records:
            record = graph.record(ref) or graph.supplied_record(ref)
            if record is not None and naming.search(self._text_of(ref, record)):
                return ref
        return entry.records[0]

    def _text_of(self, ref: str, record: BaseModel) -> str:
        """A record's text, gathered once per row (an axis names the same records often)."""
        text = self.texts.get(ref)
        if text is None:
            text = self.texts[ref] = "\n".join(_strings(record.model_dump(mode="json")))
        return text

    def chip(self, entry: AxisProfile, value: str) -> Html:
        """A value with its basis in words under it (styled by the basis too), linking to the
        record its evidence names (``target``); the records and the note are its title."""
        evidence = entry.evidence.get(value)
        records = evidence.records if evidence is not None else entry.records
        basis = entry.basis_of(value)
        stated = " (for the axis)" if evidence is None and basis is not None else ""
        parts = [f"{value}: {basis}{stated}" if basis else value]
        if records:
            graph = self.linker.graph
            cited = [
                f"{ref} (declared elsewhere)" if graph.supplied_record(ref) is not None else ref
                for ref in records
            ]
            parts.append("evidence " + ", ".join(cited))
        if evidence is not None and evidence.note:
            parts.append(_one_line(evidence.note))
        title = " — ".join(parts)
        classes = ("kb-chip", f"kb-chip--{urls.slugify(basis or 'none')}", "kb-profile-value")
        shown = element("span", escape(value), {"class": "kb-chip__value"})
        if basis:
            # Shown, so that a phone and the keyboard read it too; the brackets are for
            # screen readers and the text filter, which read "files (wired)".
            words = _screen_reader(" (") + escape(basis) + _screen_reader(")")
            shown += element("span", words, {"class": "kb-chip__basis"})
        ref = self.target(entry, value)
        href = self.linker.href(ref) if ref is not None else None
        if href is None:  # no record to show: the chip stays, unlinked
            return element(
                "span", shown, {"class": " ".join(classes), "title": title, "data-kb-value": value}
            )
        return html_link(shown, href, classes, title, {"kb-value": value})

    def note(self, note: str) -> Html:
        """The axis's note behind a disclosure under the chips: a tap opens it (the mark's
        title shows it only to a pointer that hovers)."""
        inside = element("summary", escape("note")) + NEWLINE + Html(self.linker.text(note))
        return element("details", inside, {"class": "kb-cell__note"})

    def cell(self, axis: str, entry: AxisProfile | None) -> Html:
        """The axis's cell: its mark and chips; empty where the profile lacks the axis."""
        if entry is None:
            return element("td", NOTHING, {"class": "kb-cell kb-cell--missing"})
        parts = [self.mark(axis, entry), *(self.chip(entry, value) for value in entry.values)]
        if entry.note:
            parts.append(self.note(entry.note))
        content = NEWLINE.join(parts)
        attrs = {"class": "kb-cell", "data-kb-axis": axis, "data-kb-assessment": entry.assessment}
        return element("td", content, attrs)


def system_cell(name: Html, run: Html, scope: Html) -> Html:
    """The row's header cell: the system's name, then its run and scope behind a disclosure."""
    inside = NEWLINE.join(
        [
            element("summary", escape("scope")),
            element("p", escape("Run ") + run, {"class": "kb-matrix__run"}),
            scope,
        ]
    )
    details = element("details", inside, {"class": "kb-matrix__scope"})
    return element("th", name + NEWLINE + details, {"scope": "row"})


@dataclass(frozen=True)
class MatrixRow:
    """One system's row: its slug, its header cell, and its profile's axes."""

    slug: str
    header: Html
    cells: SystemCells
    axes: dict[str, AxisProfile]

    def html(self, shown: Sequence[str]) -> Html:
        cells = [self.header, *(self.cells.cell(axis, self.axes.get(axis)) for axis in shown)]
        return element("tr", _lines(cells), {"data-kb-system": self.slug})


@dataclass(frozen=True)
class NoProfileRow:
    """A system without a profile: its name, and one cell across the axes that says so."""

    slug: str
    name: Html

    def html(self, shown: Sequence[str]) -> Html:
        header = element("th", self.name, {"scope": "row"})
        cell = element(
            "td", escape("no profile"), {"class": "kb-cell kb-cell--no-profile", "colspan": str(len(shown))}
        )
        return element("tr", _lines([header, cell]), {"data-kb-system": self.slug})


@dataclass(frozen=True)
class MatrixGroup:
    """The rows of one evidence tier, under a row that names the tier."""

    title: str
    anchor: str
    rows: Sequence[MatrixRow | NoProfileRow]


def _lines(parts: Iterable[Html]) -> Html:
    return NEWLINE + NEWLINE.join(parts) + NEWLINE


def matrix(groups: Sequence[MatrixGroup], shown: Sequence[str], label: str) -> Html:
    """The matrix: one table, one body per group, in a box that scrolls sideways by itself."""
    headers = [element("th", escape("System"), {"scope": "col"})]
    headers += [element("th", axis_header(axis), {"scope": "col", "data-kb-axis": axis}) for axis in shown]
    bodies = []
    for group in groups:
        span = str(len(shown) + 1)
        heading = element(
            "th",
            element("span", escape(group.title)),
            {"scope": "rowgroup", "colspan": span, "id": group.anchor},
        )
        rows = [element("tr", heading, {"class": "kb-matrix__group"})]
        rows += [row.html(shown) for row in group.rows]
        bodies.append(element("tbody", _lines(rows), {"data-kb-group": group.anchor}))
    head = element("thead", _lines([element("tr", _lines(headers))]))
    table = element("table", _lines([head, *bodies]), {"class": "kb-matrix__table"})
    attrs = {"class": "kb-comparison kb-matrix", "role": "region", "aria-label": label, "tabindex": "0"}
    return element("div", _lines([table]), attrs)


def _facet(axis: str, kind: str, value: str, count: int, shown: Html) -> Html:
    label = f"{AXIS_TITLES[axis]}, {value}: {count} {'system' if count == 1 else 'systems'}"
    content = shown + SPACE + element("span", escape(str(count)), {"class": "kb-facet__count"})
    attrs = {
        "type": "button",
        "class": f"kb-facet kb-facet--{kind}",
        "data-kb-axis": axis,
        f"data-kb-{kind}": value,
        "aria-pressed": "false",
        "aria-label": label,
        "title": label,
    }
    return element("button", content, attrs)


def _in_vocabulary_order(axis: str, found: Iterable[str]) -> list[str]:
    """Values in the axis's vocabulary order; one outside it (the checker reports it) last."""
    order = {value: index for index, value in enumerate(AXIS_VALUES.get(axis, ()))}
    return sorted(found, key=lambda value: (order.get(value, len(order)), value))


def facet_counts(rows: Sequence[MatrixRow], axis: str) -> tuple[Counter[str], Counter[str]]:
    """How many systems have each assessment, and each value, on an axis."""
    entries = [entry for row in rows if (entry := row.axes.get(axis)) is not None]
    assessed = Counter(entry.assessment for entry in entries)
    valued = Counter(value for entry in entries for value in dict.fromkeys(entry.values))
    return assessed, valued


def facets(groups: Sequence[MatrixGroup], shown: Sequence[str]) -> Html:
    """The value filter: per axis, each assessment and value some system has, with the
    number of systems that have it, in the vocabularies' order; then the button that
    shows every system again and the line that says how many are shown."""
    rows = [row for group in groups for row in group.rows if isinstance(row, MatrixRow)]
    lines = [
        element(
            "p",
            escape("Keep the systems that have an assessment or a value (the number counts the systems):"),
            {"class": "kb-facets__intro"},
        )
    ]
    for axis in shown:
        assessed, valued = facet_counts(rows, axis)
        buttons = [
            _facet(axis, "assessment", a.value, assessed[a.value], _named(a.value))
            for a in ProfileAssessment
            if assessed[a.value]
        ]
        buttons += [
            _facet(axis, "value", value, valued[value], escape(value))
            for value in _in_vocabulary_order(axis, valued)
        ]
        title = element("span", escape(AXIS_TITLES[axis]), {"class": "kb-facets__axis"})
        attrs = {"class": "kb-facets__group", "role": "group", "aria-label": AXIS_TITLES[axis]}
        lines.append(element("div", _lines([title, *buttons]), attrs))
    clear = element("button", escape("Show all systems"), {"type": "button", "class": "kb-facets__clear"})
    status = element("span", NOTHING, {"class": "kb-facets__status", "role": "status"})
    lines.append(element("p", clear + SPACE + status, {"class": "kb-facets__end"}))
    return element("div", _lines(lines), {"class": "kb-facets", "hidden": "hidden"})


def legend(page: str) -> Html:
    """What the chip styles and the marks mean, each linking to its glossary entry."""
    bases = [
        html_link(
            escape(basis) + _screen_reader(f" ({BASIS_STROKES[basis]})"),
            _glossary(page, ConclusionStatus(basis)),
            ("kb-chip", f"kb-chip--{urls.slugify(basis)}"),
            f"{BASIS_STROKES[basis]} border: {MEANINGS[ConclusionStatus][basis]}",
        )
        for basis in BASIS_VALUES
    ]
    marks = [
        html_link(
            _named(a.value),
            _glossary(page, a),
            ("kb-mark", f"kb-mark--{urls.slugify(a.value)}"),
            MEANINGS[ProfileAssessment][a.value],
        )
        for a in ProfileAssessment
    ]
    lines = [
        element("p", _lines([element("span", escape(title), {"class": "kb-legend__title"}), *items]))
        for title, items in (("Evidence basis of a value:", bases), ("Assessment of an axis:", marks))
    ]
    return element("div", _lines(lines), {"class": "kb-legend"})
