"""Each command loads the layers it drives when it runs: ``kbgen check`` starts without the
renderer, Jinja, MkDocs, the importer or the run comparison (a third of its time at 50
systems went to importing them)."""

from __future__ import annotations

import importlib
import json
import os
import subprocess
import sys
from pathlib import Path

from site_support import make_project

ROOT = Path(__file__).resolve().parents[2]
NOT_FOR_CHECKING = (
    "jinja2",
    "markdown",
    "markdown_it",
    "mkdocs",
    "rapidfuzz",
    "generator.render.pages",
    "generator.render.environment",
    "generator.importer",
    "generator.graph.run_diff",
    "generator.outputs.export",
)
PROBE = f"""
import json, sys
from generator.cli.main import main
code = main(sys.argv[1:])
print(json.dumps({{"code": code, "loaded": [m for m in {NOT_FOR_CHECKING!r} if m in sys.modules]}}))
"""


def _loaded_by(*arguments: str) -> dict[str, object]:
    done = subprocess.run(
        [sys.executable, "-c", PROBE, *arguments], cwd=ROOT, capture_output=True, text=True, check=True
    )
    found: dict[str, object] = json.loads(done.stdout.strip().splitlines()[-1])
    return found


def test_check_loads_no_renderer() -> None:
    found = _loaded_by("check", "records", "--format", "json")
    assert found == {"code": 0, "loaded": []}


def test_starting_kbgen_loads_none_of_them() -> None:
    """The parser of every command is built without what any command runs."""
    probe = (
        "import sys, json, generator.cli.main as m; m.parser(); "
        f"print(json.dumps([n for n in {NOT_FOR_CHECKING!r} if n in sys.modules]))"
    )
    done = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, check=True)
    assert json.loads(done.stdout) == []


def test_the_renderer_is_loaded_when_a_page_is_rendered() -> None:
    """The registry's views import their modules on first use: a render still renders."""
    from generator.render import PAGES
    from generator.render.registry import ViewOf

    views = [spec.view for spec in PAGES.specs]
    lazy = [view for view in views if isinstance(view, ViewOf)]
    assert len(lazy) == len(views)
    for view in lazy:
        module = importlib.import_module(view.module)
        assert callable(getattr(module, view.name)), view


# What a one-shot build of the shipped KB (further runs included, whose changes pages pair
# records) never uses: the preview's live-reload server and file watching, the optimizers of
# scipy.optimize besides the assignment (generator/graph/assignment.py), and requests, which
# mkdocs-macros-plugin imports for a PyPI look-up (generator/util/lazy_imports.py).
NOT_FOR_BUILDING = ("watchdog", "mkdocs.livereload", "generator.mkdocs.watch", "scipy.optimize")
BUILD_PROBE = f"""
import json, sys
from generator.cli.main import main
code = main(sys.argv[1:])
loaded = [m for m in {NOT_FOR_BUILDING!r} if m in sys.modules]
print(json.dumps({{"code": code, "loaded": loaded, "requests": type(sys.modules["requests"]).__name__,
                  "paired": "scipy.optimize._lsap" in sys.modules}}))
"""


def _built_with(probe: str, project: Path, site: Path) -> object:
    """What ``probe`` prints last after running ``kbgen build`` in ``project``."""
    done = subprocess.run(
        [sys.executable, "-c", probe, "build", "--site-dir", str(site)],
        cwd=project,
        capture_output=True,
        text=True,
        check=True,
        timeout=600,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_build_loads_no_preview_server_no_optimizers_and_no_http_client(tmp_path: Path) -> None:
    found = _built_with(BUILD_PROBE, ROOT, tmp_path / "site")
    assert found == {"code": 0, "loaded": [], "requests": "_Deferred", "paired": True}


def test_a_build_without_further_runs_loads_no_run_comparison(tmp_path: Path) -> None:
    """Only a system with further runs has a changes page, whose comparison (rapidfuzz, the
    record pairing, NumPy) is imported when the first one is rendered."""
    project = make_project(tmp_path / "project", git=False)
    assert not list((project / "records").glob("*/runs"))
    probe = (
        "import json, sys\nfrom generator.cli.main import main\ncode = main(sys.argv[1:])\n"
        "print(json.dumps([code, [m for m in ('generator.graph.run_diff', 'rapidfuzz', 'numpy')"
        " if m in sys.modules]]))\n"
    )
    assert _built_with(probe, project, tmp_path / "site") == [0, []]
