"""Line and column of a character offset in a text: one index of line starts per text."""

from __future__ import annotations

import re
from bisect import bisect_right

_NEWLINE = re.compile("\n")


class LineIndex:
    """Line starts of one text, computed once: each offset is then located by bisection."""

    def __init__(self, text: str) -> None:
        self.starts = [0, *(match.end() for match in _NEWLINE.finditer(text))]

    def position(self, offset: int) -> tuple[int, int]:
        """The 1-based line and column of character ``offset``."""
        row = bisect_right(self.starts, offset) - 1
        return row + 1, offset - self.starts[row] + 1
