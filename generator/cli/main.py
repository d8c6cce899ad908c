"""kbgen: check records, scaffold a system, write the schema, compare runs, search records, build and
preview the site.

One parser, one set of exit codes (``util/exit_codes.py``) and one module per command
(``cli/commands/``), each adding its parser and running it.
"""

from __future__ import annotations

import argparse
from typing import NoReturn

from generator import __version__
from generator.cli.commands import (
    check,
    diff,
    export,
    import_document,
    linkcheck,
    lsp,
    new,
    schema,
    search,
    set_manifest,
    site,
    sources,
)
from generator.diagnostics import Rule
from generator.util.console import human_console, say
from generator.util.exit_codes import EXIT_ERRORS
from generator.util.quick_exit import exit_now

# argparse reports a wrong call itself (its usage message, exit 2); the rule documents it.
KB900 = Rule(
    "KB900",
    "usage",
    "The command was called wrongly.",
    doc="a command was called wrongly (an unknown option, a missing argument): the usage message, exit 2",
)

# In the order ``kbgen --help`` lists them: the records first, then the site.
COMMANDS = (
    check,
    sources,
    new,
    import_document,
    set_manifest,
    schema,
    export,
    diff,
    search,
    linkcheck,
    site,
    lsp,
)
EXIT_INTERRUPTED = 130  # the shell's code for a process ended by Ctrl-C


def parser() -> argparse.ArgumentParser:
    found = argparse.ArgumentParser(
        prog="kbgen", description="Check analysis records and publish them as a MkDocs site."
    )
    found.add_argument("--version", action="version", version=f"kbgen {__version__}")
    commands = found.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for command in COMMANDS:
        command.add_parser(commands)
    return found


def main(argv: list[str] | None = None) -> int:
    """Entry point of the kbgen console script; returns the exit code."""
    args = parser().parse_args(argv)
    # emoji=False: record text such as ":smile:" is printed as written, never as an emoji.
    out = human_console()
    err = human_console(stderr=True)
    try:
        code: int = args.run(args, out, err)
        return code
    except KeyboardInterrupt:
        return EXIT_INTERRUPTED
    except OSError as exc:
        say(err, f"kbgen {args.command}: {exc}")
        return EXIT_ERRORS


def run() -> NoReturn:
    """The ``kbgen`` console script: ``main``, and the process ends at once with its code
    (``util/quick_exit.py``: the interpreter does not free the KB object by object first)."""
    exit_now(main())


if __name__ == "__main__":  # pragma: no cover
    run()
