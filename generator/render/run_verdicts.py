"""The verdicts that moved, on a changes page: each sentence of one run's conclusions
whose claim reversed or whose status words changed in the next run, both sentences shown
and each linked to its section's anchor on its run's pages.

``verdict_blocks(moves, old_section_href, new_section_href)`` gives one raw HTML block per
move (``graph/verdict_diff.py`` finds them); a section href callable takes a document key
and a section key and gives the final URL of the section's anchor, or None for no link.
Every link goes through ``link_markup.html_link``; sentence text is formatted as record
text is, linking nothing (``inline_form.html_unlinked``).
"""

from __future__ import annotations

from collections.abc import Callable

from generator.graph.verdict_diff import Sentence, VerdictMove
from generator.render.inline_form import html_unlinked
from generator.render.link_markup import html_link
from generator.render.rawhtml import Html, element
from generator.render.rawhtml import escape as html_escape

SectionHref = Callable[[str, str], str | None]

_CHANGE = {"reversed": "claim reversed", "status changed": "status words changed"}


def verdict_blocks(
    moves: tuple[VerdictMove, ...], old_href: SectionHref, new_href: SectionHref
) -> list[Html]:
    """One block per moved verdict, in the diff's order."""
    return [_block(move, old_href, new_href) for move in moves]


def _block(move: VerdictMove, old_href: SectionHref, new_href: SectionHref) -> Html:
    head = element(
        "p",
        element("strong", html_escape(f"{move.role.capitalize()}: {_CHANGE.get(move.change, move.change)}"))
        + html_escape(f" ({move.old.verdict} → {move.new.verdict})"),
    )
    lines = [
        head,
        _side("Old run", move.old, old_href, "kb-diff__del"),
        _side("New run", move.new, new_href, "kb-diff__ins"),
    ]
    inner = Html("\n") + Html("\n").join(lines) + Html("\n")
    return element("div", inner, {"class": "kb-diff kb-diff--verdict"})


def _side(run: str, sentence: Sentence, href: SectionHref, css: str) -> Html:
    where = html_link(html_escape(sentence.title), href(sentence.document, sentence.section))
    text = element("span", html_unlinked(" ".join(sentence.text.split())), {"class": css})
    parts = element("strong", html_escape(run)) + html_escape(" (") + where + html_escape("): ") + text
    return element("p", parts)
