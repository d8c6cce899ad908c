"""kbgen: check records, scaffold a system, write the schema, search records, build and preview the site."""

from __future__ import annotations

import argparse
import datetime
import json
import sys
from pathlib import Path
from typing import Any

from jinja2 import Environment, PackageLoader, StrictUndefined
from rich.console import Console

from generator import __version__
from generator.check import CheckedSystem
from generator.check.report import as_github, as_json, print_human
from generator.diagnostics import Severity
from generator.outputs.schema import SCHEMA_PATH, schema_text
from generator.pipeline import check_records
from generator.util.console import human_console, say
from generator.util.exit_codes import EXIT_ERRORS, EXIT_OK, EXIT_USAGE


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="kbgen", description="Check analysis records and publish them as a MkDocs site."
    )
    parser.add_argument("--version", action="version", version=f"kbgen {__version__}")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    _add_record_commands(commands)
    _add_site_commands(commands)
    return parser


def _add_record_commands(commands: Any) -> None:
    """Commands that read the records: check, sources fetch, new, schema, search."""
    check = commands.add_parser("check", help="validate records and report every problem")
    check.add_argument("path", nargs="?", default="records", help="records folder or one system folder")
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

    new = commands.add_parser("new", help="scaffold a system folder that checks clean")
    new.add_argument("slug", help="the system slug: lower-case words joined by '-'")
    new.add_argument("--name", help="display name (default: the slug)")
    new.add_argument("--records", default="records", help="records folder (default: records)")

    imp = commands.add_parser(
        "import", help="convert an analysis document (Markdown or text) into a system folder"
    )
    imp.add_argument(
        "file", help="the document (Markdown with frontmatter, or plain text), or an analysis set's folder"
    )
    imp.add_argument("--system", required=True, metavar="SLUG", help="the new system folder's name")
    imp.add_argument("--records", default="records", help="records folder (default: records)")
    imp.add_argument("--force", action="store_true", help="replace an existing system folder")
    imp.add_argument("--format", choices=("human", "json"), default="human")

    manifest = commands.add_parser(
        "set-manifest", help="print the ARTIFACT.yaml an analysis set's records give (to commit beside them)"
    )
    manifest.add_argument("path", help="the system folder of an analysis set")

    schema = commands.add_parser("schema", help="write the JSON Schema of record files")
    schema.add_argument("--output", default=str(SCHEMA_PATH), help=f"default: {SCHEMA_PATH}")
    schema.add_argument("--check", action="store_true", help="fail if the file differs from the models")

    export = commands.add_parser(
        "export", help="write every record and profile as JSON, or the comparison as CSV"
    )
    export.add_argument("--format", choices=("json", "csv"), default="json")
    export.add_argument("--records", default="records", help="records folder (default: records)")
    export.add_argument("--system", help="only this system (its folder name)")
    export.add_argument("--out", default="-", help="output file, written atomically ('-' or none: stdout)")
    export.add_argument("--schema", action="store_true", help="write the JSON export's JSON Schema instead")

    search = commands.add_parser("search", help="find records by ID or words, best first")
    search.add_argument("query", help="an ID (RTE-11, MEM-RTE-knowledge-store), words or a quoted phrase")
    search.add_argument("--records", default="records", help="records folder (default: records)")
    search.add_argument("--system", help="only records of this system (its folder name)")
    search.add_argument("--kind", help="only records of this kind: a code (RTE) or a name (route)")
    search.add_argument("--limit", type=int, default=10, help="at most N hits (default 10; 0: all)")
    search.add_argument("--json", action="store_true", help="print the hits as JSON")


def _add_site_commands(commands: Any) -> None:
    """Commands that build, serve, render or check the site: build, serve, render, linkcheck."""
    linkcheck = commands.add_parser("linkcheck", help="check every internal link and #anchor of a built site")
    linkcheck.add_argument("site", nargs="?", default="site", help="the built site folder (default: site)")
    linkcheck.add_argument(
        "--records", default="records", help="records whose pinned revisions evidence links must name"
    )

    for name, text in (("build", "validate, then build the site"), ("serve", "preview with live reload")):
        command = commands.add_parser(name, help=text)
        command.add_argument("--records", default=None, help="records folder (default: from mkdocs.yml)")
        command.add_argument("--config-file", "-f", default="mkdocs.yml")
        if name == "build":
            command.add_argument("--site-dir", default=None, help="output folder (default: site)")
        else:
            command.add_argument("--dev-addr", "-a", default=None, help="IP:PORT (default 127.0.0.1:8000)")
            command.add_argument(
                "--poll",
                action="store_true",
                help="look for changes every half second instead of using the system's file events "
                "(for folders whose events do not arrive, such as some network or container mounts)",
            )

    render = commands.add_parser(
        "render", help="write the pages as Markdown with a standalone mkdocs.yml (ProperDocs, Zensical)"
    )
    render.add_argument("--out", required=True, metavar="DIR", help="output folder (replaced as a whole)")
    render.add_argument("--records", default=None, help="records folder (default: from mkdocs.yml)")
    render.add_argument("--config-file", "-f", default="mkdocs.yml")
    render.add_argument(
        "--engine",
        choices=("mkdocs", "properdocs", "zensical"),
        default="mkdocs",
        help="the engine that will build the output: Zensical rewrites links inside raw HTML, "
        "so its pages get file links there (default: mkdocs, the same for properdocs)",
    )


