"""``kbgen schema``: write (or, with ``--check``, compare) the JSON Schema of record files."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from rich.console import Console

from generator.cli.output_file import write_output
from generator.outputs.schema import SCHEMA_PATH, schema_text
from generator.util.console import say
from generator.util.exit_codes import EXIT_ERRORS, EXIT_OK


def add_parser(commands: Any) -> None:
    schema = commands.add_parser("schema", help="write the JSON Schema of record files")
    schema.add_argument("--output", default=str(SCHEMA_PATH), help=f"default: {SCHEMA_PATH}")
    schema.add_argument("--check", action="store_true", help="fail if the file differs from the models")
    schema.set_defaults(run=run)


def run(args: argparse.Namespace, out: Console, err: Console) -> int:
    target = Path(args.output)
    text = schema_text()
    if args.check:
        current = target.read_text(encoding="utf-8") if target.exists() else None
        if current != text:
            say(err, f"kbgen schema: {target} differs from the models; run 'kbgen schema'")
            return EXIT_ERRORS
        say(out, f"{target} matches the models")
        return EXIT_OK
    return write_output(str(target), text, out, err, "kbgen schema", regenerates=SCHEMA_PATH)
