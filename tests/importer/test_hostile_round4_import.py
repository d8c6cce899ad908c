"""Hostile input to ``kbgen import``, round 4: ``--force`` and the import's two measures.

- ``--force`` replaces only a folder an import wrote: one holding a run file of its own
  (a regular ``run.yaml``, or a set's ``set.yaml``, whose mapping has ``run``) beside record
  files and ``runs/``. A folder of YAML and Markdown that no import wrote (a workflow
  folder, configuration files, a run folder without its run file, hidden entries) is
  refused with KB610 naming what is missing, and nothing in it is deleted;
- the words an import is measured by drop a link's target with a scan in which no ``[``
  starts an attempt that another one repeats (a run of ``[`` or of ``[a](`` once made it
  quadratic), and it folds exactly the words the one-line link pattern did;
- the line of a kept frontmatter key comes from one parse of the frontmatter, not from
  splitting its text once per key (20,000 keys once took most of a minute).

Times are never asserted here (the machine is shared); ``benchmarks/linear.py`` and
``benchmarks/bench_import.py`` print the 10 KB and 1 MB figures.
"""

from __future__ import annotations

import dataclasses
import os
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from generator.importer import folding
from generator.importer.build import build
from generator.importer.document import parse_document
from generator.importer.folding import words

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
DOCUMENT = FIXTURES / "import" / "forms-result" / "document.md"
RUN_ID = "AAS-2026-01-01-tiny-01"
SECOND_RUN_ID = "AAS-2026-01-01-tiny-02"


def _tree(root: Path) -> dict[str, bytes | str]:
    """Every entry below ``root``: a file's bytes, a symlink's target, a folder as '/'."""
    tree: dict[str, bytes | str] = {}
    for path in sorted(root.rglob("*")):
        name = path.relative_to(root).as_posix()
        if path.is_symlink():
            tree[name] = "-> " + os.readlink(path)
        elif path.is_dir():
            tree[name] = "/"
        else:
            tree[name] = path.read_bytes()
    return tree


def _plant(folder: Path, entries: dict[str, str | None]) -> None:
    """Files (name → text), folders (name → None) and symlinks (name → '-> target')."""
    for name, content in entries.items():
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if content is None:
            path.mkdir()
        elif content.startswith("-> "):
            path.symlink_to(content.removeprefix("-> "))
        else:
            path.write_text(content, encoding="utf-8")


WORKFLOW = (
    "name: publish\non: push\njobs:\n  build:\n    runs-on: ubuntu-latest\n    steps:\n      - run: make\n"
)

# (records folder, target folder, what it holds, what the refusal names).
NOT_AN_IMPORT = {
    "a workflow folder": (".github", "workflows", {"publish.yml": WORKFLOW}, "holds no run.yaml or set.yaml"),
    "a folder of configuration YAML": (
        "config",
        "service",
        {"settings.yaml": "debug: false\n", "logging.yml": "level: info\n", "README.md": "# Service\n"},
        "holds no run.yaml or set.yaml",
    ),
    "a workflow named run.yaml": (
        ".github",
        "workflows",
        {"run.yaml": WORKFLOW, "publish.yml": WORKFLOW},
        "has a run.yaml that is not a run file",
    ),
    "a run.yaml that is not YAML": ("tree", "demo", {"run.yaml": "run: [unclosed\n"}, "not a run file"),
    "a records folder beside git metadata": (
        "tree",
        "demo",
        {"run.yaml": "run: {}\n", ".git/HEAD": "ref: refs/heads/main\n"},
        "holds a folder that is not runs/ (.git)",
    ),
    "hidden files only": ("tree", "demo", {".env": "TOKEN=secret\n"}, "not a record file (.env)"),
    "a run.yaml that is a symlink": (
        "tree",
        "demo",
        {"run.yaml": "-> ../elsewhere/run.yaml"},
        "holds a symlink (run.yaml)",
    ),
    "a run.yaml that is a folder": ("tree", "demo", {"run.yaml/x.yaml": "run: {}\n"}, "(run.yaml)"),
}


def _second_run(tmp_path: Path) -> Path:
    """The fixture document under another run ID: a further run of the same system."""
    second = tmp_path / "second.md"
    second.write_text(DOCUMENT.read_text(encoding="utf-8").replace(RUN_ID, SECOND_RUN_ID), encoding="utf-8")
    return second


