"""``kbgen export``: every record and profile as JSON, or the memory comparison as CSV."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from rich.console import Console

from generator.cli.output_file import write_output
from generator.outputs.csv_layouts import CSV_LAYOUTS
from generator.pipeline import run_pipeline
from generator.util.console import say
from generator.util.exit_codes import EXIT_ERRORS, EXIT_USAGE

# The committed schema ``--schema`` exists to regenerate (the one source it may write).
EXPORT_SCHEMA_PATH = Path("schemas/export.schema.json")


def add_parser(commands: Any) -> None:
    export = commands.add_parser(
        "export", help="write every record and profile as JSON, or the comparison as CSV"
    )
    export.add_argument("--format", choices=("json", "csv"), default="json")
    export.add_argument(
        "--layout",
        choices=CSV_LAYOUTS,
        default="default",
        help="the CSV's columns: this project's (default), or the corpus's comparison's (corpus)",
    )
    export.add_argument("--records", default="records", help="records folder (default: records)")
    export.add_argument("--system", help="only this system (its folder name)")
    export.add_argument("--out", default="-", help="output file, written atomically ('-' or none: stdout)")
    export.add_argument("--schema", action="store_true", help="write the JSON export's JSON Schema instead")
    export.set_defaults(run=run)


def run(args: argparse.Namespace, out: Console, err: Console) -> int:
    # Imported here: the exports and the renderer are loaded only by the command that exports.
    from generator.outputs.export import export_csv, export_json, export_schema_text

    if args.layout != "default" and (args.format != "csv" or args.schema):
        say(err, f"kbgen export: --layout {args.layout} is a layout of the CSV (--format csv)")
        return EXIT_USAGE
    if args.schema:
        return write_output(args.out, export_schema_text(), out, err, "kbgen export", EXPORT_SCHEMA_PATH)
    records = Path(args.records)
    if not records.is_dir():
        say(err, f"kbgen export: {args.records}: no such records folder")
        return EXIT_USAGE
    result = run_pipeline(records)
    if result.errors or not result.systems:
        say(err, f"kbgen export: {args.records} has errors or no systems; run 'kbgen check {args.records}'")
        return EXIT_ERRORS if result.errors else EXIT_USAGE
    if args.system and args.system not in {graph.slug for graph in result.graphs}:
        say(err, f"kbgen export: no system {args.system!r} in {args.records}")
        return EXIT_USAGE
    if args.format == "json":
        text = export_json(result, args.system)
    else:
        text = export_csv(result, args.system, layout=args.layout)
    return write_output(args.out, text, out, err, "kbgen export", records=records)