def _check(args: argparse.Namespace, out: Console, err: Console) -> int:
    path = Path(args.path)
    if not path.is_dir():
        say(err, f"kbgen check: {args.path}: no such records folder")
        return EXIT_USAGE
    if args.sources and args.verify:
        say(err, "kbgen check: --sources and --verify name two places for the clones; give one")
        return EXIT_USAGE
    systems = check_records(path)
    if args.sources or args.verify:
        _check_clones(systems, args)
    if not systems:
        say(err, f"kbgen check: {args.path}: no system folders found")
        return EXIT_USAGE
    return _report(systems, args, out)


def _check_clones(systems: list[CheckedSystem], args: argparse.Namespace) -> None:
    """Add the findings of the clones (``--sources DIR``, or the fetch cache with ``--verify``)."""
    from generator.cli.gitcheck import check_against_clones
    from generator.cli.sources import cache_folder

    root = Path(args.sources) if args.sources else cache_folder(args.cache)
    hint = None if args.sources else f"Run 'kbgen sources fetch --cache {root.as_posix()}' first."
    for system in systems:
        system.diagnostics = sorted(
            {*system.diagnostics, *check_against_clones(system, root, hint)},
            key=lambda d: d.sort_key(),
        )


def _report(systems: list[CheckedSystem], args: argparse.Namespace, out: Console) -> int:
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


def _sources(args: argparse.Namespace, out: Console, err: Console) -> int:
    from generator.cli.sources import cache_folder, fetch_all

    path = Path(args.path)
    if not path.is_dir():
        say(err, f"kbgen sources: {args.path}: no such records folder")
        return EXIT_USAGE
    systems = check_records(path)
    if not systems:
        say(err, f"kbgen sources: {args.path}: no system folders found")
        return EXIT_USAGE
    from generator.cli.fetch_hosts import allowed_hosts

    cache = cache_folder(args.cache)
    outcome = fetch_all(systems, cache, err, allowed_hosts(args.allow_host))
    code = _report(systems, args, out)
    say(
        err,
        f"sources in {cache.as_posix()}: {outcome.fetched} fetched, {outcome.cached} already cached, "
        f"{outcome.failed} not fetched",
    )
    return code


def _linkcheck(args: argparse.Namespace, out: Console, err: Console) -> int:
    from generator.cli.linkcheck import check_site, html_pages, pinned_revisions
    from generator.mkdocs.site_manifest import MANIFEST_NAME, verify_manifest

    site = Path(args.site)
    if not site.is_dir() or not html_pages(site):
        say(err, f"kbgen linkcheck: {args.site}: no built site (no HTML pages)")
        return EXIT_USAGE
    records = Path(args.records)
    pinned = pinned_revisions(check_records(records)) if records.is_dir() else {}
    problems = check_site(site, pinned, err)
    for problem in problems:
        say(out, problem.as_text())
    manifest = verify_manifest(site) if (site / MANIFEST_NAME).exists() else []
    for line in manifest:
        say(out, line)
    pages = len(html_pages(site))
    summary = (
        f"{site.as_posix()}: {pages} pages, {len(problems)} broken links, {len(manifest)} manifest problems"
    )
    say(err, summary, "red" if problems or manifest else None)
    return EXIT_ERRORS if problems or manifest else EXIT_OK


def _new(args: argparse.Namespace, out: Console, err: Console) -> int:
    import re

    if not re.fullmatch(r"[a-z0-9]+(?:-[a-z0-9]+)*", args.slug):
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
    for name in ("run.yaml", "records.yaml", "result.yaml"):
        text = env.get_template(f"{name}.j2").render(**values)
        (folder / name).write_text(text, encoding="utf-8", newline="\n")
    say(out, f"created {folder}/ (run.yaml, records.yaml, result.yaml); next: kbgen check {folder}")
    return EXIT_OK


