"""The run comparison's assignment is SciPy's compiled ``linear_sum_assignment``, loaded
without the rest of ``scipy.optimize`` (generator/graph/assignment.py)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

import generator.graph.assignment as assignment

PROBE = """
import json, sys
import numpy as np
from generator.graph.assignment import linear_sum_assignment
ours = linear_sum_assignment()
alone = "scipy.optimize" not in sys.modules
rng = np.random.default_rng(7)
results = []
for shape in [(1, 1), (3, 3), (4, 7), (9, 2), (30, 30)]:
    scores = rng.random(shape).round(2)  # ties included
    for maximize in (True, False):
        rows, columns = ours(scores, maximize=maximize)
        results.append([rows.tolist(), columns.tolist()])
import scipy.optimize
rng = np.random.default_rng(7)
public = []
for shape in [(1, 1), (3, 3), (4, 7), (9, 2), (30, 30)]:
    scores = rng.random(shape).round(2)
    for maximize in (True, False):
        rows, columns = scipy.optimize.linear_sum_assignment(scores, maximize=maximize)
        public.append([rows.tolist(), columns.tolist()])
print(json.dumps({"alone": alone, "same": results == public,
                  "one_function": scipy.optimize.linear_sum_assignment is ours}))
"""


def test_the_compiled_function_is_loaded_alone_and_is_scipys() -> None:
    done = subprocess.run(
        [sys.executable, "-c", PROBE], capture_output=True, text=True, timeout=300, check=True
    )
    assert json.loads(done.stdout.strip().splitlines()[-1]) == {
        "alone": True,
        "same": True,
        "one_function": True,
    }


def test_a_scipy_that_moved_it_gets_the_public_import(monkeypatch: pytest.MonkeyPatch) -> None:
    from scipy.optimize import linear_sum_assignment as public

    assignment.linear_sum_assignment.cache_clear()
    monkeypatch.delitem(sys.modules, assignment.COMPILED_MODULE, raising=False)
    monkeypatch.setattr(assignment.importlib.machinery, "EXTENSION_SUFFIXES", [".not-there.so"])
    try:
        assert assignment.linear_sum_assignment() is public
    finally:
        assignment.linear_sum_assignment.cache_clear()
