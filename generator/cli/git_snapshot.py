"""A folder of a git revision, written out so the loader can read it through its one door.

``kbgen diff --git`` compares a system folder at two revisions. Each revision's folder is
planned from the repository's objects (``cli/git_tree.py``: every entry listed and
counted, nothing expanded) and only then copied into a private temporary folder (never
into the work tree); the loader then reads that copy as it reads any system folder: the
same size cap, UTF-8 and control-character checks and diagnostics. What the loader
would refuse on disk is refused in the plan, before anything is written: a symlink or a
submodule (KB008), a blob over the size cap (KB005, before it is read), folders nested
deeper than the loader reads (KB011), an entry name that would lead out of the folder
(KB009; git itself never writes one, a crafted tree may hold one) or that no folder can
hold (KB510), and a tree over the caps on entries or bytes (KB509: then nothing at all
is written). Names the loader does not read (hidden, or not ``.yaml``/``.yml``/``.md``)
are not copied; they get the loader's KB010 warning. Diagnostics name files as
``REV:path``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from generator.cli.git_tree import TreeEntry, TreeRefused, folder_tree, plan_tree, resolve_commit
from generator.diagnostics import Diagnostic, error
from generator.load.readfs import KB007, printable

_NO_GIT: str | None = None
try:
    import git
except ImportError as exc:  # pragma: no cover - GitPython installed, but no usable git executable
    _NO_GIT = f"GitPython cannot run git: {exc}"

# Reading objects must never change the repository (as in clone_check).
_READ_ONLY_ENV = {"GIT_NO_LAZY_FETCH": "1", "GIT_OPTIONAL_LOCKS": "0", "GIT_TERMINAL_PROMPT": "0"}


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
    """Write ``folder`` of ``revision`` below the empty folder ``root``: planned first, then
    written only when the plan crossed no cap (the folder is then made, and stays empty)."""
    shown = f"{printable(revision)}:{folder.as_posix()}/" if folder.parts else f"{printable(revision)}:"
    try:
        commit = resolve_commit(repo, revision)
        plan = plan_tree(repo, folder_tree(repo, commit, folder, revision), shown)
    except TreeRefused as exc:
        raise SnapshotRefused(str(exc)) from None
    except (git.GitCommandError, ValueError) as exc:  # an object git cannot read
        raise SnapshotRefused(_unreadable(shown, exc)) from None
    target = root.joinpath(*folder.parts)
    target.mkdir(parents=True)
    snapshot = Snapshot(root, target, plan.diagnostics)
    if plan.over_cap:
        return snapshot
    for relative in plan.folders:
        target.joinpath(*relative.parts).mkdir()
    try:
        for relative, entry in plan.files:
            problem = _write_blob(repo, entry, target.joinpath(*relative.parts), shown + relative.as_posix())
            if problem is not None:
                snapshot.diagnostics.append(problem)
    except (git.GitCommandError, ValueError) as exc:
        raise SnapshotRefused(_unreadable(shown, exc)) from None
    return snapshot


def _unreadable(shown: str, exc: Exception) -> str:
    """Why git could not read an object, on one line (git's own message when it gave one)."""
    reason = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
    if isinstance(exc, git.GitCommandError):
        said = exc.stderr if isinstance(exc.stderr, str) else ""
        lines = [line.strip(" '") for line in said.splitlines() if line.strip(" '")]
        reason = lines[-1].removeprefix("stderr: ").strip("'") if lines else f"git exited {exc.status}"
    return f"{shown} cannot be read from the repository's objects ({printable(reason)})"


def _write_blob(repo: git.Repo, entry: TreeEntry, path: Path, shown: str) -> Diagnostic | None:
    """Copy one blob, read at most its planned size (a blob that is not what its header
    said is refused unwritten)."""
    stream = repo.odb.stream(bytes.fromhex(entry.sha))
    size = entry.size or 0
    data = stream.read(size + 1)
    if len(data) != size:
        return error(KB007, f"refused: the blob is not the {size} bytes its header states", shown)
    with open(path, "xb") as out:  # 'x': never through anything already there
        out.write(data)
    return None
