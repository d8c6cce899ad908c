"""``kbgen lsp``: the language server for record files, over stdio (see docs/editor.md)."""

from __future__ import annotations

import argparse
from typing import Any

from rich.console import Console

from generator.util.exit_codes import EXIT_OK


def add_parser(commands: Any) -> None:
    lsp = commands.add_parser(
        "lsp", help="serve the Language Server Protocol over stdio for an editor (records of the workspace)"
    )
    lsp.set_defaults(run=run)


def run(args: argparse.Namespace, out: Console, err: Console) -> int:
    # Imported here: the protocol library is loaded only by the command that serves it.
    from generator.lsp.server import run as serve

    serve()
    return EXIT_OK
