"""Paths the analysis-set tests share: the import fixture, the reference set, the shipped set."""

from __future__ import annotations

from pathlib import Path

TESTS = Path(__file__).resolve().parents[1]
REPO_ROOT = TESTS.parent
SET_FOLDER = TESTS / "fixtures" / "import-set" / "demo-set"
# The complete analysis set the shipped instinctual-memory system is imported from.
REFERENCE = REPO_ROOT.parent / "shared" / "reference" / "AAS-2026-10-02-instinctual-memory-02"
SHIPPED = REPO_ROOT / "records" / "instinctual-memory"
