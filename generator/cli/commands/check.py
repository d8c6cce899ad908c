"""``kbgen check``: validate records and report every problem (and, on request, check the
anchors and quotations against clones of the sources)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from rich.console import Console

from generator.check import CheckedSystem
from generator.check.report import Reported, as_github, as_json, print_human
from generator.diagnostics import Severity
from generator.pipeline import check_records, report_records
from generator.util.console import say
from generator.util.exit_codes import EXIT_ERRORS, EXIT_OK, EXIT_USAGE


def add_parser(commands: Any) -> None:
    check = commands.add_parser("check", help="validate records and report every problem")
    check.add_argument(
        "path", nargs="?", default="records", help="records folder, one system folder or one run folder"
    )
    check.add_argument("--format", choices=("human", "json", "github"), default="human")
    check.add_argument("--strict", action="store_true", help="warnings fail the check too")
    check.add_argument(
        "--sources",
        metavar="DIR",
        help="also check anchors and quotes against local clones: DIR/<system>/<SRC-ID> (git)",
    )
    check.add_argument(
        "--verify",
        action="store_true",
        help="also check anchors and quotes against the cache of 'kbgen sources fetch'",
    )
    check.add_argument("--cache", metavar="DIR", help="sources cache for --verify (default: .kbgen/sources)")
    check.set_defaults(run=run)


def run(args: argparse.Namespace, out: Console, err: Console) -> int:
    path = Path(args.path)
    if not path.is_dir():
        say(err, f"kbgen check: {args.path}: no such records folder")
        return EXIT_USAGE
    if args.sources and args.verify:
        say(err, "kbgen check: --sources and --verify name two places for the clones; give one")
        return EXIT_USAGE
    # The clones are checked against the records; otherwise what the reports say is enough,
    # and a large records folder is checked on two cores.
    systems: Sequence[CheckedSystem | Reported] = (
        _with_clones(check_records(path), args) if args.sources or args.verify else report_records(path)
    )
    if not systems:
        say(err, f"kbgen check: {args.path}: no system folders found")
        return EXIT_USAGE
    return report(systems, args, out)


def _with_clones(systems: list[CheckedSystem], args: argparse.Namespace) -> list[CheckedSystem]:
    """Add the findings of the clones (``--sources DIR``, or the fetch cache with ``--verify``)."""
    # Imported here: git is loaded only when clones are asked for.
    from generator.cli.clone_check import check_against_clones
    from generator.cli.source_fetch import cache_folder

    root = Path(args.sources) if args.sources else cache_folder(args.cache)
    hint = None if args.sources else f"Run 'kbgen sources fetch --cache {root.as_posix()}' first."
    for system in systems:
        system.diagnostics = sorted(
            {*system.diagnostics, *check_against_clones(system, root, hint)},
            key=lambda d: d.sort_key(),
        )
    return systems


def report(systems: Sequence[CheckedSystem | Reported], args: argparse.Namespace, out: Console) -> int:
    """Print the systems' diagnostics in the chosen format; the exit code they call for."""
    if args.format == "json":
        sys.stdout.write(as_json(systems))
    elif args.format == "github":
        sys.stdout.write(as_github(systems))
    else:
        print_human(systems, out)
    diagnostics = [d for s in systems for d in s.diagnostics]
    failing = [d for d in diagnostics if d.severity is Severity.ERROR or args.strict]
    return EXIT_ERRORS if failing else EXIT_OK
