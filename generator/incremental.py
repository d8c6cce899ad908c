"""Per-system memory of the pipeline for ``kbgen serve``: an edit re-checks only its system.

Systems are independent until the cross-system pages: a system's diagnostics, graph and
pages depend on the files of its own folder alone (and on where diagnostics are shown
from). So each system's stages are kept under a fingerprint of that folder's entries
(names, kinds and bytes), and a rebuild reloads only the systems whose fingerprint
changed. The cross-system pages and the navigation are rebuilt from all systems each time.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from stat import S_ISREG
from typing import TYPE_CHECKING, Generic, TypeVar

if TYPE_CHECKING:
    from .check import CheckedSystem
    from .link import SystemGraph

# A folder's fingerprint reads every byte of it; the loader caps what it loads, this caps
# what is hashed, so an oversized file costs no more than it would to refuse.
HASH_LIMIT = 64 * 1024 * 1024

T = TypeVar("T")


def _entry_bytes(path: str, entry: os.DirEntry[str]) -> bytes:
    """What of one folder entry goes into the fingerprint: its kind and its content."""
    if entry.is_symlink():
        return b"link:" + os.fsencode(os.readlink(path))
    if entry.is_dir(follow_symlinks=False):
        return b"dir"
    if not entry.is_file(follow_symlinks=False):
        return b"special"
    # Opened without following a link or blocking on a FIFO swapped in since the listing,
    # and hashed only when it is still a regular file.
    fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    with os.fdopen(fd, "rb") as handle:
        stat = os.fstat(handle.fileno())
        if not S_ISREG(stat.st_mode):
            return b"special"
        if stat.st_size > HASH_LIMIT:
            return f"large:{stat.st_size}:{stat.st_mtime_ns}".encode()
        return b"file:" + hashlib.file_digest(handle, "sha256").digest()


def folder_fingerprint(folder: Path) -> str:
    """A digest of every entry under ``folder`` (names, kinds, bytes), symlinks not followed."""
    digest = hashlib.sha256()
    pending = [folder]
    while pending:
        current = pending.pop()
        try:
            with os.scandir(current) as listing:
                entries = sorted(listing, key=lambda entry: entry.name)
        except OSError as exc:
            digest.update(f"unreadable:{current}:{exc.errno}".encode())
            continue
        for entry in entries:
            path = os.path.join(current, entry.name)
            try:
                content = _entry_bytes(path, entry)
            except OSError as exc:
                content = f"unreadable:{exc.errno}".encode()
            digest.update(os.fsencode(os.path.relpath(path, folder)) + b"\0" + content + b"\0")
            if content == b"dir":
                pending.append(Path(path))
    return digest.hexdigest()


@dataclass
class SystemStages:
    """What the pipeline made of one system folder; graph and pages once it was clean."""

    checked: CheckedSystem
    graph: SystemGraph | None = None
    pages: dict[str, str] | None = None

    def fresh_checked(self) -> CheckedSystem:
        """A copy the caller may change (the first system gets the folder-level warnings)."""
        return replace(self.checked, diagnostics=list(self.checked.diagnostics))


@dataclass
class SystemCache:
    """The stages of each system folder, keyed by folder, display base and fingerprint."""

    entries: dict[tuple[str, str, bool], tuple[str, SystemStages]] = field(default_factory=dict)
    hits: int = 0
    misses: int = 0

    def get(self, folder: Path, base: Path, nested: bool, fingerprint: str) -> SystemStages | None:
        found = self.entries.get((str(folder), str(base), nested))
        if found is not None and found[0] == fingerprint:
            self.hits += 1
            return found[1]
        self.misses += 1
        return None

    def put(self, folder: Path, base: Path, nested: bool, fingerprint: str, stages: SystemStages) -> None:
        self.entries[(str(folder), str(base), nested)] = (fingerprint, stages)

    def keep_only(self, folders: set[tuple[str, str, bool]]) -> None:
        """Forget systems that are gone (removed or renamed), so memory follows the records."""
        for key in [key for key in self.entries if key not in folders]:
            del self.entries[key]


class PerGraph(Generic[T]):
    """A value computed from one system's graph alone, kept while that graph is.

    An unchanged system keeps its graph object across rebuilds (``SystemCache``), so the
    graph's identity is the key: a rebuild computes the value for edited systems only, and
    forgets the systems it was not asked about.
    """

    def __init__(self, compute: Callable[[SystemGraph], T]) -> None:
        self._compute = compute
        self._kept: dict[int, tuple[SystemGraph, T]] = {}

    def values(self, graphs: list[SystemGraph]) -> list[T]:
        kept: dict[int, tuple[SystemGraph, T]] = {}
        for graph in graphs:
            found = self._kept.get(id(graph))
            # The graph is held with its value, so its id cannot be reused meanwhile.
            fresh = found is not None and found[0] is graph
            kept[id(graph)] = found if fresh and found is not None else (graph, self._compute(graph))
        self._kept = kept
        return [kept[id(graph)][1] for graph in graphs]
