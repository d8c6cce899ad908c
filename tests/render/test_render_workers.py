"""``RenderWorkers``: pages rendered in forked workers while the build still checks and links,
the same and in the same order as rendered one by one; a worker's failure reaches the build;
no worker outlives it.

Each case runs in a process of its own: a test worker has other threads (pytest-xdist's), and
a process with other threads is never forked."""

from __future__ import annotations

import shutil
import textwrap
from pathlib import Path
from typing import Any

import pytest
from forking_script import run_script

DEMO = Path(__file__).resolve().parents[1] / "fixtures" / "render" / "records" / "demo"

PRELUDE = """
import json, multiprocessing, os, random, sys
import generator.render.workers as workers
from generator.render.workers import RenderWorkers, WorkerFailed

class Kept:
    # A value computed beside the pages, kept for the graph it was computed from.
    def __init__(self):
        self.kept = {}
    def compute(self, graph):
        return f"value of {graph}"
    def keep(self, graph, value):
        self.kept[graph] = value

def pages_of(graph):
    return {f"{graph}/index.md": f"page of {graph} in {os.getpid()}"}

def outcome(render, count, caught):
    # What finishing ``count`` graphs rendered by ``render`` raised, and the workers left.
    made = RenderWorkers(render=render)
    for n in range(count):
        made.add(f"system-{n}")
    try:
        made.finish()
        raised = None
    except caught as exc:
        raised = str(exc)
    print(json.dumps({"raised": raised, "children": len(multiprocessing.active_children())}))
"""


def _run(script: str) -> Any:
    return run_script(PRELUDE + textwrap.dedent(script))


def test_pages_come_back_in_order_however_the_graphs_were_handed_off() -> None:
    found = _run(
        """
        workers.PARALLEL_FROM = 3
        results = []
        for seed in range(12):
            chance = random.Random(seed)
            kept = Kept()
            made = RenderWorkers((kept,), render=pages_of)
            names = [f"system-{seed}-{n}" for n in range(chance.randrange(0, 30))]
            for name in names:
                made.add(name)
                if chance.random() < 0.5:
                    made.hand_off()
            pages = made.finish()
            results.append({
                "order": [next(iter(page)) for page in pages] == [f"{name}/index.md" for name in names],
                "processes": len({page for found in pages for page in found.values()
                                  for page in [page.rsplit(" ", 1)[1]]}),
                "kept": all(kept.kept[name] == f"value of {name}" for name in names[1:])
                        if len(names) >= 3 else not kept.kept,
                "children": len(multiprocessing.active_children()),
                "count": len(names),
            })
        print(json.dumps(results))
        """
    )
    results = found if isinstance(found, list) else []
    assert len(results) == 12
    for result in results:
        assert result["order"] is True
        assert result["kept"] is True  # every graph a worker rendered, but the first (rendered here)
        assert result["children"] == 0
        if result["count"] >= 3:
            assert result["processes"] >= 2  # this process and at least one worker


@pytest.mark.parametrize(
    ("script", "raised"),
    [
        pytest.param(
            """
            def render(graph):
                if graph == "system-5":
                    raise ValueError("cannot render system-5")
                return pages_of(graph)
            outcome(render, 12, ValueError)
            """,
            "cannot render system-5",
            id="an exception, raised in the build",
        ),
        pytest.param(
            """
            def render(graph):
                if graph == "system-3":
                    os._exit(7)
                return pages_of(graph)
            outcome(render, 6, WorkerFailed)
            """,
            "a render worker ended with code 7",
            id="a worker that dies: a failure, not a wait",
        ),
        pytest.param(
            """
            class Odd(Exception):
                def __init__(self, a, b):
                    super().__init__(a)
            def render(graph):
                if graph == "system-2":
                    raise Odd("odd", 1)
                return pages_of(graph)
            outcome(render, 4, WorkerFailed)
            """,
            "Odd: odd",
            id="an exception that cannot be pickled: its text",
        ),
    ],
)
def test_a_worker_failing_fails_the_build_and_leaves_no_worker(script: str, raised: str) -> None:
    found = _run("workers.PARALLEL_FROM = 2\n" + textwrap.dedent(script))
    assert found == {"raised": raised, "children": 0}


def test_a_build_with_an_error_in_a_later_system_renders_nothing_and_leaves_no_worker(
    tmp_path: Path,
) -> None:
    records = tmp_path / "records"
    for n in range(10):
        target = records / f"demo-{n:02d}"
        shutil.copytree(DEMO, target)
        run = target / "run.yaml"
        text = run.read_text(encoding="utf-8")
        run.write_text(text.replace("-demo-01", f"-demo-{n:02d}-01"), encoding="utf-8")
    broken = records / "demo-09" / "run.yaml"
    broken.write_text(broken.read_text(encoding="utf-8") + "\nnot: [closed\n", encoding="utf-8")
    found = _run(
        f"""
        from pathlib import Path
        import generator.pipeline as pipeline
        workers.PARALLEL_FROM = 2
        forks = []
        fork = RenderWorkers._fork
        def counted(self, positions):
            forks.append(1)
            return fork(self, positions)
        RenderWorkers._fork = counted
        records = Path({str(records)!r})
        result = pipeline.run_pipeline(records, base=records.parent)
        print(json.dumps({{
            "errors": [error.file for error in result.errors],
            "pages": len(result.pages),
            "graphs": len(result.graphs),
            "forked": len(forks),
            "children": len(multiprocessing.active_children()),
        }}))
        """
    )
    assert found["errors"] == ["records/demo-09/run.yaml"]
    assert found["pages"] == 0 and found["graphs"] == 0
    assert found["forked"]  # workers were rendering the systems checked before the broken one
    assert found["children"] == 0


def test_the_last_workers_take_what_an_earlier_one_has_not_begun() -> None:
    found = _run(
        """
        import time
        workers.PARALLEL_FROM = 2
        def slow(graph):
            time.sleep(0.3)
            return pages_of(graph)
        made = RenderWorkers(render=slow)
        names = [f"system-{n}" for n in range(12)]
        for name in names:
            made.add(name)
        made.hand_off()  # one worker for systems 1 to 11
        pages = made.finish()  # nothing is left but what that worker has not begun
        print(json.dumps({
            "order": [next(iter(page)) for page in pages] == [f"{name}/index.md" for name in names],
            "processes": sorted({page.rsplit(" ", 1)[1] for found in pages[1:] for page in found.values()}),
        }))
        """
    )
    assert found["order"] is True
    assert isinstance(found["processes"], list) and len(found["processes"]) == 3


def test_a_worker_starts_at_the_second_system_of_a_kb_expected_to_be_large() -> None:
    found = _run(
        """
        forks = []
        fork = RenderWorkers._fork
        def counted(self, sources):
            forks.append(len(self.graphs))
            return fork(self, sources)
        RenderWorkers._fork = counted
        expected = RenderWorkers(render=pages_of)
        expected.add("system-0")
        expected.hand_off(20)  # one graph: nothing to give a worker yet
        expected.add("system-1")
        expected.hand_off(19)
        expected.finish()
        small, forks_then = RenderWorkers(render=pages_of), len(forks)
        for n in range(3):
            small.add(f"system-{n}")
            small.hand_off(3 - n)  # six in all: below PARALLEL_FROM
        print(json.dumps({"expected": forks[:forks_then], "small": forks[forks_then:]}))
        """
    )
    assert found == {"expected": [2], "small": []}
