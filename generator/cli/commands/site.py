"""``kbgen build``, ``kbgen serve`` and ``kbgen render``: the site, through MkDocs."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from rich.console import Console


def add_parser(commands: Any) -> None:
    for name, text in (("build", "validate, then build the site"), ("serve", "preview with live reload")):
        command = commands.add_parser(name, help=text)
        command.add_argument("--records", default=None, help="records folder (default: from mkdocs.yml)")
        command.add_argument("--config-file", "-f", default="mkdocs.yml")
        if name == "build":
            command.add_argument("--site-dir", default=None, help="output folder (default: site)")
            command.add_argument(
                "--site-url",
                default=None,
                metavar="URL",
                help="the address the site is published at, instead of mkdocs.yml's site_url: "
                "sitemap.xml lists each page under it (without one it lists none)",
            )
            command.add_argument(
                "--strict",
                action="store_true",
                help="the records' warnings fail the build too, as they fail 'kbgen check --strict'",
            )
            command.set_defaults(run=build)
        else:
            command.add_argument("--dev-addr", "-a", default=None, help="IP:PORT (default 127.0.0.1:8000)")
            command.add_argument(
                "--poll",
                action="store_true",
                help="look for changes every half second instead of using the system's file events "
                "(for folders whose events do not arrive, such as some network or container mounts)",
            )
            command.set_defaults(run=serve)

    rendering = commands.add_parser(
        "render", help="write the pages as Markdown with a standalone mkdocs.yml (ProperDocs, Zensical)"
    )
    rendering.add_argument("--out", required=True, metavar="DIR", help="output folder (replaced as a whole)")
    rendering.add_argument("--records", default=None, help="records folder (default: from mkdocs.yml)")
    rendering.add_argument("--config-file", "-f", default="mkdocs.yml")
    rendering.add_argument(
        "--engine",
        choices=("mkdocs", "properdocs", "zensical"),
        default="mkdocs",
        help="the engine that will build the output: Zensical rewrites links inside raw HTML, "
        "so its pages get file links there (default: mkdocs, the same for properdocs)",
    )
    rendering.set_defaults(run=render)


# Each imports the site layer when it runs: MkDocs is loaded only by the commands that build.


def build(args: argparse.Namespace, out: Console, err: Console) -> int:
    from generator.site.build import build_site

    config, url = Path(args.config_file), args.site_url
    return build_site(config, args.records, args.site_dir, out, err, site_url=url, strict=args.strict)


def serve(args: argparse.Namespace, out: Console, err: Console) -> int:
    from generator.site.build import serve_site

    return serve_site(Path(args.config_file), args.records, args.dev_addr, out, err, poll=args.poll)


def render(args: argparse.Namespace, out: Console, err: Console) -> int:
    from generator.site.render_out import render_site

    return render_site(Path(args.config_file), args.records, args.out, out, err, engine=args.engine)
