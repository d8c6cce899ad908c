"""The language server's parts without the protocol: the key path under the cursor, the
schema read along it, the editor's unsaved text through the loader's one door, and the
editor set-up snippets of the README."""

from __future__ import annotations

import json
import os
import re
import tomllib
from pathlib import Path

import pytest
from luaparser import ast as lua_ast

from generator.load.readfs import MAX_FILE_BYTES
from generator.lsp.analysis import analyse
from generator.lsp.schema_walk import keys_at, takes_ids, values_at
from generator.lsp.workspace import RecordsWorkspace
from generator.lsp.yaml_context import LIST_ITEM, context_at

REPO = Path(__file__).resolve().parents[2]
ROUTES = """\
routes:
  - id: RTE-1
    label: Loop
    statuses:
      implementation conclusion status: wi
    guarantee:
      - strength: pro
    fields:
      immediate_return: The answer.
    own
"""


def _at(text: str, needle: str) -> tuple[int, int]:
    start = text.index(needle) + len(needle)
    line = text.count("\n", 0, start)
    return line, start - (text.rfind("\n", 0, start) + 1)


@pytest.mark.parametrize(
    ("needle", "path", "key", "prefix"),
    [
        (
            "implementation conclusion status: wi",
            ("routes", LIST_ITEM, "statuses"),
            "implementation conclusion status",
            "wi",
        ),
        ("strength: pro", ("routes", LIST_ITEM, "guarantee", LIST_ITEM), "strength", "pro"),
        ("    own", ("routes", LIST_ITEM), None, "own"),
        ("immediate_return: The answer.", ("routes", LIST_ITEM, "fields"), "immediate_return", "answer."),
    ],
)
def test_the_key_path_is_read_from_indentation(
    needle: str, path: tuple[str, ...], key: str | None, prefix: str
) -> None:
    context = context_at(ROUTES, *_at(ROUTES, needle))
    assert (context.path, context.key, context.prefix) == (path, key, prefix)


def test_a_key_runs_to_the_first_colon_or_comment() -> None:
    assert context_at("label" + " " * 50 + "# note: x", 0, 64).key is None
    assert context_at("label   : Loop", 0, 14).key == "label"
    assert context_at("x" * 300, 0, 300).prefix == ""  # no word to complete


def test_a_list_at_the_parents_indentation_and_a_sibling_with_an_inline_value() -> None:
    text = "routes:\n- id: RTE-1\n  fields:\n    immediate_return: x\n  guarantee:\n  - strength: \n"
    context = context_at(text, *_at(text, "  - strength: "))
    assert context.path == ("routes", LIST_ITEM, "guarantee", LIST_ITEM) and context.key == "strength"


def test_the_schema_gives_values_keys_and_id_fields() -> None:
    statuses = values_at(("routes", LIST_ITEM, "statuses", "implementation conclusion status"))
    assert statuses[:3] == ["absent", "inapplicable", "uninspected"] and "causally supported" in statuses
    # A claim's one status and a renamed label's status complete the same values.
    assert values_at(("claims", LIST_ITEM, "conclusion_status")) == statuses
    assert values_at(("routes", LIST_ITEM, "statuses", "learning", "value")) == statuses
    axis = values_at(("memory_comparison", "axes", "storage_substrate", "values", LIST_ITEM))
    assert "vector" in axis and "sqlite" in axis
    assert "lineage" not in axis  # another axis' name, not a value of this one
    assert {"id", "label", "statuses", "guarantee", "owner"} <= set(keys_at(("routes", LIST_ITEM)))
    assert takes_ids(("claims", LIST_ITEM, "part_of"))
    assert not takes_ids(("routes", LIST_ITEM, "label"))
    # A record's labels as written take its kind's fields (and its entries'); same_line a
    # route's labelled fields.
    labelled = set(keys_at(("routes", LIST_ITEM, "labels")))
    assert {"progression", "selection_predicate"} <= labelled and "remarks" not in labelled
    assert "form" in keys_at(("objects", LIST_ITEM, "labels"))
    assert "later_read_back" in values_at(("routes", LIST_ITEM, "same_line"))
    assert values_at(("objects", LIST_ITEM, "same_line")) == []


