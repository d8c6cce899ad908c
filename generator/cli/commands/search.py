"""``kbgen search``: find records by ID or words, best first (the site's search, in the terminal)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from rich.console import Console

from generator.util.console import say
from generator.util.exit_codes import EXIT_ERRORS, EXIT_OK, EXIT_USAGE


def add_parser(commands: Any) -> None:
    search = commands.add_parser("search", help="find records by ID or words, best first")
    search.add_argument("query", help="an ID (RTE-11, MEM-RTE-knowledge-store), words or a quoted phrase")
    search.add_argument("--records", default="records", help="records folder (default: records)")
    search.add_argument("--system", help="only records of this system (its folder name)")
    search.add_argument("--kind", help="only records of this kind: a code (RTE) or a name (route)")
    search.add_argument("--limit", type=int, default=10, help="at most N hits (default 10; 0: all)")
    # Earlier runs are always searched now (after the current runs, marked); the flag that
    # once asked for them stays accepted so scripts that pass it keep working.
    search.add_argument("--all-runs", action="store_true", help=argparse.SUPPRESS)
    search.add_argument("--json", action="store_true", help="print the hits as JSON")
    search.set_defaults(run=run)


def run(args: argparse.Namespace, out: Console, err: Console) -> int:
    # Imported here: the index and its query load the renderer.
    from generator.outputs import search

    records = Path(args.records)
    if not records.is_dir() or args.limit < 0:
        problem = f"{args.records}: no such records folder" if args.limit >= 0 else "--limit must be >= 0"
        say(err, f"kbgen search: {problem}")
        return EXIT_USAGE
    index = search.load_index(records)
    if index is None:
        say(err, f"kbgen search: {args.records} has errors or no systems; run 'kbgen check {args.records}'")
        return EXIT_USAGE
    hits = index.search(args.query, system=args.system, kind=args.kind)
    hits = hits[: args.limit] if args.limit else hits
    if args.json:
        sys.stdout.write(search.hits_as_json(args.query, hits))
    elif hits:
        for line in search.hits_as_lines(hits):
            say(out, line)
    else:
        say(err, f"kbgen search: nothing matches {args.query!r}")
    return EXIT_OK if hits else EXIT_ERRORS
