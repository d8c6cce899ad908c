"""``kbgen sources fetch``: fetch each git source's pinned revision into a cache."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from rich.console import Console

from generator.cli.commands.check import report
from generator.pipeline import check_records
from generator.util.console import say
from generator.util.exit_codes import EXIT_USAGE


def add_parser(commands: Any) -> None:
    sources = commands.add_parser("sources", help="fetch each git source's pinned revision into a cache")
    sources_commands = sources.add_subparsers(dest="action", required=True, metavar="ACTION")
    fetch = sources_commands.add_parser("fetch", help="fetch pinned revisions (git URL rewriting applies)")
    fetch.add_argument("path", nargs="?", default="records", help="records folder or one system folder")
    fetch.add_argument("--cache", metavar="DIR", help="cache folder (default: .kbgen/sources)")
    fetch.add_argument("--format", choices=("human", "json", "github"), default="human")
    fetch.add_argument("--strict", action="store_true", help="a source that cannot be fetched fails")
    fetch.add_argument(
        "--allow-host",
        action="append",
        default=[],
        metavar="HOST",
        help="fetch from this host although it is not public (a private mirror); repeatable",
    )
    fetch.set_defaults(run=run)


def run(args: argparse.Namespace, out: Console, err: Console) -> int:
    # Imported here: git is loaded only by the commands that fetch.
    from generator.cli.fetch_hosts import allowed_hosts
    from generator.cli.source_fetch import cache_folder, fetch_all

    path = Path(args.path)
    if not path.is_dir():
        say(err, f"kbgen sources: {args.path}: no such records folder")
        return EXIT_USAGE
    systems = check_records(path)
    if not systems:
        say(err, f"kbgen sources: {args.path}: no system folders found")
        return EXIT_USAGE
    cache = cache_folder(args.cache)
    outcome = fetch_all(systems, cache, err, allowed_hosts(args.allow_host))
    code = report(systems, args, out)
    say(
        err,
        f"sources in {cache.as_posix()}: {outcome.fetched} fetched, {outcome.cached} already cached, "
        f"{outcome.failed} not fetched",
    )
    return code