def _system(tmp_path: Path) -> Path:
    folder = tmp_path / "records" / "demo"
    folder.mkdir(parents=True)
    (folder / "run.yaml").write_text("run:\n  system: Demo\n", encoding="utf-8")
    (folder / "routes.yaml").write_text("routes:\n- id: RTE-1\n  label: Loop\n", encoding="utf-8")
    return folder


def test_unsaved_text_stands_in_for_the_file_and_a_new_file_joins(tmp_path: Path) -> None:
    folder = _system(tmp_path)
    unsaved = {
        "routes.yaml": "routes:\n- id: RTE-1\n  label: Loop\n"
        "- id: RTE-2\n  label: New\n  body: After RTE-9.\n",
        "claims.yaml": "claims:\n- id: CLM-1\n  claim: See RTE-2.\n  conclusion_status: claimed\n",
    }
    analysis = analyse(folder, tmp_path, unsaved)
    assert {"RTE-1", "RTE-2", "CLM-1"} <= set(analysis.declarations)
    assert [d.code for d in analysis.checked.diagnostics if "RTE-9" in d.message] == ["KB202"]
    assert (folder / "claims.yaml").exists() is False  # nothing was written


def test_unsaved_text_never_replaces_a_refused_file(tmp_path: Path) -> None:
    folder = _system(tmp_path)
    secret = tmp_path / "secret.yaml"
    secret.write_text("routes:\n- id: RTE-7\n  label: Outside\n", encoding="utf-8")
    os.symlink(secret, folder / "linked.yaml")
    analysis = analyse(folder, tmp_path, {"linked.yaml": "routes:\n- id: RTE-8\n  label: Held\n"})
    assert "RTE-7" not in analysis.declarations and "RTE-8" not in analysis.declarations
    refused = [d for d in analysis.checked.diagnostics if d.file.endswith("linked.yaml")]
    assert [(d.code, "a symlink" in d.message) for d in refused] == [("KB008", True)]


