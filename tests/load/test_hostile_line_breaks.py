"""Hostile corpus, third round: one notion of a line.

libyaml ends a line at NEL (U+0085), LINE SEPARATOR (U+2028) and PARAGRAPH SEPARATOR
(U+2029); the checker, GitHub's annotations and the language server end one at LF only.
A record file holding one of them would move every later position by a line, so it is
refused where it is loaded (KB013), at the place of the first one: the same place in
``kbgen check``, ``--format github``, the editor and ``kbgen build``.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hostile_support import located, make_records
from site_support import make_project

from generator.lsp.analysis import analyse

NEL, LS, PS = "\x85", "\u2028", "\u2029"

# A record file whose line 3 holds the character at column 22, with a mistake after it
# (an unknown key on line 5) that a moved count would misplace.
EXTRA = (
    "components:\n  - id: CMP-2\n    label: Separated {char} label\n    form: Symbolic code.\n    bogus: 1\n"
)


@pytest.fixture
def demo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    records = make_records(tmp_path)
    monkeypatch.chdir(tmp_path)
    return records / "demo"


def _only(result, code: str = "KB013") -> tuple[str, int, int]:
    """The one diagnostic of the run, which must be ``code``."""
    (diagnostic,) = result.json()["diagnostics"]
    assert diagnostic["code"] == code, diagnostic
    return diagnostic["file"], diagnostic["line"], diagnostic["col"]


@pytest.mark.parametrize("char", [NEL, LS, PS], ids=["nel", "line-separator", "paragraph-separator"])
def test_a_separator_in_a_plain_value_is_refused_where_it_stands(demo: Path, kbgen, char: str) -> None:
    (demo / "extra.yaml").write_text(EXTRA.format(char=char), encoding="utf-8")
    result = kbgen("check", "records", "--format", "json")
    assert result.code == 1 and result.err == ""
    assert _only(result) == ("records/demo/extra.yaml", 3, 22)  # not the KB103 two lines off


def test_a_separator_in_a_block_scalar_and_a_comment(demo: Path, kbgen) -> None:
    text = f"# a comment {PS} here\ncomponents:\n  - id: CMP-2\n    label: Loop\n"
    text += f"    body: |\n      one{LS}two\n"
    (demo / "extra.yaml").write_text(text, encoding="utf-8")
    assert _only(kbgen("check", "records", "--format", "json")) == ("records/demo/extra.yaml", 1, 13)
    (demo / "extra.yaml").write_text(text.replace(PS, " "), encoding="utf-8")
    assert _only(kbgen("check", "records", "--format", "json")) == ("records/demo/extra.yaml", 6, 10)


@pytest.mark.parametrize("escape", ["\\N", "\\L", "\\P", "\\u2028", "\\x85"])
def test_a_separator_made_by_an_escape_moves_no_position(demo: Path, kbgen, escape: str) -> None:
    """An escape writes the character into the value, not into the file: every position
    stays as the file's lines say, and a label holding it spans lines (KB109), as a
    label holding ``"\\n"`` does."""
    text = f'components:\n  - id: CMP-2\n    label: "Made {escape} here"\n    form: Symbolic code.\n'
    (demo / "extra.yaml").write_text(text + "    bogus: 1\n", encoding="utf-8")
    assert located(kbgen("check", "records", "--format", "json")) == {
        ("KB109", "records/demo/extra.yaml", 3, 12),
        ("KB103", "records/demo/extra.yaml", 5, 5),
    }


def test_a_separator_in_a_key_is_refused(demo: Path, kbgen) -> None:
    (demo / "extra.yaml").write_text(f"components:\n  - id: CMP-2\n    la{LS}bel: x\n", encoding="utf-8")
    assert _only(kbgen("check", "records", "--format", "json")) == ("records/demo/extra.yaml", 3, 7)


def test_a_separator_in_markdown_prose_is_refused_without_a_cascade(demo: Path, kbgen) -> None:
    """The prose is refused, yet its includes still resolve (no KB405 follows)."""
    (demo / "notes.md").write_text(f"First line.\nSecond {LS} line.\n", encoding="utf-8")
    result = kbgen("check", "records", "--format", "json")
    assert located(result) == {("KB013", "records/demo/notes.md", 2, 8)}


def test_github_annotations_point_at_the_same_place(demo: Path, kbgen) -> None:
    (demo / "extra.yaml").write_text(EXTRA.format(char=LS), encoding="utf-8")
    result = kbgen("check", "records", "--format", "github")
    assert result.code == 1
    (annotation,) = [line for line in result.out.splitlines() if line.startswith("::error")]
    where = "::error file=records/demo/extra.yaml,line=3,col=22,title=KB013 line-separator::"
    assert annotation.startswith(where)
    assert "Traceback" not in result.out + result.err


def test_the_editor_sees_the_same_refusal_in_unsaved_text(demo: Path) -> None:
    """The language server analyses through the same loader: the editor's text of a file
    gets the check's KB013 at the check's place, and no declaration of the refused file
    is indexed (a rename or a definition cannot land on moved text)."""
    analysis = analyse(demo, demo.parent.parent, {"extra.yaml": EXTRA.format(char=PS)})
    found = [(d.code, d.file, d.line, d.col) for d in analysis.checked.diagnostics]
    assert found == [("KB013", "records/demo/extra.yaml", 3, 22)]
    assert "CMP-2" not in analysis.declarations


def test_the_build_refuses_too(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, kbgen) -> None:
    project = make_project(tmp_path)
    (project / "records" / "demo" / "extra.yaml").write_text(EXTRA.format(char=NEL), encoding="utf-8")
    monkeypatch.chdir(project)
    result = kbgen("build", "--site-dir", "site")
    assert result.code == 1
    assert "records/demo/extra.yaml:3:22: error KB013 line-separator" in result.out + result.err
    assert "Traceback" not in result.out + result.err
    assert not (project / "site" / "index.html").exists()
