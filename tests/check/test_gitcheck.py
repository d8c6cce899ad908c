"""kbgen check --sources: anchors and quotations checked against local git clones."""

from __future__ import annotations

import json
from pathlib import Path

import git
import pytest

from generator.cli import clone_check
from generator.cli.main import main
from generator.diagnostics import Diagnostic, Severity
from generator.pipeline import check_records

APP = 'def main():\n    return load(\n        "config.toml"\n    )\n'  # 4 lines
README = "# Tiny\n\nHello world.\n"  # 3 lines
RECORDS = "records/tiny/records.yaml"

# Line numbers below are those of the template: source id 4:7, revision 7:13,
# body 10:9, quote text 12:11, quote path 13:11, evidence items 16:5 and 17:5.
TEMPLATE = """\
run:
  system: Tiny
sources:
- id: SRC-1
  source_kind: Git
  identity: tiny test repository
  revision: {revision}
components:
- id: CMP-1
  body: {body}
  quotes:
  - text: {quote}
    path: {quote_path}
    source: SRC-1
  evidence:
  - SRC-1 src/app.py:2-3
  - {evidence}
"""

DEFAULTS = {
    "body": "Loads its configuration (SRC-1 src/app.py:1-4).",
    "quote": "'return load( \"config.toml\" )'",
    "quote_path": "src/app.py",
    "evidence": "SRC-1 README.md:3",
}


