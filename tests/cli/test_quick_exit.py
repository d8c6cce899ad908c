"""The console script ends its process without the interpreter's teardown (``util/quick_exit.py``),
and only where that changes nothing seen from outside the process: its code, what it printed,
its exit functions, a thread still running, a stream that cannot be flushed."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
# Buffered standard streams, as a process has them unless told otherwise: what the exit
# flushes is then still in the buffer.
BUFFERED = {name: value for name, value in os.environ.items() if name != "PYTHONUNBUFFERED"}


# The console script as it was: the interpreter's own exit.
USUAL_EXIT = "import sys; from generator.cli.main import main; sys.exit(main())"


def _run(script: str, tmp_path: Path, **kwargs: object) -> subprocess.CompletedProcess[bytes]:
    """A Python process running ``script`` with the generator importable."""
    return subprocess.run(  # type: ignore[call-overload, no-any-return]
        [sys.executable, "-c", textwrap.dedent(script)], cwd=ROOT, env=BUFFERED, timeout=60, **kwargs
    )


def test_exit_functions_run_and_streams_are_flushed(tmp_path: Path) -> None:
    marker = tmp_path / "exit-function-ran"
    found = _run(
        f"""
        import atexit, sys
        from pathlib import Path
        from generator.util.quick_exit import exit_now
        atexit.register(lambda: Path({str(marker)!r}).write_text("ran"))
        sys.stdout.write("buffered, no line break")
        sys.stderr.write("to stderr")
        exit_now(3)
        """,
        tmp_path,
        capture_output=True,
    )
    assert found.returncode == 3
    assert found.stdout == b"buffered, no line break"
    assert found.stderr == b"to stderr"
    assert marker.read_text() == "ran"


def test_the_teardown_is_skipped(tmp_path: Path) -> None:
    # An object whose finaliser would run in the interpreter's teardown: it does not.
    found = _run(
        """
        import sys
        from generator.util.quick_exit import exit_now
        class Noisy:
            def __del__(self):
                sys.stdout.write("freed")
                sys.stdout.flush()
        kept = Noisy()
        exit_now(0)
        """,
        tmp_path,
        capture_output=True,
    )
    assert (found.returncode, found.stdout) == (0, b"")


def test_a_running_thread_is_waited_for(tmp_path: Path) -> None:
    marker = tmp_path / "thread-finished"
    found = _run(
        f"""
        import threading, time
        from pathlib import Path
        from generator.util.quick_exit import exit_now
        def late():
            time.sleep(0.3)
            Path({str(marker)!r}).write_text("done")
        threading.Thread(target=late).start()
        exit_now(5)
        """,
        tmp_path,
        capture_output=True,
    )
    assert found.returncode == 5
    assert marker.read_text() == "done"


def _with_stdout_unread(script: str) -> tuple[int, bytes]:
    """The exit code and stderr of ``script`` writing to a pipe whose reader has gone."""
    child = subprocess.Popen(
        [sys.executable, "-c", textwrap.dedent(script)],
        cwd=ROOT,
        env=BUFFERED,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert child.stdout is not None
    child.stdout.close()
    _, stderr = child.communicate(timeout=60)
    return child.returncode, stderr


def test_a_stream_that_cannot_be_flushed_ends_as_the_interpreter_ends_it() -> None:
    script = """
        import sys, time
        from generator.util.quick_exit import exit_now
        time.sleep(0.3)  # the reader is gone by then
        sys.stdout.write("x" * 100)
        {}
        """
    quick = _with_stdout_unread(script.format("exit_now(0)"))
    usual = _with_stdout_unread(script.format("sys.exit(0)"))
    assert quick[0] == usual[0] != 0
    assert b"BrokenPipeError" in quick[1] and b"BrokenPipeError" in usual[1]


def test_the_console_script_ends_with_its_code(tmp_path: Path) -> None:
    found = subprocess.run(
        [sys.executable, "-m", "generator.cli.main", "check", str(tmp_path / "missing")],
        cwd=ROOT,
        capture_output=True,
        timeout=120,
    )
    again = subprocess.run(
        [sys.executable, "-c", USUAL_EXIT, "check", str(tmp_path / "missing")],
        cwd=ROOT,
        capture_output=True,
        timeout=120,
    )
    assert found.returncode == again.returncode != 0
    assert found.stdout == again.stdout and found.stderr == again.stderr
