"""Link destinations found in one pass (``model/link_tails.py``) are the ones
markdown-it-py's own scan finds, and record text reads to the same tokens as with the
library's scan and its text rule; a text where no link can close is read without them."""

from __future__ import annotations

import random

import pytest
from markdown_it import MarkdownIt, helpers

from generator.model import inline_markup
from generator.model.inline_markup import has_markup, parse_inline
from generator.model.link_tails import Destinations

ALPHABET = [*"[]()!\\<> \n\tax`*_&-", "](", "\\(", "\\)", "[a](", "![a](", "\\]", "\\\\", "(((", ")))", "<b>"]


def _texts(count: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    return ["".join(rng.choice(ALPHABET) for _ in range(rng.randint(1, 16))) for _ in range(count)]


def _library_reading() -> MarkdownIt:
    """The same rules, with markdown-it-py's own destination scan and text rule."""
    parser = inline_markup._parser(links=True)
    parser.helpers = helpers  # type: ignore[assignment]
    parser.inline.ruler.at("text", inline_markup._text_rule(MarkdownIt().inline.terminator_re))
    return parser


def _merged(tokens: list) -> list[tuple[str, str, object]]:
    """Tokens with adjacent text joined (where a text token ends is no difference)."""
    merged: list[tuple[str, str, object]] = []
    for token in tokens:
        if token.type == "text" and merged and merged[-1][0] == "text":
            merged[-1] = ("text", merged[-1][1] + token.content, None)
        elif token.type != "text" or token.content:
            merged.append((token.type, token.content, token.attrs.get("href")))
    return merged


def test_every_destination_ends_where_the_librarys_scan_ends_it() -> None:
    texts = [*_texts(4000, 11), "[a](" + "(" * 33 + ")" * 33 + ")", "[a](" + "(" * 32 + ")" * 32 + ")"]
    for text in texts:
        for start, end in Destinations.of(text).ends.items():
            scanned = helpers.parseLinkDestination(text, start, len(text))
            assert (end is not None, end) == (scanned.ok, scanned.pos if scanned.ok else None), (text, start)


def test_record_text_reads_as_with_the_librarys_scan() -> None:
    library = _library_reading()
    deep = ["[a](" + "(" * depth + ")" * depth + ")" for depth in (31, 32, 33)]
    for text in [*_texts(4000, 12), *deep, "![a](" * 50 + ")", "[a](" * 50 + " )"]:
        ours = _merged(parse_inline(text))
        parsed = library.parseInline(text, {})
        theirs = _merged(list(parsed[0].children or []) if parsed else [])
        assert ours == theirs, text


@pytest.mark.parametrize("unit", ["![a](", "[a](", "![a](x", "![a](x ", "[a](((x", "!["])
def test_a_text_where_no_link_can_close_has_no_markup(unit: str) -> None:
    text = unit * 1000
    assert not Destinations.of(text).may_link
    assert not has_markup(text)
    assert [token.type for token in parse_inline(text)] == ["text"]


def test_a_link_that_can_close_is_read() -> None:
    for text in ("![a](" * 100 + ")", "![a](x " * 100 + ")", '[a](b "c")', "[a](<b>)", "[a]()"):
        assert has_markup(text), text
