"""Where a site may be written: never over the sources, never over a folder that is not a site.

A build replaces its site folder wholesale, so a site folder that is, contains or
sits inside the project's sources would destroy them. Both ``kbgen build`` (before
it starts) and the MkDocs plugin (before MkDocs cleans ``site_dir``) ask
:func:`site_dir_refusal`; every path is compared with symlinks resolved.
"""

from __future__ import annotations

import re
import subprocess
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from generator import PACKAGE_DIR

# Written into every site the plugin builds, so the next build knows it may replace it.
SITE_MARKER = ".kbgen-site"
SITE_MARKER_TEXT = "Built by kbgen; the next build replaces this folder.\n"
# What any MkDocs build leaves behind (sites built before the marker existed).
MKDOCS_SITE_FILES = ("index.html", "sitemap.xml")


@dataclass(frozen=True)
class Protected:
    """A path the site must keep clear of: ``enclosing`` ones may hold the site below them."""

    what: str
    path: Path
    enclosing: bool = False


def git_paths(start: Path) -> list[Protected]:
    """The git work tree enclosing ``start`` and its git folder (followed for worktrees)."""
    for folder in (start, *start.parents):
        dot_git = folder / ".git"
        if not dot_git.exists():
            continue
        found = [Protected("the git work tree", folder, enclosing=True), Protected("the git folder", dot_git)]
        if dot_git.is_file():  # a linked worktree: ".git" names the real git folder
            text = dot_git.read_text(encoding="utf-8", errors="replace").strip()
            if text.startswith("gitdir:"):
                found.append(Protected("the git folder", (folder / text[7:].strip()).resolve()))
        return found
    return []


def _home() -> list[Protected]:
    try:
        return [Protected("the home folder", Path.home().resolve(), enclosing=True)]
    except (RuntimeError, KeyError):  # no home folder known
        return []


def protected_paths(
    config_folder: Path, records: Path, docs_dir: Path, custom_dir: Path | None
) -> list[Protected]:
    """Every source a site folder must not be, contain or (for folders of sources) sit inside."""
    found = [
        Protected("the project folder", config_folder.resolve(), enclosing=True),
        Protected("the records folder", records.resolve()),
        Protected("the docs folder", docs_dir.resolve()),
        Protected("the file system root", Path("/"), enclosing=True),
        *_home(),
    ]
    if custom_dir is not None:
        found.append(Protected("the theme overrides folder", custom_dir.resolve()))
    for start in {config_folder.resolve(), records.resolve()}:
        found.extend(git_paths(start))
    return found


def overlaps(site: Path, protected: list[Protected]) -> Iterator[str]:
    """Every way the site collides with a source, the most direct first."""
    for guard in protected:
        if site == guard.path:
            yield f"it is {guard.what} ({guard.path})"
    for guard in protected:
        if site in guard.path.parents:
            yield f"it contains {guard.what} ({guard.path})"
    for guard in protected:
        if not guard.enclosing and guard.path in site.parents:
            yield f"it is inside {guard.what} ({guard.path})"


def is_replaceable(site: Path) -> bool:
    """Missing, empty, or a site a build wrote before (marker, or MkDocs' own files)."""
    if not site.exists():
        return True
    if not site.is_dir():
        return False
    if (site / SITE_MARKER).is_file() or not any(site.iterdir()):
        return True
    return all((site / name).is_file() for name in MKDOCS_SITE_FILES)


def site_dir_refusal(site: Path, protected: list[Protected]) -> str | None:
    """Why ``site`` must not be built into, or None when it may be replaced."""
    site = site.resolve()
    problem = next(overlaps(site, protected), None)
    if problem is not None:
        return f"refusing site folder {site}: {problem}; nothing was changed"
    if not is_replaceable(site):
        return (
            f"refusing site folder {site}: it exists and is not a site built before "
            f"(no {SITE_MARKER}, index.html or sitemap.xml); remove it or choose another folder"
        )
    return None


