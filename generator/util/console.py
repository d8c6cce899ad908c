"""Plain-text output through rich: record text and paths are never read as markup or emoji."""

from __future__ import annotations

import re
import sys
from typing import IO

from rich.console import Console
from rich.text import Text

# A CI runner reads a line of a step's output as a workflow command when, after leading
# white space, it starts with '::' (GitHub Actions' '::error file=…::', '::add-mask::',
# '::stop-commands::'), and anywhere it holds '##[' (the older form). Human output prints
# record text and folder names, so no line of it may do either: the marks are escaped.
_COMMAND_START = re.compile(r"^(\s*)::")
_OLD_COMMAND = "##["


def inert_line(line: str) -> str:
    """A line of human output that no CI runner reads as a workflow command."""
    if _OLD_COMMAND in line:
        line = line.replace(_OLD_COMMAND, "##\\[")
    return _COMMAND_START.sub(r"\1\\::", line)


class InertStream:
    """A text stream that writes whole lines, each made inert (``inert_line``); what is left
    without a line break is written when the stream is flushed."""

    def __init__(self, stream: IO[str]) -> None:
        self._stream = stream
        self._pending = ""

    def write(self, text: str) -> int:
        self._pending += text
        if "\n" in self._pending:
            *lines, self._pending = self._pending.split("\n")
            self._stream.write("".join(inert_line(line) + "\n" for line in lines))
        return len(text)

    def flush(self) -> None:
        if self._pending:
            self._stream.write(inert_line(self._pending))
            self._pending = ""
        self._stream.flush()

    def isatty(self) -> bool:
        return self._stream.isatty()

    def fileno(self) -> int:
        return self._stream.fileno()

    @property
    def encoding(self) -> str:
        return getattr(self._stream, "encoding", "utf-8")


def human_console(stderr: bool = False) -> Console:
    """A console for human output: plain text, no emoji, every line inert for CI runners."""
    stream = InertStream(sys.stderr if stderr else sys.stdout)
    return Console(file=stream, highlight=False, emoji=False, stderr=stderr)  # type: ignore[arg-type]


def say(console: Console, message: str, style: str | None = None) -> None:
    """Print ``message`` exactly as written (a ``Text`` is neither markup nor emoji), in one style."""
    console.print(Text(message, style=style or ""), soft_wrap=True, highlight=False)
