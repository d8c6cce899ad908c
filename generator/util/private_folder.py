"""A folder only its owner controls, opened so that nobody can swap a part of its path.

What a folder holds can be trusted only as far as nobody else can change what its path
leads to: anyone who may write into one of its ancestors may rename the folder away and
put one of their own in its place. So the folder is reached by an openat-style walk from
``/``, each part of the path opened without following a link (``O_NOFOLLOW``) relative to
the part before it, and the walk's findings are judged on the folders actually opened:

- the folder itself is this user's and grants nothing to group or others;
- every ancestor up to the first one that is this user's alone (or up to ``/``) belongs to
  this user or to root and grants no write to group or others (a sticky world-writable
  folder such as ``/tmp`` does not count as safe: its other users may still create the
  names we would use);
- no folder of the path is one of the folders whose contents arrive from others (the
  project's checkout, its records).

The caller gets the open folder's descriptor and works relative to it (``dir_fd``), so a
swap made after the walk cannot redirect what it reads or writes.
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path, PurePosixPath

# A descriptor good for walking through and for the *at calls; O_PATH needs no read right.
_WALK = getattr(os, "O_PATH", os.O_RDONLY) | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC
_OWNER_ONLY = stat.S_IRWXU
_WRITABLE_BY_OTHERS = stat.S_IWGRP | stat.S_IWOTH


class Refused(Exception):
    """The folder cannot be trusted; the message says why, naming the folder at fault."""


FolderId = tuple[int, int]  # (device, inode)


def folder_ids(folders: Iterable[Path]) -> frozenset[FolderId]:
    """Who the given folders are (device and inode, links followed); a missing one is left out."""
    found: set[FolderId] = set()
    for folder in folders:
        try:
            status = os.stat(folder)
        except OSError:
            continue
        found.add((status.st_dev, status.st_ino))
    return frozenset(found)


@contextmanager
def private_folder(
    folder: Path, untrusted: frozenset[FolderId] = frozenset(), create: bool = False
) -> Iterator[int]:
    """The descriptor of ``folder`` (made, for its owner alone, when ``create`` and missing),
    open while the block runs; ``Refused`` if it cannot be trusted, ``OSError`` if it
    cannot be reached."""
    descriptor = _open_verified(folder, untrusted, create)
    try:
        yield descriptor
    finally:
        os.close(descriptor)


def _parts(folder: Path) -> tuple[str, ...]:
    path = PurePosixPath(folder)
    if not path.is_absolute():
        raise Refused(f"{folder} is a relative folder (it would be read from wherever the build runs)")
    if ".." in path.parts:
        raise Refused(f"{folder} names a parent folder ('..')")
    return path.parts[1:]


def _open_verified(folder: Path, untrusted: frozenset[FolderId], create: bool) -> int:
    parts = _parts(folder)
    descriptor = os.open("/", _WALK)
    chain = [(PurePosixPath("/"), os.fstat(descriptor))]
    try:
        for part in parts:
            child = _open_child(descriptor, part, chain[-1][0] / part, create)
            os.close(descriptor)
            descriptor = child
            chain.append((chain[-1][0] / part, os.fstat(descriptor)))
        _judge(chain, untrusted)
    except BaseException:
        os.close(descriptor)
        raise
    return descriptor


def _open_child(parent: int, name: str, shown: PurePosixPath, create: bool) -> int:
    try:
        return os.open(name, _WALK, dir_fd=parent)
    except FileNotFoundError:
        if not create:
            raise
    except OSError as exc:
        if exc.errno in (errno.ELOOP, errno.ENOTDIR):
            raise Refused(f"{shown} is a link or not a folder") from None
        raise
    with contextlib.suppress(FileExistsError):  # made meanwhile by another build: judged like any
        os.mkdir(name, _OWNER_ONLY, dir_fd=parent)
    return _open_child(parent, name, shown, create=False)


def _judge(chain: list[tuple[PurePosixPath, os.stat_result]], untrusted: frozenset[FolderId]) -> None:
    me = os.getuid()
    for shown, status in chain:
        if (status.st_dev, status.st_ino) in untrusted:
            raise Refused(f"{chain[-1][0]} is inside {shown}, whose contents arrive from others")
    shown, status = chain[-1]
    if status.st_uid != me:
        raise Refused(f"{shown} belongs to another user (uid {status.st_uid})")
    if stat.S_IMODE(status.st_mode) & (stat.S_IRWXG | stat.S_IRWXO):
        raise Refused(f"{shown} is open to others (mode {stat.S_IMODE(status.st_mode):o})")
    for shown, status in reversed(chain[:-1]):
        if status.st_uid not in (me, 0):
            raise Refused(f"{shown} belongs to another user (uid {status.st_uid})")
        if status.st_mode & _WRITABLE_BY_OTHERS:
            raise Refused(f"{shown} is writable by others (mode {stat.S_IMODE(status.st_mode):o})")
        if status.st_uid == me and not stat.S_IMODE(status.st_mode) & (stat.S_IRWXG | stat.S_IRWXO):
            return
