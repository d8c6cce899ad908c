"""The quick paths of the renderer and the record index give what their general paths give.

Each quick path skips work for the common case (text without markers, without fences,
without any character to escape, tokens already read once); these tests hold each to its
general path on random and hostile text, so the pages and the index stay byte for byte
what they were.
"""

from __future__ import annotations

import random
from enum import StrEnum
from pathlib import Path

import pytest
from markupsafe import Markup

from generator.model.ids import grammar
from generator.model.inline_markup import ACTIVE, has_markup, normalized, parse_inline
from generator.outputs import search
from generator.outputs.record_index import FieldTerms
from generator.pipeline import link_records
from generator.render import environment, rawhtml
from generator.render.inline_form import write
from generator.render.text import Linker

ROOT = Path(__file__).resolve().parents[2]

# Pieces record text is made of: words, IDs of the shipped systems (declared or not),
# evidence anchors, characters HTML or Markdown act on, blank lines, fences.
PIECES = [
    "the",
    "runtime",
    "loop",
    "RTE-1",
    "RTE-999",
    "CMP-1",
    "OMP-RTE-knowledge-store",
    "SRC-1 src/agent/loop.ts:3-9",
    "SRC-1 §3.1",
    "SRC-2 README.md",
    "self-hosted",
    "<b>",
    "&amp;",
    '"q"',
    "'s",
    "{x}",
    "`",
    "~~~",
    " ",
    "  ",
    "\t",
    "\n",
    "\n\n",
    "\n  \n",
    "\u00a0",
    "\u2003",
    "İ",
    "Ärger",
    "x" * 210,
    "a-b-c",
    "-",
    "--",
]


def _texts(seed: int, count: int, length: int) -> list[str]:
    chooser = random.Random(seed)
    return [
        "".join(chooser.choice(PIECES) + chooser.choice(["", " "]) for _ in range(chooser.randint(0, length)))
        for _ in range(count)
    ]


def _translated(text: str) -> str:
    """The escaping as one table of strings writes it: the general form."""
    table = str.maketrans(dict(rawhtml._ENTITIES))
    return str.__str__(text).translate(table)


@pytest.mark.parametrize("seed", range(5))
def test_html_escape_replaces_what_a_translation_table_replaces(seed: int) -> None:
    for text in _texts(seed, 300, 12):
        escaped = rawhtml.escape(text)
        assert type(escaped) is rawhtml.Html
        assert escaped == _translated(text)


def test_html_escape_reads_a_safe_string_s_own_characters() -> None:
    """A Markup's replace escapes its arguments; the entities must come out once."""

    class Shade(StrEnum):
        DARK = "a<b & {c}"

    assert rawhtml.escape(Markup("a<b>&")) == "a&lt;b&gt;&amp;"
    assert rawhtml.escape(Shade.DARK) == "a&lt;b &amp; &#123;c&#125;"


@pytest.fixture(scope="module")
def shipped_linkers() -> list[Linker]:
    result = link_records(ROOT / "records")
    assert not result.errors
    return [
        Linker(graph, page, html=html)
        for graph in result.graphs
        for page in ("result", "index")
        for html in (True, False)
    ]


@pytest.mark.parametrize("seed", range(3))
def test_unmarked_text_is_written_as_its_tokens_are(shipped_linkers: list[Linker], seed: int) -> None:
    texts = [text for text in _texts(seed, 200, 10) if "`" not in text]
    for linker in shipped_linkers:
        for text in texts:
            plain = normalized(text)
            found = linker._spans(plain)
            spans = [(start, end) for start, end, _ in found]
            general = write(linker.form, parse_inline(plain, spans), linker._inline(plain, found))
            quick = linker.inline(text)
            assert quick == general
            assert type(quick) is type(general)


def test_spans_without_anchors_are_those_the_general_search_finds(shipped_linkers: list[Linker]) -> None:
    """Where a text holds no anchor, the IDs are found without the overlap test: the same spans."""
    for linker in shipped_linkers[:2]:
        for text in _texts(7, 300, 10):
            plain = normalized(text)
            found = linker._spans(plain)
            starts = [start for start, _, _ in found]
            assert starts == sorted(starts)
            assert all(end <= next_start for (_, end, _), next_start in zip(found, starts[1:], strict=False))


@pytest.mark.parametrize("seed", range(3))
def test_markup_is_found_where_the_set_of_markers_meets_the_text(seed: int) -> None:
    for text in [*_texts(seed, 500, 12), "", "plain", "\\", "a*b", "`", "[x"]:
        assert has_markup(text) == bool(ACTIVE.intersection(text)), repr(text)


def _tidied_line_by_line(markdown: str) -> str:
    """The tidier's general path, as if every page held a fence."""
    return environment._tidy(markdown + "\n```\n```")[: -len("```\n```\n")].rstrip("\n") + "\n"


@pytest.mark.parametrize("seed", range(5))
def test_a_page_without_a_fence_is_tidied_as_line_by_line(seed: int) -> None:
    for text in _texts(seed, 300, 20):
        if "`" in text:
            continue
        assert environment._tidy(text) == _tidied_line_by_line(text)
        assert environment._tidy(text.replace("\n", "\r\n")) == _tidied_line_by_line(text)


def _index_tokens_as_written(text: str) -> list[str]:
    """The index's words as they were first written: the query tokens, then each hyphenated
    token's parts unless it is a numbered ID."""
    parted: list[str] = []
    for token in search.tokens(text):
        parted.append(token)
        if "-" in token and not grammar().numbered.match(token.upper()):
            parted.extend(part for part in token.split("-") if part)
    return parted


@pytest.mark.parametrize("seed", range(5))
def test_text_terms_count_what_the_index_tokens_count(seed: int) -> None:
    for text in _texts(seed, 300, 30):
        assert search.index_tokens(text) == _index_tokens_as_written(text)
        assert search.text_terms(text) == FieldTerms.of(_index_tokens_as_written(text))


def test_text_terms_stay_right_when_their_memo_is_emptied(monkeypatch: pytest.MonkeyPatch) -> None:
    """The memo holds at most its bound, or the distinct tokens of the longest text read."""
    monkeypatch.setattr(search, "_TOKEN_TERMS", {})
    monkeypatch.setattr(search, "_TOKEN_TERMS_KEPT", 5)
    widest = 0
    for text in _texts(11, 200, 30):
        assert search.text_terms(text) == FieldTerms.of(_index_tokens_as_written(text))
        widest = max(widest, len(set(search.TOKEN.findall(text))))
        assert all(len(memo) <= max(5, widest) for memo in search._TOKEN_TERMS.values())
