"""A build of many systems renders them in forked workers: the pages are the same, in the
same order, as rendered one by one."""

from __future__ import annotations

import multiprocessing
import re
import shutil
from pathlib import Path

import pytest

import generator.pipeline
from generator.pipeline import PARALLEL_FROM, run_pipeline

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


def test_forked_workers_render_the_pages_one_by_one_rendering_makes(
    many_systems: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    contexts: list[str] = []
    get_context = multiprocessing.get_context

    def recorded(method: str) -> object:
        contexts.append(method)
        return get_context(method)

    monkeypatch.setattr(generator.pipeline.multiprocessing, "get_context", recorded)
    parallel = run_pipeline(many_systems, base=many_systems.parent)
    assert not parallel.errors
    assert contexts == ["fork"]
    monkeypatch.setattr(generator.pipeline, "PARALLEL_FROM", PARALLEL_FROM + 1)
    serial = run_pipeline(many_systems, base=many_systems.parent)
    assert list(parallel.pages.items()) == list(serial.pages.items())
    assert [graph.slug for graph in parallel.graphs] == [f"demo-{n}" for n in range(PARALLEL_FROM)]
    assert "systems/demo-7/index.md" in parallel.pages


def test_a_kb_below_the_threshold_is_rendered_without_workers(
    many_systems: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def no_fork(*args: object) -> None:
        raise AssertionError("a small KB started workers")

    monkeypatch.setattr(generator.pipeline.multiprocessing, "get_context", no_fork)
    shutil.rmtree(many_systems / "demo-0")
    assert run_pipeline(many_systems, base=many_systems.parent).pages
