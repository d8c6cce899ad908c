"""Hostile corpus for the loader and the check pipeline.

Each test plants one attack into a copy of the clean demo system and asserts the rule
code, file, line and column that ``kbgen check`` reports, without a traceback. Timing is
never asserted here (shared machine); benchmarks/ prints the ratios that show linear time.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
import yaml
from hostile_support import located, make_records

import generator.load.readfs
from generator.load.records import _nesting_bound
from generator.pipeline import reserved_names

REPO_RECORDS = Path(__file__).resolve().parents[2] / "records"
SYSTEM = "records/demo"


@pytest.fixture
def check(kbgen, monkeypatch: pytest.MonkeyPatch, tmp_path: Path):
    """Run ``kbgen check records --format json`` (or another format) inside tmp_path."""
    monkeypatch.chdir(tmp_path)

    def run(*extra: str):
        result = kbgen("check", "records", "--format", "json", *extra)
        assert "Traceback" not in result.out + result.err
        return result

    return run


def _codes(result) -> list[str]:
    return [d["code"] for d in result.json()["diagnostics"]]


# Symlinks, special files, hard links -------------------------------------------------


@pytest.mark.parametrize("target", ["/proc/self/environ", "/etc/passwd"])
def test_include_a_symlink_to_a_system_file(tmp_path: Path, check, target: str) -> None:
    records = make_records(tmp_path)
    (records / "demo" / "prose").mkdir()
    (records / "demo" / "prose" / "env.md").symlink_to(target)
    result = check()
    assert ("KB008", f"{SYSTEM}/prose/env.md", 1, 1) in located(result)
    assert result.code == 1
    assert "root:" not in result.out and "PATH=" not in result.out


def test_symlink_a_yaml_record_file(tmp_path: Path, check) -> None:
    outside = tmp_path / "outside.yaml"
    outside.write_text("components:\n  - id: CMP-9\n    label: Outside\n", encoding="utf-8")
    records = make_records(tmp_path)
    (records / "demo" / "extra.yaml").symlink_to(outside)
    result = check()
    assert located(result) == {("KB008", f"{SYSTEM}/extra.yaml", 1, 1)}
    assert "CMP-9" not in result.out


def test_symlink_a_system_folder_to_usr(tmp_path: Path, check) -> None:
    records = make_records(tmp_path)
    (records / "evil").symlink_to("/usr")
    result = check()
    assert ("KB008", "records/evil", 1, 1) in located(result)
    assert {s["slug"] for s in result.json()["systems"]} == {"demo", "evil"}


def test_symlink_a_subfolder_inside_a_system(tmp_path: Path, check) -> None:
    records = make_records(tmp_path)
    (records / "demo" / "more").symlink_to("/etc")
    assert located(check()) == {("KB008", f"{SYSTEM}/more", 1, 1)}


def test_symlink_the_records_folder_itself(tmp_path: Path, check) -> None:
    real = make_records(tmp_path / "elsewhere")
    (tmp_path / "records").symlink_to(real)
    assert located(check()) == {("KB008", "records/", 1, 1)}


def test_make_a_folder_loop_with_a_symlink(tmp_path: Path, check) -> None:
    records = make_records(tmp_path)
    (records / "demo" / "loop").symlink_to(".")
    assert located(check()) == {("KB008", f"{SYSTEM}/loop", 1, 1)}


def test_plant_a_fifo_that_would_stall_the_build(tmp_path: Path, check) -> None:
    records = make_records(tmp_path)
    os.mkfifo(records / "demo" / "stall.md")
    assert located(check()) == {("KB008", f"{SYSTEM}/stall.md", 1, 1)}


def test_hard_link_a_file_from_outside(tmp_path: Path, check) -> None:
    outside = tmp_path / "outside.md"
    outside.write_text("secret\n", encoding="utf-8")
    records = make_records(tmp_path)
    os.link(outside, records / "demo" / "inside.md")
    assert located(check()) == {("KB009", f"{SYSTEM}/inside.md", 1, 1)}


# Names ------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["_decapod", ".x"])
def test_hide_a_system_folder_behind_a_prefix(tmp_path: Path, check, name: str) -> None:
    records = make_records(tmp_path)
    shutil.copytree(records / "demo", records / name)
    result = check()
    assert located(result) == {("KB010", f"records/{name}/", 1, 1)}
    assert result.json()["diagnostics"][0]["severity"] == "warning"


@pytest.mark.parametrize("name", ["claims.YAML", "records.yml.bak", "notes.txt", "_draft.yaml", ".hidden.md"])
def test_name_a_file_so_it_is_silently_skipped(tmp_path: Path, check, name: str) -> None:
    make_records(tmp_path, {name: "components:\n  - id: CMP-9\n    label: Never read\n"})
    assert located(check()) == {("KB010", f"{SYSTEM}/{name}", 1, 1)}


@pytest.mark.parametrize("name", ["a)(b", "x#y", "{x}", "Demo", "two--dashes"])
def test_name_a_system_folder_that_breaks_the_site(tmp_path: Path, check, name: str) -> None:
    make_records(tmp_path, slug=name)
    assert ("KB306", f"records/{name}/", 1, 1) in located(check())


def test_clear_the_terminal_through_a_system_folder_name(tmp_path: Path, kbgen, monkeypatch) -> None:
    make_records(tmp_path, slug="x\x1b[2Jy")
    monkeypatch.chdir(tmp_path)
    assert ("KB306", "records/x\\x1b[2Jy/", 1, 1) in located(kbgen("check", "records", "--format", "json"))
    human = kbgen("check", "records").out
    assert "\x1b" not in human and "x\\x1b[2Jy: failed" in human


@pytest.mark.parametrize("name", sorted(reserved_names()))
def test_name_a_system_folder_after_a_generated_page(tmp_path: Path, check, name: str) -> None:
    make_records(tmp_path, slug=name)
    assert ("KB307", f"records/{name}/", 1, 1) in located(check())


@pytest.mark.parametrize("name", ["a\x1b[31mred.yaml", "line\nbreak.yaml"])
def test_print_terminal_escapes_through_a_file_name(tmp_path: Path, kbgen, monkeypatch, name: str) -> None:
    make_records(tmp_path, {name: "components: [\n"})
    monkeypatch.chdir(tmp_path)
    shown = "records/demo/" + name.replace("\x1b", "\\x1b").replace("\n", "\\n")
    result = kbgen("check", "records", "--format", "json")
    # Such a name is outside the record-name grammar: refused unread, shown escaped.
    assert ("KB014", shown, 1, 1) in located(result)
    human = kbgen("check", "records")
    assert "\x1b" not in human.out and shown in human.out


# Content ----------------------------------------------------------------------------


def test_nest_yaml_flow_sequences_five_hundred_deep(tmp_path: Path, check) -> None:
    make_records(tmp_path, {"deep.yaml": "a:\n  b: " + "[" * 500 + "]" * 500 + "\n"})
    # depth: the root mapping (1), a's mapping (2), then brackets; the 63rd crosses 64
    assert located(check()) == {("KB011", f"{SYSTEM}/deep.yaml", 2, 6 + 62)}


def test_nest_yaml_block_mappings_five_hundred_deep(tmp_path: Path, check) -> None:
    text = "".join(" " * level + "k:\n" for level in range(500)) + " " * 500 + "v\n"
    make_records(tmp_path, {"deep.yaml": text})
    assert located(check()) == {("KB011", f"{SYSTEM}/deep.yaml", 65, 65)}


def _nesting(text: str) -> int:
    depth = deepest = 0
    for event in yaml.parse(text, Loader=yaml.CSafeLoader):
        if isinstance(event, yaml.CollectionStartEvent):
            depth += 1
            deepest = max(deepest, depth)
        elif isinstance(event, yaml.CollectionEndEvent):
            depth -= 1
    return deepest


@pytest.mark.parametrize(
    "text",
    [
        "a:\n- b:\n  - c:\n    - d\n",  # sequences at their mapping's indentation
        "- - - - - - - - x\n",  # compact nested sequences on one line
        "- a: 1\n  b:\n  - - c: [d, {e: f}]\n",
        "? - a\n  - b\n: - c\n",  # complex keys and values
        "k: &x !!map\n  a: !!seq\n  - &y b\n",  # anchors and tags before collections
        "- &a\n  - &b\n    - c\n",
        "--- \n- - x\n...\n",
    ],
)
def test_nesting_bound_is_never_below_the_real_nesting(text: str) -> None:
    # The bound lets a file skip the event scan for KB011: it must never be too low.
    assert _nesting_bound(text) >= _nesting(text)


@pytest.mark.parametrize("levels", [2, 10, 40])
def test_nesting_bound_of_deep_block_styles(levels: int) -> None:
    mappings = "".join(" " * level + "k:\n" for level in range(levels)) + " " * levels + "v\n"
    compact = "- " * levels + "x\n"
    indentless = "".join(" " * (2 * level) + "k:\n" + " " * (2 * level) + "-\n" for level in range(levels))
    for text in (mappings, compact, indentless + " " * (2 * levels) + "v\n"):
        assert _nesting_bound(text) >= _nesting(text)


def test_fill_two_mebibytes_with_open_brackets(tmp_path: Path, check) -> None:
    make_records(tmp_path, {"deep.yaml": "a: " + "[" * (2 * 1024 * 1024 - 10)})
    assert located(check()) == {("KB011", f"{SYSTEM}/deep.yaml", 1, 4 + 63)}


def test_hide_a_nul_byte_on_line_three(tmp_path: Path, check) -> None:
    make_records(tmp_path, {"extra.yaml": b"components:\n  - id: CMP-9\n    label: a\x00b\n"})
    assert located(check()) == {("KB012", f"{SYSTEM}/extra.yaml", 3, 13)}


def test_put_an_escape_sequence_into_prose(tmp_path: Path, check) -> None:
    make_records(tmp_path, {"notes.md": "Fine line.\nThen \x1b[2J clears the screen.\n"})
    assert located(check()) == {("KB012", f"{SYSTEM}/notes.md", 2, 6)}


def test_publish_an_oversized_prose_file(tmp_path: Path, check, monkeypatch) -> None:
    monkeypatch.setattr(generator.load.readfs, "MAX_FILE_BYTES", 1000)
    make_records(tmp_path, {"long.md": "word " * 400})
    assert located(check()) == {("KB005", f"{SYSTEM}/long.md", 1, 1)}


def test_flood_prose_with_dangling_ids(tmp_path: Path, kbgen, check) -> None:
    # 240 KB keep the suite quick; the 2 MiB case is measured by benchmarks/bench_hostile.py.
    make_records(tmp_path, {"flood.md": "RTE-999 " * 30_000})
    result = check()
    assert len(result.json()["diagnostics"]) == 30_000  # JSON keeps the full list
    assert ("KB202", f"{SYSTEM}/flood.md", 1, 8 * 29_999 + 1) in located(result)
    human = kbgen("check", "records").out.splitlines()
    assert len([line for line in human if not line.startswith("    hint: ")]) < 30
    assert f"… and 29980 more KB202 in {SYSTEM}/flood.md" in human
    assert human[-1].startswith("demo: failed")
    github = kbgen("check", "records", "--format", "github").out.splitlines()
    assert len(github) == 21 and github[-1].startswith("::notice::")


def test_flood_a_yaml_string_with_dangling_ids(tmp_path: Path, check) -> None:
    body = "RTE-999 " * 20_000
    make_records(tmp_path, {"extra.yaml": f"components:\n  - id: CMP-9\n    label: x\n    body: {body}\n"})
    result = check()
    assert ("KB202", f"{SYSTEM}/extra.yaml", 4, 11 + 8 * 19_999) in located(result)


def test_bomb_with_many_small_keys(tmp_path: Path, check) -> None:
    keys = "".join(f"k{index}: 1\n" for index in range(20_000))
    make_records(tmp_path, {"bomb.yaml": keys})
    result = check()
    assert ("KB103", f"{SYSTEM}/bomb.yaml", 20_000, 1) in located(result)


def test_locate_past_a_byte_order_mark_and_crlf(tmp_path: Path, check) -> None:
    text = "\ufeffcomponents:\r\n  - id: CMP-9\r\n    label: x\r\n    body: See RTE-404 here.\r\n"
    make_records(tmp_path, {"extra.yaml": text.encode("utf-8")})
    assert located(check()) == {("KB202", f"{SYSTEM}/extra.yaml", 4, 15)}


def test_bury_a_dangling_id_at_the_end_of_a_very_long_line(tmp_path: Path, check) -> None:
    body = "word " * 300_000 + "RTE-404"
    make_records(tmp_path, {"extra.yaml": f"components:\n  - id: CMP-9\n    label: x\n    body: '{body}'\n"})
    assert located(check()) == {("KB202", f"{SYSTEM}/extra.yaml", 4, 12 + 5 * 300_000)}


def test_break_one_file_to_bury_its_error_under_consequences(tmp_path: Path, check) -> None:
    shutil.copytree(REPO_RECORDS / "decapod", tmp_path / "records" / "decapod")
    run = tmp_path / "records" / "decapod" / "run.yaml"
    lines = run.read_text(encoding="utf-8").splitlines(keepends=True)
    lines[1] = "run: [broken\n"
    run.write_text("".join(lines), encoding="utf-8")
    diagnostics = check().json()["diagnostics"]
    first = diagnostics[0]
    assert (first["code"], first["file"], first["line"]) == ("KB001", "records/decapod/run.yaml", 3)
    assert len(diagnostics) < 10


@pytest.mark.parametrize("revision", ["@{-1}", "HEAD~1", "main", "--upload-pack=touch x"])
def test_pin_a_revision_that_is_not_a_commit_id(tmp_path: Path, check, revision: str) -> None:
    sources = make_records(tmp_path) / "demo" / "sources.yaml"
    text = sources.read_text(encoding="utf-8").replace('"0123456789abcdef"', repr(revision))
    sources.write_text(text, encoding="utf-8")
    (tmp_path / "clones").mkdir()
    result = check("--sources", "clones")
    assert ("KB505", f"{SYSTEM}/sources.yaml", 6, 15) in located(result)
    assert result.code == 1


def test_emoji_codes_in_record_text_are_printed_as_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, kbgen
) -> None:
    """Rich would turn ':smile:' into an emoji; a diagnostic shows the key as written."""
    run_file = make_records(tmp_path) / "demo" / "run.yaml"
    run_file.write_text(run_file.read_text(encoding="utf-8") + "  ':smile:': x\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    result = kbgen("check", "records")
    assert result.code == 1
    assert "unknown key ':smile:'" in result.out, result.out
    assert "😄" not in result.out
