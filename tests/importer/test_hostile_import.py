"""Hostile input to ``kbgen import``: every case ends in a located refusal or a normalised
result, exit 1 or 2 as documented, no traceback, nothing written outside the output.

- ``--force`` replaces only a records folder (empty, or its run file, record files and ``runs/``): never a
  source package, the docs, the theme, a folder of system folders or ``.git``;
- a records folder the file system refuses (``/proc``) is KB610, not an ``[Errno …]``;
- a set's manifest or a member's frontmatter nested past the limit is refused, located;
- the patterns that were quadratic on a long run of spaces (a separator-shaped table row,
  a heading of spaces, a heading of ``#`` runs) import (their times are printed by
  ``benchmarks/bench_import.py``, never asserted here);
- a fenced heading and an HTML comment never declare a record.
"""

from __future__ import annotations

import hashlib
import shutil
from pathlib import Path

import pytest
import yaml

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
DOCUMENT = FIXTURES / "import" / "forms-result" / "document.md"
SET_FOLDER = FIXTURES / "import-set" / "demo-set"


def _refused(result, code: str = "KB610") -> None:
    assert result.code in (1, 2), result
    assert "Traceback" not in result.out + result.err
    assert code in result.out + result.err


@pytest.mark.parametrize(
    ("folder", "files"),
    [
        ("load", {"readfs.py": "x = 1\n", "records.yaml": "components: []\n"}),  # a source package
        ("docs", {"index.md": "# Docs\n", "usage.md": "text\n"}),  # Markdown only: no records
        ("overrides", {"main.html": "<html>\n", "kb.css": "a {}\n"}),  # the theme
        ("records", {"demo/run.yaml": "run: {}\n"}),  # a folder of system folders
        ("demo", {"run.yaml": "run: {}\n", "notes.txt": "kept\n"}),  # a file that is no record file
    ],
)
def test_force_replaces_only_a_records_folder(tmp_path, monkeypatch, kbgen, folder, files) -> None:
    monkeypatch.chdir(tmp_path)
    target = tmp_path / "tree" / folder
    for name, text in files.items():
        (target / name).parent.mkdir(parents=True, exist_ok=True)
        (target / name).write_text(text, encoding="utf-8")
    before = sorted(p.relative_to(tmp_path).as_posix() for p in tmp_path.rglob("*"))
    result = kbgen("import", str(DOCUMENT), "--system", folder, "--records", "tree", "--force")
    _refused(result)
    assert "replaces only a records folder" in result.out
    assert sorted(p.relative_to(tmp_path).as_posix() for p in tmp_path.rglob("*")) == before


def test_force_replaces_a_system_folder_and_keeps_its_runs(tmp_path, monkeypatch, kbgen) -> None:
    monkeypatch.chdir(tmp_path)
    system = tmp_path / "records" / "tiny"
    (system / "runs" / "AAS-2026-01-02-tiny-02").mkdir(parents=True)
    (system / "run.yaml").write_text("run: {}\n", encoding="utf-8")
    (system / "notes.md").write_text("Prose.\n", encoding="utf-8")
    result = kbgen("import", str(DOCUMENT), "--system", "tiny", "--force")
    assert "Traceback" not in result.out + result.err
    assert (system / "components.yaml").is_file() and not (system / "notes.md").exists()
    assert (system / "runs" / "AAS-2026-01-02-tiny-02").is_dir()


@pytest.mark.parametrize("force", [False, True])
def test_nothing_is_written_into_git_metadata(tmp_path, monkeypatch, kbgen, force) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / ".git" / "hooks").mkdir(parents=True)
    (tmp_path / ".git" / "hooks" / "pre-commit.sample").write_text("#!/bin/sh\n", encoding="utf-8")
    args = ["import", str(DOCUMENT), "--system", "hooks", "--records", ".git"]
    result = kbgen(*args, *(["--force"] if force else []))
    _refused(result)
    assert sorted(p.name for p in (tmp_path / ".git").rglob("*")) == ["hooks", "pre-commit.sample"]
    result = kbgen("import", str(DOCUMENT), "--system", "fresh", "--records", ".git/hooks")
    _refused(result)
    assert not (tmp_path / ".git" / "hooks" / "fresh").exists()


