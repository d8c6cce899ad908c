"""What a git revision's folder would write, planned from the repository's objects alone.

A repository that arrives with a pull request is as untrusted as its records, and git
objects are cheap to repeat: a tree may name one subtree eight times per level (32,768
files at depth 5 from a few hundred bytes of objects), or one compressible 2 MiB blob
hundreds of times. So a revision's folder is planned before anything is written: every
entry is listed (``git ls-tree``, never by expanding it), counted against the caps on
entries, depth and bytes (a blob's size is read from its header, not its content), and
refused as the loader's walk would refuse it on disk. A plan over a cap holds that one
located refusal and no file.

Revisions are resolved by git itself (``rev-parse --verify``), after a check of the
text: an option (``-x``), a reflog or upstream form (``@{…}``: the state of one clone,
not of the repository's content) and control characters are refused first.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import PurePosixPath

import git

from generator.diagnostics import Diagnostic, Rule, error
from generator.load import readfs
from generator.load.readfs import (
    KB007,
    KB009,
    KB011,
    MAX_FOLDER_DEPTH,
    ignored,
    ignored_reason,
    name_refusal,
    not_regular,
    printable,
)
from generator.model.runs import RUNS_FOLDER

KB509 = Rule(
    "KB509",
    "git-tree-too-large",
    "kbgen diff --git: a revision's folder lists too many entries or bytes; nothing is written.",
    doc=(
        "`kbgen diff --git`: error: the revision's system folder lists more than 4,096 entries (files, "
        "folders, refused and ignored names, each time a tree names them), holds more than 32 MiB of files "
        "(16 files at the 2 MiB file cap), or a folder's listing is larger than a file may be; located at "
        "the entry that crosses the cap, found from the repository's objects before anything is written, and "
        "then nothing is written"
    ),
)

KB510 = Rule(
    "KB510",
    "git-name-too-long",
    "kbgen diff --git: an entry name or path is longer than a folder can hold.",
    doc=(
        "`kbgen diff --git`: error: an entry name is longer than 255 bytes, or its path below the system "
        "folder longer than 1,024 bytes (no folder holds such a name; git may)"
    ),
)

# How much one revision's system folder may hold. A system needs tens of files; the caps
# leave room for hundreds, and bound what a crafted tree can make the diff write.
MAX_TREE_ENTRIES = 4096  # every entry listed: files, folders, refused and ignored names
MAX_TREE_FILES_OF_MAX_SIZE = 16  # total bytes: this many files at the loader's file cap
MAX_NAME_BYTES = 255  # a name longer than this cannot be written on common file systems
MAX_PATH_BYTES = 1024  # a path below the folder: far below the system's limit (4096)

_TREE_MODE = "040000"
_GITLINK_MODE = "160000"
_SYMLINK_MODE = "120000"
_BAD_NAME_CHARACTERS = ("/", "\\", "\x00")
# What a revision may not be: empty, an option, or a reflog or upstream form; nor may it
# hold a space or anything that does not print (controls, bidirectional overrides, line
# separators: the revision is part of every file name the diff reports).
_NOT_A_REVISION = re.compile(r"\A(?:-|\Z)|@\{| ")


class TreeRefused(Exception):
    """The revision or the folder cannot be read (a usage problem, not a located one)."""


def max_tree_bytes() -> int:
    """The total bytes of the files one revision's folder may write (read when called, so
    it follows the loader's file cap)."""
    return MAX_TREE_FILES_OF_MAX_SIZE * readfs.MAX_FILE_BYTES


@dataclass(frozen=True, slots=True)
class TreeEntry:
    """One entry of a tree object, as ``git ls-tree -l`` lists it."""

    mode: str
    sha: str
    size: int | None  # a blob's size; None for a tree, a gitlink or a missing blob
    name: str


@dataclass
class TreePlan:
    """The folders and files a revision's folder would write, or why it writes nothing."""

    folders: list[PurePosixPath] = field(default_factory=list)
    files: list[tuple[PurePosixPath, TreeEntry]] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    over_cap: bool = False  # a cap was crossed: nothing may be written
    entries: int = 0
    bytes: int = 0


class _OverCap(Exception):
    def __init__(self, diagnostic: Diagnostic) -> None:
        super().__init__(diagnostic.message)
        self.diagnostic = diagnostic


