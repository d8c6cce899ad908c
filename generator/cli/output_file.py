"""Where a command's text output goes: standard output, or a file written atomically
through the one output guard (never over a source file or into a source folder)."""

from __future__ import annotations

import sys
from pathlib import Path

from rich.console import Console

from generator.util.atomic_file import write_atomically
from generator.util.console import say
from generator.util.exit_codes import EXIT_OK, EXIT_USAGE
from generator.util.output_guard import file_output_protected, file_refusal


def write_output(
    target: str,
    text: str,
    out: Console,
    err: Console,
    command: str,
    regenerates: Path | None = None,
    records: Path = Path("records"),
) -> int:
    """Print ``text`` ('-'), or write it to ``target``; ``regenerates`` names the one source
    the command exists to rewrite (``kbgen schema`` writes ``schemas/records.schema.json``)."""
    if target == "-":
        sys.stdout.write(text)
        return EXIT_OK
    path = Path(target)
    refusal = file_refusal(path, file_output_protected(records), [regenerates] if regenerates else [])
    if refusal is not None:
        say(err, f"{command}: {refusal}")
        return EXIT_USAGE
    write_atomically(path, text)
    say(out, f"wrote {target}")
    return EXIT_OK
