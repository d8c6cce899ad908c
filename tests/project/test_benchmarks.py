"""benchmarks/versus_plain.py runs and prints its figures (no time is asserted: the
machine is shared; the benchmark prints ratios to compare between revisions)."""

from __future__ import annotations

import re
import shutil
import sys
from pathlib import Path
from types import ModuleType

import pytest

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"


@pytest.fixture
def versus_plain(monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    monkeypatch.syspath_prepend(str(BENCHMARKS))  # the benchmarks import each other as scripts
    import versus_plain

    return versus_plain


def test_a_child_process_is_timed_in_cpu_and_wall_clock(versus_plain: ModuleType, tmp_path: Path) -> None:
    spin = "import time\nend = time.process_time() + 0.2\nwhile time.process_time() < end: pass"
    timing = versus_plain.run_timed([sys.executable, "-c", spin], tmp_path)
    assert timing.cpu >= 0.2
    assert timing.wall >= timing.cpu * 0.5  # wall clock is at least the busy part, loosely


def test_a_failing_child_stops_the_benchmark_with_its_error(versus_plain: ModuleType, tmp_path: Path) -> None:
    with pytest.raises(SystemExit, match="no such thing"):
        versus_plain.run_timed([sys.executable, "-c", "raise SystemExit('no such thing')"], tmp_path)


def test_best_of_takes_the_least_of_each_figure(versus_plain: ModuleType) -> None:
    timings = [versus_plain.Timing(3.0, 1.0), versus_plain.Timing(2.0, 4.0)]
    assert versus_plain.best_of(timings) == versus_plain.Timing(2.0, 1.0)


def test_the_two_sides_take_turns(versus_plain: ModuleType) -> None:
    order: list[str] = []

    def timed(name: str, cpu: float) -> object:
        order.append(name)
        return versus_plain.Timing(cpu * 2, cpu)

    cpus = iter([3.0, 5.0, 2.0, 1.0, 6.0, 4.0])
    ours, off, theirs = versus_plain.alternately(
        2,
        lambda: timed("ours", next(cpus)),
        lambda: timed("off", next(cpus)),
        lambda: timed("theirs", next(cpus)),
    )
    assert order == ["ours", "off", "theirs", "ours", "off", "theirs"]
    assert (ours, off, theirs) == (
        versus_plain.Timing(2.0, 1.0),
        versus_plain.Timing(10.0, 5.0),
        versus_plain.Timing(4.0, 2.0),
    )


def test_a_child_is_given_settings_of_its_own(versus_plain: ModuleType, tmp_path: Path) -> None:
    told = tmp_path / "told"
    script = f"import os, pathlib; pathlib.Path({str(told)!r}).write_text(os.environ['KBGEN_TEMPLATE_CACHE'])"
    versus_plain.run_timed([sys.executable, "-c", script], tmp_path, {"KBGEN_TEMPLATE_CACHE": "off"})
    assert told.read_text() == "off"


@pytest.mark.slow
def test_the_benchmark_prints_build_and_check_against_plain_tools(versus_plain: ModuleType) -> None:
    lines: list[str] = []
    versus_plain.bench_versus_plain([1], [1, 2], repeat=1, out=lines.append)
    text = "\n".join(lines)
    figure = r"\s+\d+\.\d\d s CPU\s+\d+\.\d\d s wall"
    for expected in (
        r"\[build, 1 systems, best of 1\]",
        rf"kbgen build{figure}",
        rf"  templates compiled{figure}",
        rf"plain MkDocs \+ Material{figure}",
        r"ratio kbgen/plain\s+\d+\.\d\d CPU\s+\d+\.\d\d wall",
        r"ratio compiled/plain\s+\d+\.\d\d CPU\s+\d+\.\d\d wall",
        r"\[check, 2 systems, best of 1\]",
        rf"kbgen check{figure}",
        rf"C-loader parse{figure}",
        r"ratio check/parse\s+\d+\.\d\d CPU\s+\d+\.\d\d wall",
        r"\[growth\] kbgen check CPU per added system, 1 to 2: -?\d+\.\d ms",
    ):
        assert re.search(expected, text), f"{expected!r} not in:\n{text}"


@pytest.mark.skipif(shutil.which("valgrind") is None, reason="valgrind counts the instructions")
def test_instructions_are_counted_in_the_child_alone(versus_plain: ModuleType, tmp_path: Path) -> None:
    small = versus_plain.instructions([sys.executable, "-c", "pass"], tmp_path)
    large = versus_plain.instructions([sys.executable, "-c", "sum(range(3_000_000))"], tmp_path)
    assert small is not None and large is not None
    assert large > small + 3_000_000  # each added step runs instructions of its own
    with pytest.raises(SystemExit, match="failed under valgrind"):
        versus_plain.instructions([sys.executable, "-c", "raise SystemExit(3)"], tmp_path)


def test_the_check_is_printed_in_instructions_when_asked(
    versus_plain: ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    timing = versus_plain.Timing(1.0, 1.0)
    monkeypatch.setattr(versus_plain, "check_versus_parse", lambda project, repeat: (timing, timing))
    monkeypatch.setattr(versus_plain, "check_instructions", lambda project: (9_000_000_000, 3_600_000_000))
    monkeypatch.setattr(versus_plain, "compile_bytecode", lambda: None)
    monkeypatch.setattr(versus_plain, "synthesise", lambda folder, systems: folder)
    lines: list[str] = []
    versus_plain.bench_versus_plain([], [5], repeat=1, out=lines.append, count_instructions=True)
    text = "\n".join(lines)
    assert "[check, 5 systems, instructions]" in text
    assert re.search(r"kbgen check\s+9000 M", text) and re.search(r"C-loader parse\s+3600 M", text)
    assert re.search(r"ratio check/parse\s+2\.50", text)
    monkeypatch.setattr(versus_plain, "check_instructions", lambda project: None)
    lines.clear()
    versus_plain.bench_versus_plain([], [5], repeat=1, out=lines.append, count_instructions=True)
    assert lines[-1] == "[instructions] valgrind is not installed: no instructions counted"