@pytest.mark.parametrize("case", NOT_AN_IMPORT)
def test_force_refuses_a_folder_no_import_wrote(tmp_path, monkeypatch, kbgen, case) -> None:
    """Refused at the folder, saying what it lacks or holds; nothing below it changes."""
    records, folder, entries, why = NOT_AN_IMPORT[case]
    monkeypatch.chdir(tmp_path)
    _plant(tmp_path / "elsewhere", {"run.yaml": "run: {}\n"})
    _plant(tmp_path / records / folder, entries)
    before = _tree(tmp_path)
    result = kbgen(
        "import", str(DOCUMENT), "--records", records, "--system", folder, "--force", "--format", "json"
    )
    assert result.code == 2, result
    assert "Traceback" not in result.out + result.err
    [diagnostic] = result.json()["diagnostics"]
    assert (diagnostic["code"], diagnostic["file"], diagnostic["line"], diagnostic["col"]) == (
        "KB610",
        f"{records}/{folder}",
        1,
        1,
    )
    assert "replaces only a records folder an import wrote" in diagnostic["message"]
    assert why in diagnostic["message"]
    assert _tree(tmp_path) == before


def test_force_refuses_a_run_folder_without_its_run_file(tmp_path, monkeypatch, kbgen) -> None:
    """``--as-run --force`` replaces a run folder only when it holds its own run file."""
    monkeypatch.chdir(tmp_path)
    assert kbgen("import", str(DOCUMENT), "--system", "tiny").code == 0
    second = _second_run(tmp_path)
    run_folder = tmp_path / "records" / "tiny" / "runs" / SECOND_RUN_ID
    _plant(run_folder, {"notes.yaml": "keep: me\n", "keep.md": "Kept.\n"})
    before = _tree(tmp_path)
    result = kbgen("import", str(second), "--system", "tiny", "--as-run", "--force")
    assert result.code == 2, result
    assert f"records/tiny/runs/{SECOND_RUN_ID}:1:1: error KB610" in result.out
    assert "holds no run.yaml or set.yaml" in result.out
    assert _tree(tmp_path) == before


def test_force_still_replaces_what_an_import_wrote(tmp_path, monkeypatch, kbgen) -> None:
    """A system folder an import wrote (with an analyst's prose file), a further run and a
    set's folder (``set.yaml``, ``ARTIFACT.yaml``) are replaced again."""
    monkeypatch.chdir(tmp_path)
    second = _second_run(tmp_path)
    assert kbgen("import", str(DOCUMENT), "--system", "tiny").code == 0
    assert kbgen("import", str(second), "--system", "tiny", "--as-run").code == 0
    system = tmp_path / "records" / "tiny"
    (system / "notes.md").write_text("An analyst's prose.\n", encoding="utf-8")
    assert kbgen("import", str(DOCUMENT), "--system", "tiny", "--force").code == 0
    assert kbgen("import", str(second), "--system", "tiny", "--as-run", "--force").code == 0
    assert (system / "run.yaml").is_file() and not (system / "notes.md").exists()
    assert (system / "runs" / SECOND_RUN_ID / "run.yaml").is_file()
    set_form = tmp_path / "records" / "set-form"
    _plant(set_form, {"set.yaml": "run: {}\nanalysis_set: {}\n", "ARTIFACT.yaml": "members: {}\n"})
    result = kbgen("import", str(DOCUMENT), "--system", "set-form", "--force")
    assert "KB610" not in result.out and (set_form / "run.yaml").is_file()
    assert not (set_form / "set.yaml").exists()


# ---------------------------------------------------------------- the link scan of the measure

_ONE_LINE_LINK = re.compile(r"\[([^\]\n]*)\]\([^)\n]*\)")  # what a link was, read quadratically


def _reference_words(text: str) -> list[str]:
    return re.findall(r"[^\W_]+", _ONE_LINE_LINK.sub(r"\1", text).casefold())


