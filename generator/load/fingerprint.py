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
import time
from pathlib import Path
from stat import S_ISREG

# A folder's fingerprint reads every byte of it; the loader caps what it loads, this caps
# what is hashed, so an oversized file costs no more than it would to refuse.
HASH_LIMIT = 64 * 1024 * 1024


# A file whose status changed this recently may change again within the same timestamp
# tick (file times advance in ticks of a few milliseconds), so its digest is not reused.
SETTLED_NS = 100_000_000


class FileDigests:
    """Each file's content digest, reused while its status (device, inode, size, modification
    and change times) is as it was when a settled file was hashed. ``kbgen serve``
    fingerprints every system folder on every rebuild; this spares reading the unchanged
    files. A file written within ``SETTLED_NS`` before it was hashed is hashed again."""

    def __init__(self) -> None:
        self._known: dict[str, tuple[tuple[int, ...], bytes]] = {}

    def get(self, path: str, stat: os.stat_result) -> bytes | None:
        known = self._known.get(path)
        return known[1] if known is not None and known[0] == _status(stat) else None

    def put(self, path: str, stat: os.stat_result, content: bytes, hashed_at_ns: int) -> None:
        if max(stat.st_mtime_ns, stat.st_ctime_ns) < hashed_at_ns - SETTLED_NS:
            self._known[path] = (_status(stat), content)
        else:
            self._known.pop(path, None)


def _status(stat: os.stat_result) -> tuple[int, ...]:
    return (stat.st_dev, stat.st_ino, stat.st_size, stat.st_mtime_ns, stat.st_ctime_ns)


def _entry_bytes(path: str, entry: os.DirEntry[str], digests: FileDigests | None = None) -> bytes:
    """What of one folder entry goes into the fingerprint: its kind and its content."""
    if entry.is_symlink():
        return b"link:" + os.fsencode(os.readlink(path))
    if entry.is_dir(follow_symlinks=False):
        return b"dir"
    if not entry.is_file(follow_symlinks=False):
        return b"special"
    if digests is not None:
        known = digests.get(path, entry.stat(follow_symlinks=False))
        if known is not None:
            return known
    # Opened without following a link or blocking on a FIFO swapped in since the listing,
    # and hashed only when it is still a regular file.
    fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    with os.fdopen(fd, "rb") as handle:
        stat = os.fstat(handle.fileno())
        if not S_ISREG(stat.st_mode):
            return b"special"
        if stat.st_size > HASH_LIMIT:
            return f"large:{stat.st_size}:{stat.st_mtime_ns}".encode()
        hashed_at = time.time_ns()
        content = b"file:" + hashlib.file_digest(handle, "sha256").digest()
    if digests is not None:
        digests.put(path, stat, content, hashed_at)
    return content


def folder_fingerprint(folder: Path, digests: FileDigests | None = None) -> str:
    """A digest of every entry under ``folder`` (names, kinds, bytes), symlinks not followed;
    ``digests`` reuses the content digests of files whose status is unchanged."""
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
                content = _entry_bytes(path, entry, digests)
            except OSError as exc:
                content = f"unreadable:{exc.errno}".encode()
            digest.update(os.fsencode(os.path.relpath(path, folder)) + b"\0" + content + b"\0")
            if content == b"dir":
                pending.append(Path(path))
    return digest.hexdigest()


class TextDigests:
    """SHA-256 of texts that come back unchanged build after build, under their names.

    An unchanged system's pages are the very strings ``SystemCache`` kept (compared by
    identity), or equal strings (compared byte for byte, far cheaper than hashing), so
    their digests — the page cache's keys, the build manifest's and the comparison CSV's —
    are computed once; a changed text is hashed again. Only the names of the latest build
    are kept."""

    def __init__(self) -> None:
        self._known: dict[str, tuple[str, str]] = {}
        self._used: dict[str, tuple[str, str]] = {}

    def of(self, name: str, text: str) -> str:
        known = self._used.get(name) or self._known.get(name)
        if known is None or known[0] != text:  # the same object compares by identity
            known = (text, hashlib.sha256(text.encode("utf-8")).hexdigest())
        self._used[name] = known
        return known[1]

    def next_build(self) -> None:
        self._known, self._used = self._used, {}
