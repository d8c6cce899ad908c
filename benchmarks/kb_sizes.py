"""KBs of many systems: ``python3 benchmarks/bench.py --systems 10,50,100``.

Each KB is synthesised in a temporary folder from the shipped records (renamed copies
of the two systems, run IDs and names changed to match), with the shipped mkdocs.yml,
kb/ and overrides/. Per size it prints:

* ``kbgen check``: time and MB/s of record files;
* ``kbgen build``: wall-clock and CPU time, per system, the generator's share of the
  build's CPU time (every hook of its MkDocs plugin timed: pipeline, exports, raw-block
  splicing, page memory, record index, manifest) and peak memory (``ru_maxrss`` of the
  build process);
* edit-to-reload: ``kbgen serve`` started on a free port against the KB, one record's
  label edited, the served page polled until the new text appears (median of three),
  in wall-clock seconds and in CPU seconds the server spent meanwhile;
* the record index: bytes of ``search/search_index.json`` per record.

Then the ratios that do not depend on the machine's speed: per-system build cost at the
largest size against the smallest (1.0 is linear) and edit-to-reload against a full build.
"""

from __future__ import annotations

import functools
import json
import os
import re
import resource
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SHIPPED = ("oh-my-pi", "decapod")
EDITED_FILE = "routes.yaml"
EDITED_LABEL = "  label: Prompt → provider → tool/result loop → terminal answer"
EDITED_PAGE = "result/"
RELOAD_TIMEOUT = 300.0
STARTUP_TIMEOUT = 1800.0  # the server's first build is a full build: minutes on a loaded machine


def _environment() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(ROOT), "NO_MKDOCS_2_WARNING": "1", "SOURCE_DATE_EPOCH": "0"}


def _further_runs(source: Path, folder: str, names: list[str]) -> list[str]:
    """What copytree leaves out: the runs/ folder directly below the system folder."""
    return ["runs"] if Path(folder) == source and "runs" in names else []


def synthesise(folder: Path, systems: int) -> Path:
    """A project of ``systems`` renamed copies of the shipped systems; returns its folder.

    Each copy is the system folder's own run (its further runs' IDs name the shipped
    system), so the figures stay those of one run per system."""
    folder.mkdir(parents=True)
    shutil.copy(ROOT / "mkdocs.yml", folder / "mkdocs.yml")
    shutil.copytree(ROOT / "kb", folder / "kb")
    shutil.copytree(ROOT / "overrides", folder / "overrides")
    for n in range(systems):
        shipped = SHIPPED[n % len(SHIPPED)]
        slug = f"{shipped}-{n:03d}"
        target = folder / "records" / slug
        source = ROOT / "records" / shipped
        shutil.copytree(source, target, ignore=functools.partial(_further_runs, source))
        run = target / "run.yaml"
        text = run.read_text(encoding="utf-8").replace(f"-{shipped}-", f"-{slug}-")
        text = re.sub(r"(?m)^(  system: .*)$", rf"\g<1> {n:03d}", text, count=1)
        run.write_text(text, encoding="utf-8")
    return folder


def child_build(project: Path) -> None:
    """Run in a child process: ``kbgen build`` with the generator's own calls timed; prints JSON."""
    from mkdocs.plugins import CombinedEvent
    from rich.console import Console

    from generator.mkdocs import plugin
    from generator.site import build as site

    spent = {"generator": 0.0}

    def timed(function):  # type: ignore[no-untyped-def]
        def wrapper(*args, **kwargs):  # type: ignore[no-untyped-def]
            start = time.process_time()
            try:
                return function(*args, **kwargs)
            finally:
                spent["generator"] += time.process_time() - start

        return wrapper

    # Every hook of the records plugin is the generator's: the pipeline, the exports, the
    # raw-block splicing, the page memory, the record index and the manifest. (A hook
    # calls no other plugin, so nothing is counted twice.)
    records = plugin.RecordsPlugin
    for name in [name for name in vars(records) if name.startswith("on_")]:
        hook = getattr(records, name)
        if isinstance(hook, CombinedEvent):
            setattr(records, name, CombinedEvent(*(functools.wraps(m)(timed(m)) for m in hook.methods)))
        else:
            setattr(records, name, functools.wraps(hook)(timed(hook)))
    os.chdir(project)
    quiet = Console(file=open(os.devnull, "w"))  # noqa: SIM115 - lives as long as the process
    start, cpu_start = time.perf_counter(), time.process_time()
    code = site.build_site(project / "mkdocs.yml", None, str(project / "site"), quiet, quiet)
    wall, cpu = time.perf_counter() - start, time.process_time() - cpu_start
    peak_kib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    figures = {"code": code, "wall": wall, "cpu": cpu, "generator": spent["generator"], "peak_kib": peak_kib}
    print(json.dumps(figures))


@dataclass
class Figures:
    systems: int
    check: float
    megabytes: float
    build: float  # wall-clock seconds
    build_cpu: float  # CPU seconds of the build process: steadier on a shared machine
    generator: float  # CPU seconds in the generator's calls
    peak_mib: float
    reload: float
    reload_cpu: float
    index_bytes_per_record: float


def _timed_check(project: Path) -> float:
    start = time.perf_counter()
    subprocess.run(
        [sys.executable, "-m", "generator.cli.main", "check", "records"],
        cwd=project,
        env=_environment(),
        capture_output=True,
        check=True,
    )
    return time.perf_counter() - start


