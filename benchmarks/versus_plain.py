"""``kbgen`` against the tools it stands on: ``python3 benchmarks/bench.py --plain``.

On the same synthetic KB (renamed copies of the shipped systems, see kb_sizes.py), in one run:

* ``kbgen build`` against plain MkDocs + Material building the very same Markdown:
  ``kbgen render --out DIR`` writes the pages and a standalone mkdocs.yml with the same
  theme and Markdown extensions and no ``kb-records`` plugin; ``mkdocs build`` there is
  the plain build (the render itself is not timed). ``kbgen build`` keeps its compiled
  templates in a cache of the benchmark's own, filled by one build before the timed
  ones (as the generator's bytecode is written first, below); the same build with the
  cache off, every template compiled, is timed beside it;
* ``kbgen check`` against a process that parses the same YAML files with PyYAML's C
  loader (``yaml.load`` with ``CSafeLoader``), at three sizes for the growth.

Every figure is a whole child process (interpreter start and imports included), timed
by ``os.wait4``: wall clock and CPU (user + system). Each is the best of ``repeat`` runs,
ours and theirs taking turns, since the machine is shared and noisy; the ratios are what
to compare. The generator's bytecode is written first (``compile_bytecode``), so neither
side compiles its modules from source. The check's
CPU per added system between sizes (interpreter start and imports cancel out) is the
same at every size when it grows linearly.

With ``--instructions``, the check and the parse are also run once each under valgrind's
cachegrind, which counts the instructions a process executes: the same on a busy machine
as on a quiet one, where the times above move by a fifth between minutes. A ratio of
instructions is not one of times (Python code runs fewer instructions per cycle than
libyaml's C), but it moves only when the code does.
"""

from __future__ import annotations

import itertools
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from kb_sizes import ROOT, _environment, synthesise

from generator.util.template_cache import CACHE_ENV

# The whole C-loader parse, as a process of its own like ``kbgen check``.
PARSE_SCRIPT = """
import sys
from pathlib import Path
import yaml
for path in sorted(Path(sys.argv[1]).rglob("*.yaml")):
    yaml.load(path.read_text(encoding="utf-8"), Loader=yaml.CSafeLoader)
"""


@dataclass(frozen=True)
class Timing:
    wall: float
    cpu: float


