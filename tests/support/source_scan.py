"""Reading the generator's own code for guard tests: the string literals of a module."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path


def string_constants(path: Path) -> Iterator[tuple[int, str]]:
    """The string literals of a module with their line numbers, docstrings left out
    (a docstring may name a path or show markup as an example)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Module | ast.FunctionDef | ast.ClassDef)
        and node.body
        and isinstance(node.body[0], ast.Expr)
    }
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings:
            yield node.lineno, node.value
