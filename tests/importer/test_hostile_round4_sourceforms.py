"""Hostile source registers against the source forms: a paragraph declaring a source, a
register cell naming several layers, a capture's digest and a revision shared with another
source. What a document says of its sources reaches the records as written and only where
its form says; a reference that does not resolve is kept as written, never followed; a
flood of labels or layers is read once. Times are never asserted (the machine is shared)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from generator.importer import import_document

HEAD = (
    "---\ntype: kb/types/agentic-system-analysis-result.md\nrun-id: AAS-2026-01-01-x-01\nsystem: X\n"
    "run-date: '2026-01-01'\n---\n\n# X agentic-system analysis\n\n## Source register\n\n"
)
TAIL = "\n\n## Shared records\n\n### Components\n\nCMP-1 — Loop. Evidence: SRC-1 `src/loop.py:1-9`.\n"
COMMIT = "0123456789abcdef0123456789abcdef01234567"
DIGEST = "d" * 64
PAPER = "| SRC-1 | Paper capture, `https://example.org/p` | "
REGISTER = (
    "| Source ID | Kind and identity/location | Revision or capture | Evidence layer |\n|---|---|---|---|\n"
)


def _sources(tmp_path: Path, register: str) -> tuple[dict[str, dict[str, Any]], Any]:
    document = tmp_path / "doc.md"
    document.write_text(HEAD + register + TAIL, encoding="utf-8")
    outcome = import_document(document, "x", tmp_path / "records")
    assert outcome.folder is not None
    file = outcome.folder / "sources.yaml"
    sources = yaml.safe_load(file.read_text(encoding="utf-8"))["sources"] if file.exists() else []
    return {entry["id"]: entry for entry in sources}, outcome


# ---------------------------------------------------------------- a shared revision is never followed


@pytest.mark.parametrize(
    ("rows", "kept"),
    [
        pytest.param(
            PAPER + "Same capture and digest as SRC-1 | Doctrine/design |\n",
            "Same capture and digest as SRC-1",
            id="itself",
        ),
        pytest.param(
            PAPER + "Same capture and digest as SRC-2 | Doctrine/design |\n"
            f"| SRC-2 | Paper capture, `https://example.org/q` | SHA-256 {DIGEST} | Reported operation |\n",
            "Same capture and digest as SRC-2",
            id="declared-after-it",
        ),
        pytest.param(
            PAPER + "Same capture and digest as SRC-9 | Doctrine/design |\n",
            "Same capture and digest as SRC-9",
            id="never-declared",
        ),
        pytest.param(
            PAPER + "Same capture and digest as CMP-1 | Doctrine/design |\n",
            "Same capture and digest as CMP-1",
            id="not-a-source",
        ),
    ],
)
def test_a_revision_naming_no_source_before_it_is_kept_as_written(
    tmp_path: Path, rows: str, kept: str
) -> None:
    sources, _ = _sources(tmp_path, REGISTER + rows)
    assert sources["SRC-1"]["revision"] == kept
    assert sources["SRC-1"]["location"] == "https://example.org/p"  # its own, not another's


def test_a_chain_of_shared_revisions_takes_the_first_source_s_digest_as_stated(tmp_path: Path) -> None:
    rows = (
        f"| SRC-1 | Paper capture, `https://example.org/p` | SHA-256 {DIGEST} | Doctrine/design |\n"
        "| SRC-2 | Same paper, `https://example.org/p` | Same capture and digest as SRC-1 "
        "| Reported operation |\n"
        "| SRC-3 | Same paper, again | Same capture and digest as SRC-2 | Reported operation |\n"
    )
    sources, _ = _sources(tmp_path, REGISTER + rows)
    assert {sources[i]["revision"] for i in ("SRC-1", "SRC-2", "SRC-3")} == {f"sha256:{DIGEST}"}
    assert sources["SRC-3"]["location"] == "https://example.org/p"
    assert sources["SRC-3"]["body"] == "Revision or capture: Same capture and digest as SRC-2"


# ---------------------------------------------------------------- a source paragraph only where it is one


@pytest.mark.parametrize(
    "block",
    [
        pytest.param(
            f"```\nSRC-1 — Git https://github.com/o/r at {COMMIT}. Implementation: src.\n```", id="fence"
        ),
        pytest.param(f"<!-- SRC-1 — Git https://github.com/o/r at {COMMIT}. -->", id="html-comment"),
        pytest.param(f"    SRC-1 — Git https://github.com/o/r at {COMMIT}.", id="indented-code"),
        pytest.param("SRC-1 — Git javascript:alert(1) at HEAD. Implementation: src.", id="not-http"),
        pytest.param("SRC-1 — Git `x` https://github.com/o/r. Implementation: src.", id="kind-with-code"),
    ],
)
def test_no_source_is_declared_outside_the_paragraph_form(tmp_path: Path, block: str) -> None:
    sources, outcome = _sources(tmp_path, block)
    assert "SRC-1" not in sources
    # The block stays text, and the lost declaration (where one was written) is reported.
    assert not [d for d in outcome.diagnostics if "Traceback" in d.message]


def test_markup_in_a_source_paragraph_stays_text(tmp_path: Path) -> None:
    hostile = "<script>alert(1)</script> {{ x }} !!python/object"
    block = (
        f"SRC-1 — Git https://github.com/o/r at {COMMIT}; access root {hostile}. Implementation: {hostile}."
    )
    sources, _ = _sources(tmp_path, block)
    source = sources["SRC-1"]
    assert source["identity"] == f"https://github.com/o/r at {COMMIT}; access root {hostile}"
    assert source["layers"] == [{"layer": "implementation", "note": f"{hostile}."}]
    assert source["location"] == "https://github.com/o/r"


# ---------------------------------------------------------------- floods are read once


def test_a_paragraph_of_many_layer_labels_gives_one_layer_each(tmp_path: Path) -> None:
    count = 5_000
    layers = " ".join(f"Implementation: part {n}." for n in range(count))
    sources, outcome = _sources(tmp_path, f"SRC-1 — Git https://github.com/o/r at {COMMIT}. {layers}")
    assert len(sources["SRC-1"]["layers"]) == count
    assert outcome.coverage.kept == outcome.coverage.units


def test_a_register_cell_of_many_layers_and_a_long_same_as_cell(tmp_path: Path) -> None:
    count = 5_000
    cell = "; ".join(f"implementation: part {n}" for n in range(count))
    same = "Same " + "as " * 20_000 + "SRC-1"
    rows = (
        f"| SRC-1 | Paper capture, `https://example.org/p` | SHA-256 {DIGEST} | {cell} |\n"
        f"| SRC-2 | Paper capture, `https://example.org/p` | {same} | Doctrine/design |\n"
    )
    sources, _ = _sources(tmp_path, REGISTER + rows)
    assert len(sources["SRC-1"]["layers"]) == count
    assert sources["SRC-2"]["revision"] == f"sha256:{DIGEST}"  # 'Same … as SRC-1', as stated


# ---------------------------------------------------------------- an authority path's clauses


def _paths(tmp_path: Path, paragraph: str) -> tuple[dict[str, Any], Any]:
    document = tmp_path / "doc.md"
    register = "| Source ID | Kind | Identity/location | Revision |\n|---|---|---|---|\n"
    register += f"| SRC-1 | Git | x | {COMMIT} |"
    body = HEAD + register + "\n\n## Shared records\n\n### Behavioral-authority paths\n\n" + paragraph + "\n"
    document.write_text(body, encoding="utf-8")
    outcome = import_document(document, "x", tmp_path / "records")
    assert outcome.folder is not None
    paths = yaml.safe_load((outcome.folder / "authority.yaml").read_text(encoding="utf-8"))["authority_paths"]
    return paths[0], outcome


def test_a_field_stated_in_many_clauses_keeps_the_first_and_the_rest_as_prose(tmp_path: Path) -> None:
    clauses = "; ".join(f"force: f{n}" for n in range(5_000))
    path, outcome = _paths(tmp_path, f"BAP-1 — Path one. Consumer: c; channel: ch; {clauses}; horizon: h.")
    assert (path["consumer"], path["channel"], path["force"], path["horizon"]) == ("c", "ch", "f0", "h.")
    assert path["remarks"].startswith("force: f1\n\nforce: f2")  # each later one as written
    assert outcome.coverage.kept == outcome.coverage.units


def test_clause_labels_inside_code_or_after_prose_are_text(tmp_path: Path) -> None:
    path, _ = _paths(tmp_path, "BAP-1 — Path one. Consumer: `c; channel: x`; see force: y. Horizon: h.")
    assert path["consumer"].startswith("`c; channel: x`") and "channel" not in path and "force" not in path


def test_markup_in_a_clause_stays_the_field_s_text(tmp_path: Path) -> None:
    hostile = "<img src=x onerror=alert(1)> {{ x }}"
    path, _ = _paths(
        tmp_path, f"BAP-1 — Path one. Consumer: {hostile}; channel: {hostile}; force: f; horizon: h."
    )
    assert (path["consumer"], path["channel"]) == (hostile, hostile)
