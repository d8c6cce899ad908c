"""The language server over a file holding a LINE SEPARATOR: the check's KB013, at the
check's place, and nothing of the refused file indexed, so a rename cannot write over
text whose position libyaml counted differently (tests/load/test_hostile_line_breaks.py has
the checker's side)."""

from __future__ import annotations

import sys
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_lsp
from hostile_support import make_records
from lsp_hostile_support import initialize, open_file, published
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient

# Valid YAML either way, and no other rule's concern: a quoted body may hold the
# separator, which libyaml counts as a line break, so without the refusal CMP-1 below
# would be indexed a line too low and a rename would write over the line after it.
EXTRA = 'components:\n  - id: CMP-2\n    label: Two\n    body: "One \u2028 two"\n    form: Uses CMP-1.\n'


@pytest.fixture(scope="module")
def workspace(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("workspace")
    make_records(root)
    return root


@pytest_lsp.fixture(
    config=ClientServerConfig(server_command=[sys.executable, "-m", "generator.cli.main", "lsp"])
)
async def client(lsp_client: LanguageClient, workspace: Path) -> AsyncIterator[None]:
    await initialize(lsp_client, workspace)
    yield
    await lsp_client.shutdown_session()


async def test_the_editor_gets_the_located_refusal_and_renames_nothing_in_it(
    client: LanguageClient, workspace: Path
) -> None:
    uri = open_file(client, workspace / "records" / "demo" / "extra.yaml", EXTRA)
    found = await published(client, uri)
    seen = [(str(d.code), d.range.start.line, d.range.start.character) for d in found.diagnostics]
    assert seen == [("KB013", 3, 15)]  # the check's 4:16

    records = workspace / "records" / "demo" / "records.yaml"
    text = records.read_text(encoding="utf-8")
    start = text.index("- id: CMP-1") + len("- id: ")
    line = text.count("\n", 0, start)
    at = types.Position(line=line, character=start - (text.rfind("\n", 0, start) + 1))
    edit = await client.text_document_rename_async(
        types.RenameParams(
            text_document=types.TextDocumentIdentifier(uri=records.as_uri()), position=at, new_name="CMP-9"
        )
    )
    assert edit is not None and edit.changes is not None
    assert uri not in edit.changes  # the refused file is not indexed: no edit lands in it
    for changed, edits in edit.changes.items():
        lines = Path(changed.removeprefix("file://")).read_text(encoding="utf-8").split("\n")
        for item in edits:  # each edit replaces the ID itself, nothing else
            row = lines[item.range.start.line]
            assert row[item.range.start.character : item.range.end.character] == "CMP-1", row
