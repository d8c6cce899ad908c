"""A Python script run in a process of its own, for tests of what forks: a test worker has
other threads (pytest-xdist's), and a process with other threads is never forked."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any


def run_script(
    script: str, *args: str, cwd: Path | None = None, settings: dict[str, str] | None = None
) -> Any:
    """The JSON the script prints last, once it exits cleanly (else the test fails with its
    error output); run in ``cwd``, with the environment variables ``settings`` too."""
    done = subprocess.run(
        [sys.executable, "-c", script, *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
        env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path), **(settings or {})},
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])
