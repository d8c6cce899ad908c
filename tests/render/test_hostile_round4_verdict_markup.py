"""A moved verdict shows two sentences of record text and two section titles on the
changes page: none of it may act. Sentence text goes through the record text's renderer
with links unlinked, titles through the one escaper, and section links through the one
link builder, which refuses anything but the site's own and http(s) URLs."""

from __future__ import annotations

from generator.graph import verdict_diff
from generator.graph.verdict_diff import VerdictMove
from generator.render.run_verdicts import verdict_blocks


def _move(old: str, new: str, title: str = "Bounded synthesis") -> VerdictMove:
    before = verdict_diff._sentence("result", "bounded_synthesis", title, old)
    after = verdict_diff._sentence("overview", "bounded_synthesis", title, new)
    return VerdictMove("synthesis", "reversed", before, after, 50.0)


def _page(move: VerdictMove, href: str = "../old/result/#bounded-synthesis") -> str:
    (block,) = verdict_blocks((move,), lambda d, s: href, lambda d, s: href)
    return str(block)


def test_script_in_a_sentence_is_text() -> None:
    page = _page(_move("Reflection is wired <script>alert(1)</script>.", "Reflection is not wired."))
    assert "<script>" not in page and "&lt;script&gt;" in page


def test_a_link_in_a_sentence_links_nothing() -> None:
    old, new = "Reflection is [wired](javascript:alert(1)).", "Reflection is not [wired](https://x.test/)."
    page = _page(_move(old, new))
    assert 'href="javascript' not in page and 'href="https://x.test/' not in page


def test_a_title_with_markup_and_a_hostile_section_href_are_inert() -> None:
    move = _move("Reflection is wired.", "Reflection is not wired.", title='<img src=x onerror="alert(1)">')
    page = _page(move, href="javascript:alert(1)")
    assert "<img" not in page and 'onerror="' not in page
    assert 'href="javascript' not in page


def test_a_sentence_holds_no_line_break_or_blank_line() -> None:
    page = _page(_move("Reflection is wired.\n\n<div>", "Reflection is not wired.\n\n# heading"))
    assert "\n\n" not in page and "<div>" not in page