def _import(args: argparse.Namespace, out: Console, err: Console) -> int:
    """Import a document, then check the new folder as ``kbgen check`` would."""
    from generator.importer import import_document

    outcome = import_document(Path(args.file), args.system, Path(args.records), args.force)
    systems = check_records(outcome.folder) if outcome.folder is not None else []
    found = [*outcome.diagnostics, *(d for system in systems for d in system.diagnostics)]
    if args.format == "json":
        payload: dict[str, Any] = {
            "folder": outcome.folder.as_posix() if outcome.folder else None,
            "diagnostics": [d.as_dict() for d in found],
        }
        if outcome.coverage is not None:
            payload["coverage"] = {"units": outcome.coverage.units, "kept": outcome.coverage.kept}
        sys.stdout.write(json.dumps(payload, indent=2, ensure_ascii=False) + "\n")
    else:
        for diagnostic in found:
            say(out, diagnostic.as_text())
    if outcome.folder is None:
        say(err, f"kbgen import: nothing written to {Path(args.records) / args.system}")
        return EXIT_USAGE if any(d.code == "KB610" for d in found) else EXIT_ERRORS
    errors = [d for d in found if d.severity is Severity.ERROR]
    verdict = f"{len(errors)} errors: the folder does not check clean" if errors else "it checks clean"
    kept = ""
    if outcome.coverage is not None:
        kept = f"kept {outcome.coverage.kept:,} of {outcome.coverage.units:,} sentences, items and cells; "
    say(err, f"kbgen import: wrote {outcome.folder}/; {kept}{verdict}", "red" if errors else None)
    return EXIT_ERRORS if errors else EXIT_OK


def _schema(args: argparse.Namespace, out: Console, err: Console) -> int:
    target = Path(args.output)
    text = schema_text()
    if args.check:
        current = target.read_text(encoding="utf-8") if target.exists() else None
        if current != text:
            say(err, f"kbgen schema: {target} differs from the models; run 'kbgen schema'")
            return EXIT_ERRORS
        say(out, f"{target} matches the models")
        return EXIT_OK
    return _write_output(str(target), text, out, err, "kbgen schema", regenerates=SCHEMA_PATH)


def _set_manifest(args: argparse.Namespace, out: Console, err: Console) -> int:
    """Print the manifest of one set; nothing is written (the generator never writes records)."""
    from generator.model.set_manifest import manifest_text

    path = Path(args.path)
    systems = check_records(path) if path.is_dir() else []
    if len(systems) != 1 or systems[0].records.analysis_set is None:
        say(err, f"kbgen set-manifest: {args.path}: not the folder of one analysis set")
        return EXIT_USAGE
    errors = [d for d in systems[0].diagnostics if d.severity is Severity.ERROR and d.code != "KB807"]
    if errors:
        say(err, f"kbgen set-manifest: {args.path} has errors; run 'kbgen check {args.path}'")
        return EXIT_ERRORS
    sys.stdout.write(manifest_text(systems[0].records))
    return EXIT_OK


def _search(args: argparse.Namespace, out: Console, err: Console) -> int:
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


def _export(args: argparse.Namespace, out: Console, err: Console) -> int:
    from generator.outputs.export import export_csv, export_json, export_schema_text
    from generator.pipeline import run_pipeline

    if args.schema:
        return _write_output(args.out, export_schema_text(), out, err, "kbgen export", EXPORT_SCHEMA_PATH)
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
    text = (export_json if args.format == "json" else export_csv)(result, args.system)
    return _write_output(args.out, text, out, err, "kbgen export", records=records)


# The committed schemas the schema commands exist to regenerate (the one sources they may write).
EXPORT_SCHEMA_PATH = Path("schemas/export.schema.json")


def _write_output(
    target: str,
    text: str,
    out: Console,
    err: Console,
    command: str,
    regenerates: Path | None = None,
    records: Path = Path("records"),
) -> int:
    """Print ``text`` ('-'), or write it to a file atomically, through the output guard:
    never over a source file or into a source folder (``util/output_guard.file_refusal``)."""
    from generator.outputs.export import write_atomically
    from generator.util.output_guard import file_output_protected, file_refusal

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


def _site(args: argparse.Namespace, out: Console, err: Console) -> int:
    from generator.site.build import build_site, serve_site

    if args.command == "render":
        from generator.site.render_out import render_site

        return render_site(Path(args.config_file), args.records, args.out, out, err, engine=args.engine)
    if args.command == "build":
        return build_site(Path(args.config_file), args.records, args.site_dir, out, err)
    return serve_site(Path(args.config_file), args.records, args.dev_addr, out, err, poll=args.poll)


def main(argv: list[str] | None = None) -> int:
    """Entry point of the kbgen console script; returns the exit code."""
    args = _parser().parse_args(argv)
    # emoji=False: record text such as ":smile:" is printed as written, never as an emoji.
    out = human_console()
    err = human_console(stderr=True)
    handlers = {
        "check": _check,
        "sources": _sources,
        "linkcheck": _linkcheck,
        "new": _new,
        "schema": _schema,
        "set-manifest": _set_manifest,
        "import": _import,
        "search": _search,
        "export": _export,
        "build": _site,
        "serve": _site,
        "render": _site,
    }
    try:
        return handlers[args.command](args, out, err)
    except KeyboardInterrupt:
        return 130
    except OSError as exc:
        say(err, f"kbgen {args.command}: {exc}")
        return EXIT_ERRORS


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