def resolve_commit(repo: git.Repo, revision: str) -> str:
    """The commit ID ``revision`` names, or :class:`TreeRefused` ("not a revision")."""
    shown = "".join(ch if ch.isprintable() else ascii(ch)[1:-1] for ch in revision)
    if _NOT_A_REVISION.search(revision) or not revision.isprintable():
        why = "reflog and upstream forms (@{…}) name one clone's state" if "@{" in revision else "malformed"
        raise TreeRefused(f"{shown}: not a revision of the repository ({why})")
    try:
        found = repo.git.rev_parse("--verify", "--quiet", "--end-of-options", f"{revision}^{{commit}}")
    except git.GitCommandError:
        raise TreeRefused(f"{shown}: not a revision of the repository") from None
    return str(found).strip()


def folder_tree(repo: git.Repo, commit: str, folder: PurePosixPath, revision: str) -> str:
    """The tree ID of ``folder`` at ``commit``, walked one listed entry at a time."""
    tree = repo.commit(commit).tree.hexsha
    for depth, part in enumerate(folder.parts):
        found = next((entry for entry in list_tree(repo, tree) if entry.name == part), None)
        at = PurePosixPath(*folder.parts[: depth + 1]).as_posix()
        if found is None:
            raise TreeRefused(f"{printable(revision)}: no folder {printable(folder.as_posix())}")
        if found.mode == _GITLINK_MODE:
            raise TreeRefused(f"{printable(revision)}: {printable(at)} is a submodule, not a folder")
        if found.mode != _TREE_MODE:
            raise TreeRefused(f"{printable(revision)}: {printable(at)} is not a folder")
        tree = found.sha
    return tree


def list_tree(repo: git.Repo, tree: str) -> list[TreeEntry]:
    """The entries of one tree object, in name order; a tree object larger than a file
    may be is refused before it is listed (it would hold thousands of entries)."""
    if _tree_bytes(repo, tree) > readfs.MAX_FILE_BYTES:
        raise TreeRefused(f"tree {tree} is larger than a folder's listing may be")
    listing = repo.git.ls_tree("-z", "-l", tree, stdout_as_string=False, strip_newline_in_stdout=False)
    found: list[TreeEntry] = []
    for record in bytes(listing).split(b"\0"):
        if not record:
            continue
        head, raw_name = record.split(b"\t", 1)
        mode, _kind, sha, size_text = head.decode("ascii").split()
        name = raw_name.decode("utf-8", errors="surrogateescape")
        # ``-`` for a tree or gitlink; a blob missing from the repository lists no size.
        size = int(size_text) if size_text.isdigit() else None
        found.append(TreeEntry(mode, sha, size, name))
    return sorted(found, key=lambda entry: entry.name)


def _tree_bytes(repo: git.Repo, tree: str) -> int:
    """The size of a tree object, from its header."""
    return int(repo.odb.info(bytes.fromhex(tree)).size)


def plan_tree(repo: git.Repo, tree: str, display: str) -> TreePlan:
    """Every folder and file the tree would write, with the loader's refusals; when a cap
    is crossed, that refusal alone (located at the entry that crossed it) and nothing to
    write. Listings of a subtree named many times are read once."""
    plan = TreePlan()
    listings: dict[str, list[TreeEntry]] = {}
    try:
        _plan_folder(repo, tree, PurePosixPath(), display, 0, plan, listings)
    except _OverCap as over:
        return TreePlan(diagnostics=[over.diagnostic], over_cap=True, entries=plan.entries, bytes=plan.bytes)
    return plan


def _plan_folder(
    repo: git.Repo,
    tree: str,
    relative: PurePosixPath,
    display: str,
    depth: int,
    plan: TreePlan,
    listings: dict[str, list[TreeEntry]],
) -> None:
    if tree not in listings:
        if _tree_bytes(repo, tree) > readfs.MAX_FILE_BYTES:  # thousands of entries
            raise _OverCap(_too_many(display))
        listings[tree] = list_tree(repo, tree)
    seen: set[str] = set()
    for entry in listings[tree]:
        plan.entries += 1
        shown = display + _shown_name(entry.name)
        if plan.entries > MAX_TREE_ENTRIES:
            raise _OverCap(_too_many(shown))
        if depth == 0 and entry.name == RUNS_FOLDER:
            continue  # a system's further runs: the diff reads the folder's own run
        refusal = _refusal(entry, shown, seen) or _path_refusal(relative / entry.name, shown)
        seen.add(entry.name)
        if refusal is not None:
            plan.diagnostics.append(refusal)
            continue
        is_dir = entry.mode == _TREE_MODE
        reason = ignored_reason(entry.name, is_dir)
        bad_name = name_refusal(entry.name, is_dir, shown + "/" * is_dir) if reason is None else None
        if reason is not None:
            plan.diagnostics.append(ignored(shown + "/" * is_dir, reason))
        elif bad_name is not None:
            plan.diagnostics.append(bad_name)
        elif is_dir:
            _plan_child(repo, entry, relative / entry.name, shown + "/", depth, plan, listings)
        else:
            _plan_file(entry, relative / entry.name, shown, plan)