@pytest.fixture
def workspace(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """tmp_path as the working directory, so diagnostics show records/tiny/records.yaml."""
    monkeypatch.chdir(tmp_path)
    return tmp_path


def make_repo(folder: Path) -> str:
    """A git repository with two committed files; returns the commit SHA."""
    repo = git.Repo.init(folder)
    (folder / "src").mkdir()
    (folder / "src" / "app.py").write_text(APP, encoding="utf-8")
    (folder / "README.md").write_text(README, encoding="utf-8")
    repo.index.add(["src/app.py", "README.md"])
    actor = git.Actor("Test", "test@example.org")
    sha = repo.index.commit("two files", author=actor, committer=actor).hexsha
    repo.close()
    return sha


def write_records(root: Path, revision: str, text: str | None = None, **fields: str) -> Path:
    folder = root / "records" / "tiny"
    folder.mkdir(parents=True, exist_ok=True)
    content = text if text is not None else TEMPLATE.format(revision=revision, **{**DEFAULTS, **fields})
    (folder / "records.yaml").write_text(content, encoding="utf-8")
    return root / "records"


def check(records: Path, sources: Path) -> list[Diagnostic]:
    (system,) = check_records(records)
    assert system.errors == [], [d.as_text() for d in system.errors]
    return clone_check.check_against_clones(system, sources)


def located(diagnostics: list[Diagnostic]) -> list[tuple[str, str, int, int, Severity]]:
    return [(d.code, d.file, d.line, d.col, d.severity) for d in diagnostics]


@pytest.fixture
def sha(workspace: Path) -> str:
    return make_repo(workspace / "sources" / "tiny" / "SRC-1")


def test_clean_records_give_no_diagnostics(workspace: Path, sha: str) -> None:
    records = write_records(workspace, sha)
    assert check(records, workspace / "sources") == []


def test_abbreviated_revision_resolves(workspace: Path, sha: str) -> None:
    # An all-digit prefix would be a YAML number (the random commit decides): take a longer one.
    length = next(n for n in range(10, len(sha) + 1) if not sha[:n].isdigit())
    records = write_records(workspace, sha[:length])
    assert check(records, workspace / "sources") == []


def test_missing_file_in_evidence_list(workspace: Path, sha: str) -> None:
    records = write_records(workspace, sha, evidence="SRC-1 src/gone.py:1-2")
    found = check(records, workspace / "sources")
    assert located(found) == [("KB502", RECORDS, 17, 5, Severity.ERROR)]
    assert "src/gone.py" in found[0].message and sha[:12] in found[0].message


def test_missing_file_in_prose(workspace: Path, sha: str) -> None:
    records = write_records(workspace, sha, body="'See SRC-1 src/gone.py:1 for the loader.'")
    found = check(records, workspace / "sources")
    # The value opens at column 9 with a quote; "See SRC-1 " is ten characters.
    assert located(found) == [("KB502", RECORDS, 10, 20, Severity.ERROR)]


def test_missing_file_in_amendment_evidence(workspace: Path, sha: str) -> None:
    text = TEMPLATE.format(revision=sha, **DEFAULTS) + (
        "  amendments:\n  - body: Moved later.\n    evidence:\n    - SRC-1 src/moved.py\n"
    )
    records = write_records(workspace, sha, text=text)
    found = check(records, workspace / "sources")
    assert located(found) == [("KB502", RECORDS, 21, 7, Severity.ERROR)]


def test_line_range_past_end_of_file(workspace: Path, sha: str) -> None:
    records = write_records(workspace, sha, evidence="SRC-1 README.md:1,2-9")
    found = check(records, workspace / "sources")
    assert located(found) == [("KB503", RECORDS, 17, 5, Severity.ERROR)]
    assert "2-9" in found[0].message and "3 lines" in found[0].message


def test_last_line_is_in_range(workspace: Path, sha: str) -> None:
    records = write_records(workspace, sha, evidence="SRC-1 src/app.py:4")
    assert check(records, workspace / "sources") == []


def test_directory_anchor_exists_but_has_no_lines(workspace: Path, sha: str) -> None:
    records = write_records(workspace, sha, evidence="SRC-1 src/")
    assert check(records, workspace / "sources") == []
    records = write_records(workspace, sha, evidence="SRC-1 src/:1")
    assert [d.code for d in check(records, workspace / "sources")] == ["KB503"]


def test_quote_not_in_file(workspace: Path, sha: str) -> None:
    records = write_records(workspace, sha, quote="'return save(\"config.toml\")'")
    found = check(records, workspace / "sources")
    assert located(found) == [("KB504", RECORDS, 12, 11, Severity.ERROR)]


@pytest.mark.parametrize(
    "quote",
    [
        "'def main(): return load( \"config.toml\" )'",
        '"def main():\\n\\treturn   load(\\n  \\"config.toml\\"  )"',
        "'  main():   return  '",
    ],
)
def test_quote_found_despite_whitespace(workspace: Path, sha: str, quote: str) -> None:
    records = write_records(workspace, sha, quote=quote)
    assert check(records, workspace / "sources") == []


def test_quote_of_missing_file(workspace: Path, sha: str) -> None:
    records = write_records(workspace, sha, quote_path="src/gone.py")
    assert located(check(records, workspace / "sources")) == [("KB502", RECORDS, 13, 11, Severity.ERROR)]


def test_quote_without_source_uses_the_single_source(workspace: Path, sha: str) -> None:
    text = TEMPLATE.format(revision=sha, **{**DEFAULTS, "quote": "nowhere to be found"})
    records = write_records(workspace, sha, text=text.replace("    source: SRC-1\n", ""))
    assert [d.code for d in check(records, workspace / "sources")] == ["KB504"]


def test_missing_clone_warns_once_per_source(workspace: Path) -> None:
    records = write_records(workspace, "0123456789abcdef", evidence="SRC-1 src/gone.py:1")
    found = check(records, workspace / "sources")
    assert located(found) == [("KB501", RECORDS, 4, 7, Severity.WARNING)]
    assert "sources/tiny/SRC-1" in found[0].message


@pytest.mark.parametrize("revision", ["f" * 40, "abcdef0"])
def test_unknown_revision(workspace: Path, sha: str, revision: str) -> None:
    records = write_records(workspace, revision, evidence="SRC-1 src/gone.py:1")
    found = check(records, workspace / "sources")
    assert located(found) == [("KB501", RECORDS, 7, 13, Severity.WARNING)]
    assert revision in found[0].message


@pytest.mark.parametrize("revision", ["no-such-branch", "HEAD~1", "HEAD@{1}", "--output=x"])
def test_revision_that_is_not_a_commit_id(workspace: Path, sha: str, revision: str) -> None:
    records = write_records(workspace, revision, evidence="SRC-1 src/gone.py:1")
    found = check(records, workspace / "sources")
    assert located(found) == [("KB505", RECORDS, 7, 13, Severity.ERROR)]


def test_folder_that_is_not_a_repository(workspace: Path) -> None:
    (workspace / "sources" / "tiny" / "SRC-1").mkdir(parents=True)
    records = write_records(workspace, "0123456789abcdef")
    found = check(records, workspace / "sources")
    assert [(d.code, d.line) for d in found] == [("KB501", 4)]
    assert "not a git repository" in found[0].message


def test_single_source_may_be_cloned_at_the_system_folder(workspace: Path) -> None:
    revision = make_repo(workspace / "sources" / "tiny")
    records = write_records(workspace, revision, evidence="SRC-1 src/gone.py")
    assert [d.code for d in check(records, workspace / "sources")] == ["KB502"]


def test_supplied_source_is_checked_and_located_at_its_declaration(workspace: Path, sha: str) -> None:
    text = f"""\
run:
  system: Tiny
supplied:
- id: SRC-1
  declared_in: the runtime member
  revision: {sha}
components:
- id: CMP-1
  body: 'Reads SRC-1 src/app.py:1-9 and SRC-1 README.md:1.'
"""
    records = write_records(workspace, sha, text=text)
    assert [(d.code, d.line, d.col) for d in check(records, workspace / "sources")] == [("KB503", 9, 22)]
    missing = write_records(workspace, sha, text=text.replace(sha, "c0ffee" * 6 + "abcd"))
    assert located(check(missing, workspace / "elsewhere")) == [("KB501", RECORDS, 4, 7, Severity.WARNING)]


def test_each_blob_is_read_once(workspace: Path, sha: str, monkeypatch: pytest.MonkeyPatch) -> None:
    reads: list[str] = []
    original = clone_check._Clone._read

    def counting(self: clone_check._Clone, path: str) -> clone_check._File | None:
        reads.append(path)
        return original(self, path)

    monkeypatch.setattr(clone_check._Clone, "_read", counting)
    many = "; ".join(f"src/app.py:{n % 4 + 1}" for n in range(200))
    records = write_records(workspace, sha, body=f"'Cited often: SRC-1 {many}.'")
    assert check(records, workspace / "sources") == []
    assert sorted(reads) == ["README.md", "src/app.py"]


def test_clone_is_not_written(workspace: Path, sha: str) -> None:
    clone = workspace / "sources" / "tiny" / "SRC-1"

    def snapshot() -> dict[str, tuple[int, int]]:
        return {
            p.relative_to(clone).as_posix(): (p.stat().st_size, p.stat().st_mtime_ns)
            for p in clone.rglob("*")
        }

    before = snapshot()
    records = write_records(workspace, sha, evidence="SRC-1 src/gone.py")
    assert [d.code for d in check(records, workspace / "sources")] == ["KB502"]
    assert snapshot() == before


def run_cli(records: Path, sources: Path, *extra: str) -> int:
    return main(["check", str(records), "--sources", str(sources), *extra])


def test_cli_fails_on_missing_file(workspace: Path, sha: str, capsys: pytest.CaptureFixture[str]) -> None:
    records = write_records(workspace, sha, evidence="SRC-1 src/gone.py")
    assert run_cli(records, workspace / "sources") == 1
    assert f"{RECORDS}:17:5: error KB502" in capsys.readouterr().out.replace("\n", "")


def test_cli_passes_clean(workspace: Path, sha: str) -> None:
    # With a location, the anchors link (a source without one is a KB412 warning).
    located = TEMPLATE.replace(
        "  revision: {revision}\n", "  revision: {revision}\n  location: https://example.org/tiny.git\n"
    )
    records = write_records(workspace, sha, located.format(revision=sha, **DEFAULTS))
    assert run_cli(records, workspace / "sources") == 0
    assert run_cli(records, workspace / "sources", "--strict") == 0


def test_cli_warning_only_fails_with_strict(workspace: Path, capsys: pytest.CaptureFixture[str]) -> None:
    records = write_records(workspace, "0123456789abcdef", evidence="SRC-1 src/gone.py")
    assert run_cli(records, workspace / "sources") == 0
    assert "KB501" in capsys.readouterr().out
    assert run_cli(records, workspace / "sources", "--strict") == 1


def test_cli_json_reports_the_diagnostic(
    workspace: Path, sha: str, capsys: pytest.CaptureFixture[str]
) -> None:
    records = write_records(workspace, sha, evidence="SRC-1 README.md:7")
    assert run_cli(records, workspace / "sources", "--format", "json") == 1
    payload = json.loads(capsys.readouterr().out)
    assert "KB503" in json.dumps(payload)
