"""Every grammar matches the whole string: a trailing newline makes no second ID.

Python's ``$`` also matches before a string's final newline, so ``re.match(r"^RTE-1$",
"RTE-1\\n")`` succeeds: an ID, run ID, slug or pin written with a trailing newline (a
YAML escape ``"RTE-1\\n"``) passed the grammar and became a second record with the same
ID. The code is scanned for the unsafe form (a pattern handed to ``re`` that ends with
``$``), and each grammar is tried with the newline.
"""

from __future__ import annotations

import ast
import json
from pathlib import Path

import pytest
from hostile_support import located, make_records

from generator.importer.write import target_problem
from generator.model.ids import grammar

GENERATOR = Path(__file__).resolve().parents[2] / "generator"
_RE_CALLS = {"compile", "match", "search", "fullmatch", "sub", "subn", "split", "finditer", "findall"}


def _tail(node: ast.expr | None, constants: dict[str, ast.expr]) -> str | None:
    """The last literal text of a pattern expression (a string, an f-string, a sum, a name)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr) and node.values:
        last = node.values[-1]
        return last.value if isinstance(last, ast.Constant) and isinstance(last.value, str) else None
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        return _tail(node.right, constants)
    if isinstance(node, ast.Name) and node.id in constants:
        return _tail(constants[node.id], constants)
    return None


def _unsafe_patterns(path: Path) -> list[int]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    constants = {
        node.targets[0].id: node.value
        for node in ast.walk(tree)
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name)
    }
    found = []
    for node in ast.walk(tree):
        if not (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr in _RE_CALLS
            and isinstance(node.func.value, ast.Name)
            and node.func.value.id == "re"
            and node.args
        ):
            continue
        tail = _tail(node.args[0], constants)
        if tail is not None and tail.endswith("$") and not tail.endswith("\\$"):
            found.append(node.lineno)
    return found


def test_no_pattern_in_the_code_ends_with_a_dollar() -> None:
    offenders = [
        f"{path.relative_to(GENERATOR)}:{line}"
        for path in sorted(GENERATOR.rglob("*.py"))
        for line in _unsafe_patterns(path)
    ]
    assert offenders == [], "end the pattern with \\Z (or compile a schema pattern with ids.whole_string)"


def test_the_scan_finds_the_unsafe_form(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    sample.write_text('import re\nA = r"^x$"\nB = re.compile(A)\nC = re.match(rf"^{A}-y$", "z")\n')
    assert _unsafe_patterns(sample) == [3, 4]


@pytest.mark.parametrize("value", ["RTE-1\n", "MEM-RTE-knowledge-store\n", "RTE-1\r", " RTE-1"])
def test_the_id_grammar_refuses_a_trailing_newline(value: str) -> None:
    assert grammar().whole.match(value) is None
    assert grammar().numbered.match(value) is None or value.strip() != value


def test_a_second_rte_1_with_a_newline_is_refused_where_it_is_written(
    tmp_path: Path, kbgen, monkeypatch
) -> None:
    records = make_records(tmp_path)
    routes = (records / "demo" / "records.yaml").read_text(encoding="utf-8")
    assert "  - id: RTE-1\n" in routes
    twin = routes.replace(
        "  - id: RTE-1\n", '  - id: "RTE-1\\n"\n    label: twin\n    body: A twin.\n  - id: RTE-1\n', 1
    )
    (records / "demo" / "records.yaml").write_text(twin, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    result = kbgen("check", "records", "--format", "json")
    assert result.code == 1
    line = twin.split("\n").index('  - id: "RTE-1\\n"') + 1
    assert ("KB105", "records/demo/records.yaml", line, 9) in located(result)


def test_a_run_id_with_a_newline_is_refused(tmp_path: Path, kbgen, monkeypatch) -> None:
    records = make_records(tmp_path)
    run = (records / "demo" / "run.yaml").read_text(encoding="utf-8")
    run_id = next(line for line in run.split("\n") if "run_id:" in line).split(":", 1)[1].strip()
    changed = run.replace(f"run_id: {run_id}", f"run_id: {json.dumps(run_id.strip(chr(34)) + chr(10))}", 1)
    (records / "demo" / "run.yaml").write_text(changed, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    result = kbgen("check", "records", "--format", "json")
    assert result.code == 1
    assert "KB106" in {code for code, *_ in located(result)}


def test_import_refuses_a_slug_with_a_newline(tmp_path: Path) -> None:
    problem = target_problem(tmp_path / "records", "evil\n", force=False)
    assert problem is not None and problem.code == "KB610"
    assert not (tmp_path / "records" / "evil\n").exists()
