"""Hostile and edge cases of ``kbgen import``: where it writes, what it reads, what it reports."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
import yaml
from hostile_support import located

from generator.load.readfs import MAX_FILE_BYTES

DOCUMENT = "# Tiny memory report\n\n## Core ideas\n\nNotes are kept.\n"


def _write(tmp_path: Path, text: str | bytes, name: str = "doc.md") -> Path:
    path = tmp_path / name
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")
    return path


def _leftovers(records: Path) -> list[str]:
    return sorted(p.name for p in records.iterdir() if p.name.startswith("."))


def test_import_writes_a_folder_that_checks_clean(tmp_path, monkeypatch, kbgen) -> None:
    _write(tmp_path, DOCUMENT)
    monkeypatch.chdir(tmp_path)
    result = kbgen("import", "doc.md", "--system", "tiny", "--format", "json")
    assert result.code == 0, result.out
    assert sorted(p.name for p in (tmp_path / "records" / "tiny").iterdir()) == ["report.yaml", "run.yaml"]
    assert (
        (tmp_path / "records" / "tiny" / "run.yaml")
        .read_text(encoding="utf-8")
        .startswith("# yaml-language-server: $schema=../../schemas/records.schema.json\n")
    )
    assert _leftovers(tmp_path / "records") == []


def test_overwriting_an_existing_system_without_force(tmp_path, monkeypatch, kbgen) -> None:
    _write(tmp_path, DOCUMENT)
    (tmp_path / "records" / "tiny").mkdir(parents=True)
    (tmp_path / "records" / "tiny" / "keep.yaml").write_text("run:\n  system: kept\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    result = kbgen("import", "doc.md", "--system", "tiny", "--format", "json")
    assert result.code == 2
    assert located(result) == {("KB610", "records/tiny", 1, 1)}
    assert sorted(p.name for p in (tmp_path / "records" / "tiny").iterdir()) == ["keep.yaml"]


def test_force_replaces_the_folder_only_once_the_new_one_is_complete(tmp_path, monkeypatch, kbgen) -> None:
    _write(tmp_path, DOCUMENT)
    (tmp_path / "records" / "tiny").mkdir(parents=True)
    (tmp_path / "records" / "tiny" / "run.yaml").write_text("run:\n  system: old\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    renames: list[tuple[str, str]] = []
    real_rename = os.rename

    def spy(source, target):
        renames.append((Path(source).name, Path(target).name))
        return real_rename(source, target)

    monkeypatch.setattr(os, "rename", spy)
    result = kbgen("import", "doc.md", "--system", "tiny", "--force")
    assert result.code == 0, result.out + result.err
    pid = os.getpid()
    # The old folder moves aside only after the complete new one exists, then the new one moves in.
    assert renames == [("tiny", f".tiny.replaced-{pid}"), (f".tiny.import-{pid}", "tiny")]
    assert "system: old\n" not in (tmp_path / "records" / "tiny" / "run.yaml").read_text(encoding="utf-8")
    assert _leftovers(tmp_path / "records") == []


def test_a_failed_write_keeps_the_old_folder(tmp_path, monkeypatch, kbgen) -> None:
    _write(tmp_path, DOCUMENT)
    (tmp_path / "records" / "tiny").mkdir(parents=True)
    (tmp_path / "records" / "tiny" / "run.yaml").write_text("run:\n  system: old\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    real_fsync = os.fsync

    def broken(fd):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", broken)
    result = kbgen("import", "doc.md", "--system", "tiny", "--force")
    monkeypatch.setattr(os, "fsync", real_fsync)
    assert result.code == 1
    assert "error KB615" in result.out and "No space left on device" in result.out
    assert sorted(p.name for p in (tmp_path / "records" / "tiny").iterdir()) == ["run.yaml"]
    assert (tmp_path / "records" / "tiny" / "run.yaml").read_text(encoding="utf-8") == "run:\n  system: old\n"
    assert _leftovers(tmp_path / "records") == []


@pytest.mark.parametrize("slug", ["../outside", "a/b", "Upper", "", "..", "x/../../y"])
def test_system_slug_that_climbs_out_of_the_records_folder(tmp_path, monkeypatch, kbgen, slug) -> None:
    _write(tmp_path, DOCUMENT)
    (tmp_path / "records").mkdir()
    monkeypatch.chdir(tmp_path)
    result = kbgen("import", "doc.md", "--system", slug, "--format", "json")
    assert result.code == 2
    assert located(result) == {("KB610", f"records/{slug}", 1, 1)}
    assert sorted(p.name for p in tmp_path.iterdir()) == ["doc.md", "records"]
    assert list((tmp_path / "records").iterdir()) == []


def test_target_that_is_a_symlink_to_another_folder(tmp_path, monkeypatch, kbgen) -> None:
    _write(tmp_path, DOCUMENT)
    (tmp_path / "elsewhere").mkdir()
    (tmp_path / "records").mkdir()
    (tmp_path / "records" / "tiny").symlink_to(tmp_path / "elsewhere")
    monkeypatch.chdir(tmp_path)
    result = kbgen("import", "doc.md", "--system", "tiny", "--force", "--format", "json")
    assert result.code == 2
    assert located(result) == {("KB610", "records/tiny", 1, 1)}
    assert list((tmp_path / "elsewhere").iterdir()) == []


def test_document_that_is_a_symlink_to_a_secret(tmp_path, monkeypatch, kbgen) -> None:
    secret = _write(tmp_path, "token=hunter2\n", "secret.txt")
    (tmp_path / "doc.md").symlink_to(secret)
    monkeypatch.chdir(tmp_path)
    result = kbgen("import", "doc.md", "--system", "tiny", "--format", "json")
    assert result.code == 1
    assert located(result) == {("KB008", "doc.md", 1, 1)}
    assert not (tmp_path / "records").exists() or not (tmp_path / "records" / "tiny").exists()


def test_document_over_the_size_limit(tmp_path, monkeypatch, kbgen) -> None:
    _write(tmp_path, "x" * (MAX_FILE_BYTES + 1))
    monkeypatch.chdir(tmp_path)
    result = kbgen("import", "doc.md", "--system", "tiny", "--format", "json")
    assert result.code == 1
    assert located(result) == {("KB005", "doc.md", 1, 1)}


def test_document_with_a_terminal_escape_sequence(tmp_path, monkeypatch, kbgen) -> None:
    _write(tmp_path, "# Tiny memory report\n\n## Core ideas\n\nA \x1b]0;pwned\x07 title.\n")
    monkeypatch.chdir(tmp_path)
    result = kbgen("import", "doc.md", "--system", "tiny", "--format", "json")
    assert result.code == 1
    assert located(result) == {("KB012", "doc.md", 5, 3)}


def test_document_that_is_not_utf8(tmp_path, monkeypatch, kbgen) -> None:
    _write(tmp_path, b"# Tiny\n\n\xff\xfe\n")
    monkeypatch.chdir(tmp_path)
    result = kbgen("import", "doc.md", "--system", "tiny", "--format", "json")
    assert result.code == 1
    assert {code for code, *_ in located(result)} == {"KB007"}


def test_frontmatter_with_a_python_tag(tmp_path, monkeypatch, kbgen) -> None:
    _write(tmp_path, "---\nx: !!python/object/apply:os.system ['true']\n---\n\n# Tiny memory report\n")
    monkeypatch.chdir(tmp_path)
    result = kbgen("import", "doc.md", "--system", "tiny", "--format", "json")
    assert result.code == 1
    assert ("KB609", "doc.md", 2, 1) in located(result)


def test_import_lists_why_the_new_folder_does_not_check(tmp_path, monkeypatch, kbgen) -> None:
    document = (
        "# Tiny memory report\n\n## Shared records\n\n### Routes\n\n#### MEM-RTE-half — Half a route\n\n"
        "- Immediate return: an ID.\n"
    )
    _write(tmp_path, document)
    monkeypatch.chdir(tmp_path)
    result = kbgen("import", "doc.md", "--system", "tiny", "--format", "json")
    assert result.code == 1
    assert ("KB304", "records/tiny/routes.yaml", 6, 5) in located(result)


def test_document_with_html_and_script_stays_text(tmp_path, monkeypatch, kbgen) -> None:
    _write(tmp_path, "# Tiny memory report\n\n## Core ideas\n\n<script>alert(1)</script> is text.\n")
    monkeypatch.chdir(tmp_path)
    result = kbgen("import", "doc.md", "--system", "tiny")
    assert result.code == 0
    report = (tmp_path / "records" / "tiny" / "report.yaml").read_text(encoding="utf-8")
    assert "<script>alert(1)</script> is text." in report


def test_frontmatter_alias_bomb(tmp_path, monkeypatch, kbgen) -> None:
    bomb = (
        "---\na: &a [x, x, x, x, x, x, x, x, x]\n"
        "b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: [*b, *b, *b]\n---\n"
    )
    _write(tmp_path, bomb + "\n# Tiny memory report\n")
    monkeypatch.chdir(tmp_path)
    result = kbgen("import", "doc.md", "--system", "tiny", "--format", "json")
    assert result.code == 1
    assert ("KB609", "doc.md", 2, 1) in located(result)


def test_frontmatter_nested_too_deep(tmp_path, monkeypatch, kbgen) -> None:
    _write(tmp_path, "---\nx: " + "[" * 5000 + "]" * 5000 + "\n---\n\n# Tiny memory report\n")
    monkeypatch.chdir(tmp_path)
    result = kbgen("import", "doc.md", "--system", "tiny", "--format", "json")
    assert result.code == 1
    assert ("KB609", "doc.md", 2, 1) in located(result)


def test_document_text_that_is_yaml_syntax_stays_text(tmp_path, monkeypatch, kbgen) -> None:
    text = "&anchor *alias !!python/object:os.system {a: b} - [c] # not a comment\n"
    _write(tmp_path, f"# Tiny memory report\n\n## Core ideas\n\n{text}\n- key: value\n")
    monkeypatch.chdir(tmp_path)
    result = kbgen("import", "doc.md", "--system", "tiny", "--format", "json")
    assert result.code == 0, result.out
    assert located(result) == set()
    report = yaml.safe_load((tmp_path / "records" / "tiny" / "report.yaml").read_text(encoding="utf-8"))
    assert report["memory_report"]["core_ideas"]["blocks"] == [text.strip(), {"items": ["key: value"]}]


def test_annotation_with_status_and_part_of_lines_stays_prose(tmp_path, monkeypatch, kbgen) -> None:
    document = (
        "# Tiny memory report\n\n## Annotations\n\n#### On RT-OBJ-x — Store\n\n"
        "- implementation conclusion status: wired\n- Part of: RT-OBJ-y\n"
    )
    _write(tmp_path, document)
    monkeypatch.chdir(tmp_path)
    result = kbgen("import", "doc.md", "--system", "tiny", "--format", "json")
    assert result.code == 0, result.out
    assert {code for code, *_ in located(result)} == {"KB607"}
