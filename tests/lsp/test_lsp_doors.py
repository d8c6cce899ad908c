"""The editor's doors without a server: the frame reader's recovery, the per-line position
tables, and the one link builder's refusal of the sources the check refuses."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path

import pytest
from lsp_hostile_support import GOOD_SOURCE, HOSTILE_SOURCES, REVISION, links_system
from lsprotocol import types

from generator.lsp.analysis import analyse
from generator.lsp.positions import LineUnits
from generator.lsp.stream import MAX_BODY_BYTES, FrameReader, Refusal, frames
from generator.model.url_policy import links_refusal, source_links
from generator.render.link_markup import web_target


def _read(chunks: list[bytes]) -> list[bytes | Refusal]:
    """Every frame of a stream that arrives in ``chunks``."""
    pending: Iterator[bytes] = iter(chunks)

    async def some() -> bytes:
        return next(pending, b"")

    async def collect() -> list[bytes | Refusal]:
        return [frame async for frame in frames(FrameReader(some))]

    return asyncio.run(collect())


def _frame(body: bytes) -> bytes:
    return b"Content-Length: %d\r\nContent-Type: application/vscode-jsonrpc\r\n\r\n" % len(body) + body


GOOD = b'{"jsonrpc": "2.0", "id": 1, "method": "shutdown"}'


@pytest.mark.parametrize(
    ("bad", "refused"),
    [
        (b"Content-Length: abc\r\n\r\n{}", ["malformed Content-Length header"]),
        (b"Content-Length: 3\r\n\r\n" + GOOD, [b'{"j']),
        (b"Content-Length: 5000\r\n\r\n" + GOOD, ["runs into the next message's header"]),
        (b"Content-Length: %d\r\n\r\n" % (MAX_BODY_BYTES + 1), ["is over the limit"]),
        (b"\x00garbage" * 20_000 + b"\r\n\r\n", []),
    ],
    ids=["not-a-number", "too-short", "too-long", "over-the-cap", "garbage"],
)
def test_the_reader_finds_the_next_message_after_a_malformed_frame(bad: bytes, refused: list[object]) -> None:
    for chunks in ([bad + _frame(GOOD)], [bad, _frame(GOOD)], [bytes([b]) for b in bad + _frame(GOOD)]):
        found = _read(chunks)
        assert found[-1] == GOOD, found[-3:]
        before = found[:-1]
        assert len(before) == len(refused)
        for frame, expected in zip(before, refused, strict=True):
            if isinstance(expected, bytes):
                assert frame == expected
            else:
                assert isinstance(frame, Refusal) and str(expected) in frame.reason


def test_a_header_split_across_reads_is_found() -> None:
    stream = _frame(GOOD) * 3
    assert _read([stream[i : i + 7] for i in range(0, len(stream), 7)]) == [GOOD] * 3


def test_positions_count_client_units_per_line() -> None:
    text = "a: 1\nb: '\U0001f600é RTE-1'\n"
    utf16 = LineUnits(text, types.PositionEncodingKind.Utf16)
    column = text.split("\n")[1].index("RTE-1")
    assert utf16.to_client(1, column) == types.Position(line=1, character=column + 1)  # the emoji: 2 units
    assert utf16.from_client(types.Position(line=1, character=column + 1)) == (1, column)
    assert utf16.from_client(types.Position(line=1, character=5)) == (1, 5)  # inside the pair: after it
    utf8 = LineUnits(text, types.PositionEncodingKind.Utf8)
    assert utf8.to_client(1, column).character == column + 3 + 1  # 4 bytes, then 2 for é
    utf32 = LineUnits(text, types.PositionEncodingKind.Utf32)
    assert utf32.to_client(1, column).character == column
    assert utf16.to_client(9, 0) == types.Position(line=2, character=0)  # past the end, as pygls
    assert utf16.from_client(types.Position(line=9, character=0)) == (1, len(text.split("\n")[1]))


def test_lines_break_at_lf_alone_as_the_analysis_counts_them() -> None:
    units = LineUnits("a\u2028b\x85c\nd", types.PositionEncodingKind.Utf16)
    assert units.lines == ["a\u2028b\x85c\n", "d"]


@pytest.mark.parametrize("source_id", sorted(HOSTILE_SOURCES))
def test_the_link_builder_refuses_what_the_check_refuses(source_id: str, tmp_path: Path) -> None:
    links, location, template = HOSTILE_SOURCES[source_id]
    assert links_refusal(links, location, template) is not None
    built = source_links(links, location, REVISION, template)
    assert built.file("src/loop.ts", 1, 2) is None and built.tree(REVISION) is None


def test_a_good_source_links_and_the_editor_takes_only_web_targets(tmp_path: Path) -> None:
    assert links_refusal(None, GOOD_SOURCE, None) is None
    url = source_links(None, GOOD_SOURCE, REVISION, None).file("src/a b.ts", 3, 4)
    assert url is not None and web_target(url) == url.replace(" ", "%20")
    for target in ("command:x", "javascript:alert(1)", "/systems/demo/", "//evil.example/x", "https:x"):
        assert web_target(target) is None
    links_system(tmp_path / "records" / "links")
    analysis = analyse(tmp_path / "records" / "links", tmp_path)
    assert {link.url.split("/blob/")[0] for link in analysis.links} == {GOOD_SOURCE}
    refused = {d.code for d in analysis.checked.diagnostics if d.code in ("KB406", "KB407")}
    assert refused == {"KB406", "KB407"}
