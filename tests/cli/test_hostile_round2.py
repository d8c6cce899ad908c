"""Hostile corpus, second round: what a records change could make check, build, export,
search or import do, each answered at the level of its mechanism.

- line breaks are one kind from the door on, so a bare CR reaches no later stage;
- an escape may not make a control character; non-prose text is one line;
- a section never takes a record's or the theme's anchor (KB211);
- an over-long word is neither indexed nor queried (the stemmer recursed);
- no line of human output can start a CI workflow command;
- every command that writes a file goes through the one output guard.
Each case names its rule code, file, line and column, or what is refused.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hostile_support import located, make_records
from site_support import make_project, tree_hashes

CR = "\r"


@pytest.fixture
def demo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    records = make_records(tmp_path)
    monkeypatch.chdir(tmp_path)
    return records / "demo"


def _replace(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, f"{path.name} no longer has {old!r}"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def _check(kbgen: Any) -> Any:
    return kbgen("check", "records", "--format", "json")


# ---------------------------------------------------------------- carriage returns


@pytest.mark.parametrize(
    "payload",
    [
        f'Normal.{CR}# Injected H1{CR}{CR}!!! danger "SECURITY ADVISORY"{CR}    Reinstall.',
        f'x{CR}~~~mermaid{CR}flowchart LR{CR}  click B "https://evil.example/fix.sh"{CR}~~~',
        f"x{CR}# __config{CR}",
        f"x{CR}{CR}" + CR.join(" " * 4 * i + "- a" for i in range(320)),
        f"one{CR}{CR}two{CR}\nthree",
    ],
)
def test_a_bare_cr_in_record_text_becomes_a_line_feed(demo: Path, kbgen, payload: str) -> None:
    _replace(
        demo / "run.yaml",
        "  summary: Demo is a tiny agent loop used by the checker tests.\n",
        f"  summary: {json.dumps(payload)}\n",
    )
    from generator.pipeline import check_records

    (system,) = check_records(demo)
    assert system.records.run is not None and system.records.run.summary is not None
    assert "\r" not in system.records.run.summary
    assert system.records.run.summary == payload.replace("\r\n", "\n").replace("\r", "\n")


def test_a_cr_in_a_label_is_a_line_break_the_label_may_not_hold(demo: Path, kbgen) -> None:
    _replace(
        demo / "records.yaml", "    label: Agent loop\n", f"    label: {json.dumps('Agent' + CR + '# Top')}\n"
    )
    assert ("KB109", "records/demo/records.yaml", 3, 12) in located(_check(kbgen))


def test_a_cr_in_a_status_label_is_refused_at_the_key(demo: Path, kbgen) -> None:
    _replace(
        demo / "records.yaml",
        "      implementation conclusion status: wired\n",
        f"      {json.dumps('implementation' + CR + '# conclusion status')}: wired\n",
    )
    assert ("KB109", "records/demo/records.yaml", 6, 7) in located(_check(kbgen))


def test_crlf_and_bare_cr_files_keep_their_positions(demo: Path, kbgen) -> None:
    text = (demo / "records.yaml").read_text(encoding="utf-8").replace("RTE-1\n", "RTE-9\n", 1)
    (demo / "records.yaml").write_bytes(text.replace("\n", "\r\n").encode())
    crlf = located(_check(kbgen))
    (demo / "records.yaml").write_bytes(text.replace("\n", "\r").encode())
    bare = located(_check(kbgen))
    (demo / "records.yaml").write_text(text, encoding="utf-8")
    plain = located(_check(kbgen))
    assert crlf == bare == plain != set()


@pytest.mark.parametrize("escape", ["\\e[31m", "\\0", "\\x07", "\\x9b"])
def test_an_escape_may_not_make_a_control_character(demo: Path, kbgen, escape: str) -> None:
    _replace(demo / "records.yaml", "    label: Agent loop\n", f'    label: "Agent {escape}loop"\n')
    assert ("KB012", "records/demo/records.yaml", 3, 12) in located(_check(kbgen))


def test_a_path_or_pin_is_one_line(demo: Path, kbgen) -> None:
    _replace(
        demo / "records.yaml",
        "      - SRC-1 src/agent.py:1-40\n",
        '      - SRC-1 src/agent.py:1-40\n    quotes:\n      - text: x\n        path: "src/a.py\\n# h"\n'
        "        source: SRC-1\n",
    )
    assert ("KB109", "records/demo/records.yaml", 11, 15) in located(_check(kbgen))


# ---------------------------------------------------------------- anchors


@pytest.mark.parametrize(
    ("title", "what"), [("RTE-1", "record RTE-1"), ("Top", "the theme"), ("rte 2", "record RTE-2")]
)
def test_a_section_title_may_not_take_a_record_or_theme_anchor(
    demo: Path, kbgen, title: str, what: str
) -> None:
    _replace(
        demo / "result.yaml",
        "  bounded_synthesis: {}\n",
        f"  bounded_synthesis:\n    blocks: [x]\n    sections:\n"
        f"      - title: {json.dumps(title)}\n        blocks: [y]\n",
    )
    result = _check(kbgen)
    assert result.code == 1
    diagnostics = [d for d in result.json()["diagnostics"] if d["code"] == "KB211"]
    assert [(d["file"], d["line"], d["col"]) for d in diagnostics] == [("records/demo/result.yaml", 26, 16)]
    assert what in diagnostics[0]["message"]


def test_the_allocator_gives_a_clashing_section_the_next_anchor() -> None:
    from generator.graph.anchors import PageAnchors

    anchors = PageAnchors(["rte-1"], ["Limitations"])
    assert [
        anchors.section(t) for t in ("RTE-1", "Limitations", "Top", "__config", "Evidence", "Evidence")
    ] == [
        "rte-1-2",
        "limitations-2",
        "top-2",
        "config",
        "evidence",
        "evidence-2",
    ]
    assert anchors.own("Limitations") == "limitations"


def test_many_sections_with_one_title_get_each_next_anchor_in_order() -> None:
    """A page of thousands of sections titled alike: every anchor distinct, in order (and
    each found in one step: the allocator remembers the last number of each slug)."""
    from generator.graph.anchors import PageAnchors

    anchors = PageAnchors(["x-3"])
    given = [anchors.section("x") for _ in range(20_000)]
    assert given[:4] == ["x", "x-2", "x-4", "x-5"]
    assert len(set(given)) == 20_000 and given[-1] == "x-20001"


# ---------------------------------------------------------------- the search index


def test_an_over_long_word_is_neither_indexed_nor_searched(demo: Path, kbgen) -> None:
    word = "y" * 1000 + "ing"
    _replace(
        demo / "records.yaml",
        "    form: Symbolic code.\n",
        f"    form: Symbolic code.\n    body: {word} agent\n",
    )
    result = kbgen("search", word, "--records", "records")
    assert result.code in (0, 1) and "Traceback" not in result.err
    found = kbgen("search", "agent", "--records", "records")
    assert found.code == 0
    assert "CMP-1" in found.out


# ---------------------------------------------------------------- human output in CI

WORKFLOW = "::error file=README.md,line=1::Maintainers - this PR is verified safe, merge it"


def _lines(result: Any) -> list[str]:
    return (result.out + result.err).split("\n")


@pytest.mark.parametrize(
    "name", [WORKFLOW, "::add-mask::secret", "##[error]old form", "  ::stop-commands::x"]
)
def test_no_line_of_human_output_starts_a_workflow_command(
    tmp_path: Path, monkeypatch, kbgen, name: str
) -> None:
    records = make_records(tmp_path, slug="demo")
    (records / "demo").rename(records / name)
    monkeypatch.chdir(tmp_path)
    result = kbgen("check", "records")
    assert result.code == 1
    lines = _lines(result)
    assert any(name.strip().lstrip(":#[") in line for line in lines)  # the name is still shown
    assert not [line for line in lines if line.lstrip().startswith("::") or "##[" in line]


def test_github_format_still_writes_its_annotations(tmp_path: Path, monkeypatch, kbgen) -> None:
    records = make_records(tmp_path, slug="demo")
    (records / "demo").rename(records / WORKFLOW)
    monkeypatch.chdir(tmp_path)
    result = kbgen("check", "records", "--format", "github")
    commands = [line for line in result.out.split("\n") if line]
    assert commands and all(line.startswith(("::error ", "::warning ", "::notice::")) for line in commands)
    # The name is a value of the annotation: escaped in its properties (',' and ':'), and
    # in the message, after the command, where no runner looks for another command.
    for line in commands:
        properties = line.removeprefix("::").partition("::")[0]
        assert ":" not in properties.split(" ", 1)[-1].replace("::", "")


# ---------------------------------------------------------------- the output guard


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = make_project(tmp_path)
    monkeypatch.chdir(folder)
    return folder


@pytest.mark.parametrize(
    "target", ["records/demo/run.yaml", "mkdocs.yml", "records/new.json", "kb/index.md", "overrides/x.json"]
)
def test_export_never_writes_over_a_source(project: Path, kbgen, target: str) -> None:
    before = tree_hashes(project)
    result = kbgen("export", "--out", target)
    assert result.code == 2, result.err
    assert "refusing to write" in result.err and "nothing was written" in result.err
    assert tree_hashes(project) == before


def test_export_through_a_symlink_is_refused(project: Path, kbgen) -> None:
    (project / "out.json").symlink_to(project / "mkdocs.yml")
    before = tree_hashes(project)
    result = kbgen("export", "--out", "out.json")
    assert result.code == 2 and "symlink" in result.err
    assert tree_hashes(project) == before


def test_export_writes_an_ordinary_file(project: Path, kbgen) -> None:
    result = kbgen("export", "--out", "exports/kb.json")
    assert result.code == 0, result.err
    assert json.loads((project / "exports" / "kb.json").read_text(encoding="utf-8"))["systems"]
