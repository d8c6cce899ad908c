"""The one guard of a site folder, for every command that builds one (build, render, serve's
plugin): the sources a MkDocs project names, and why a folder must not receive a site."""

from __future__ import annotations

from pathlib import Path

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError

from generator.util.output_guard import Protected, protected_paths, site_dir_refusal


def project_sources(config: MkDocsConfig, records: Path) -> list[Protected]:
    """The project's folder, its records, docs and theme overrides, home and git: what a
    site folder must not be, contain or (for folders of sources) sit inside."""
    custom_dir = config.theme.custom_dir
    return protected_paths(
        Path(config.config_file_path or ".").resolve().parent,
        records,
        Path(config.docs_dir),
        Path(custom_dir) if custom_dir else None,
    )


def site_refusal(config: MkDocsConfig, records: Path, site: Path) -> str | None:
    """Why ``site`` must not be built into for this project, or None when it may be replaced."""
    return site_dir_refusal(site, project_sources(config, records))


def guard_site_dir(config: MkDocsConfig, records: Path) -> None:
    """Fail the build before MkDocs cleans ``site_dir`` when that folder must not be replaced."""
    refusal = site_refusal(config, records, Path(config.site_dir))
    if refusal is not None:
        raise PluginError(f"kb-records: {refusal}")
