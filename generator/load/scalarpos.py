"""Where a character of a YAML string value was written: its source line and column.

A scalar's value is not its source text: block scalars drop indentation, folded and
flow scalars join lines with a space or a line break, quoted scalars decode escapes.
The source lines of a scalar are matched, one by one, against the value: each line's
content (indentation, the folding whitespace and the quotes removed, escapes decoded)
is found in the value right after the previous line's content, separated only by
whitespace. Each match is a segment mapping value offsets to source columns exactly.
When a line cannot be matched (an escape that does not decode here, an unexpected
layout), mapping stops there: offsets after it are placed at the scalar's start,
never on a wrong line. Work is linear in the scalar's size.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable
from dataclasses import dataclass

_SIMPLE_ESCAPES = {
    "0": "\0",
    "a": "\a",
    "b": "\b",
    "t": "\t",
    "\t": "\t",
    "n": "\n",
    "v": "\v",
    "f": "\f",
    "r": "\r",
    "e": "\x1b",
    " ": " ",
    '"': '"',
    "/": "/",
    "\\": "\\",
    "N": "\x85",
    "_": "\xa0",
    "L": "\u2028",
    "P": "\u2029",
}
_HEX_ESCAPES = {"x": 2, "u": 4, "U": 8}


@dataclass(frozen=True, slots=True)
class ScalarSpan:
    """A scalar's place in its file: start (the indicator or opening quote), end, style."""

    line: int  # 1-based
    col: int  # 1-based
    end_line: int
    end_col: int  # 1-based, just after the scalar
    style: str | None  # None plain, '|' literal, '>' folded, quote characters


@dataclass(frozen=True, slots=True)
class _Segment:
    """One source line's content inside the value: value offset, row, columns."""

    offset: int
    row: int  # 1-based line
    first: int  # 0-based source index of the first character (when columns is None)
    length: int
    columns: tuple[int, ...] | None  # 0-based source index of each character, when not contiguous


def scalar_locator(lines: list[str], span: ScalarSpan, value: str) -> Callable[[int], tuple[int, int]]:
    """A function from an offset in ``value`` to the 1-based line and column that wrote it."""
    segments, complete = _segments(lines, span, value)
    starts = [segment.offset for segment in segments]
    fallback = (span.line, span.col)

    def locate(offset: int) -> tuple[int, int]:
        index = bisect_right(starts, offset) - 1
        if index < 0:
            return fallback
        segment = segments[index]
        inside = offset - segment.offset
        if inside < segment.length:
            column = segment.columns[inside] if segment.columns is not None else segment.first + inside
            return segment.row, column + 1
        if index == len(segments) - 1 and not complete:
            return fallback  # past the last line that could be matched
        return segment.row, _end_column(segment) + 1  # the separator after this line

    return locate


def _end_column(segment: _Segment) -> int:
    if segment.columns is not None and segment.columns:
        return segment.columns[-1] + 1
    return segment.first + segment.length


def _segments(lines: list[str], span: ScalarSpan, value: str) -> tuple[list[_Segment], bool]:
    """The matched segments, and whether every source line of the scalar matched."""
    segments: list[_Segment] = []
    cursor = 0
    block = span.style in ("|", ">")
    first_row = span.line + 1 if block else span.line
    for row in range(first_row, span.end_line + 1):
        raw = lines[row - 1] if row - 1 < len(lines) else ""
        if row == span.end_line:
            raw = raw[: span.end_col - 1]
        piece = _block_content(raw) if block else _flow_content(raw, row, span)
        if piece is None:
            return segments, False
        first, text, columns = piece
        if not text.strip():
            continue
        found = value.find(text, cursor)
        if found < 0 or value[cursor:found].strip():
            return segments, False
        segments.append(_Segment(found, row, first, len(text), columns))
        cursor = found + len(text)
    return segments, True


def _block_content(raw: str) -> tuple[int, str, tuple[int, ...] | None]:
    # Indentation is not content; spaces beyond it are, and are then part of the gap.
    text = raw.lstrip(" ")
    return len(raw) - len(text), text, None


def _flow_content(raw: str, row: int, span: ScalarSpan) -> tuple[int, str, tuple[int, ...] | None] | None:
    """A plain or quoted scalar's content on one line: leading and trailing blanks are folding."""
    quoted = span.style in ("'", '"')
    start = span.col - 1 + (1 if quoted else 0) if row == span.line else 0
    end = len(raw)
    if quoted and row == span.end_line:
        end -= 1  # the closing quote
    text = raw[start:end]
    stripped = text.lstrip(" \t")
    start += len(text) - len(stripped)
    if span.style != '"' or not stripped.rstrip(" \t").endswith("\\"):
        stripped = stripped.rstrip(" \t")
    if span.style == "'":
        return _decode(stripped, start, _single_quoted)
    if span.style == '"':
        return _decode(stripped, start, _double_quoted)
    return start, stripped, None


def _decode(
    text: str, start: int, decoder: Callable[[str], tuple[str, list[int]] | None]
) -> tuple[int, str, tuple[int, ...] | None] | None:
    if "'" not in text and "\\" not in text:
        return start, text, None
    decoded = decoder(text)
    if decoded is None:
        return None
    chars, columns = decoded
    return start, chars, tuple(start + index for index in columns)


def _single_quoted(text: str) -> tuple[str, list[int]]:
    chars: list[str] = []
    columns: list[int] = []
    index = 0
    while index < len(text):
        chars.append(text[index])
        columns.append(index)
        index += 2 if text.startswith("''", index) else 1
    return "".join(chars), columns


def _double_quoted(text: str) -> tuple[str, list[int]] | None:
    """Decode one line of a double-quoted scalar; None for an escape not decoded here."""
    chars: list[str] = []
    columns: list[int] = []
    index = 0
    while index < len(text):
        char = text[index]
        if char != "\\":
            chars.append(char)
            columns.append(index)
            index += 1
            continue
        code = text[index + 1 : index + 2]
        if code == "":
            break  # an escaped line break: the next line continues without a space
        if code in _SIMPLE_ESCAPES:
            chars.append(_SIMPLE_ESCAPES[code])
            columns.append(index)
            index += 2
            continue
        width = _HEX_ESCAPES.get(code)
        digits = text[index + 2 : index + 2 + width] if width else ""
        if not width or len(digits) != width or not all(c in "0123456789abcdefABCDEF" for c in digits):
            return None
        chars.append(chr(int(digits, 16)) if int(digits, 16) <= 0x10FFFF else "\ufffd")
        columns.append(index)
        index += 2 + width
    return "".join(chars), columns
