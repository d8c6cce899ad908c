"""``kbgen set-manifest``: print the ARTIFACT.yaml an analysis set's records give (nothing is
written: the generator never writes records)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from rich.console import Console

from generator.check.set_rules import KB807
from generator.diagnostics import Severity
from generator.model.set_manifest import MANIFEST_FILE, manifest_text
from generator.pipeline import check_records
from generator.util.console import say
from generator.util.exit_codes import EXIT_ERRORS, EXIT_OK, EXIT_USAGE


def add_parser(commands: Any) -> None:
    manifest = commands.add_parser(
        "set-manifest",
        help=f"print the {MANIFEST_FILE} an analysis set's records give (to commit beside them)",
    )
    manifest.add_argument("path", help="the system folder of an analysis set")
    manifest.set_defaults(run=run)


def run(args: argparse.Namespace, out: Console, err: Console) -> int:
    path = Path(args.path)
    systems = check_records(path) if path.is_dir() else []
    if len(systems) != 1 or systems[0].records.analysis_set is None:
        say(err, f"kbgen set-manifest: {args.path}: not the folder of one analysis set")
        return EXIT_USAGE
    # KB807 says the committed manifest differs from the records: what this prints fixes it.
    errors = [d for d in systems[0].diagnostics if d.severity is Severity.ERROR and d.rule != KB807]
    if errors:
        say(err, f"kbgen set-manifest: {args.path} has errors; run 'kbgen check {args.path}'")
        return EXIT_ERRORS
    sys.stdout.write(manifest_text(systems[0].records))
    return EXIT_OK
