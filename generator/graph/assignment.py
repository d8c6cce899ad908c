"""SciPy's ``linear_sum_assignment`` without importing all of ``scipy.optimize``.

The function is a compiled module of its own, ``scipy.optimize._lsap``, but importing it
the usual way runs the package's ``__init__``, which imports every optimizer SciPy has:
0.35 s on top of NumPy's 0.09 s, paid by every build of a KB with more than one run of a
system (each run's changes page pairs its records with the run before it). Loaded from
its file, the module costs NumPy's import alone. It is the same compiled function
(``scipy.optimize.linear_sum_assignment`` is this module's), registered under its own
name, so a later ``import scipy.optimize`` uses it as it is. Should a SciPy release move
it, the public import is used instead.
"""

from __future__ import annotations

import functools
import importlib.machinery
import importlib.util
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

COMPILED_MODULE = "scipy.optimize._lsap"


@functools.cache
def linear_sum_assignment() -> Callable[..., Any]:
    """SciPy's ``linear_sum_assignment``, loaded on first use."""
    return _compiled() or _public()


def _compiled() -> Callable[..., Any] | None:
    module = sys.modules.get(COMPILED_MODULE)
    if module is None:
        try:
            spec = importlib.util.find_spec("scipy")
            if spec is None or spec.origin is None:
                return None
            folder = Path(spec.origin).parent / "optimize"
            files = [folder / f"_lsap{suffix}" for suffix in importlib.machinery.EXTENSION_SUFFIXES]
            path = next((file for file in files if file.is_file()), None)
            if path is None:
                return None
            found = importlib.util.spec_from_file_location(COMPILED_MODULE, path)
            if found is None or found.loader is None:
                return None
            module = importlib.util.module_from_spec(found)
            found.loader.exec_module(module)
        except (ImportError, OSError):
            return None
        sys.modules[COMPILED_MODULE] = module
    function = getattr(module, "linear_sum_assignment", None)
    return function if callable(function) else None


def _public() -> Callable[..., Any]:
    from scipy.optimize import linear_sum_assignment as public

    return public
