"""``kbgen linkcheck``: check every internal link and #anchor of a built site, and its manifest."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from rich.console import Console

from generator.pipeline import check_records
from generator.util.console import say
from generator.util.exit_codes import EXIT_ERRORS, EXIT_OK, EXIT_USAGE


def add_parser(commands: Any) -> None:
    linkcheck = commands.add_parser("linkcheck", help="check every internal link and #anchor of a built site")
    linkcheck.add_argument("site", nargs="?", default="site", help="the built site folder (default: site)")
    linkcheck.add_argument(
        "--records", default="records", help="records whose pinned revisions evidence links must name"
    )
    linkcheck.set_defaults(run=run)


def run(args: argparse.Namespace, out: Console, err: Console) -> int:
    # Imported here: the manifest's reader is part of the MkDocs layer.
    from generator.cli.site_links import html_pages, pinned_revisions, site_report
    from generator.mkdocs.site_manifest import MANIFEST_NAME, verify_manifest

    site = Path(args.site)
    if not site.is_dir() or not html_pages(site):
        say(err, f"kbgen linkcheck: {args.site}: no built site (no HTML pages)")
        return EXIT_USAGE
    records = Path(args.records)
    pinned = pinned_revisions(check_records(records)) if records.is_dir() else {}
    report = site_report(site, pinned, err)
    problems = report.problems
    for problem in problems:
        say(out, problem.as_text())
    manifest = verify_manifest(site) if (site / MANIFEST_NAME).exists() else []
    for line in manifest:
        say(out, line)
    pages = len(html_pages(site))
    summary = (
        f"{site.as_posix()}: {pages} pages, {len(problems)} broken links, {len(manifest)} manifest problems, "
        f"{report.unlinked_anchors} evidence anchor{'s' * (report.unlinked_anchors != 1)} shown as text "
        "that should link"
    )
    say(err, summary, "red" if problems or manifest else None)
    return EXIT_ERRORS if problems or manifest else EXIT_OK
