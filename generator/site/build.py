"""kbgen build and kbgen serve: MkDocs with the records plugin, which owns the check.

``build`` loads the configuration once, refuses a site folder that would overwrite the
sources or a folder that is not a site, builds strictly into a folder of its own beside
the target and swaps it in under a lock only when the build succeeded: a failed build
leaves the last good site intact and concurrent builds never mix their files.
``serve`` previews with live reload; while the records have errors the plugin prints
them and keeps publishing the last good pages.
"""

from __future__ import annotations

import fcntl
import logging
import os
import shutil
import subprocess
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager, nullcontext
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rich.console import Console
from rich.text import Text

from generator.check.report import print_human
from generator.mkdocs.plugin import RecordsPlugin
from generator.mkdocs.publishing import RECORD_ERRORS
from generator.mkdocs.site_guard import site_refusal
from generator.util.console import say
from generator.util.exit_codes import EXIT_ERRORS, EXIT_OK, EXIT_USAGE
from generator.util.lazy_imports import defer_unused_by_builds

if TYPE_CHECKING:
    from mkdocs.config.defaults import MkDocsConfig

PLUGIN = "kb-records"
RECORDS_ENV = "KBGEN_RECORDS"  # read by mkdocs.yml (records_dir: !ENV [KBGEN_RECORDS, records]) in serve
LOCK_WAIT_SECONDS = 30.0  # a swap holds the lock for a few renames; waiting longer means trouble


class _ConsoleHandler(logging.Handler):
    """Sends MkDocs log records to the console, warnings and errors highlighted.

    Messages carry record text and paths, so they are printed as plain text, never markup.
    """

    def __init__(self, console: Console, level: int, hide_record_errors: bool = False) -> None:
        super().__init__(level)
        self.console = console
        self.hide_record_errors = hide_record_errors

    def filter(self, record: logging.LogRecord) -> bool:
        # The macros plugin reports its configuration at INFO on every build.
        if record.name.startswith("mkdocs.plugins.mkdocs_macros") and record.levelno < logging.WARNING:
            return False
        # kbgen build reports record errors itself, with hints and per-system counts.
        return not (self.hide_record_errors and record.getMessage().startswith(RECORD_ERRORS))

    def emit(self, record: logging.LogRecord) -> None:
        styles = {logging.WARNING: "yellow", logging.ERROR: "red"}
        style = "red" if getattr(record, "kb_error", False) else styles.get(record.levelno, "dim")
        line = Text(f"{record.levelname:<8} {self.format(record)}", style=style)
        self.console.print(line, highlight=False, soft_wrap=True)


@contextmanager
def _mkdocs_log(console: Console, level: int, hide_record_errors: bool = False) -> Iterator[None]:
    """Route MkDocs logging to the console for the duration of a build or preview."""
    handler = _ConsoleHandler(console, level, hide_record_errors)
    logger = logging.getLogger("mkdocs")
    previous = logger.level
    logger.addHandler(handler)
    logger.setLevel(logging.INFO)
    try:
        yield
    finally:
        logger.removeHandler(handler)
        logger.setLevel(previous)


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


@contextmanager
def _environment(config_file: Path, records: Path | None = None) -> Iterator[None]:
    """MkDocs reads its build date (and serve its records folder) from the environment."""
    wanted = {
        "SOURCE_DATE_EPOCH": os.environ.get("SOURCE_DATE_EPOCH")
        or _source_date_epoch(config_file.resolve().parent),
        "NO_MKDOCS_2_WARNING": os.environ.get("NO_MKDOCS_2_WARNING") or "1",
    }
    if records is not None:
        wanted[RECORDS_ENV] = str(records)
    saved = {name: os.environ.get(name) for name in wanted}
    os.environ.update(wanted)
    try:
        yield
    finally:
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


def records_plugin(config: MkDocsConfig) -> RecordsPlugin | None:
    plugin = config.plugins.get(PLUGIN)
    return plugin if isinstance(plugin, RecordsPlugin) else None


