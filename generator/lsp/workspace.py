"""The records folder of an editor's workspace: which system a file belongs to, the unsaved
text of open files, and each system's analysis, made again only for the system an edit
touched.

The server reads nothing outside the records folder: a path is a record file only when it
resolves to a place below it, and every file is read through the loader's one door
(``generator.load.readfs``), with the editor's text of open files standing in for theirs.
A records folder that is a symlink is refused as ``kbgen check`` refuses it: nothing below
it is read, listed or checked. So is one the client names outside the workspace folder
(``records_folder``): an absolute path elsewhere, ``../``, or a symlink on the way out.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from generator.check import CheckedSystem
from generator.load.fingerprint import FileDigests, folder_fingerprint
from generator.load.records import system_folders, system_runs
from generator.lsp.analysis import SystemAnalysis, analyse
from generator.model.runs import RUNS_FOLDER, RunHistory, run_history
from generator.pipeline import check_system


def records_folder(root: Path, option: str) -> tuple[Path, str | None]:
    """The records folder the client names (relative to the workspace folder ``root``), and
    why it is refused, or None: it must lie inside ``root``, so no absolute path, ``..`` or
    symlinked folder above it leads the server out. (A records folder that is itself a
    symlink is refused where it is read, as ``kbgen check`` refuses it: KB008.)"""
    named = Path(option)
    folder = named if named.is_absolute() else root / named
    try:
        place = folder.resolve() if folder.name in ("", ".", "..") else folder.parent.resolve() / folder.name
        inside = place.is_relative_to(root.resolve())
    except (OSError, RuntimeError, ValueError):  # a symlink loop, a NUL byte
        inside = False
    if inside:
        return folder, None
    return folder, f"{option!r}: it leads outside the workspace folder {root}"


@dataclass
class RecordsWorkspace:
    """The workspace's records folder and what the editor holds of it."""

    base: Path  # diagnostics name files relative to this folder (the workspace root)
    records: Path
    refusal: str | None = None  # why the records folder is not read at all (outside the workspace)
    unsaved: dict[Path, str] = field(default_factory=dict)  # open file → its text in the editor
    _analyses: dict[Path, tuple[str, SystemAnalysis]] = field(
        default_factory=dict
    )  # with the folder's fingerprint
    _digests: FileDigests = field(default_factory=FileDigests)
    # The other runs of a system being analysed, for its run history: by folder, with the
    # state of their files.
    _checked_runs: dict[Path, tuple[tuple[str, tuple[tuple[str, str], ...]], CheckedSystem]] = field(
        default_factory=dict
    )

    def __post_init__(self) -> None:
        self.base = self.base.resolve()
        # The folders above the records folder are the workspace's own; the records folder
        # itself is input: resolved, a symlink would lead the reads wherever it points.
        self.records = self.records.parent.resolve() / self.records.name

    def root_refused(self) -> bool:
        """Whether the records folder lies outside the workspace, is a symlink or no folder
        (``kbgen check`` refuses the last two, KB008), so the editor reads nothing below it.
        Asked on every use, not once: the folder may be replaced while the server runs."""
        if self.refusal is not None:
            return True
        try:
            return not stat.S_ISDIR(os.lstat(self.records).st_mode)
        except OSError:
            return True

    def system_of(self, path: Path) -> Path | None:
        """The system folder a file belongs to, or None when it lies outside the records (or
        the records folder is refused)."""
        if self.root_refused():
            return None
        try:
            relative = path.resolve().relative_to(self.records)
        except (ValueError, OSError):
            return None
        if len(relative.parts) < 2:
            return None
        if len(relative.parts) >= 4 and relative.parts[1] == RUNS_FOLDER:
            return self.records.joinpath(*relative.parts[:3])  # a further run of the system
        return self.records / relative.parts[0]

    def run_of(self, folder: Path) -> str | None:
        """The system whose further run ``folder`` is (``<system>/runs/<run-id>``), or None."""
        relative = folder.relative_to(self.records)
        return relative.parts[0] if len(relative.parts) == 3 else None

    def hold(self, path: Path, text: str) -> Path | None:
        """The editor opened or changed a file; the system it belongs to (None: not a record)."""
        folder = self.system_of(path)
        if folder is not None:
            self.unsaved[path.resolve()] = text
        return folder

    def release(self, path: Path) -> Path | None:
        """The editor closed a file: from now on its bytes on disk count."""
        self.unsaved.pop(path.resolve(), None)
        return self.system_of(path)

    def analysis(self, folder: Path) -> SystemAnalysis:
        """The system's analysis, made again when a file of the system changed on disk (a
        checkout, another editor) since it was made: the system folder's entries, its
        further runs' included, are compared by status, so an unchanged folder costs a walk
        of its names."""
        known = self._analyses.get(folder)
        if known is not None and known[0] == folder_fingerprint(self._system_root(folder), self._digests):
            return known[1]
        return self.refresh(folder)

    def refresh(self, folder: Path) -> SystemAnalysis:
        """Check and index one system (or one run of it) again, with the open files' unsaved text."""
        root = self._system_root(folder)
        fingerprint = folder_fingerprint(root, self._digests)
        found = analyse(
            folder,
            self.base,
            self._held(folder),
            self.run_of(folder),
            lambda checked: self._history(root, checked),
        )
        self._analyses[folder] = (fingerprint, found)
        return found

    def _held(self, folder: Path) -> dict[str, str]:
        """The unsaved text of the open files of one run folder, by path below it."""
        return {
            path.relative_to(folder).as_posix(): text
            for path, text in list(self.unsaved.items())  # a copy: checks run beside edits
            if self.system_of(path) == folder  # a further run's files are its own
        }

    def _system_root(self, folder: Path) -> Path:
        return self.records / folder.relative_to(self.records).parts[0]

    def _history(self, root: Path, checked: CheckedSystem) -> RunHistory | None:
        """The runs of the system with ``checked`` among them; None for a system of one run.
        The other runs are checked once per state of their files."""
        runs = system_runs(root)
        if not runs.folders:
            return None
        folders = [*([root] if runs.own_run else []), *(run.resolve() for run in runs.folders)]
        mine = checked.source.folder.resolve()
        found = [checked if folder == mine else self._checked_run(folder) for folder in folders]
        return run_history(root.name, [(run.records.run_folder, run.records) for run in found])

    def _checked_run(self, folder: Path) -> CheckedSystem:
        held = self._held(folder)
        key = (folder_fingerprint(folder, self._digests), tuple(sorted(held.items())))
        known = self._checked_runs.get(folder)
        if known is not None and known[0] == key:
            return known[1]
        checked = check_system(folder, self.base, held, self.run_of(folder))
        self._checked_runs[folder] = (key, checked)
        return checked

    def kept_text(self, path: Path) -> str:
        """A file's text as its system's latest analysis read it ('' when none did): what a
        request converts positions with, without fingerprinting the folder again."""
        folder = self.system_of(path)
        known = self._analyses.get(folder) if folder is not None else None
        return known[1].texts.get(path.resolve(), "") if known is not None else ""

    def analysis_of(self, path: Path) -> SystemAnalysis | None:
        folder = self.system_of(path)
        return self.analysis(folder) if folder is not None else None

    def every_analysis(self) -> Iterator[SystemAnalysis]:
        """Every system of the records folder (for workspace symbols), each analysed once."""
        if self.root_refused():
            return
        for folder in system_folders(self.records):
            yield self.analysis(folder.resolve())
            for run in system_runs(folder).folders:
                yield self.analysis(run.resolve())

    def open_paths(self, folder: Path) -> list[Path]:
        """The files of a system the editor holds open."""
        return sorted(path for path in list(self.unsaved) if self.system_of(path) == folder)
