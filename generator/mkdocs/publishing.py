"""Publishing the records: the check every build starts with, and the generated pages
and downloads handed to MkDocs as virtual files.

Nothing is written into ``docs_dir``: pages are ``File.generated`` objects, so
``mkdocs serve`` never sees its own output change (no reload loops). Records with errors
fail ``build``; in ``serve`` their errors are printed and the last good pages are
published again, so the preview never stalls.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any
from urllib.parse import quote

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.structure.files import File, Files

from generator.check.report import capped
from generator.diagnostics import Diagnostic
from generator.mkdocs.macros import MacroProblems, RecordMacros
from generator.mkdocs.nav import expand_nav
from generator.pipeline import PerGraph, PipelineResult, SystemCache, run_pipeline

log = logging.getLogger("mkdocs.plugins.kb-records")

# The start of the message a build fails with when the records have errors; kbgen
# prints its own report of them instead.
RECORD_ERRORS = "kb-records: the records have errors"

# Markdown extensions the generated pages are written for (badges use attr_list and
# md_in_html; code blocks superfences). Route maps are raw HTML that kb-maps.js draws:
# they need no mermaid fence.
REQUIRED_EXTENSIONS = ("attr_list", "md_in_html", "toc", "tables", "admonition", "pymdownx.superfences")


def _extension_name(name: str) -> str:
    return name.removeprefix("markdown.extensions.")


def missing_extension(config: MkDocsConfig) -> str | None:
    """The first Markdown extension the generated pages need but lack."""
    enabled = {_extension_name(name) for name in config.markdown_extensions}
    for name in REQUIRED_EXTENSIONS:
        if name not in enabled:
            return name
    return None


def config_problem(config: MkDocsConfig) -> str | None:
    """Why the generated pages cannot be built with this configuration, or None."""
    missing = missing_extension(config)
    if missing is not None:
        return (
            f"kb-records: the generated pages need the Markdown extension {missing}; "
            "enable it under markdown_extensions in the MkDocs configuration"
        )
    if not config.use_directory_urls:
        # Links inside the generated pages' raw HTML blocks are final directory URLs
        # (MkDocs rewrites links in Markdown only), as are the record index and exports.
        return (
            "kb-records: the generated pages link with directory URLs; "
            "set use_directory_urls: true in the MkDocs configuration"
        )
    return None


def require_config(config: MkDocsConfig) -> None:
    """Fail the build with what to change when the configuration cannot build the pages."""
    problem = config_problem(config)
    if problem is not None:
        raise PluginError(problem)


def located_lines(diagnostics: list[Diagnostic], cap: int) -> list[str]:
    """The one-line forms, capped per rule and file like ``kbgen check``, then at ``cap`` lines."""
    lines = [item if isinstance(item, str) else item.as_text() for item in capped(diagnostics)]
    more = len(lines) - cap
    return lines[:cap] + ([f"… and {more} more lines"] if more > 0 else [])


class RecordPublisher:
    """The check of each build and the pages it publishes (in serve, the last good ones)."""

    def __init__(self, serving: bool = False) -> None:
        self.serving = serving
        self.result: PipelineResult | None = None  # the latest check, errors or not
        self.published: PipelineResult | None = None  # the pages of this build
        self.last_good: PipelineResult | None = None  # serve: the last clean result
        self.macro_problems = MacroProblems()

    def publish(
        self,
        records: Path,
        cache: SystemCache | None,
        max_diagnostics: int,
        alongside: Sequence[PerGraph[Any]] = (),
        strict: bool = False,
    ) -> PipelineResult:
        """Check the records and choose what this build publishes; raises when nothing can be.
        ``alongside``: the per-system values the build's later steps need (``run_pipeline``);
        ``strict``: a warning fails the build, as it fails ``kbgen check --strict``."""
        if not records.is_dir():
            return self._fallback([f"kb-records: records folder {records} does not exist"])
        # Diagnostics name files relative to the working folder, as kbgen check does.
        self.result = run_pipeline(records, cache=cache, alongside=alongside)
        warnings = [d for d in self.result.diagnostics if d.severity.value == "warning"]
        for line in located_lines(warnings, max_diagnostics):
            log.info(line)
        failing = self.result.diagnostics if strict else self.result.errors
        if not failing:
            self.published = self.result
            if self.serving:
                self.last_good = self.result
            return self.result
        return self._fallback(
            [
                f"{RECORD_ERRORS}: {len(failing)} {'problem' if strict else 'error'}(s)",
                *located_lines(failing, max_diagnostics),
            ]
        )

    def configure_site(self, config: MkDocsConfig) -> MkDocsConfig:
        """The published systems in the theme's context and in the generated nav section."""
        assert self.published is not None
        summaries = self.published.summaries()
        config.extra["kb_systems"] = summaries
        if config.nav is not None:
            config.nav = expand_nav(config.nav, summaries)
        return config

    def _fallback(self, lines: list[str]) -> PipelineResult:
        if self.serving and self.last_good is not None:
            # Logged at INFO: a warning would fail the strict rebuild and stall the preview.
            log.info("\n".join([*lines, "kb-records: showing the last good pages"]), extra={"kb_error": True})
            self.published = self.last_good
            return self.last_good
        raise PluginError("\n".join([*lines, "nothing was built; run 'kbgen check' for hints"]))

    def is_generated(self, source: str) -> bool:
        return self.published is not None and source in self.published.pages

    def add_files(self, files: Files, config: MkDocsConfig, downloads: Mapping[str, str | bytes]) -> Files:
        """The generated pages, the set manifests and ``downloads`` as virtual files."""
        assert self.published is not None
        edits = self.published.edit_paths()
        docs = Path(config.docs_dir).resolve()  # once: every page's edit path is relative to it
        for path, markdown in self.published.pages.items():
            if files.get_file_from_path(path) is not None:
                raise PluginError(f"kb-records: {path} is generated from records; remove it from docs_dir")
            file = File.generated(config, path, content=markdown)
            # The edit link opens the record file the page is rendered from (none for
            # cross-system pages), relative to docs_dir as edit_uri expects.
            source = edits.get(path)
            file.edit_uri = edit_path(source, docs) if source is not None else None
            files.append(file)
        for path, text in {**self.published.artifacts, **downloads}.items():
            files.append(File.generated(config, path, content=text))
        return files

    def macros_for(self, env: Any) -> RecordMacros:
        """The record macros of hand-authored pages (``generator.mkdocs.macros.define_env`` asks)."""
        self.macro_problems.take()
        return RecordMacros(env, self.published.graphs if self.published else [], self.macro_problems)

    def raise_macro_problems(self) -> None:
        """Macros ran on a page's Markdown just before: a broken reference fails the build."""
        problems = self.macro_problems.take()
        if problems:
            raise PluginError(
                "kb-records: a macro names something that does not exist:\n" + "\n".join(problems)
            )


def edit_path(path: Path, start: Path) -> str:
    """``path`` from ``start`` (resolved already) as the URL path the theme appends to
    ``edit_uri``: each segment percent-encoded, so no folder or file name (the records
    folder's own is not held to the record-name grammar) can end the edit button's
    ``href``, add a query or fragment, or decode to another path."""
    relative = Path(os.path.relpath(path.resolve(), start)).as_posix()
    return "/".join(quote(segment, safe="") for segment in relative.split("/"))
