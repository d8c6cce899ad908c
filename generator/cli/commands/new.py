"""``kbgen new``: scaffold a system folder that checks clean."""

from __future__ import annotations

import argparse
import datetime
import json
from pathlib import Path
from typing import Any

from rich.console import Console

from generator.load.slugs import SLUG
from generator.util.console import say
from generator.util.exit_codes import EXIT_OK, EXIT_USAGE

SCAFFOLD = ("run.yaml", "records.yaml", "result.yaml")


def add_parser(commands: Any) -> None:
    new = commands.add_parser("new", help="scaffold a system folder that checks clean")
    new.add_argument("slug", help="the system slug: lower-case words joined by '-'")
    new.add_argument("--name", help="display name (default: the slug)")
    new.add_argument("--records", default="records", help="records folder (default: records)")
    new.set_defaults(run=run)


def run(args: argparse.Namespace, out: Console, err: Console) -> int:
    # Imported here: Jinja is loaded only by the command that scaffolds.
    from jinja2 import Environment, PackageLoader, StrictUndefined

    if not SLUG.fullmatch(args.slug):
        say(err, f"kbgen new: {args.slug!r} is not a slug (lower-case words joined by '-')")
        return EXIT_USAGE
    folder = Path(args.records) / args.slug
    if folder.exists():
        say(err, f"kbgen new: {folder} already exists; nothing written")
        return EXIT_USAGE
    env = Environment(
        loader=PackageLoader("generator", "templates/scaffold"),
        undefined=StrictUndefined,
        keep_trailing_newline=True,
    )
    # Values land in YAML: JSON strings are valid YAML double-quoted scalars.
    env.filters["yaml_str"] = lambda value: json.dumps(str(value), ensure_ascii=False)
    values = {"slug": args.slug, "name": args.name or args.slug, "today": datetime.date.today().isoformat()}
    folder.mkdir(parents=True)
    for name in SCAFFOLD:
        text = env.get_template(f"{name}.j2").render(**values)
        (folder / name).write_text(text, encoding="utf-8", newline="\n")
    say(out, f"created {folder}/ ({', '.join(SCAFFOLD)}); next: kbgen check {folder}")
    return EXIT_OK
