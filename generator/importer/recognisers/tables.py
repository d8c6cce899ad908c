"""Tables: Markdown pipe tables and the seeds' tab-separated tables.

A pipe row is ``| a | b |``; its closing pipe is required (a row without it is reported as
unterminated, and its cells are still read). A Markdown separator row (``|---|---|``) is
dropped. A tab row is any line holding a tab. Both forms may mix in one table: the seeds
carry a pipe row among tab rows.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from generator.model.code_spans import find_code_spans

_RULE_CELL = re.compile(r":?-+:?")


def is_separator_row(line: str, dashes: int = 3) -> bool:
    """A Markdown table's separator row (``|---|:--:|``): every cell dashes, with optional
    alignment colons. Read cell by cell (one pass), never by one pattern over the line,
    whose adjacent optional spaces would backtrack quadratically on a long run of spaces."""
    text = line.strip()
    if text.startswith("|"):
        text = text[1:]
    if text.endswith("|"):
        text = text[:-1]
    cells = [cell.strip() for cell in text.split("|")]
    return bool(cells) and all(
        _RULE_CELL.fullmatch(cell) is not None and cell.count("-") >= dashes for cell in cells
    )


def is_table_line(line: str) -> bool:
    """A line that belongs to a table: a pipe row or a row of tab-separated cells."""
    stripped = line.strip()
    return stripped.startswith("|") or ("\t" in stripped and not line.startswith(("\t", " ")))


@dataclass(frozen=True)
class Row:
    cells: list[str]
    line: int
    unterminated: bool = False


def table_rows(lines: list[str], first_line: int) -> list[Row]:
    """The rows of a table block (separator rows dropped), each with its line number."""
    rows: list[Row] = []
    for offset, line in enumerate(lines):
        if not line.strip() or is_separator_row(line):
            continue
        stripped = line.strip()
        if stripped.startswith("|"):
            unterminated = not stripped.endswith("|") or len(stripped) == 1
            inner = stripped[1:-1] if not unterminated else stripped[1:]
            cells = [cell.strip() for cell in _split_pipes(inner)]
            rows.append(Row(cells, first_line + offset, unterminated))
        else:
            rows.append(Row([cell.strip() for cell in stripped.split("\t")], first_line + offset))
    return rows


def _split_pipes(text: str) -> list[str]:
    """Split on ``|`` except an escaped ``\\|`` (read as ``|``) or one inside a code span
    (CommonMark's rule: a backtick run closed by the next run of its length; a backtick
    that opens no span is a character of its cell)."""
    spans = find_code_spans(text)
    cells: list[str] = []
    current: list[str] = []
    span, index = 0, 0
    while index < len(text):
        char = text[index]
        if char == "\\" and index + 1 < len(text) and text[index + 1] == "|":
            current.append("|")
            index += 2
            continue
        while span < len(spans) and spans[span][1] <= index:
            span += 1
        if char == "|" and not (span < len(spans) and spans[span][0] <= index):
            cells.append("".join(current))
            current = []
        else:
            current.append(char)
        index += 1
    cells.append("".join(current))
    return cells


def reflow(rows: list[Row], width: int) -> list[Row]:
    """Split a pipe line holding several rows (``| a | b | | c | d |``) into its rows."""
    out: list[Row] = []
    for row in rows:
        cells = row.cells
        step = width + 1
        joined = width > 1 and len(cells) > width and (len(cells) + 1) % step == 0
        if not joined or any(cells[i] for i in range(width, len(cells), step)):
            out.append(row)
            continue
        for start in range(0, len(cells), step):
            out.append(Row(cells[start : start + width], row.line, row.unterminated))
    return out
