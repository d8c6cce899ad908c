"""``recognisers/quotes.py``: block quotes and plain paragraphs attributed to a file."""

from __future__ import annotations

import pytest

from generator.importer.recognisers.quotes import attributed_paragraph, block_quote

COMMIT = "0123456789abcdef0123456789abcdef01234567"
DIGEST = "sha256:" + "a" * 64


@pytest.mark.parametrize(
    ("lines", "text", "path", "ranges", "pin", "source"),
    [
        pytest.param(
            ["> line one", f"> --- src/a.py:10-12 @ {COMMIT}"],
            "line one",
            "src/a.py",
            [[10, 12]],
            COMMIT,
            None,
            id="path-lines-commit",
        ),
        pytest.param(
            ["> words", f"> --- `doc.md:81-82` @ `{DIGEST}`"],
            "words",
            "doc.md",
            [[81, 82]],
            DIGEST,
            None,
            id="capture-digest-in-code",
        ),
        pytest.param(
            ["> code", ">     indented", "> — SRC-2 lib/x.py:4"],
            "code\n    indented",
            "lib/x.py",
            [[4, 4]],
            None,
            "SRC-2",
            id="em-dash-source-indentation-kept",
        ),
        pytest.param(
            ["> a", "> --- a.py:1-2,5"], "a", "a.py", [[1, 2], [5, 5]], None, None, id="several-ranges"
        ),
        pytest.param(["> a", "> --- a.py   "], "a", "a.py", [], None, None, id="trailing-spaces"),
        pytest.param(["> a", "> --- a.py\r"], "a", "a.py", [], None, None, id="trailing-cr"),
        pytest.param(
            ["> a", ">", "> b", "> --- a.py"], "a\n\nb", "a.py", [], None, None, id="blank-line-kept"
        ),
    ],
)
def test_an_attributed_block_quote(lines, text, path, ranges, pin, source) -> None:
    quote = block_quote(lines)
    assert (quote.text, quote.path, quote.lines, quote.commit, quote.source) == (
        text,
        path,
        ranges,
        pin,
        source,
    )
    assert quote.attribution == lines[-1].removeprefix("> ").strip()


@pytest.mark.parametrize(
    ("lines", "text"),
    [
        pytest.param(["> no attribution"], "no attribution", id="none"),
        pytest.param([">no space", ">"], "no space", id="no-space-after-marker"),
        pytest.param(["> text", "> — just a dash clause"], "text\n— just a dash clause", id="dash-prose"),
    ],
)
def test_a_block_quote_without_attribution_keeps_its_text(lines: list[str], text: str) -> None:
    quote = block_quote(lines)
    assert (quote.text, quote.path, quote.attribution) == (text, None, "")


# A last line opening with '---' that is no attribution as a whole is the quotation's text:
# dropping it (neither text nor attribution) would lose it (KB612).
@pytest.mark.parametrize(
    "last",
    [
        pytest.param("> --- see the design notes", id="words-after-dashes"),
        pytest.param("> --- a.py @ not-a-commit", id="bad-pin"),
        pytest.param("> --- see the notes --- a.py", id="attribution-after-words"),
    ],
)
def test_a_dash_line_that_is_no_attribution_is_kept(last: str) -> None:
    quote = block_quote(["> Quoted words", last])
    assert last.removeprefix("> ") in quote.text + "\n" + quote.attribution


@pytest.mark.parametrize(
    ("text", "quoted", "path", "source"),
    [
        pytest.param("Some quoted text --- src/a.py:3", "Some quoted text", "src/a.py", None, id="dashes"),
        pytest.param("text — SRC-2 a.py:4", "text", "a.py", "SRC-2", id="em-dash-source"),
        pytest.param(f"Text --- `a.py` @ {COMMIT}", "Text", "a.py", None, id="pinned"),
    ],
)
def test_an_attributed_paragraph(text: str, quoted: str, path: str, source: str | None) -> None:
    quote = attributed_paragraph(text)
    assert quote is not None
    assert (quote.text, quote.path, quote.source) == (quoted, path, source)


@pytest.mark.parametrize(
    "text",
    [
        pytest.param("--- src/a.py", id="attribution-only"),
        pytest.param("Text with — an em dash inside. More", id="em-dash-in-prose"),
        pytest.param("a --- b c", id="words-after"),
        pytest.param("plain prose", id="prose"),
    ],
)
def test_a_paragraph_without_a_closing_attribution_is_no_quotation(text: str) -> None:
    assert attributed_paragraph(text) is None


def test_a_long_quotation_is_read_whole() -> None:
    lines = [f"> line {i}" for i in range(50_000)] + ["> --- a.py:1-2"]
    quote = block_quote(lines)
    assert quote.path == "a.py" and quote.text.count("\n") == 49_999


@pytest.mark.parametrize(
    "text",
    [
        pytest.param("a --- " * 30_000, id="dash-floods"),
        pytest.param("x — " + "SRC-1 " * 30_000, id="source-floods"),
        pytest.param("a ---" + " " * 200_000 + "x y", id="spaces"),
    ],
)
def test_a_large_hostile_paragraph_is_no_quotation(text: str) -> None:
    assert attributed_paragraph(text) is None
