"""kbgen build and kbgen serve: MkDocs with the records plugin, checked first.

``build`` refuses to start over records with errors, builds strictly into a
temporary folder beside the target and swaps it in only when the build succeeded,
so a failed build leaves the last good site intact. ``serve`` previews with live
reload; MkDocs keeps serving the last good build while records have errors.
"""

from __future__ import annotations

import logging
import os
import shutil
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from rich.console import Console

from .check import check_records
from .diagnostics import Severity
from .plugin import RECORDS_ENV
from .report import print_human

EXIT_OK, EXIT_ERRORS, EXIT_USAGE = 0, 1, 2


class _ConsoleHandler(logging.Handler):
    """Sends MkDocs log records to the console, warnings and errors highlighted."""

    def __init__(self, console: Console, level: int) -> None:
        super().__init__(level)
        self.console = console

    def filter(self, record: logging.LogRecord) -> bool:
        # The macros plugin reports its configuration at INFO on every build.
        return not (
            record.name.startswith("mkdocs.plugins.mkdocs_macros") and record.levelno < logging.WARNING
        )

    def emit(self, record: logging.LogRecord) -> None:
        style = {logging.WARNING: "yellow", logging.ERROR: "red"}.get(record.levelno, "dim")
        self.console.print(
            f"{record.levelname:<8} {self.format(record)}", style=style, highlight=False, soft_wrap=True
        )


@contextmanager
def _mkdocs_log(console: Console, level: int) -> Iterator[None]:
    """Route MkDocs logging to the console for the duration of a build or preview."""
    handler = _ConsoleHandler(console, level)
    logger = logging.getLogger("mkdocs")
    logger.addHandler(handler)
    logger.setLevel(logging.INFO)
    try:
        yield
    finally:
        logger.removeHandler(handler)


def _records_folder(config_file: Path, records: str | None) -> Path:
    if records:
        return Path(records).resolve()
    from mkdocs.config import load_config

    config = load_config(str(config_file))
    plugin = config.plugins.get("kb-records")
    configured = getattr(getattr(plugin, "config", None), "records_dir", "records")
    path = Path(configured)
    return path if path.is_absolute() else (config_file.resolve().parent / path)


def _source_date_epoch(folder: Path) -> str:
    """A fixed build date (the last commit's), so two builds of the same records match."""
    try:
        stamp = subprocess.run(
            ["git", "log", "-1", "--format=%ct"],
            cwd=folder,
            capture_output=True,
            text=True,
            check=True,
            timeout=10,
        ).stdout.strip()
        return stamp or "0"
    except (OSError, subprocess.SubprocessError):
        return "0"


def _precheck(records: Path, out: Console) -> bool:
    if not records.is_dir():
        out.print(f"kbgen: records folder {records} does not exist", style="red", highlight=False)
        return False
    systems = check_records(records)
    errors = [d for s in systems for d in s.diagnostics if d.severity is Severity.ERROR]
    # Warnings are shown too (they never stop a build); errors stop it before MkDocs runs.
    print_human(systems, out)
    if errors:
        out.print("kbgen: the records have errors; nothing was built", style="red", highlight=False)
        return False
    return True


def _prepare(config_file: Path, records: str | None, err: Console) -> Path | None:
    if not config_file.is_file():
        err.print(f"kbgen: {config_file}: no such MkDocs configuration", highlight=False)
        return None
    folder = _records_folder(config_file, records)
    os.environ[RECORDS_ENV] = str(folder)
    os.environ.setdefault("SOURCE_DATE_EPOCH", _source_date_epoch(config_file.resolve().parent))
    os.environ.setdefault("NO_MKDOCS_2_WARNING", "1")
    return folder


def _refusal(config_file: Path, records: str | None, err: Console) -> int | None:
    """The exit code when the site must not be built or served (bad setup, record errors)."""
    folder = _prepare(config_file, records, err)
    if folder is None:
        return EXIT_USAGE
    return None if _precheck(folder, err) else EXIT_ERRORS


def build_site(
    config_file: Path, records: str | None, site_dir: str | None, out: Console, err: Console
) -> int:
    """Validate, then build the site strictly and swap it into place atomically."""
    from mkdocs.commands.build import build
    from mkdocs.config import load_config
    from mkdocs.exceptions import Abort, ConfigurationError, PluginError

    refusal = _refusal(config_file, records, err)
    if refusal is not None:
        return refusal
    staging: Path | None = None
    # MkDocs and its plugins are chatty at INFO; a build shows what needs attention.
    try:
        with _mkdocs_log(err, logging.WARNING):
            config = load_config(str(config_file), strict=True)
            target = Path(site_dir).resolve() if site_dir else Path(config.site_dir).resolve()
            staging = target.parent / f".{target.name}.building"
            retired = target.parent / f".{target.name}.previous"
            for leftover in (staging, retired):
                shutil.rmtree(leftover, ignore_errors=True)
            # Build beside the target; it replaces the old site only once it succeeded.
            config.site_dir = str(staging)
            build(config)
    except (Abort, ConfigurationError, PluginError) as exc:
        if staging is not None:
            shutil.rmtree(staging, ignore_errors=True)
        err.print(
            f"kbgen build: {exc}; the previous site is unchanged",
            style="red",
            highlight=False,
            soft_wrap=True,
        )
        return EXIT_ERRORS
    if target.exists():
        target.rename(retired)
    staging.rename(target)
    shutil.rmtree(retired, ignore_errors=True)
    out.print(f"built {target}", highlight=False)
    return EXIT_OK


def serve_site(
    config_file: Path, records: str | None, dev_addr: str | None, out: Console, err: Console
) -> int:
    """Preview the site with live reload; record edits rebuild the affected pages."""
    from mkdocs.commands.serve import serve
    from mkdocs.exceptions import Abort, ConfigurationError

    refusal = _refusal(config_file, records, err)
    if refusal is not None:
        return refusal
    options: dict[str, Any] = {"dev_addr": dev_addr} if dev_addr else {}
    # A preview shows INFO too: the address it serves on and each rebuild.
    try:
        with _mkdocs_log(err, logging.INFO):
            serve(config_file=str(config_file), livereload=True, **options)
    except (Abort, ConfigurationError) as exc:
        err.print(f"kbgen serve: {exc}", style="red", highlight=False)
        return EXIT_ERRORS
    return EXIT_OK