def _site_refusal(config: MkDocsConfig, plugin: RecordsPlugin, target: Path) -> str | None:
    return site_refusal(config, plugin.records_folder(config), target)


def new_staging(target: Path) -> Path:
    """A fresh folder beside the target, unique to this run (mkdtemp's idea, the umask's mode)."""
    target.parent.mkdir(parents=True, exist_ok=True)
    while True:
        staging = target.parent / f".{target.name}.building-{uuid.uuid4().hex[:12]}"
        try:
            staging.mkdir()
            return staging
        except FileExistsError:
            continue


@contextmanager
def swap_lock(target: Path) -> Iterator[bool]:
    """Hold the lock file beside the target; yields False when another build keeps it too long."""
    lock_path = target.parent / f".{target.name}.lock"
    with lock_path.open("a") as lock:
        deadline = time.monotonic() + LOCK_WAIT_SECONDS
        while True:
            try:
                fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() >= deadline:
                    yield False
                    return
                time.sleep(0.05)
        try:
            yield True
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def swap_in(staging: Path, target: Path, refusal: Callable[[], str | None], run: str) -> str | None:
    """Replace ``target`` by the staged output under the lock; why not, if it cannot be done
    safely. ``refusal`` is asked again under the lock (another run may have changed the
    target since); ``run`` names the command in the message ("build", "render")."""
    retired: Path | None = None
    with swap_lock(target) as locked:
        if not locked:
            return f"another {run} is writing {target}; this {run} was not installed"
        refused = refusal()
        if refused is not None:
            return refused
        if target.exists():
            retired = staging.with_name(staging.name + ".previous")
            target.rename(retired)
        staging.rename(target)
    if retired is not None:
        shutil.rmtree(retired, ignore_errors=True)
    return None


def _report_failure(plugin: RecordsPlugin, exc: Exception, err: Console) -> None:
    strict = plugin.config.strict_records and plugin.result is not None and plugin.result.diagnostics
    if plugin.result is not None and (plugin.result.errors or strict):
        print_human(plugin.result.systems, err)
        say(err, "kbgen: the records have errors; nothing was built; the previous site is unchanged", "red")
    else:
        say(err, f"kbgen build: {exc}; the previous site is unchanged", "red")


def _building(console: Console) -> AbstractContextManager[object]:
    """A line saying the build is under way, on a terminal only: CI logs get the results
    alone. Not a spinner: rich animates one from a thread of its own, and a process with
    another thread running never forks the build's workers."""
    if console.is_terminal:
        console.print("building the site…", style="dim", highlight=False)
    return nullcontext()


def _build_into(config: MkDocsConfig, plugin: RecordsPlugin, target: Path, out: Console, err: Console) -> int:
    from mkdocs.commands.build import build
    from mkdocs.exceptions import Abort, ConfigurationError, PluginError

    staging = new_staging(target)
    try:
        config.site_dir = str(staging)
        config.plugins.on_startup(command="build", dirty=False)
        try:
            with _building(err):
                build(config)
        finally:
            config.plugins.on_shutdown()
        if plugin.result is not None:
            print_human(plugin.result.systems, err)  # warnings and counts: the single check
        problem = swap_in(staging, target, lambda: _site_refusal(config, plugin, target), "build")
    except (Abort, ConfigurationError, PluginError) as exc:
        _report_failure(plugin, exc, err)
        return EXIT_ERRORS
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    if problem is not None:
        say(err, f"kbgen build: {problem}", "red")
        return EXIT_ERRORS
    say(out, f"built {target}")
    return EXIT_OK


@contextmanager
def project_environment(config_file: Path, err: Console) -> Iterator[None]:
    """What a one-shot command (build, render) runs MkDocs in: the project's environment,
    and MkDocs' log at WARNING (it is chatty at INFO; a build shows what needs attention)."""
    with _environment(config_file), _mkdocs_log(err, logging.WARNING, hide_record_errors=True):
        yield