def test_unsaved_text_is_held_to_the_loaders_limits(tmp_path: Path) -> None:
    folder = _system(tmp_path)
    huge = "routes:\n" + "# padding\n" * (MAX_FILE_BYTES // 10 + 1)
    analysis = analyse(folder, tmp_path, {"routes.yaml": huge, "notes.md": "a \x1b[2J escape"})
    codes = {(d.code, d.file.rsplit("/", 1)[-1]) for d in analysis.checked.diagnostics}
    assert ("KB005", "routes.yaml") in codes and ("KB012", "notes.md") in codes
    surrogate = analyse(folder, tmp_path, {"routes.yaml": "routes:\n- id: RTE-1\n  label: \ud800\n"})
    assert [(d.code, d.file, d.line, d.col) for d in surrogate.checked.diagnostics] == [
        ("KB007", "records/demo/routes.yaml", 3, 10)
    ]
    unreadable = analyse(folder, tmp_path, {"../escape.yaml": "routes: []\n", ".hidden.yaml": "routes: []\n"})
    assert not any("escape" in d.file or "hidden" in d.file for d in unreadable.checked.diagnostics)


def test_the_workspace_holds_only_files_below_the_records_folder(tmp_path: Path) -> None:
    _system(tmp_path)
    records = RecordsWorkspace(tmp_path, tmp_path / "records")
    assert records.hold(tmp_path / "outside.yaml", "routes: []\n") is None
    assert records.hold(tmp_path / "records" / "loose.yaml", "routes: []\n") is None
    assert (
        records.hold(tmp_path / "records" / "demo" / "routes.yaml", "routes: []\n")
        == (tmp_path / "records" / "demo").resolve()
    )
    assert list(records.unsaved) == [(tmp_path / "records" / "demo" / "routes.yaml").resolve()]


# ---------------------------------------------------------------- the editor set-up snippets

README = (REPO / "README.md").read_text(encoding="utf-8")
IN_YOUR_EDITOR = README[README.index("## In your editor") :].split("\n## ", 1)[0]


def _snippet(language: str) -> str:
    found = re.search(rf"```{language}\n(.*?)```", IN_YOUR_EDITOR, re.S)
    assert found is not None, f"the README's 'In your editor' has no {language} snippet"
    return found.group(1)


def test_the_vs_code_settings_are_json_that_starts_kbgen_lsp() -> None:
    settings = json.loads(_snippet("json"))
    assert settings["glspc.server.command"] == "kbgen"
    assert settings["glspc.server.commandArguments"] == ["lsp"]
    assert set(settings["glspc.server.languageId"]) == {"yaml", "markdown"}
    shipped = json.loads((REPO / ".vscode" / "settings.json").read_text(encoding="utf-8"))
    assert {key: shipped[key] for key in settings} == settings  # the repository ships it


def test_the_neovim_configuration_is_lua_that_starts_kbgen_lsp() -> None:
    tree = lua_ast.parse(_snippet("lua"))
    source = lua_ast.to_lua_source(tree)
    assert "vim.lsp.start" in source and '"kbgen"' in source and '"lsp"' in source


def test_the_helix_configuration_is_toml_that_starts_kbgen_lsp() -> None:
    languages = tomllib.loads(_snippet("toml"))
    assert languages["language-server"]["kbgen"] == {
        "command": "kbgen",
        "args": ["lsp"],
        "config": {"records": "records"},
    }
    assert {entry["name"] for entry in languages["language"]} == {"yaml", "markdown"}
    assert all("kbgen" in entry["language-servers"] for entry in languages["language"])


def test_a_file_changed_on_disk_is_read_again(tmp_path: Path) -> None:
    """A checkout or another editor changes a file nobody has open: the next answer sees it."""
    folder = _system(tmp_path)
    records = RecordsWorkspace(tmp_path, tmp_path / "records")
    first = records.analysis(folder.resolve())
    assert records.analysis(folder.resolve()) is first  # unchanged: kept
    (folder / "routes.yaml").write_text("routes:\n- id: RTE-1\n  label: Renamed loop\n", encoding="utf-8")
    again = records.analysis(folder.resolve())
    assert again is not first and again.declarations["RTE-1"].record.label == "Renamed loop"


@pytest.mark.parametrize(
    ("label", "shown"),
    [
        # The label's Markdown as the site's heading shows it: strong and code, a link's text.
        (
            "<img src=x onerror=alert(1)> **loud** [link](https://example.org) `x_y`",
            "&lt;img src=x onerror=alert(1)&gt; **loud** link `x_y`",
        ),
        # A code span holding '<' is an HTML element on the site: here, escaped text.
        ("**loud** `<b>` {{ x }}", "loud &lt;b&gt; &#123;&#123; x &#125;&#125;"),
    ],
)
def test_hover_shows_a_label_formatted_never_as_markup(tmp_path: Path, label: str, shown: str) -> None:
    folder = _system(tmp_path)
    analysis = analyse(folder, tmp_path, {"routes.yaml": f"routes:\n- id: RTE-1\n  label: '{label}'\n"})
    assert analysis.hover("RTE-1").split("\n\n")[0] == f"**RTE-1** — {shown}"


def test_every_kind_names_a_symbol_kind_of_the_protocol() -> None:
    """A kind spec names its LSP symbol kind (the model knows no LSP types): each built-in
    one is a member of the protocol's SymbolKind, and all differ from a supplied record's."""
    from lsprotocol import types

    from generator.model import KINDS

    names = [spec.symbol_kind for spec in KINDS.specs]
    assert all(name in types.SymbolKind.__members__ for name in names), names
    assert len(set(names)) == len(names) and "Interface" not in names
