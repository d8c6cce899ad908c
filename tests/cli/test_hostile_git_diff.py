"""Hostile corpus, third round: ``kbgen diff --git`` is a door too.

A repository that arrives with a pull request may hold trees git would never make: a
subtree named eight times per level, one large compressible blob repeated hundreds of
times, a gitlink, names no folder can hold. The diff plans a revision's folder from the
objects (listed, never expanded), refuses what crosses a cap before anything is
written (KB509), refuses what the loader refuses (KB005, KB007, KB008, KB009, KB011,
and KB510 for a name no folder holds), and answers a revision it cannot read with
"not a revision" and exit 2, never a traceback.
"""

from __future__ import annotations

from pathlib import Path, PurePosixPath

import git
import pytest
from git_craft import BLOB, GITLINK, SOME_COMMIT, SYMLINK, TREE, at_system, blob, commit, fan_out, init, tree
from run_diff_support import ALPHA

from generator.cli.git_snapshot import SnapshotRefused, open_repository, write_snapshot
from generator.cli.git_tree import MAX_TREE_ENTRIES, max_tree_bytes
from generator.load.readfs import MAX_FILE_BYTES, MAX_FOLDER_DEPTH


def _alpha_entries(repo: Path) -> list[tuple[str, str, str]]:
    """The clean 'alpha' system as tree entries (its notes/ folder included)."""
    entries = [(BLOB, path.name, blob(repo, path.read_bytes())) for path in sorted(ALPHA.glob("*.yaml"))]
    notes = [(BLOB, path.name, blob(repo, path.read_bytes())) for path in sorted((ALPHA / "notes").iterdir())]
    return [*entries, (TREE, "notes", tree(repo, notes))]


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """A repository whose main branch holds the clean system; a test commits a crafted one."""
    root = init(tmp_path / "repo")
    at_system(root, tree(root, _alpha_entries(root)))
    return root


def _crafted(repo: Path, *extra: tuple[str, str | bytes, str]) -> str:
    """A commit of the clean system with ``extra`` entries beside its files."""
    return at_system(repo, tree(repo, [*_alpha_entries(repo), *extra]), branch="crafted")


def _diff(kbgen, repo: Path, new: str, old: str = "main") -> tuple[int, str]:
    result = kbgen("diff", "--git", old, new, "alpha", "--repo", str(repo))
    assert "Traceback" not in result.out + result.err
    return result.code, result.err


def _planned(repo: Path, revision: str, tmp_path: Path) -> tuple[list[str], list[Path]]:
    """What the snapshot of ``records/alpha`` at ``revision`` says and writes."""
    root = tmp_path / "snapshot"
    with open_repository(repo) as opened:
        snapshot = write_snapshot(opened, revision, PurePosixPath("records/alpha"), root)
    written = sorted(path for path in root.rglob("*") if path.is_file())
    return [d.as_text() for d in snapshot.diagnostics], written


def test_the_clean_system_diffs_with_itself(repo: Path, kbgen) -> None:
    code, err = _diff(kbgen, repo, "main")
    assert code == 0, err


def test_a_fan_out_of_depth_5_is_refused_before_anything_is_written(
    repo: Path, tmp_path: Path, kbgen
) -> None:
    """8 ** 5 = 32,768 files from five small tree objects: refused at the entry that
    crosses the cap, with no file written."""
    leaf = blob(repo, b"routes: []\n")
    crafted = _crafted(repo, (TREE, "fan", fan_out(repo, leaf, BLOB, 5)))
    code, err = _diff(kbgen, repo, crafted)
    assert code == 2
    assert f"{crafted}:records/alpha/fan/" in err and "error KB509 " in err
    assert f"more than {MAX_TREE_ENTRIES} entries" in err
    said, written = _planned(repo, crafted, tmp_path)
    assert len(said) == 1 and written == []


