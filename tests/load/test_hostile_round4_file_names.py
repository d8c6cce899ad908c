"""Hostile record file and folder names: outside the record-name grammar, refused unread.

A name a page links (the edit button's ``href``) or a diagnostic shows may hold only
letters, digits, ``.``, ``_`` and ``-``, starting with a letter or digit, a file ending in
``.yaml``, ``.yml`` or ``.md``. Each case plants one name into a copy of the clean demo
system and asserts KB014 at the file's 1:1 (or at the folder), a failed check, and that
nothing of the file was read. A hidden name stays KB010's (a warning: never read, never
linked).
"""

from __future__ import annotations

import pytest
from hostile_support import located, make_records

from generator.load.records import load_system

SYSTEM = "records/demo"
BROKEN_YAML = "components: [\n"  # read, it would be KB001: its absence shows it was not


@pytest.fixture
def check(kbgen, monkeypatch: pytest.MonkeyPatch, tmp_path):
    monkeypatch.chdir(tmp_path)

    def run():
        result = kbgen("check", "records", "--format", "json")
        assert "Traceback" not in result.out + result.err
        return result

    return run


@pytest.mark.parametrize(
    "name",
    [
        'r"><img src=x onerror=alert(1)>.yaml',  # ends the edit button's href
        "routes'onmouseover=alert(1)'.yml",  # ends a single-quoted attribute
        "a b.md",  # a space: two words in a URL or a shell
        "-rf.yaml",  # reads as an option
        "%2e%2e.yaml",  # decodes to another path
        "notes#frag.md",  # cuts the edit URL at a fragment
        "why?.yaml",  # starts a query
        "r\u00e9sum\u00e9.yaml",  # a letter outside ASCII (and its look-alikes)
    ],
)
def test_a_file_name_outside_the_grammar_is_refused_unread(tmp_path, check, name: str) -> None:
    make_records(tmp_path, {name: BROKEN_YAML})
    result = check()
    assert result.code == 1
    assert located(result) == {("KB014", f"{SYSTEM}/{name}", 1, 1)}
    assert "KB001" not in result.out


@pytest.mark.parametrize("folder", ["sub dir", 'x"><svg onload=alert(1)>', "-x"])
def test_a_folder_name_outside_the_grammar_is_refused_with_nothing_below_it_read(
    tmp_path, check, folder: str
) -> None:
    make_records(tmp_path, {f"{folder}/routes.yaml": BROKEN_YAML})
    result = check()
    assert result.code == 1
    assert located(result) == {("KB014", f"{SYSTEM}/{folder}/", 1, 1)}


@pytest.mark.parametrize("name", ['.r"><img src=x>.yaml', '_r"<x>.yaml', 'r"<x>.txt'])
def test_a_name_that_is_never_read_keeps_its_kb010_warning(tmp_path, check, name: str) -> None:
    make_records(tmp_path, {name: BROKEN_YAML})
    result = check()
    assert result.code == 0
    assert located(result) == {("KB010", f"{SYSTEM}/{name}", 1, 1)}


def test_a_file_of_a_further_run_is_held_to_the_grammar(tmp_path, check) -> None:
    records = make_records(tmp_path)
    run = records / "demo" / "runs" / "AAS-2024-04-01-demo-01"
    run.mkdir(parents=True)
    for file in (records / "demo").glob("*.yaml"):
        (run / file.name).write_text(
            file.read_text(encoding="utf-8").replace("2024-05-01", "2024-04-01"), encoding="utf-8"
        )
    (run / 'x"<y>.yaml').write_text(BROKEN_YAML, encoding="utf-8")
    result = check()
    assert ("KB014", f'{SYSTEM}/runs/AAS-2024-04-01-demo-01/x"<y>.yaml', 1, 1) in located(result)
    assert result.code == 1


def test_an_editors_unsaved_file_is_held_to_the_grammar(tmp_path) -> None:
    records = make_records(tmp_path)
    source = load_system(
        records / "demo", tmp_path, unsaved={'x"><img src=x>.yaml': BROKEN_YAML, "ok dir/a.yaml": BROKEN_YAML}
    )
    found = {(d.rule.code, d.file, d.line, d.col) for d in source.diagnostics}
    assert found == {
        ("KB014", f'{SYSTEM}/x"><img src=x>.yaml', 1, 1),
        ("KB014", f"{SYSTEM}/ok dir/", 1, 1),
    }
    assert all(
        file.display.endswith(("records.yaml", "result.yaml", "run.yaml", "sources.yaml"))
        for file in source.files
    )


def test_kbgen_build_refuses_what_the_check_refuses(tmp_path, kbgen, monkeypatch) -> None:
    """A check that passes means the strict build passes; one that fails, the build too."""
    make_records(tmp_path, {'r"><img src=x onerror=alert(1)>.yaml': "sources: []\n"})
    result = kbgen("build", "--records", str(tmp_path / "records"), "--site-dir", str(tmp_path / "site"))
    assert result.code != 0
    assert "KB014" in result.out + result.err
    assert "Traceback" not in result.out + result.err
    assert not (tmp_path / "site").exists()
