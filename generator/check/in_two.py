"""``kbgen check`` on two cores: the records folder's system folders are shared with one
forked child, this process taking them from the first and the child from the last
(``util.forking.TwoEnds``), and the child sends back what the reports say of its systems
(``report.Reported``: the checked records themselves cannot be pickled).

Each system folder is checked as ``check_system_folders`` checks it, its runs together
(``check_system_folder``), and the list is assembled by the same ``assembled`` (refused
entries as failed systems, ignored names on the first system, sorted by system and run),
so the reports are the same as on one core. A folder the child took and did not send (it
raised or died) is checked here. A small records folder, a single system or run, and a
process that may not fork are checked on one core.
"""

from __future__ import annotations

from pathlib import Path

from generator.check import (
    FolderCheck,
    assembled,
    check_discovered,
    check_system_folder,
    collector_paused,
    failed_system,
)
from generator.check.report import Reported
from generator.load.records import discover_systems
from generator.util.forking import fork_child, forkable, two_ends

# System folders from which a check forks: below it, the child's start costs about what
# the second core saves.
PARALLEL_FROM = 4

# One system folder's reports: its runs, and its refused runs as failed systems.
FolderReports = tuple[list[Reported], list[Reported]]


def check_in_two(records: Path, base: Path | None, check: FolderCheck) -> list[Reported]:
    """What ``check_system_folders`` finds, as the reports say it, checked on two cores."""
    found = discover_systems(records, base)
    folders = found.folders
    ends = two_ends(len(folders)) if not found.run and len(folders) >= PARALLEL_FROM and forkable() else None
    if ends is None:
        return [Reported.of(system) for system in check_discovered(found, base, check)]

    def reports(at: int) -> FolderReports:
        checked, refused = check_system_folder(folders[at], base, found.nested, check)
        return [Reported.of(s) for s in checked], [Reported.of(failed_system(s)) for s in refused]

    def child_work() -> dict[int, FolderReports]:
        with collector_paused():
            return {at: reports(at) for at in ends.child_items()}

    child = fork_child(child_work)
    done: dict[int, FolderReports] = {}
    with collector_paused():
        for at in range(len(folders)):
            if not ends.build_takes(at):
                break
            done[at] = reports(at)
        sent = child.take({})
        done.update(sent if isinstance(sent, dict) else {})
        for at in range(len(folders)):
            if at not in done:  # the child took it and never sent it
                done[at] = reports(at)
    systems = [system for at in range(len(folders)) for system in done[at][0]]
    failed = [Reported.of(failed_system(source)) for source in found.refused]
    failed += [system for at in range(len(folders)) for system in done[at][1]]
    return assembled(systems, failed, found.ignored, lambda system: (system.slug, system.run_folder))