def test_one_compressible_blob_repeated_is_refused_by_its_bytes(repo: Path, tmp_path: Path, kbgen) -> None:
    """A 2 MiB blob of one byte, named 512 times (8 ** 3): about 1 GiB if written."""
    leaf = blob(repo, b"#" * MAX_FILE_BYTES)
    crafted = _crafted(repo, (TREE, "zip", fan_out(repo, leaf, BLOB, 3)))
    code, err = _diff(kbgen, repo, crafted)
    assert code == 2 and "error KB509 " in err and f"more than {max_tree_bytes()} bytes" in err
    said, written = _planned(repo, crafted, tmp_path)
    assert len(said) == 1 and written == []
    assert sum(path.stat().st_size for path in written) == 0


def test_a_blob_over_the_file_cap_is_refused_unread(repo: Path, kbgen) -> None:
    crafted = _crafted(repo, (BLOB, "huge.md", blob(repo, b"x" * (MAX_FILE_BYTES + 1))))
    code, err = _diff(kbgen, repo, crafted)
    assert code == 2 and f"{crafted}:records/alpha/huge.md:1:1: error KB005 file-too-large" in err


@pytest.mark.parametrize("mode, what", [(GITLINK, "a submodule"), (SYMLINK, "a symlink")])
def test_a_gitlink_or_a_symlink_in_the_system_is_refused(repo: Path, kbgen, mode: str, what: str) -> None:
    target = SOME_COMMIT if mode == GITLINK else blob(repo, b"/etc/passwd")
    crafted = _crafted(repo, (mode, "linked.yaml", target))
    code, err = _diff(kbgen, repo, crafted)
    assert code == 2
    assert (
        f"{crafted}:records/alpha/linked.yaml:1:1: error KB008 not-a-regular-file: refused: this is {what}"
        in err
    )


def test_a_gitlink_in_a_subfolder_and_as_the_system_itself(repo: Path, kbgen) -> None:
    inner = tree(repo, [(GITLINK, "vendor", SOME_COMMIT)])
    crafted = _crafted(repo, (TREE, "notes2", inner))
    code, err = _diff(kbgen, repo, crafted)
    assert code == 2 and "records/alpha/notes2/vendor:1:1: error KB008" in err
    records = tree(repo, [(GITLINK, "alpha", SOME_COMMIT)])
    submodule = commit(repo, tree(repo, [(TREE, "records", records)]), branch="sub")
    code, err = _diff(kbgen, repo, submodule)
    assert code == 2 and "records/alpha is a submodule, not a folder" in err


@pytest.mark.parametrize(
    "revision",
    [
        "x@{1}",
        "HEAD@{}",
        "HEAD@{now}",
        "nosuch@{upstream}",
        "main@{1}",
        "-",
        "",
        "HEAD:",
        "HEAD\n",
        "HEAD~99999",
        "main^{tree}",
        "\x1b[31mred",
        "main\u202e",
        "\x9b31m",
        "main two",
    ],
)
def test_a_revision_that_is_not_one_exits_2(repo: Path, kbgen, revision: str) -> None:
    code, err = _diff(kbgen, repo, revision)
    assert code == 2 and ": not a revision of the repository" in err
    assert "\x1b" not in err and "\x9b" not in err and "\u202e" not in err


def test_an_over_long_name_is_refused_with_a_code(repo: Path, kbgen) -> None:
    crafted = _crafted(repo, (BLOB, "n" * 300 + ".yaml", blob(repo, b"routes: []\n")))
    code, err = _diff(kbgen, repo, crafted)
    assert code == 2 and "error KB510 " in err and "the entry name is 305 bytes" in err
    assert "Errno" not in err


def test_an_over_long_path_is_refused_with_a_code(repo: Path, kbgen) -> None:
    leaf = tree(repo, [(BLOB, "deep.yaml", blob(repo, b"routes: []\n"))])
    for _ in range(6):
        leaf = tree(repo, [(TREE, "d" * 200, leaf)])
    code, err = _diff(kbgen, repo, _crafted(repo, (TREE, "deep", leaf)))
    assert code == 2 and "error KB510 " in err and "the path below the system folder is" in err


