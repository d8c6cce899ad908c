"""A folder of a git revision, written out so the loader can read it through its one door.

``kbgen diff --git`` compares a system folder at two revisions. Each revision's folder is
copied from the repository's objects into a private temporary folder (never into the
work tree), and the loader then reads that copy as it reads any system folder: the
same size cap, UTF-8 and control-character checks and diagnostics. What the loader
would refuse on disk is refused here before anything is written: a symlink or a
submodule (KB008), a blob over the size cap (KB005, before it is read), folders nested
deeper than the loader reads (KB011), and an entry name that would lead out of the
folder (KB009; git itself never writes one, a crafted tree may hold one). Names the
loader does not read (hidden, or not ``.yaml``/``.yml``/``.md``) are not copied; they
get the loader's KB010 warning. Diagnostics name files as ``REV:path``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from generator.diagnostics import Diagnostic, error
from generator.load.readfs import (
    MAX_FILE_BYTES,
    MAX_FOLDER_DEPTH,
    ignored,
    ignored_reason,
    not_regular,
    printable,
    too_large,
)

_NO_GIT: str | None = None
try:
    import git
except ImportError as exc:  # pragma: no cover - GitPython installed, but no usable git executable
    _NO_GIT = f"GitPython cannot run git: {exc}"

# Reading objects must never change the repository (as in clone_check).
_READ_ONLY_ENV = {"GIT_NO_LAZY_FETCH": "1", "GIT_OPTIONAL_LOCKS": "0", "GIT_TERMINAL_PROMPT": "0"}
_SYMLINK_MODE = 0o120000
_BAD_NAME_CHARACTERS = ("/", "\\", "\x00")


class SnapshotRefused(Exception):
    """The repository, the revision or the folder cannot be read (a usage problem)."""


@dataclass
class Snapshot:
    """A revision's folder written below ``root``: ``root/<folder>``, with what was refused."""

    root: Path
    folder: Path
    diagnostics: list[Diagnostic] = field(default_factory=list)


def open_repository(path: Path) -> git.Repo:
    """The repository at ``path`` (its top, or its git folder), read only."""
    if _NO_GIT is not None:
        raise SnapshotRefused(_NO_GIT)
    try:
        repo = git.Repo(path)
    except (git.InvalidGitRepositoryError, git.NoSuchPathError, OSError, ValueError) as exc:
        raise SnapshotRefused(f"{path}: not a git repository ({type(exc).__name__})") from None
    repo.git.update_environment(**_READ_ONLY_ENV)
    return repo


def write_snapshot(repo: git.Repo, revision: str, folder: PurePosixPath, root: Path) -> Snapshot:
    """Write ``folder`` of ``revision`` below the empty folder ``root``."""
    try:
        commit = repo.commit(revision)
    except (git.BadName, git.BadObject, git.GitCommandError, ValueError, IndexError, KeyError) as exc:
        raise SnapshotRefused(f"{revision}: not a revision of the repository ({exc})") from None
    try:
        tree = commit.tree / folder.as_posix() if folder.parts else commit.tree
    except KeyError:
        raise SnapshotRefused(f"{revision}: no folder {folder.as_posix()}") from None
    if not isinstance(tree, git.Tree):
        raise SnapshotRefused(f"{revision}: {folder.as_posix()} is not a folder")
    target = root.joinpath(*folder.parts)
    target.mkdir(parents=True)
    snapshot = Snapshot(root, target)
    shown = f"{revision}:{folder.as_posix()}/" if folder.parts else f"{revision}:"
    try:
        _write_tree(tree, target, shown, 0, snapshot)
    except (git.GitCommandError, ValueError) as exc:  # an object git cannot read
        raise SnapshotRefused(f"{shown} cannot be read from the repository's objects ({exc})") from None
    return snapshot


def _write_tree(tree: git.Tree, into: Path, display: str, depth: int, snapshot: Snapshot) -> None:
    """Copy one tree's entries, refusing as the loader's walk refuses (``readfs``)."""
    found = snapshot.diagnostics
    for entry in sorted(tree, key=lambda item: item.name):
        name = entry.name
        shown = display + printable(name)
        if name in ("", ".", "..") or any(ch in name for ch in _BAD_NAME_CHARACTERS):
            found.append(
                error("KB009", f"refused: the entry name {name!r} would lead outside the folder", shown)
            )
            continue
        if isinstance(entry, git.Submodule) or (isinstance(entry, git.Blob) and entry.mode == _SYMLINK_MODE):
            found.append(
                not_regular(shown, "a submodule" if isinstance(entry, git.Submodule) else "a symlink")
            )
            continue
        is_dir = isinstance(entry, git.Tree)
        reason = ignored_reason(name, is_dir)
        if (into / name).exists():
            found.append(error("KB009", "refused: the folder holds this name twice", shown))
        elif reason is not None:
            found.append(ignored(shown + "/" * is_dir, reason))
        elif is_dir:
            (into / name).mkdir()
            # A folder at the loader's depth limit stays empty: the loader reports it (KB011).
            if depth + 1 < MAX_FOLDER_DEPTH:
                _write_tree(entry, into / name, shown + "/", depth + 1, snapshot)
        elif entry.size > MAX_FILE_BYTES:
            found.append(too_large(shown, entry.size, MAX_FILE_BYTES))
        else:
            _write_blob(entry, into / name)


def _write_blob(blob: git.Blob, path: Path) -> None:
    with open(path, "xb") as out:  # 'x': never through anything already there
        out.write(blob.data_stream.read())
