"""A build of many systems renders them in forked workers: the pages are the same, in the
same order, as rendered one by one."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from forking_script import run_script

import generator.render.workers
from generator.pipeline import run_pipeline
from generator.render.workers import PARALLEL_FROM

DEMO = Path(__file__).resolve().parents[1] / "fixtures" / "render" / "records" / "demo"


@pytest.fixture
def many_systems(tmp_path: Path) -> Path:
    records = tmp_path / "records"
    for n in range(PARALLEL_FROM):
        target = records / f"demo-{n}"
        shutil.copytree(DEMO, target)
        run = target / "run.yaml"
        text = run.read_text(encoding="utf-8").replace("-demo-01", f"-demo-{n}-01")
        run.write_text(
            re.sub(r"(?m)^  system: [^\n]*", f"  system: Demo agent {n}", text, count=1), encoding="utf-8"
        )
    return records


# Run in a process of its own: a test worker has other threads (pytest-xdist's), and a
# process with other threads is never forked.
FORKED = """
import json, multiprocessing, sys
from pathlib import Path
import generator.pipeline as pipeline
import generator.render.workers as workers

records = Path(sys.argv[1])
contexts = []
get_context = multiprocessing.get_context
def recorded(method):
    contexts.append(method)
    return get_context(method)
workers.multiprocessing.get_context = recorded
forks = []
fork = workers.RenderWorkers._fork
def counted(self, sources):
    forks.append(len(self.graphs))  # the systems linked when it forks
    return fork(self, sources)
workers.RenderWorkers._fork = counted
# Workers from the second system linked on, while the rest are checked.
workers.PARALLEL_FROM = 2
from generator.outputs.export import export_memo
from generator.outputs.search import site_index_memo
index, export = site_index_memo(), export_memo()
parallel = pipeline.run_pipeline(records, base=records.parent, alongside=(index, export))
# What the workers, and this process for the first system, computed beside the pages is
# kept: asked for, nothing is computed again.
def never(graph):
    raise AssertionError("computed again")
index._compute = export._compute = never
kept_index, kept_export = index.values(parallel.graphs), export.values(parallel.graphs)
workers.PARALLEL_FROM = 10**9
serial = pipeline.run_pipeline(records, base=records.parent)
print(json.dumps({
    "contexts": contexts,
    "forks": forks,
    "same": list(parallel.pages.items()) == list(serial.pages.items()),
    "same_alongside": kept_index == site_index_memo().values(serial.graphs)
    and kept_export == export_memo().values(serial.graphs),
    "slugs": [graph.slug for graph in parallel.graphs],
    "pages": len(parallel.pages),
}))
"""


def test_forked_workers_render_the_pages_one_by_one_rendering_makes(many_systems: Path) -> None:
    found = run_script(FORKED, str(many_systems))
    assert set(found["contexts"]) == {"fork"}  # workers are forked, never spawned
    # A worker forked while systems were still being checked.
    assert min(found["forks"]) < PARALLEL_FROM
    assert found["same"] is True
    assert found["same_alongside"] is True  # the record index and export parts
    assert found["slugs"] == [f"demo-{n}" for n in range(PARALLEL_FROM)]
    assert found["pages"] > PARALLEL_FROM


def test_a_kb_below_the_threshold_is_rendered_without_workers(
    many_systems: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def no_fork(*args: object) -> None:
        raise AssertionError("a small KB started workers")

    monkeypatch.setattr(generator.render.workers.multiprocessing, "get_context", no_fork)
    shutil.rmtree(many_systems / "demo-0")
    assert run_pipeline(many_systems, base=many_systems.parent).pages
