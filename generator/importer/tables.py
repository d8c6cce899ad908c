"""Tables of a document: record rows, limitation rows, typed rows or a generic table."""

from __future__ import annotations

from typing import Any

from generator.importer.columns import fold
from generator.importer.recognisers.tables import Row
from generator.model.ids import grammar
from generator.model.prose import ROW_TYPES


def column_meaning(title: str) -> str:
    """A column title (or a header line of titles) as its meaning: case, markup and a
    plural's ``s`` dropped, word by word, so ``Specialist proposal`` and ``specialist
    proposals`` head the same column."""
    folded = fold(title.replace("`", "").replace("*", ""))
    return " ".join(word[:-1] if len(word) > 3 and word.endswith("s") else word for word in folded.split())


TYPED_COLUMNS = {
    kind: [column_meaning(title) for title in row.COLUMNS.values()] for kind, row in ROW_TYPES.items()
}
# Each typed table's column meanings joined by spaces: its header written on one line.
_TYPED_LINES = {kind: " ".join(columns) for kind, columns in TYPED_COLUMNS.items()}


def typed_kind(header: list[str]) -> str | None:
    """The typed table whose column titles mean this header, in order."""
    meant = [column_meaning(cell) for cell in header]
    return next((kind for kind, columns in TYPED_COLUMNS.items() if columns == meant), None)


def typed_kind_of_words(line: str) -> str | None:
    """A typed table whose column titles, joined by spaces, are this line (a table without
    separators), read word by word as ``column_meaning`` reads a header cell."""
    meant = column_meaning(line)
    return next((kind for kind, joined in _TYPED_LINES.items() if joined == meant), None)


def is_id(text: str) -> bool:
    match = grammar().in_text.search(text)
    return match is not None and match.start() == 0 and match.end() == len(text.strip())


def typed_table(kind: str, rows: list[Row], header: list[str] | None = None) -> dict[str, Any] | None:
    """``{kind, headers?, rows}`` with each row a mapping of the row type's fields, or None
    when a cell is empty; ``headers`` the header as written, where it is not the titles."""
    names = list(ROW_TYPES[kind].COLUMNS)
    typed = []
    for row in rows:
        if len(row.cells) != len(names) or not all(cell.strip() for cell in row.cells):
            return None
        typed.append(dict(zip(names, row.cells, strict=True)))
    written = written_headers(header, list(ROW_TYPES[kind].COLUMNS.values()))
    return {"kind": kind, **({"headers": written} if written else {}), "rows": typed}


def written_headers(header: list[str] | None, titles: list[str]) -> list[str] | None:
    """A table's header as the document wrote it, one line per cell, when it heads the same
    columns as ``titles`` but words one of them otherwise; None when it is the titles."""
    if header is None or len(header) != len(titles):
        return None
    written = [" ".join(cell.split()) for cell in header]
    if written == titles or not all(written):
        return None
    return written


def generic_table(header: list[str], rows: list[Row]) -> dict[str, Any]:
    """``{kind: generic, columns, rows}``; a short row is padded, a long row's extra cells join the last."""
    width = len(header)
    cells = []
    for row in rows:
        values = list(row.cells)
        if len(values) > width:
            values = [*values[: width - 1], " | ".join(values[width - 1 :])]
        cells.append(values + [""] * (width - len(values)))
    return {"kind": "generic", "columns": [cell or "—" for cell in header], "rows": cells}
