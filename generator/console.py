"""Plain-text output through rich: record text and paths are never read as markup or emoji."""

from __future__ import annotations

from rich.console import Console
from rich.text import Text


def say(console: Console, message: str, style: str | None = None) -> None:
    """Print ``message`` exactly as written (a ``Text`` is neither markup nor emoji), in one style."""
    console.print(Text(message, style=style or ""), soft_wrap=True, highlight=False)
