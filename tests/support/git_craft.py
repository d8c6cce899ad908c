"""Crafted git objects for the hostile corpus of ``kbgen diff --git``.

Trees are written as raw objects (``git hash-object --literally``), so a test can build
what ``git add`` never would: an entry named ``..``, a name twice, a gitlink without a
submodule, a subtree named eight times per level. Every object is small: a fan-out of
depth 5 is five tree objects, since each level's entries name one shared subtree.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

TREE, BLOB, GITLINK, SYMLINK = "40000", "100644", "160000", "120000"
# A commit ID for a gitlink: it need not exist (a submodule's commit lives elsewhere).
SOME_COMMIT = "1234567890abcdef1234567890abcdef12345678"
ENV = {
    "GIT_AUTHOR_NAME": "Test",
    "GIT_AUTHOR_EMAIL": "test@example.org",
    "GIT_COMMITTER_NAME": "Test",
    "GIT_COMMITTER_EMAIL": "test@example.org",
    "GIT_AUTHOR_DATE": "2026-01-01T00:00:00Z",
    "GIT_COMMITTER_DATE": "2026-01-01T00:00:00Z",
    "PATH": "/usr/bin:/bin:/usr/local/bin",
}


def init(root: Path) -> Path:
    """An empty repository at ``root``."""
    subprocess.run(["git", "init", "-q", str(root)], check=True, env=ENV)
    return root


def _git(repo: Path, *args: str, data: bytes = b"") -> str:
    done = subprocess.run(
        ["git", "-C", str(repo), *args], input=data, capture_output=True, check=True, env=ENV
    )
    return done.stdout.decode().strip()


def blob(repo: Path, data: bytes) -> str:
    return _git(repo, "hash-object", "-w", "--stdin", data=data)


def tree(repo: Path, entries: list[tuple[str, bytes | str, str]]) -> str:
    """A tree object of (mode, name, object ID) entries, written as given (git sorts a
    tree by name, folders as if their name ended in '/'; a crafted one need not)."""
    body = b""
    for mode, name, sha in entries:
        raw = name if isinstance(name, bytes) else name.encode("utf-8")
        body += mode.encode() + b" " + raw + b"\0" + bytes.fromhex(sha)
    return _git(repo, "hash-object", "-w", "-t", "tree", "--literally", "--stdin", data=body)


def commit(repo: Path, tree_id: str, branch: str = "main") -> str:
    """A commit of ``tree_id`` on ``branch`` (the repository's HEAD points at main)."""
    sha = _git(repo, "commit-tree", tree_id, "-m", "crafted")
    _git(repo, "update-ref", f"refs/heads/{branch}", sha)
    _git(repo, "symbolic-ref", "HEAD", "refs/heads/main")
    return sha


def at_system(repo: Path, system_tree: str, slug: str = "alpha", branch: str = "main") -> str:
    """A commit on ``branch`` whose ``records/<slug>`` is ``system_tree``."""
    records = tree(repo, [(TREE, slug, system_tree)])
    return commit(repo, tree(repo, [(TREE, "records", records)]), branch)


def fan_out(repo: Path, leaf: str, leaf_mode: str, depth: int, width: int = 8) -> str:
    """A tree ``depth`` levels deep whose every folder names one subtree ``width`` times;
    the bottom folders hold ``width`` entries of ``leaf``: width**depth of them in all."""
    current = tree(repo, [(leaf_mode, f"f{i}.yaml", leaf) for i in range(width)])
    for _ in range(depth - 1):
        current = tree(repo, [(TREE, f"d{i}", current) for i in range(width)])
    return current