def _build(project: Path) -> dict[str, float]:
    done = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "bench.py"), "--child-build", str(project)],
        env=_environment(),
        capture_output=True,
        text=True,
        check=True,
    )
    figures: dict[str, float] = json.loads(done.stdout.strip().splitlines()[-1])
    if figures["code"] != 0:
        raise SystemExit(f"the build of {project} failed")
    return figures


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _fetch(url: str) -> str | None:
    try:
        with urllib.request.urlopen(url, timeout=5) as response:
            return str(response.read().decode("utf-8"))
    except OSError:
        return None


def _wait_for(url: str, text: str, timeout: float, present: bool = True) -> float:
    """Seconds until the page at ``url`` shows ``text`` (or, not ``present``, no longer does)."""
    start = time.perf_counter()
    while time.perf_counter() - start < timeout:
        page = _fetch(url)
        if page is not None and (text in page) is present:
            return time.perf_counter() - start
        time.sleep(0.05)
    raise SystemExit(f"{url} did not {'show' if present else 'drop'} {text!r} within {timeout:.0f} s")


def _cpu_seconds(pid: int) -> float:
    """CPU time (user + system) a process has used so far, from /proc."""
    fields = Path(f"/proc/{pid}/stat").read_text(encoding="ascii").rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def edit_to_reload(project: Path, edits: int = 3) -> tuple[float, float]:
    """Median seconds from saving a one-record edit to the served page showing it, wall clock
    and CPU of the server (steadier on a shared machine)."""
    port = _free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "generator.cli.main", "serve", "--dev-addr", f"127.0.0.1:{port}"],
        cwd=project,
        env=_environment(),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    system = project / "records" / f"{SHIPPED[0]}-000"  # the system whose route label is edited
    url = f"http://127.0.0.1:{port}/systems/{system.name}/{EDITED_PAGE}"
    try:
        _wait_for(url, "terminal answer", STARTUP_TIMEOUT)
        timings, cpu = [], []
        path = system / EDITED_FILE
        for n in range(edits):
            marker = f"edited{n}marker"
            text = path.read_text(encoding="utf-8")
            before = _cpu_seconds(server.pid)
            path.write_text(text.replace(EDITED_LABEL, f"{EDITED_LABEL} {marker}", 1), encoding="utf-8")
            timings.append(_wait_for(url, marker, RELOAD_TIMEOUT))
            cpu.append(_cpu_seconds(server.pid) - before)
            path.write_text(text, encoding="utf-8")
            _wait_for(url, marker, RELOAD_TIMEOUT, present=False)  # the revert's rebuild is done
        return statistics.median(timings), statistics.median(cpu)
    finally:
        server.terminate()
        server.wait(timeout=30)


def _records_bytes(project: Path) -> int:
    return sum(path.stat().st_size for path in (project / "records").rglob("*") if path.is_file())


def _index_bytes_per_record(project: Path) -> float:
    path = project / "site" / "search" / "search_index.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    return path.stat().st_size / max(1, len(data["config"]["kb"]["entries"]))


def measure(folder: Path, systems: int, edits: int = 3) -> Figures:
    project = synthesise(folder / f"kb{systems}", systems)
    check = _timed_check(project)
    built = _build(project)
    reload, reload_cpu = edit_to_reload(project, edits)
    return Figures(
        systems=systems,
        check=check,
        megabytes=_records_bytes(project) / 1e6,
        build=built["wall"],
        build_cpu=built["cpu"],
        generator=built["generator"],
        peak_mib=built["peak_kib"] / 1024,
        reload=reload,
        reload_cpu=reload_cpu,
        index_bytes_per_record=_index_bytes_per_record(project),
    )


def _print(figures: Figures) -> None:
    f = figures
    print(f"[systems {f.systems}]")
    print(f"    kbgen check      {f.check:7.2f} s   {f.megabytes / f.check:6.2f} MB/s ({f.megabytes:.1f} MB)")
    print(f"    kbgen build      {f.build:7.2f} s   {f.build / f.systems:6.3f} s per system (wall clock)")
    print(f"                     {f.build_cpu:7.2f} s   {f.build_cpu / f.systems:6.3f} s per system (CPU)")
    print(f"    generator share  {f.generator / f.build_cpu:7.1%}   ({f.generator:.2f} s CPU)")
    print(f"    peak memory      {f.peak_mib:7.0f} MiB {f.peak_mib / f.systems:6.2f} MiB per system")
    print(
        f"    edit-to-reload   {f.reload:7.2f} s   {f.reload / f.build:6.1%} of the full build (wall clock)"
    )
    cpu_share = f.reload_cpu / f.build_cpu
    print(f"                     {f.reload_cpu:7.2f} s   {cpu_share:6.1%} of the full build (CPU)")
    print(f"    record index     {f.index_bytes_per_record:7.0f} bytes per record")


def bench_sizes(sizes: list[int], edits: int = 3) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        results = []
        for systems in sizes:
            results.append(measure(Path(tmp), systems, edits))
            _print(results[-1])
            sys.stdout.flush()
    small, large = results[0], results[-1]
    if len(results) > 1:
        linear = (large.build_cpu / large.systems) / (small.build_cpu / small.systems)
        memory = (large.peak_mib / large.systems) / (small.peak_mib / small.systems)
        print(f"[ratios] per-system build CPU at {large.systems} / at {small.systems}: {linear:.2f}")
        print(f"         per-system peak memory at {large.systems} / at {small.systems}: {memory:.2f}")
    wall, cpu = large.reload / large.build, large.reload_cpu / large.build_cpu
    print(f"         edit-to-reload / full build at {large.systems}: {wall:.3f} wall clock, {cpu:.3f} CPU")
