"""A throwaway project to build: mkdocs.yml, kb/, overrides/ and the clean demo records."""

from __future__ import annotations

import hashlib
import shutil
import subprocess
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[2]
# The clean demo system of the hostile corpus (tests/support/hostile_support.py copies the same one).
CLEAN_SYSTEM = REPO_ROOT / "tests" / "fixtures" / "check" / "clean-run" / "records" / "demo"


def make_project(root: Path, config_changes: dict[str, str] | None = None, git: bool = True) -> Path:
    """Copy the site sources into ``root/project`` with the demo system; returns the folder.

    ``config_changes`` replaces text of mkdocs.yml (each old text must occur). With
    ``git`` the folder is a git work tree, as a real checkout is.
    """
    project = root / "project"
    project.mkdir(parents=True)
    text = (REPO_ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    for old, new in (config_changes or {}).items():
        assert old in text, f"mkdocs.yml no longer has {old!r}"
        text = text.replace(old, new)
    (project / "mkdocs.yml").write_text(text, encoding="utf-8")
    shutil.copytree(REPO_ROOT / "kb", project / "kb")
    shutil.copytree(REPO_ROOT / "overrides", project / "overrides")
    shutil.copytree(CLEAN_SYSTEM, project / "records" / "demo")
    (project / "notes.txt").write_text("uncommitted work\n", encoding="utf-8")
    if git:
        subprocess.run(["git", "init", "-q", str(project)], check=True, capture_output=True)
    return project


def tree_hashes(folder: Path) -> dict[str, str]:
    """Every file and link under a folder (relative path → SHA-256 of its bytes or link target)."""
    found: dict[str, str] = {}
    for path in sorted(folder.rglob("*")):
        key = path.relative_to(folder).as_posix()
        if path.is_symlink():
            found[key] = "link:" + str(path.readlink())
        elif path.is_file():
            found[key] = hashlib.sha256(path.read_bytes()).hexdigest()
        elif path.is_dir():
            found[key + "/"] = "dir"
    return found
