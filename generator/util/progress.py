"""A progress bar for long steps (fetching sources, checking a site's pages).

Shown only on a terminal: in CI logs and pipes it prints nothing at all.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TaskID, TextColumn


@contextmanager
def progress_bar(console: Console, description: str, total: int) -> Iterator[tuple[Progress, TaskID]]:
    """A transient bar on ``console`` with one task of ``total`` steps; silent when not a terminal."""
    progress = Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        console=console,
        transient=True,
        disable=not console.is_terminal,
    )
    with progress:
        yield progress, progress.add_task(description, total=total)
