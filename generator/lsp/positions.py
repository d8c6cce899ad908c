"""Positions between the analysis and the client: 0-based lines and character columns on one
side, the client's units (UTF-16 unless negotiated otherwise) on the other, converted with
the lines the client holds for an open file and the lines read for any other.

A conversion is a lookup, never a count: each version of a document gets one ``LineUnits``,
which splits its text into lines once and, for a line that is not ASCII, builds the running
count of client units once. pygls' codec counts the units of a line's prefix on every call,
so converting thousands of spans on one long line took time quadratic in the line.
"""

from __future__ import annotations

import bisect
from collections import OrderedDict
from collections.abc import Callable
from itertools import accumulate
from pathlib import Path
from urllib.parse import unquote

from lsprotocol import types
from pygls.uris import from_fs_path
from pygls.workspace import Workspace

from generator.lsp.analysis import Span
from generator.lsp.workspace import RecordsWorkspace

KEPT_DOCUMENTS = 64  # line tables kept between requests (open files and the latest others)


def _units_utf16(character: str) -> int:
    return 2 if ord(character) > 0xFFFF else 1


def _units_utf8(character: str) -> int:
    return len(character.encode("utf-8", errors="surrogatepass"))


def _counter(encoding: str | None) -> Callable[[str], int] | None:
    """The client units of one character in the negotiated encoding (None: one per character)."""
    if encoding == types.PositionEncodingKind.Utf8:
        return _units_utf8
    if encoding == types.PositionEncodingKind.Utf32:
        return None
    return _units_utf16


class LineUnits:
    """One version of a document's text: its lines (split at LF, as the analysis counts them,
    each keeping its line break) and the client units before each character of a line."""

    def __init__(self, text: str, encoding: str | None) -> None:
        parts = text.split("\n")
        self.lines = [part + "\n" for part in parts[:-1]] + ([parts[-1]] if parts[-1] else [])
        self._count = _counter(encoding)
        self._offsets: dict[int, list[int] | None] = {}

    def _table(self, line: int) -> list[int] | None:
        """Units before each character of the line and after its last (None: one unit each)."""
        if line in self._offsets:
            return self._offsets[line]
        text = self.lines[line]
        count = self._count
        table = None if count is None or text.isascii() else list(accumulate(map(count, text), initial=0))
        self._offsets[line] = table
        return table

    def to_client(self, line: int, character: int) -> types.Position:
        if not 0 <= line < len(self.lines):
            return types.Position(line=len(self.lines), character=0)
        character = min(max(character, 0), len(self.lines[line]))
        table = self._table(line)
        return types.Position(line=line, character=character if table is None else table[character])

    def from_client(self, position: types.Position) -> tuple[int, int]:
        if not self.lines:
            return 0, 0
        if position.line >= len(self.lines):
            last = len(self.lines) - 1
            return last, len(self.lines[last].rstrip("\r\n"))
        text = self.lines[position.line].rstrip("\r\n")
        table = self._table(position.line)
        if table is None:
            return position.line, min(position.character, len(text))
        # The character whose units reach the position (one inside a surrogate pair: after it).
        column = bisect.bisect_left(table, position.character)
        return position.line, min(column, len(text))


class LineTables:
    """The ``LineUnits`` of recent document versions, by path: one per text, made once."""

    def __init__(self) -> None:
        self._kept: OrderedDict[Path, tuple[str, str | None, LineUnits]] = OrderedDict()

    def of(self, path: Path, text: str, encoding: str | None) -> LineUnits:
        known = self._kept.get(path)
        if known is not None and known[0] is text and known[1] == encoding:
            self._kept.move_to_end(path)
            return known[2]
        made = LineUnits(text, encoding)
        self._kept[path] = (text, encoding, made)
        self._kept.move_to_end(path)
        while len(self._kept) > KEPT_DOCUMENTS:
            self._kept.popitem(last=False)
        return made


class Positions:
    """Converts spans and positions for one request."""

    def __init__(self, workspace: Workspace, records: RecordsWorkspace, tables: LineTables) -> None:
        self._workspace = workspace
        self._records = records
        self._tables = tables
        self._units: dict[Path, LineUnits] = {}

    @staticmethod
    def uri(path: Path) -> str:
        return str(from_fs_path(str(path)))

    def text(self, path: Path) -> str:
        """The file's text as the client holds it (open) or as its analysis read it ('' when
        none did): never read from disk here, so nothing passes the loader's door."""
        document = self._workspace.text_documents.get(unquote(self.uri(path)))  # pygls' keys
        return document.source if document is not None else self._records.kept_text(path)

    def units(self, path: Path) -> LineUnits:
        found = self._units.get(path)
        if found is None:
            encoding = self._workspace.position_codec.encoding
            found = self._tables.of(path, self.text(path), str(encoding) if encoding else None)
            self._units[path] = found
        return found

    def lines(self, path: Path) -> list[str]:
        """The file's lines, each with its line break."""
        return self.units(path).lines

    def position(self, path: Path, line: int, character: int) -> types.Position:
        return self.units(path).to_client(line, character)

    def range(self, span: Span) -> types.Range:
        units = self.units(span.path)
        return types.Range(
            start=units.to_client(span.line, span.start), end=units.to_client(span.line, span.end)
        )

    def location(self, span: Span) -> types.Location:
        return types.Location(uri=self.uri(span.path), range=self.range(span))

    def server(self, path: Path, position: types.Position) -> tuple[int, int]:
        """A client position as (line, character column)."""
        return self.units(path).from_client(position)