def _plan_child(
    repo: git.Repo,
    entry: TreeEntry,
    relative: PurePosixPath,
    shown: str,
    depth: int,
    plan: TreePlan,
    listings: dict[str, list[TreeEntry]],
) -> None:
    if depth + 1 >= MAX_FOLDER_DEPTH:  # as the loader's walk says it (KB011), before writing
        plan.diagnostics.append(error(KB011, f"folders nest deeper than {MAX_FOLDER_DEPTH} levels", shown))
        return
    plan.folders.append(relative)
    _plan_folder(repo, entry.sha, relative, shown, depth + 1, plan, listings)


def _plan_file(entry: TreeEntry, relative: PurePosixPath, shown: str, plan: TreePlan) -> None:
    if entry.size is None:
        plan.diagnostics.append(error(KB007, "refused: the file's object is not in the repository", shown))
        return
    size = entry.size
    if size > readfs.MAX_FILE_BYTES:
        plan.diagnostics.append(readfs.too_large(shown, size, readfs.MAX_FILE_BYTES))
        return
    plan.bytes += size
    if plan.bytes > max_tree_bytes():
        raise _OverCap(_too_many_bytes(shown, plan.bytes))
    plan.files.append((relative, entry))


def _refusal(entry: TreeEntry, shown: str, seen: set[str]) -> Diagnostic | None:
    """Why an entry is refused outright (never written, whatever its name's suffix)."""
    name = entry.name
    if name in ("", ".", "..") or any(ch in name for ch in _BAD_NAME_CHARACTERS):
        what = f"the entry name {printable(name)!r}"
        return error(KB009, f"refused: {what} would lead outside the folder", shown)
    if name in seen:
        return error(KB009, "refused: the folder holds this name twice", shown)
    if _not_utf8(name):
        return error(KB007, "refused: the entry name is not UTF-8", shown)
    if len(name.encode("utf-8")) > MAX_NAME_BYTES:
        return error(
            KB510,
            f"refused: the entry name is {len(name.encode('utf-8'))} bytes; a name may be {MAX_NAME_BYTES}",
            shown,
            hint="Rename the file; a name this long cannot be written to a folder.",
        )
    if entry.mode == _GITLINK_MODE:
        return not_regular(shown, "a submodule")
    if entry.mode == _SYMLINK_MODE:
        return not_regular(shown, "a symlink")
    return None


def _path_refusal(relative: PurePosixPath, shown: str) -> Diagnostic | None:
    length = len(relative.as_posix().encode("utf-8"))
    if length <= MAX_PATH_BYTES:
        return None
    return error(
        KB510,
        f"refused: the path below the system folder is {length} bytes; a path may be {MAX_PATH_BYTES}",
        shown,
        hint="Shorten the names of the folders on the way to it.",
    )


def _not_utf8(name: str) -> bool:
    try:
        name.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


def _shown_name(name: str) -> str:
    """An entry name as diagnostics show it: escapes for control characters and for bytes
    that are not UTF-8, at most 80 characters."""
    raw = name.encode("utf-8", errors="surrogateescape")
    visible = printable(raw.decode("utf-8", errors="backslashreplace"))
    return visible if len(visible) <= 80 else visible[:77] + "..."


def _too_many(shown: str) -> Diagnostic:
    return error(
        KB509,
        f"refused: the revision's folder lists more than {MAX_TREE_ENTRIES} entries; nothing is written",
        shown,
        hint="A system folder holds tens of files; a tree that repeats one folder many times is refused.",
    )


def _too_many_bytes(shown: str, total: int) -> Diagnostic:
    return error(
        KB509,
        f"refused: the revision's folder holds more than {max_tree_bytes()} bytes of files "
        f"({total} by here); nothing is written",
        shown,
        hint="A system folder holds far less; a tree that repeats one large file many times is refused.",
    )