def mark_site(site: Path) -> None:
    """Leave the marker that lets the next build replace this folder."""
    (site / SITE_MARKER).write_text(SITE_MARKER_TEXT, encoding="utf-8", newline="\n")


def tracked_paths(project: Path) -> list[Protected]:
    """What git tracks in the project: each top-level folder holding tracked files, and
    each tracked file at the top (``mkdocs.yml``, ``pyproject.toml``): the sources."""
    try:
        listed = subprocess.run(
            ["git", "ls-files", "-z"], cwd=project, capture_output=True, check=True, timeout=30
        ).stdout
    except (OSError, subprocess.SubprocessError):
        return []
    entries = [entry for entry in listed.decode("utf-8", "replace").split("\0") if entry]
    folders = sorted({entry.split("/", 1)[0] for entry in entries if "/" in entry})
    files = sorted(entry for entry in entries if "/" not in entry)
    return [
        *(Protected(f"the source folder {name}/", (project / name).resolve()) for name in folders),
        *(Protected(f"the source file {name}", (project / name).resolve()) for name in files),
    ]


PROJECT_FILES = ("mkdocs.yml", "mkdocs.yaml", "pyproject.toml")
_CONFIGURED = re.compile(r"^\s*(?P<key>docs_dir|custom_dir):\s*['\"]?(?P<name>[^'\"#\s]+)", re.M)


def _configured_folders(folder: Path) -> list[tuple[str, str]]:
    """The docs and theme folders a project's mkdocs.yml names (MkDocs' defaults otherwise);
    read as text, since the file is not plain YAML (``!ENV`` tags)."""
    found = {"docs_dir": "docs"}
    config = folder / "mkdocs.yml"
    if config.is_file() and not config.is_symlink():
        for match in _CONFIGURED.finditer(config.read_text(encoding="utf-8", errors="replace")[:100_000]):
            found[match.group("key")] = match.group("name")
    names = {"docs_dir": "docs folder", "custom_dir": "theme overrides folder"}
    return [(names[key], name) for key, name in found.items()]


def file_output_protected(records: Path) -> list[Protected]:
    """Every source a file a command writes (``kbgen export --out``) must not be or lie in:
    the records, the project's tracked files and folders, the generator and git itself."""
    records = records.resolve()
    project = next(
        (folder for folder in (records, *records.parents) if (folder / ".git").exists()),
        Path.cwd().resolve(),
    )
    package = PACKAGE_DIR
    # The project's configuration files and the folders they name, tracked or not yet.
    folders = list(dict.fromkeys([project, Path.cwd().resolve()]))
    configs = [
        Protected(f"the project file {name}", (folder / name).resolve())
        for folder in folders
        for name in PROJECT_FILES
    ]
    configs += [
        Protected(f"the {what} {name}/", (folder / name).resolve())
        for folder in folders
        for what, name in _configured_folders(folder)
    ]
    return [
        *configs,
        Protected("the records folder", records),
        Protected("the generator package", package),
        *git_paths(project),
        *git_paths(package),
        *tracked_paths(project),
    ]


def file_refusal(target: Path, protected: list[Protected], allowed: Iterable[Path] = ()) -> str | None:
    """Why a command must not write the file ``target``, or None. The one output guard of
    every command that writes a file: never over a source (or into a source folder),
    never through a symlink, never over a folder. ``allowed`` names sources a command
    exists to regenerate (``kbgen schema`` writes ``schemas/records.schema.json``)."""
    if target.is_symlink():
        return f"refusing to write {target}: it is a symlink; nothing was written"
    resolved = target.resolve()
    if resolved.is_dir():
        return f"refusing to write {target}: it is a folder; nothing was written"
    if resolved in {path.resolve() for path in allowed}:
        return None
    problem = next(overlaps(resolved, [guard for guard in protected if guard.path != Path("/")]), None)
    if problem is not None:
        return f"refusing to write {target}: {problem}; nothing was written"
    return None
