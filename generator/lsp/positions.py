"""Positions between the analysis and the client: 0-based lines and character columns on one
side, the client's units (UTF-16 unless negotiated otherwise) on the other, converted with
the lines the client holds for an open file and the lines read for any other."""

from __future__ import annotations

from pathlib import Path

from lsprotocol import types
from pygls.uris import from_fs_path
from pygls.workspace import ServerTextPosition, Workspace

from generator.lsp.analysis import Span
from generator.lsp.workspace import RecordsWorkspace


class Positions:
    """Converts spans and positions for one request."""

    def __init__(self, workspace: Workspace, records: RecordsWorkspace) -> None:
        self._workspace = workspace
        self._records = records
        self._lines: dict[Path, list[str]] = {}

    @staticmethod
    def uri(path: Path) -> str:
        return str(from_fs_path(str(path)))

    def lines(self, path: Path) -> list[str]:
        """The file's lines as the client holds them (open) or as they were read."""
        found = self._lines.get(path)
        if found is None:
            document = self._workspace.text_documents.get(self.uri(path))
            if document is not None:
                found = document.lines
            else:
                found = self._records.kept_text(path).splitlines(keepends=True)
            self._lines[path] = found
        return found

    def position(self, path: Path, line: int, character: int) -> types.Position:
        codec = self._workspace.position_codec
        return codec.position_to_client_units(self.lines(path), ServerTextPosition(line, character))

    def range(self, span: Span) -> types.Range:
        return types.Range(
            start=self.position(span.path, span.line, span.start),
            end=self.position(span.path, span.line, span.end),
        )

    def location(self, span: Span) -> types.Location:
        return types.Location(uri=self.uri(span.path), range=self.range(span))

    def server(self, path: Path, position: types.Position) -> tuple[int, int]:
        """A client position as (line, character column)."""
        found = self._workspace.position_codec.position_from_client_units(self.lines(path), position)
        return found.line, found.character