# A flood of link openings, and the words it folds to (as the one-line pattern read them).
LINK_FLOODS = {
    "40 KB of [": ("[" * 40_000, []),
    "100 KB of [a](": ("[a](" * 25_000, ["a"] * 25_000),
    "100 KB of [a]( then one )": ("[a](" * 25_000 + ")", ["a"]),
    "[[[[a](b) runs": ("[[[[a](b) " * 10_000, ["a"] * 10_000),
    "a run of [ closed once, then no )": ("[" * 20_000 + "](" + "x" * 20_000, ["x" * 20_000]),
    "brackets without a target": ("[a] " * 25_000, ["a"] * 25_000),
}


@pytest.mark.parametrize("name", LINK_FLOODS)
def test_no_bracket_starts_a_repeated_attempt(name) -> None:
    """Every ``[`` lies inside a span the scan consumed: an attempt that finds no link
    consumes what it read, so no later attempt reads it again (linear); the old pattern
    left every ``[`` of a flood to an attempt reading to the line's end."""
    text, _ = LINK_FLOODS[name]
    consumed = bytearray(len(text))
    for match in folding._LINK.finditer(text):
        consumed[match.start() : match.end()] = b"\x01" * (match.end() - match.start())
    unconsumed = [i for i, char in enumerate(text) if char == "[" and not consumed[i]]
    assert unconsumed == []


@pytest.mark.parametrize("name", LINK_FLOODS)
def test_a_flood_folds_to_the_words_it_holds(name) -> None:
    text, folded = LINK_FLOODS[name]
    assert words(text) == folded
    assert words(text[:400]) == _reference_words(text[:400])


@settings(max_examples=500, deadline=None)
@given(st.text(alphabet="[]()a \n", max_size=24))
def test_the_scan_folds_as_the_one_line_link_pattern(text) -> None:
    """The same links, the same words: only the work changed."""
    assert words(text) == _reference_words(text)


# ---------------------------------------------------------------- frontmatter keys located


class _SplitOnce(str):
    """Frontmatter text that may be cut into lines once (a second time raises)."""

    splits = 0

    def _count(self) -> None:
        self.splits += 1
        if self.splits > 1:
            raise AssertionError("the frontmatter was split into lines again")

    def split(self, *args, **kwargs):  # type: ignore[no-untyped-def, override]
        self._count()
        return str.split(self, *args, **kwargs)

    def splitlines(self, *args, **kwargs):  # type: ignore[no-untyped-def, override]
        self._count()
        return str.splitlines(self, *args, **kwargs)


KEYS = 20_000
TYPE = "type: types/agentic-system-analysis-result.md"
FRONTMATTERS = {
    "block keys": TYPE + "\n" + "".join(f"k{i}: v{i}\n" for i in range(KEYS)),
    "quoted keys": TYPE + "\n" + "".join(f"'k{i}': v{i}\n" for i in range(KEYS)),
    "one flow mapping": "{" + TYPE + ",\n" + ", ".join(f"k{i}: v{i}" for i in range(KEYS)) + "}\n",
}


@pytest.mark.parametrize("form", FRONTMATTERS)
def test_many_kept_keys_are_located_from_one_parse(form) -> None:
    """20,000 keys no record field holds: each is kept and located at its own line, and the
    frontmatter's text is never cut into lines once per key."""
    document = parse_document(f"---\n{FRONTMATTERS[form]}---\n\n# T\n\n## Run identity\n\nA run.\n")
    result = build(dataclasses.replace(document, frontmatter=_SplitOnce(document.frontmatter)), "doc.md", "t")
    kept = [d for d in result.diagnostics if d.rule.code == "KB601" and "has no record field" in d.message]
    assert len(kept) == KEYS
    flow = form == "one flow mapping"
    assert [d.line for d in kept] == ([3] * KEYS if flow else list(range(3, 3 + KEYS)))
    assert kept[-1].message.startswith(f"frontmatter key 'k{KEYS - 1}' has no record field")


def test_a_quoted_key_is_located_at_its_line() -> None:
    """A key the text writes in quotes is found where YAML read it (the old line scan fell
    back to the frontmatter's first line)."""
    text = "---\ntype: types/agentic-system-analysis-result.md\n\"odd: key\": 1\n'other': two\n---\n\n# T\n"
    result = build(parse_document(text), "doc.md", "t")
    lines = {
        d.message.split("'")[1]: d.line for d in result.diagnostics if "has no record field" in d.message
    }
    assert lines == {"odd: key": 3, "other": 4}
