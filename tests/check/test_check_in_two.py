"""``kbgen check`` shares a records folder's system folders with a forked child
(generator/check/in_two.py): what it reports is what the check on one core reports, in
every format, also for refused entries, ignored names, further runs and a child that dies."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from forking_script import run_script

REPO_ROOT = Path(__file__).resolve().parents[2]
FIXTURES = REPO_ROOT / "tests" / "fixtures" / "check"


@pytest.fixture(scope="module")
def mixed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A records folder of the shipped systems (one with further runs), the check fixtures'
    systems (load failures, rule failures, refused and misnamed runs), an ignored folder, a
    file beside the systems and a symlinked entry."""
    records = tmp_path_factory.mktemp("mixed") / "records"
    records.mkdir()
    for system in (REPO_ROOT / "records").iterdir():
        shutil.copytree(system, records / system.name, symlinks=True)
    for at, case in enumerate(sorted(FIXTURES.iterdir())):
        for system in sorted((case / "records").iterdir()) if (case / "records").is_dir() else []:
            if system.is_dir() and not system.is_symlink():
                shutil.copytree(system, records / f"f{at:03d}-{system.name}", symlinks=True)
    (records / "_ignored").mkdir()
    (records / "notes.txt").write_text("not a record\n", encoding="utf-8")
    (records / "linked").symlink_to(records / "napkin")
    return records


COMPARE = """
import json, os, sys
from pathlib import Path
import generator.check.in_two as in_two
from generator.check import check_system_folders, check_system_folder
from generator.check.report import Reported
from generator.pipeline import folder_check, reserved_names

records, dying = Path(sys.argv[1]), sys.argv[2] == "dying"
parent = os.getpid()
taken = []

def recorded(folder, base, nested, check):
    if os.getpid() != parent:
        if dying and len(taken) == 2:
            os._exit(3)  # the child dies on its third folder, having sent nothing
        taken.append(folder.name)
    return check_system_folder(folder, base, nested, check)

in_two.check_system_folder = recorded
check = folder_check(reserved_names())
two = in_two.check_in_two(records, records.parent, check)
one = [Reported.of(system) for system in check_system_folders(records, records.parent, check)]
print(json.dumps({
    "same": [vars(r) for r in two] == [vars(r) for r in one],
    "systems": len(one),
    "failed": sum(1 for r in one if any(d.severity.value == "error" for d in r.diagnostics)),
}, default=str))
"""


@pytest.mark.parametrize("dying", ["sending", "dying"])
def test_the_check_on_two_cores_reports_what_one_core_reports(mixed: Path, dying: str) -> None:
    found = run_script(COMPARE, str(mixed), dying)
    assert found["same"] is True
    assert found["systems"] > 100 and found["failed"] > 100


TAKEN = """
import json, os, sys
from pathlib import Path
import generator.check.in_two as in_two
from generator.util import forking

records = Path(sys.argv[1])
sent = {}
fork_child = forking.fork_child
def recorded_fork(work):
    child = fork_child(work)
    take = child.take
    def taken(failed=None):
        found = take(failed)
        sent["child"] = sorted(found)
        return found
    child.take = taken
    return child
in_two.fork_child = recorded_fork
from generator.pipeline import report_records
reports = report_records(records)
print(json.dumps({"child": sent.get("child", []), "folders": len(reports)}))
"""


def test_the_child_takes_the_last_folders_and_never_the_first(mixed: Path) -> None:
    found = run_script(TAKEN, str(mixed))
    taken = found["child"]
    assert taken and 0 not in taken
    assert taken == list(range(taken[0], taken[0] + len(taken)))  # the last ones, together


def _kbgen_check(records: Path, forking: bool, output: str) -> subprocess.CompletedProcess[str]:
    script = (
        "import sys\nimport generator.check.in_two as in_two\n"
        f"in_two.PARALLEL_FROM = {2 if forking else 10**9}\n"
        "from generator.cli.main import main\nsys.exit(main(sys.argv[1:]))\n"
    )
    return subprocess.run(
        [sys.executable, "-c", script, "check", str(records), "--format", output],
        cwd=records.parent,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
        env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path), "COLUMNS": "200"},
    )


@pytest.mark.parametrize("output", ["human", "json", "github"])
def test_kbgen_check_prints_the_same_on_two_cores(mixed: Path, output: str) -> None:
    one = _kbgen_check(mixed, forking=False, output=output)
    two = _kbgen_check(mixed, forking=True, output=output)
    assert one.returncode == two.returncode == 1
    assert two.stdout == one.stdout and two.stderr == one.stderr
    assert "KB010" in one.stdout and "linked" in one.stdout and "runs/" in one.stdout


def test_a_small_records_folder_is_checked_without_a_child(tmp_path: Path) -> None:
    records = tmp_path / "records"
    shutil.copytree(REPO_ROOT / "records" / "napkin", records / "napkin")
    script = (
        "import json, sys\nfrom pathlib import Path\nimport generator.check.in_two as in_two\n"
        "def no_fork(work):\n    raise AssertionError('a small records folder forked')\n"
        "in_two.fork_child = no_fork\nfrom generator.pipeline import report_records\n"
        "print(json.dumps([r.slug for r in report_records(Path(sys.argv[1]))]))\n"
    )
    assert run_script(script, str(records)) == ["napkin"] * 3  # its three runs


NO_LOCK = """
import json, sys
from pathlib import Path
import generator.check.in_two as in_two
from generator.util import forking
from generator.check import check_system_folders
from generator.check.report import Reported
from generator.pipeline import folder_check, report_records, reserved_names

def no_sem_open(self, count):
    raise OSError("no /dev/shm")

def no_fork(work):
    raise AssertionError("forked without a shared lock")

forking.TwoEnds.__init__ = no_sem_open
in_two.fork_child = no_fork
records = Path(sys.argv[1])
reports = report_records(records, records.parent)
one = [Reported.of(s) for s in check_system_folders(records, records.parent, folder_check(reserved_names()))]
same = [vars(r) for r in reports] == [vars(r) for r in one]
print(json.dumps({"same": same, "systems": len(reports)}))
"""


def test_where_processes_cannot_share_a_lock_the_check_stays_on_one_core(mixed: Path) -> None:
    found = run_script(NO_LOCK, str(mixed))
    assert found["same"] is True and found["systems"] > 100


NO_SEM_OPEN = """
import json, multiprocessing.context as context
def no_sem_open(*args, **kwargs):
    raise ImportError("This platform lacks a functioning sem_open implementation")
context.ForkContext.Lock = no_sem_open
from generator.util.forking import forkable
print(json.dumps(forkable()))
"""


def test_a_process_that_cannot_share_a_lock_is_not_forked() -> None:
    assert run_script(NO_SEM_OPEN) is False
    probe = "import json\nfrom generator.util.forking import forkable\nprint(json.dumps(forkable()))"
    assert run_script(probe) is True