def test_folders_deeper_than_the_loader_reads_are_refused(repo: Path, kbgen) -> None:
    leaf = tree(repo, [(BLOB, "deep.yaml", blob(repo, b"routes: []\n"))])
    for _ in range(MAX_FOLDER_DEPTH + 2):
        leaf = tree(repo, [(TREE, "d", leaf)])
    code, err = _diff(kbgen, repo, _crafted(repo, (TREE, "deep", leaf)))
    assert code == 2 and "error KB011 nesting-too-deep: folders nest deeper than 16 levels" in err


@pytest.mark.parametrize(
    "name, code",
    [("..", "KB009"), (".", "KB009"), ("a/b.yaml", "KB009"), ("a\\b.yaml", "KB009"), (b"\xff.yaml", "KB007")],
)
def test_names_a_folder_cannot_hold_are_refused(repo: Path, kbgen, name: str | bytes, code: str) -> None:
    crafted = _crafted(repo, (BLOB, name, blob(repo, b"routes: []\n")))
    result_code, err = _diff(kbgen, repo, crafted)
    assert result_code == 2 and f"error {code} " in err


def test_a_name_twice_is_refused(repo: Path, kbgen) -> None:
    leaf = blob(repo, b"routes: []\n")
    code, err = _diff(kbgen, repo, _crafted(repo, (BLOB, "twice.yaml", leaf), (BLOB, "twice.yaml", leaf)))
    assert code == 2 and "records/alpha/twice.yaml:1:1: error KB009" in err and "holds this name twice" in err


def test_nothing_is_written_outside_the_private_folder(
    repo: Path, tmp_path: Path, kbgen, monkeypatch
) -> None:
    """The work tree, the repository and the current folder stay as they were."""
    monkeypatch.chdir(tmp_path)
    crafted = _crafted(repo, (TREE, "fan", fan_out(repo, blob(repo, b"x: 1\n"), BLOB, 5)))
    before = sorted(str(path) for path in tmp_path.rglob("*"))
    _diff(kbgen, repo, crafted)
    assert sorted(str(path) for path in tmp_path.rglob("*")) == before
    assert not git.Repo(repo).is_dirty(untracked_files=True)


@pytest.mark.parametrize("revision", ["HEAD@{now}", "--output=/tmp/kbgen-option", "-p", "--all"])
def test_an_option_or_a_reflog_form_never_reaches_git(repo: Path, revision: str) -> None:
    """Past argparse (``--git=--all``), a revision that reads as an option is refused by
    its text, before git is asked, and nothing is written."""
    out = repo.parent / "out"
    with open_repository(repo) as opened, pytest.raises(SnapshotRefused, match="not a revision"):
        write_snapshot(opened, revision, PurePosixPath("records/alpha"), out)
    assert not out.exists() and not Path("/tmp/kbgen-option").exists()


MISSING = "ab" * 20  # an object the repository does not hold


def test_a_missing_blob_is_refused_located(repo: Path, kbgen) -> None:
    code, err = _diff(kbgen, repo, _crafted(repo, (BLOB, "gone.yaml", MISSING)))
    assert code == 2 and "records/alpha/gone.yaml:1:1: error KB007 unreadable-file: refused" in err


@pytest.mark.parametrize("what", ["missing", "a blob"])
def test_a_folder_that_is_no_tree_is_a_usage_error_on_one_line(repo: Path, kbgen, what: str) -> None:
    target = MISSING if what == "missing" else blob(repo, b"a: 1\n")
    code, err = _diff(kbgen, repo, _crafted(repo, (TREE, "gone", target)))
    assert code == 2 and "cannot be read from the repository's objects" in err
    assert len(err.strip().splitlines()) == 1, err
