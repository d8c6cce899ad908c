"""A module a build imports through a plugin but never uses is imported only when first used
(generator/util/lazy_imports.py); one that is used behaves as if imported at once."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from site_support import REPO_ROOT, make_project

# A package that says when its code runs, with a submodule.
PACKAGE = {
    "noisy/__init__.py": "import os\n"
    "os.environ['NOISY_RAN'] = str(int(os.environ.get('NOISY_RAN', '0')) + 1)\n"
    "def hello():\n    return 'hello'\n",
    "noisy/errors.py": "class Trouble(Exception):\n    pass\n",
}

USE = """
import os, sys
from generator.util.lazy_imports import defer
assert defer("noisy") and not defer("noisy") and not defer("no_such_module_anywhere")
import noisy  # what a plugin does at its top
assert "NOISY_RAN" not in os.environ, "imported before use"
print(type(sys.modules["noisy"]).__name__)
try:
    pass
except noisy.errors.Trouble:  # read only when something is raised, as in mkdocs-macros
    pass
assert "NOISY_RAN" not in os.environ
print(noisy.hello(), os.environ["NOISY_RAN"])
import noisy.errors
assert issubclass(noisy.errors.Trouble, Exception)
print(type(sys.modules["noisy"]).__name__, os.environ["NOISY_RAN"])
"""


def _run(script: str, cwd: Path, path: str) -> subprocess.CompletedProcess[str]:
    environment = {**os.environ, "PYTHONPATH": os.pathsep.join([path, str(REPO_ROOT)])}
    environment.pop("NOISY_RAN", None)
    return subprocess.run(
        [sys.executable, "-c", script], cwd=cwd, env=environment, capture_output=True, text=True, timeout=300
    )


def test_a_deferred_module_runs_once_on_first_use_and_imports_its_submodules(tmp_path: Path) -> None:
    for name, text in PACKAGE.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text, encoding="utf-8")
    done = _run(USE, tmp_path, str(tmp_path))
    assert done.returncode == 0, done.stderr
    assert done.stdout.split("\n")[:3] == ["_Deferred", "hello 1", "module 1"]


TAKEN_OUT = """
import os, sys
from generator.util.lazy_imports import defer
assert defer("noisy")
import noisy
del sys.modules["noisy"]  # something takes the stand-in out before the first use
print(noisy.hello(), os.environ["NOISY_RAN"])
"""


def test_a_stand_in_taken_out_of_the_modules_still_imports_on_first_use(tmp_path: Path) -> None:
    for name, text in PACKAGE.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text, encoding="utf-8")
    done = _run(TAKEN_OUT, tmp_path, str(tmp_path))
    assert done.returncode == 0, done.stderr
    assert done.stdout.split("\n")[0] == "hello 1"


LOAD = """
import sys
from rich.console import Console
from pathlib import Path
from generator.site.build import load_project
loaded = load_project(Path("mkdocs.yml"), None, "build", Console(stderr=True))
assert not isinstance(loaded, int)
assert "mkdocs_macros.plugin" in sys.modules  # the plugin that imports it is loaded
print(type(sys.modules["requests"]).__name__, "urllib3" in sys.modules)
import requests
print(requests.exceptions.RequestException.__name__, "urllib3" in sys.modules)
"""


def test_a_build_loads_its_plugins_without_running_requests(tmp_path: Path) -> None:
    project = make_project(tmp_path, git=False)
    done = _run(LOAD, project, str(REPO_ROOT))
    assert done.returncode == 0, done.stderr
    assert done.stdout.split("\n")[:2] == ["_Deferred False", "RequestException True"]