@pytest.mark.parametrize("records", ["/proc", "/proc/self", "/dev/null"])
def test_an_unwritable_records_folder_is_a_located_refusal(kbgen, records) -> None:
    result = kbgen("import", str(DOCUMENT), "--system", "x", "--records", records)
    _refused(result, "KB615" if records == "/proc" else "KB610")
    assert "Errno" not in result.out + result.err


def _set_copy(tmp_path: Path) -> Path:
    folder = tmp_path / "set"
    shutil.copytree(SET_FOLDER, folder)
    return folder


def test_a_deeply_nested_manifest_is_refused_located(tmp_path, kbgen) -> None:
    folder = _set_copy(tmp_path)
    manifest = folder / "ARTIFACT.yaml"
    manifest.write_text(manifest.read_text(encoding="utf-8") + "deep: " + "[" * 5000 + "]" * 5000 + "\n")
    result = kbgen("import", str(folder), "--system", "deep", "--records", str(tmp_path / "records"))
    _refused(result, "KB611")
    assert "nests deeper than 64 levels" in result.out
    assert not (tmp_path / "records").exists()


@pytest.mark.parametrize("shape", ["[" * 5000 + "]" * 5000, "&a [1]\nb: *a"])
def test_a_member_frontmatter_that_is_too_deep_or_aliased_is_refused_located(tmp_path, kbgen, shape) -> None:
    folder = _set_copy(tmp_path)
    member = folder / "overview.md"
    text = member.read_text(encoding="utf-8").replace("---\n", f"---\ndeep: {shape}\n", 1)
    member.write_text(text, encoding="utf-8")
    manifest = yaml.safe_load((folder / "ARTIFACT.yaml").read_text(encoding="utf-8"))
    old = manifest["members"]["overview.md"]["sha256"]
    new = hashlib.sha256(text.encode("utf-8")).hexdigest()
    (folder / "ARTIFACT.yaml").write_text(
        (folder / "ARTIFACT.yaml").read_text(encoding="utf-8").replace(old, new), encoding="utf-8"
    )
    result = kbgen("import", str(folder), "--system", "deep", "--records", str(tmp_path / "records"))
    assert "Traceback" not in result.out + result.err
    assert "overview.md:2:1: error KB609" in result.out


HEAD = (
    "---\ntype: kb/types/agentic-system-analysis-result.md\n---\n\n"
    "# X\n\n## Shared records\n\n### Components\n\n"
)


@pytest.mark.parametrize(
    "body",
    [
        "| a |\n|---" + " " * 20_000 + "x|\n",  # a separator-shaped row ending in text
        "# a" + " " * 20_000 + "b\n",  # a heading of spaces
        "## a" + " #" * 10_000 + "x\n",  # a heading of '#' runs
        "| a |\n|" + " -" * 10_000 + "x\n",
        "CMP-1 — Label. A:" + " " * 20_000 + "b\n",
    ],
)
def test_long_runs_of_one_character_import(tmp_path, kbgen, body) -> None:
    document = tmp_path / "doc.md"
    document.write_text(HEAD + body, encoding="utf-8")
    result = kbgen("import", str(document), "--system", "x", "--records", str(tmp_path / "records"))
    assert "Traceback" not in result.out + result.err
    assert (tmp_path / "records" / "x" / "result.yaml").is_file()


def test_fences_and_html_never_declare(tmp_path, kbgen) -> None:
    body = (
        "```\n#### RTE-9 — A fenced heading\n```\n\n"
        "~~~~\nCMP-8 — A fenced paragraph.\n~~~~\n\n"
        "    CMP-7 — An indented code block.\n\n"
        "<!--\n#### CMP-6 — An HTML comment\n-->\n"
    )
    document = tmp_path / "doc.md"
    document.write_text(HEAD + body, encoding="utf-8")
    result = kbgen("import", str(document), "--system", "x", "--records", str(tmp_path / "records"))
    assert "Traceback" not in result.out + result.err
    folder = tmp_path / "records" / "x"
    assert not any((folder / name).exists() for name in ("components.yaml", "routes.yaml"))
    assert "records 0 of 0," in result.err  # every figure, every time