def load_project(
    config_file: Path, records: str | None, command: str, err: Console, site_url: str | None = None
) -> tuple[MkDocsConfig, RecordsPlugin] | int:
    """The strict configuration and its kb-records plugin (pointed at ``records`` when
    given; ``site_url`` in place of the file's), or the exit code after saying why not."""
    from mkdocs.config import load_config
    from mkdocs.exceptions import Abort, ConfigurationError

    defer_unused_by_builds()  # before the plugins are imported
    overrides = {"site_url": site_url} if site_url else {}
    try:
        config = load_config(str(config_file), strict=True, **overrides)
    except (Abort, ConfigurationError) as exc:
        say(err, f"kbgen {command}: {exc}", "red")
        return EXIT_ERRORS
    plugin = records_plugin(config)
    if plugin is None:
        say(err, f"kbgen {command}: {config_file} does not enable the {PLUGIN} plugin")
        return EXIT_USAGE
    if records:
        plugin.config.records_dir = str(Path(records).resolve())
    return config, plugin


def build_site(
    config_file: Path,
    records: str | None,
    site_dir: str | None,
    out: Console,
    err: Console,
    site_url: str | None = None,
    strict: bool = False,
) -> int:
    """Build the site strictly (the plugin checks the records) and swap it into place;
    ``site_url`` (else mkdocs.yml's) is the address sitemap.xml lists the pages under;
    ``strict``: the records' warnings fail the build, as they fail ``kbgen check --strict``."""
    if not config_file.is_file():
        say(err, f"kbgen: {config_file}: no such MkDocs configuration")
        return EXIT_USAGE
    with project_environment(config_file, err):
        loaded = load_project(config_file, records, "build", err, site_url)
        if isinstance(loaded, int):
            return loaded
        config, plugin = loaded
        plugin.config.strict_records = plugin.config.strict_records or strict
        target = Path(site_dir or config.site_dir).resolve()
        refusal = _site_refusal(config, plugin, target)
        if refusal is not None:
            say(err, f"kbgen build: {refusal}", "red")
            return EXIT_USAGE
        return _build_into(config, plugin, target, out, err)


def _records_option_ignored(config_file: Path, folder: Path) -> str | None:
    """Why ``--records`` would not reach the plugin: serve reloads the file on every rebuild,
    so the folder travels through ``records_dir: !ENV [KBGEN_RECORDS, records]``."""
    from mkdocs.config import load_config

    config = load_config(str(config_file))
    plugin = records_plugin(config)
    if plugin is None:
        return f"{config_file} does not enable the {PLUGIN} plugin"
    if plugin.records_folder(config).resolve() != folder:
        return f"--records needs 'records_dir: !ENV [{RECORDS_ENV}, records]' under {PLUGIN} in {config_file}"
    return None


def serve_site(
    config_file: Path,
    records: str | None,
    dev_addr: str | None,
    out: Console,
    err: Console,
    poll: bool = False,
) -> int:
    """Preview the site with live reload; record edits rebuild the affected pages. Changes
    arrive as the system's file events, or by MkDocs' polling with ``poll``."""
    from mkdocs.commands.serve import serve
    from mkdocs.exceptions import Abort, ConfigurationError

    from generator.mkdocs.watch import event_watching

    if not config_file.is_file():
        say(err, f"kbgen: {config_file}: no such MkDocs configuration")
        return EXIT_USAGE
    folder = Path(records).resolve() if records else None
    options: dict[str, Any] = {"dev_addr": dev_addr} if dev_addr else {}
    defer_unused_by_builds()
    # A preview shows INFO too: the address it serves on, each rebuild, the records' errors.
    with _environment(config_file, folder), _mkdocs_log(err, logging.INFO), event_watching(not poll):
        try:
            ignored = folder is not None and _records_option_ignored(config_file, folder)
            if ignored:
                say(err, f"kbgen serve: {ignored}")
                return EXIT_USAGE
            serve(config_file=str(config_file), livereload=True, **options)
        except (Abort, ConfigurationError) as exc:
            say(err, f"kbgen serve: {exc}", "red")
            return EXIT_ERRORS
    return EXIT_OK
