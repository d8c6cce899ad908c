"""The MkDocs plugin: a thin wrapper that adds the rendered record pages as virtual files.

Nothing is written into ``docs_dir``: pages are ``File.generated`` objects, so
``mkdocs serve`` never sees its own output change (no reload loops). Records with
errors abort the build with the checker's diagnostics; no page is half-rendered.
"""

from __future__ import annotations

import html
import logging
import os
from pathlib import Path
from typing import Any

from mkdocs.config import config_options as c
from mkdocs.config.base import Config
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.plugins import BasePlugin
from mkdocs.structure.files import File, Files

from .pipeline import PipelineResult, run_pipeline

log = logging.getLogger("mkdocs.plugins.kb-records")

RECORDS_ENV = "KBGEN_RECORDS"


class RecordsConfig(Config):
    records_dir = c.Type(str, default="records")
    max_diagnostics = c.Type(int, default=50)


SYSTEMS_INDEX = "systems/index.md"


def systems_nav(summaries: list[dict[str, Any]]) -> list[Any]:
    """The navigation of the generated pages: systems index, one section per system, matrix."""
    entries: list[Any] = [SYSTEMS_INDEX]
    for summary in summaries:
        pages: list[Any] = [f"systems/{summary['slug']}/index.md"]
        for artifact in summary["artifacts"]:
            pages.append({artifact["title"]: f"systems/{summary['slug']}/{artifact['href']}"})
        # The theme prints nav titles unescaped: a system name is data, so escape it.
        entries.append({html.escape(str(summary["name"])): pages})
    entries.append({"Status matrix": "systems/status-matrix.md"})
    return entries


def expand_nav(nav: list[Any], summaries: list[dict[str, Any]]) -> list[Any]:
    """Replace the nav entry that points at systems/index.md by the generated section.

    The navigation is rebuilt from the records on every build, so it is never stale.
    """
    expanded: list[Any] = []
    for item in nav:
        if item == SYSTEMS_INDEX:
            expanded.append({"Systems": systems_nav(summaries)})
        elif isinstance(item, dict) and len(item) == 1:
            ((title, value),) = item.items()
            if value == SYSTEMS_INDEX:
                expanded.append({title: systems_nav(summaries)})
            elif isinstance(value, list):
                expanded.append({title: expand_nav(value, summaries)})
            else:
                expanded.append(item)
        else:
            expanded.append(item)
    return expanded


class RecordsPlugin(BasePlugin[RecordsConfig]):
    """Turns records/<system>/ into result, memory-report, review and system pages."""

    def __init__(self) -> None:
        self.result: PipelineResult | None = None
        self.records: Path | None = None

    def on_config(self, config: MkDocsConfig) -> MkDocsConfig:
        # kbgen build/serve --records passes its folder through the environment, because
        # mkdocs serve reloads the configuration from mkdocs.yml on every rebuild.
        configured = os.environ.get(RECORDS_ENV) or self.config.records_dir
        base = Path(config.config_file_path or ".").resolve().parent
        records = Path(configured)
        self.records = records if records.is_absolute() else base / records
        if not self.records.is_dir():
            raise PluginError(f"kb-records: records folder {self.records} does not exist")
        self.result = run_pipeline(self.records, base)
        for diagnostic in self.result.diagnostics:
            if diagnostic.severity.value == "warning":
                log.info(diagnostic.as_text())
        if self.result.errors:
            shown = self.result.errors[: self.config.max_diagnostics]
            more = len(self.result.errors) - len(shown)
            lines = [d.as_text() for d in shown] + ([f"… and {more} more"] if more > 0 else [])
            raise PluginError(
                f"kb-records: {len(self.result.errors)} error(s) in the records; nothing was built.\n"
                + "\n".join(lines)
                + "\nRun 'kbgen check' for hints."
            )
        config.extra["kb_systems"] = self.result.summaries()
        if config.nav is not None:
            config.nav = expand_nav(config.nav, self.result.summaries())
        return config

    def on_files(self, files: Files, *, config: MkDocsConfig) -> Files:
        assert self.result is not None
        for path, markdown in self.result.pages.items():
            existing = files.get_file_from_path(path)
            if existing is not None:
                raise PluginError(f"kb-records: {path} is generated from records; remove it from docs_dir")
            files.append(File.generated(config, path, content=markdown))
        return files

    def on_serve(self, server: Any, *, config: MkDocsConfig, builder: Any) -> Any:
        if self.records is not None:
            server.watch(str(self.records))
        _keep_last_good_site(server)
        return server


def _keep_last_good_site(server: Any) -> None:
    """After a failed rebuild, serve the last good site instead of stalling requests.

    MkDocs' live-reload server holds every page request until the newest requested
    build succeeds ("the server will appear stuck"). While records have errors that
    never happens, so a failed build marks the last good build as the wanted one.
    The epoch attributes are MkDocs internals; without them this degrades to MkDocs'
    own behaviour.
    """
    if getattr(server, "_kb_guarded", False) or not hasattr(server, "_wanted_epoch"):
        return
    build = server.builder

    def guarded_builder(*args: Any, **kwargs: Any) -> Any:
        try:
            return build(*args, **kwargs)
        except BaseException:
            with server._epoch_cond:
                server._wanted_epoch = server._visible_epoch
                server._epoch_cond.notify_all()
            raise

    server.builder = guarded_builder
    server._kb_guarded = True