def run_timed(command: list[str], cwd: Path, settings: dict[str, str] | None = None) -> Timing:
    """Wall clock and CPU seconds (user + system) of one child process; it must succeed.
    ``settings``: environment variables of its own."""
    start = time.perf_counter()
    child = subprocess.Popen(
        command,
        cwd=cwd,
        env={**_environment(), **(settings or {})},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    assert child.stderr is not None
    errors = child.stderr.read()
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - start
    child.returncode = os.waitstatus_to_exitcode(status)
    child.stderr.close()
    if child.returncode != 0:
        raise SystemExit(f"{' '.join(command)} failed:\n{errors.decode(errors='replace')}")
    return Timing(wall, usage.ru_utime + usage.ru_stime)


def best_of(timings: list[Timing]) -> Timing:
    """The least wall clock and the least CPU time of several runs (each its own best)."""
    return Timing(min(t.wall for t in timings), min(t.cpu for t in timings))


def alternately(repeat: int, *runs: Callable[[], Timing]) -> list[Timing]:
    """Best-of timings of commands run one after the other, ``repeat`` times: on a shared
    machine a busy minute then slows them alike."""
    rounds = [[run() for run in runs] for _ in range(repeat)]
    return [best_of([timings[at] for timings in rounds]) for at in range(len(runs))]


def compile_bytecode() -> None:
    """Write the bytecode of the generator's modules, as Python does on its first import
    wherever ``PYTHONDONTWRITEBYTECODE`` is unset: an editable install is otherwise compiled
    again by every process (MkDocs and Material, installed by pip, have theirs)."""
    subprocess.run(
        [sys.executable, "-m", "compileall", "-q", str(ROOT / "generator")],
        check=True,
        stdout=subprocess.DEVNULL,
    )


def kbgen(*arguments: str) -> list[str]:
    return [sys.executable, "-m", "generator.cli.main", *arguments]


def build_versus_plain(project: Path, repeat: int) -> tuple[Timing, Timing, Timing]:
    """Best-of timings of ``kbgen build`` (its templates compiled before), of ``kbgen
    build`` compiling its templates (the cache off), and of plain MkDocs + Material on
    its Markdown."""
    rendered = project.parent / f"{project.name}-render"
    cached = {CACHE_ENV: str(project.parent / f"{project.name}-templates")}
    build = kbgen("build", "--site-dir", str(project / "site"))
    run_timed(kbgen("render", "--out", str(rendered)), project, cached)
    run_timed(build, project, cached)  # compiles the templates into the cache
    plain_build = [sys.executable, "-m", "mkdocs", "build", "--quiet", "--strict", "-f", "mkdocs.yml"]
    ours, compiling, plain = alternately(
        repeat,
        lambda: run_timed(build, project, cached),
        lambda: run_timed(build, project, {CACHE_ENV: "off"}),
        lambda: run_timed(plain_build, rendered),
    )
    return ours, compiling, plain


def check_versus_parse(project: Path, repeat: int) -> tuple[Timing, Timing]:
    """Best-of timings of ``kbgen check`` and of the C-loader parse of the same files."""
    parse = [sys.executable, "-c", PARSE_SCRIPT, str(project / "records")]
    ours, bare = alternately(
        repeat, lambda: run_timed(kbgen("check", "records"), project), lambda: run_timed(parse, project)
    )
    return ours, bare


_INSTRUCTIONS = re.compile(r"I\s+refs:\s+([\d,]+)")


def instructions(command: list[str], cwd: Path) -> int | None:
    """The instructions one child process executes (not its children), counted by valgrind's
    cachegrind without its cache simulation; None where valgrind is not installed. String
    hashing is seeded alike in every run: a random seed reorders sets and moves the count
    by a few percent."""
    valgrind = shutil.which("valgrind")
    if valgrind is None:
        return None
    counted = [valgrind, "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null", *command]
    environment = {**_environment(), "PYTHONHASHSEED": "0"}
    done = subprocess.run(counted, cwd=cwd, env=environment, capture_output=True, text=True, check=False)
    found = _INSTRUCTIONS.search(done.stderr)
    if done.returncode != 0 or found is None:
        raise SystemExit(f"{' '.join(command)} failed under valgrind:\n{done.stderr[-2000:]}")
    return int(found.group(1).replace(",", ""))


def check_instructions(project: Path) -> tuple[int, int] | None:
    """Instructions of ``kbgen check`` and of the C-loader parse of the same files."""
    ours = instructions(kbgen("check", "records"), project)
    parse = instructions([sys.executable, "-c", PARSE_SCRIPT, str(project / "records")], project)
    return None if ours is None or parse is None else (ours, parse)


def _line(name: str, timing: Timing) -> str:
    return f"    {name:<22} {timing.cpu:7.2f} s CPU {timing.wall:7.2f} s wall"


def _ratio(name: str, ours: Timing, theirs: Timing) -> str:
    return f"    ratio {name:<16} {ours.cpu / theirs.cpu:7.2f} CPU {ours.wall / theirs.wall:7.2f} wall"


def bench_versus_plain(
    build_sizes: list[int],
    check_sizes: list[int],
    repeat: int,
    out: Callable[[str], None] = print,
    count_instructions: bool = False,
) -> None:
    compile_bytecode()
    with tempfile.TemporaryDirectory() as tmp:
        projects = {n: synthesise(Path(tmp) / f"kb{n}", n) for n in sorted({*build_sizes, *check_sizes})}
        for systems in build_sizes:
            ours, compiling, plain = build_versus_plain(projects[systems], repeat)
            out(f"[build, {systems} systems, best of {repeat}]")
            out(_line("kbgen build", ours))
            out(_line("  templates compiled", compiling))
            out(_line("plain MkDocs + Material", plain))
            out(_ratio("kbgen/plain", ours, plain))
            out(_ratio("compiled/plain", compiling, plain))
        checks = []
        for systems in check_sizes:
            ours, bare = check_versus_parse(projects[systems], repeat)
            checks.append((systems, ours))
            out(f"[check, {systems} systems, best of {repeat}]")
            out(_line("kbgen check", ours))
            out(_line("C-loader parse", bare))
            out(_ratio("check/parse", ours, bare))
        for (small, first), (large, last) in itertools.pairwise(checks):
            marginal = (last.cpu - first.cpu) / (large - small)
            out(f"[growth] kbgen check CPU per added system, {small} to {large}: {marginal * 1000:.1f} ms")
        for systems in check_sizes if count_instructions else ():
            counted = check_instructions(projects[systems])
            if counted is None:
                out("[instructions] valgrind is not installed: no instructions counted")
                break
            ours_count, parse_count = counted
            out(f"[check, {systems} systems, instructions]")
            out(f"    kbgen check            {ours_count / 1e6:9.0f} M")
            out(f"    C-loader parse         {parse_count / 1e6:9.0f} M")
            out(f"    ratio check/parse     {ours_count / parse_count:7.2f}")
