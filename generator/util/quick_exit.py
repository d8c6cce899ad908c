"""Ending a command's process without the interpreter freeing, one by one, what it built.

A build holds every record, graph and page of the KB, and MkDocs' pages beside them. At
its end the interpreter's own shutdown runs full collections and then frees every object
in turn: about 0.8 s of wall clock at 50 systems, for memory the system takes back at
once when the process ends. ``exit_now`` does what of that shutdown has an effect outside
the process (exit functions: multiprocessing's, logging's, temporary folders', any a
tool running kbgen added; the standard streams flushed) and ends the process there.
"""

from __future__ import annotations

import atexit
import os
import sys
import threading
from typing import NoReturn


def exit_now(code: int) -> NoReturn:
    """``sys.exit(code)``, without the teardown of the interpreter's objects.

    The usual exit is taken where the quick one could differ: while another thread runs
    (the interpreter would wait for it), or when a standard stream cannot be flushed (the
    interpreter reports that and ends with its own code)."""
    if threading.active_count() > 1:
        sys.exit(code)
    # The exit functions, in the order the interpreter's shutdown would run them. It is
    # CPython's own entry point to them (its test suite and tools call it too).
    atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        try:
            if stream is not None:
                stream.flush()
        except (OSError, ValueError):
            sys.exit(code)
    os._exit(code)
