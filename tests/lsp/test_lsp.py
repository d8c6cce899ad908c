"""``kbgen lsp`` end to end: the real server over stdio, driven by an LSP client (pytest-lsp).

The workspace is a copy of the shipped records. What the server says is compared with what
``kbgen check`` and the site say for the same text: the check run on a copy of the edited
file, the linked graph of the pipeline.
"""

from __future__ import annotations

import asyncio
import re
import shutil
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_lsp
from lsp_hostile_support import open_file
from lsprotocol import types
from pygls.exceptions import JsonRpcException
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities

from generator.model.anchors import LineRange
from generator.model.vocab import GuaranteeStrength
from generator.pipeline import check_records, run_pipeline

# Slow: each test starts the real server over stdio on a copy of the shipped records.
pytestmark = pytest.mark.slow

REPO = Path(__file__).resolve().parents[2]
SHIPPED = ("oh-my-pi", "decapod")
WAIT_SECONDS = 30


@pytest.fixture(scope="module")
def workspace(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("workspace")
    # Each system's own run: the edits here are of one run (a further run's files are
    # analysed as their own run: tests/graph/test_runs.py).
    for slug in SHIPPED:
        shutil.copytree(
            REPO / "records" / slug, root / "records" / slug, ignore=shutil.ignore_patterns("runs")
        )
    (root / "outside.yaml").write_text("routes:\n- id: RTE-1\n  label: Not a record file\n", encoding="utf-8")
    return root


@pytest_lsp.fixture(
    config=ClientServerConfig(server_command=[sys.executable, "-m", "generator.cli.main", "lsp"])
)
async def client(lsp_client: LanguageClient, workspace: Path) -> AsyncIterator[None]:
    params = types.InitializeParams(
        capabilities=client_capabilities("visual-studio-code"),
        root_uri=workspace.as_uri(),
        workspace_folders=[types.WorkspaceFolder(uri=workspace.as_uri(), name="kb")],
    )
    await lsp_client.initialize_session(params)
    yield
    await lsp_client.shutdown_session()


def _file(workspace: Path, relative: str) -> Path:
    return workspace / "records" / relative


def _position(text: str, needle: str, nth: int = 0, offset: int = 0) -> types.Position:
    """The position of the ``nth`` occurrence of ``needle`` (plus ``offset`` characters)."""
    start = -1
    for _ in range(nth + 1):
        start = text.index(needle, start + 1)
    start += offset
    line = text.count("\n", 0, start)
    return types.Position(line=line, character=start - (text.rfind("\n", 0, start) + 1))


async def _open(client: LanguageClient, path: Path, text: str | None = None) -> str:
    uri = open_file(client, path, text)
    await _published(client)
    # The server publishes every open file of the system, back to back: let the others
    # arrive, so the next publication awaited is the next check's.
    while True:
        try:
            await asyncio.wait_for(client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS), 0.5)
        except TimeoutError:
            return uri


async def _published(client: LanguageClient) -> types.PublishDiagnosticsParams:
    """The next diagnostics the server publishes (a server that says nothing fails the test)."""
    found: types.PublishDiagnosticsParams = await asyncio.wait_for(
        client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS), WAIT_SECONDS
    )
    return found


async def _change(
    client: LanguageClient, uri: str, text: str, version: int
) -> types.PublishDiagnosticsParams:
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
            content_changes=[types.TextDocumentContentChangeWholeDocument(text=text)],
        )
    )
    published = await _published(client)
    assert published.uri == uri  # the edited file's diagnostics come first
    assert published.version == version
    return published


def _checked(workspace: Path, tmp_path: Path, relative: str, text: str) -> list[tuple[str, int, int, str]]:
    """What kbgen check says of the system with one file's text replaced: (code, line, col, message)."""
    slug = relative.split("/", 1)[0]
    copy = tmp_path / "records"
    shutil.copytree(workspace / "records" / slug, copy / slug)
    (copy / relative).write_text(text, encoding="utf-8")
    (system,) = check_records(copy / slug, tmp_path)
    name = f"records/{relative}"
    return sorted((d.code, d.line - 1, d.col - 1, d.message) for d in system.diagnostics if d.file == name)


def _seen(published: types.PublishDiagnosticsParams) -> list[tuple[str, int, int, str]]:
    return sorted(
        (str(d.code), d.range.start.line, d.range.start.character, d.message.split("\n")[0])
        for d in published.diagnostics
    )


async def test_the_diagnostics_of_an_open_file_are_the_checks(
    client: LanguageClient, workspace: Path, tmp_path: Path
) -> None:
    path = _file(workspace, "oh-my-pi/result.yaml")
    # The shipped ranges expand (every ID they span is declared): one written backwards
    # cannot, and is the warning the check gives (KB205).
    text = path.read_text(encoding="utf-8").replace("RTE-21–RTE-29", "RTE-29–RTE-21")
    uri = await _open(client, path, text)
    seen = sorted(
        (str(d.code), d.range.start.line, d.range.start.character, d.message.split("\n")[0])
        for d in client.diagnostics[uri]
    )
    assert seen == _checked(workspace, tmp_path, "oh-my-pi/result.yaml", text)
    assert {code for code, *_ in seen} == {"KB205"}
    assert all("see docs/rules.md#kb205" in d.message for d in client.diagnostics[uri])


async def test_a_dangling_id_typed_is_reported_where_it_is_and_cleared_when_fixed(
    client: LanguageClient, workspace: Path, tmp_path: Path
) -> None:
    path = _file(workspace, "oh-my-pi/routes.yaml")
    uri = await _open(client, path)
    original = path.read_text(encoding="utf-8")
    assert client.diagnostics[uri] == ()
    prose = original.replace(
        "Delegated visibility is supplied by RTE-3,", "Delegated visibility is supplied by RTE-93,", 1
    )
    published = await _change(client, uri, prose, 2)
    expected = _checked(workspace, tmp_path / "prose", "oh-my-pi/routes.yaml", prose)
    assert _seen(published) == expected
    (dangling,) = published.diagnostics
    assert dangling.code == "KB202"
    start = _position(prose, "RTE-93")
    assert dangling.range.start == start
    assert dangling.range.end.character > start.character
    structured = original.replace("- id: RTE-1\n", "- id: RTE-1\n  alternative_to: [RTE-94]\n", 1)
    published = await _change(client, uri, structured, 3)
    assert _seen(published) == _checked(
        workspace, tmp_path / "structured", "oh-my-pi/routes.yaml", structured
    )
    (dangling,) = published.diagnostics
    assert dangling.code == "KB201"
    assert dangling.range.start == _position(structured, "RTE-94")
    assert dangling.range.end == _position(structured, "RTE-94", offset=len("RTE-94"))
    published = await _change(client, uri, original, 4)
    assert published.diagnostics == ()


async def test_a_cross_file_rule_sees_the_unsaved_text_of_open_files(
    client: LanguageClient, workspace: Path
) -> None:
    """RTE-3 renamed away in the unsaved routes.yaml: the open result.yaml's mentions dangle."""
    routes = _file(workspace, "oh-my-pi/routes.yaml")
    result = _file(workspace, "oh-my-pi/result.yaml")
    result_uri = await _open(client, result)
    routes_uri = await _open(client, routes)
    edited = routes.read_text(encoding="utf-8").replace("- id: RTE-3\n", "- id: RTE-93\n", 1)
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=routes_uri, version=2),
            content_changes=[types.TextDocumentContentChangeWholeDocument(text=edited)],
        )
    )
    assert (await _published(client)).uri == routes_uri
    # The other open file's diagnostics follow in the same re-check.
    for _ in range(int(WAIT_SECONDS / 0.05)):
        if any("RTE-3" in d.message for d in client.diagnostics.get(result_uri, ())):
            break
        await asyncio.sleep(0.05)
    dangling = [d for d in client.diagnostics[result_uri] if "RTE-3" in d.message]
    assert dangling and {d.code for d in dangling} <= {"KB201", "KB202"}


async def test_definition_references_and_hover(client: LanguageClient, workspace: Path) -> None:
    routes = _file(workspace, "oh-my-pi/routes.yaml")
    text = routes.read_text(encoding="utf-8")
    uri = await _open(client, routes)
    mention = _position(text, "RTE-12", offset=2)  # in RTE-1's body: 'Recovery: RTE-12;'
    location = await client.text_document_definition_async(
        types.DefinitionParams(text_document=types.TextDocumentIdentifier(uri=uri), position=mention)
    )
    assert isinstance(location, types.Location)
    assert location.uri == uri
    assert location.range.start == _position(text, "- id: RTE-12\n", offset=len("- id: "))

    found = await client.text_document_references_async(
        types.ReferenceParams(
            text_document=types.TextDocumentIdentifier(uri=uri),
            position=mention,
            context=types.ReferenceContext(include_declaration=True),
        )
    )
    files = {Path(location.uri.removeprefix("file://")).name for location in found}
    assert {"routes.yaml", "result.yaml"} <= files
    in_routes = [location for location in found if location.uri == uri]
    assert len(in_routes) == text.count("RTE-12")  # the declaration included

    hover = await client.text_document_hover_async(
        types.HoverParams(text_document=types.TextDocumentIdentifier(uri=uri), position=mention)
    )
    assert hover is not None and isinstance(hover.contents, types.MarkupContent)
    graph = next(g for g in run_pipeline(workspace / "records", workspace).graphs if g.slug == "oh-my-pi")
    cited = len(graph.cited_by("RTE-12"))
    value = hover.contents.value
    assert value.startswith("**RTE-12**")
    assert "route · declared in `records/oh-my-pi/routes.yaml:" in value
    assert f"referenced by {cited} place(s) on the site" in value
    assert "page: `systems/oh-my-pi/result/#rte-12`" in value
    assert "implementation conclusion status" in value


async def test_completion_of_ids_and_of_a_vocabulary(client: LanguageClient, workspace: Path) -> None:
    routes = _file(workspace, "oh-my-pi/routes.yaml")
    text = routes.read_text(encoding="utf-8")
    uri = await _open(client, routes)
    typed = text.replace("  - strength: protocol\n", "  - strength: \n", 1)
    await _change(client, uri, typed, 2)
    at = _position(typed, "  - strength: \n", offset=len("  - strength: "))
    listed = await client.text_document_completion_async(
        types.CompletionParams(text_document=types.TextDocumentIdentifier(uri=uri), position=at)
    )
    assert isinstance(listed, types.CompletionList)
    assert [item.label for item in listed.items] == [strength.value for strength in GuaranteeStrength]
    typed = text.replace("- id: RTE-2\n", "- id: RTE-2\n  alternative_to: CMP\n", 1)
    await _change(client, uri, typed, 3)
    at = _position(typed, "alternative_to: CMP", offset=len("alternative_to: CMP"))
    listed = await client.text_document_completion_async(
        types.CompletionParams(text_document=types.TextDocumentIdentifier(uri=uri), position=at)
    )
    assert isinstance(listed, types.CompletionList)
    labels = [item.label for item in listed.items]
    assert labels[:2] == ["CMP-1", "CMP-2"] and len(labels) == 14
    assert listed.items[0].detail is not None and listed.items[0].detail.startswith("component — ")


async def test_document_and_workspace_symbols(client: LanguageClient, workspace: Path) -> None:
    routes = _file(workspace, "oh-my-pi/routes.yaml")
    uri = await _open(client, routes)
    symbols = await client.text_document_document_symbol_async(
        types.DocumentSymbolParams(text_document=types.TextDocumentIdentifier(uri=uri))
    )
    names = [symbol.name for symbol in symbols or [] if isinstance(symbol, types.DocumentSymbol)]
    (system,) = check_records(workspace / "records" / "oh-my-pi", workspace)
    declared = [r.id for r in system.records.records if system.records.origin(r).file.endswith("routes.yaml")]  # type: ignore[union-attr]
    assert names == declared
    found = await client.workspace_symbol_async(types.WorkspaceSymbolParams(query="tool-call admission"))
    assert [(symbol.name, symbol.container_name) for symbol in found or []] == [
        ("RTE-2 Tool-call admission → registered executor", "oh-my-pi")
    ]
    every = await client.workspace_symbol_async(types.WorkspaceSymbolParams(query=""))
    assert {symbol.container_name for symbol in every or []} == set(SHIPPED)


async def test_rename_an_id_and_the_refusals(client: LanguageClient, workspace: Path) -> None:
    routes = _file(workspace, "oh-my-pi/routes.yaml")
    text = routes.read_text(encoding="utf-8")
    uri = await _open(client, routes)
    at = _position(text, "- id: RTE-12\n", offset=len("- id: "))
    prepared = await client.text_document_prepare_rename_async(
        types.PrepareRenameParams(text_document=types.TextDocumentIdentifier(uri=uri), position=at)
    )
    assert isinstance(prepared, types.PrepareRenamePlaceholder) and prepared.placeholder == "RTE-12"
    edit = await client.text_document_rename_async(
        types.RenameParams(
            text_document=types.TextDocumentIdentifier(uri=uri), position=at, new_name="RTE-99"
        )
    )
    assert edit is not None and edit.changes is not None
    edited = sum(len(edits) for edits in edit.changes.values())
    # Every RTE-12 token: MEM-RTE-12 (a prefixed ID of its own) is not one.
    token = re.compile(r"(?<![\w.-])RTE-12(?!\w)")
    mentions = sum(
        len(token.findall(p.read_text(encoding="utf-8")))
        for p in (workspace / "records" / "oh-my-pi").iterdir()
    )
    assert edited == mentions
    assert all(e.new_text == "RTE-99" for edits in edit.changes.values() for e in edits)
    for new_name, reason in (
        ("RTE-1", "declared already"),
        ("CMP-99", "another kind"),
        ("rte 99", "not a record ID"),
    ):
        with pytest.raises(JsonRpcException, match=reason):
            await client.text_document_rename_async(
                types.RenameParams(
                    text_document=types.TextDocumentIdentifier(uri=uri), position=at, new_name=new_name
                )
            )


async def test_code_actions(client: LanguageClient, workspace: Path) -> None:
    result = _file(workspace, "oh-my-pi/result.yaml")
    # The shipped ranges span declared routes only (no warning): one spanning RTE-14 to
    # RTE-19, which the seed does not declare, is the KB205 the quick fix writes out.
    ranged_text = result.read_text(encoding="utf-8").replace("RTE-24–RTE-28", "RTE-12–RTE-20")
    uri = await _open(client, result, ranged_text)
    (ranged, *_) = sorted(
        (d for d in client.diagnostics[uri] if d.code == "KB205"), key=lambda d: d.range.start.line
    )
    actions = await client.text_document_code_action_async(
        types.CodeActionParams(
            text_document=types.TextDocumentIdentifier(uri=uri),
            range=ranged.range,
            context=types.CodeActionContext(diagnostics=[ranged]),
        )
    )
    (listed,) = actions or []
    assert isinstance(listed, types.CodeAction)
    assert listed.title == "List each ID: " + ", ".join(f"RTE-{n}" for n in range(12, 21))

    routes = _file(workspace, "oh-my-pi/routes.yaml")
    text = routes.read_text(encoding="utf-8")
    routes_uri = await _open(client, routes)
    misspelt = text.replace(
        "    implementation conclusion status: wired\n", "    implementation conclusion status: wird\n", 1
    )
    published = await _change(client, routes_uri, misspelt, 2)
    (bad,) = published.diagnostics
    assert bad.code == "KB104"
    actions = await client.text_document_code_action_async(
        types.CodeActionParams(
            text_document=types.TextDocumentIdentifier(uri=routes_uri),
            range=bad.range,
            context=types.CodeActionContext(diagnostics=[bad]),
        )
    )
    (fix,) = actions or []
    assert isinstance(fix, types.CodeAction) and fix.title == "Change to 'wired'"
    assert fix.edit is not None and fix.edit.changes is not None
    (change,) = fix.edit.changes[routes_uri]
    assert change.new_text == "wired" and change.range.start == _position(misspelt, "wird")

    dangling = text.replace(
        "Delegated visibility is supplied by RTE-3,", "Delegated visibility is supplied by RTE-93,", 1
    )
    published = await _change(client, routes_uri, dangling, 3)
    (bad,) = published.diagnostics
    actions = await client.text_document_code_action_async(
        types.CodeActionParams(
            text_document=types.TextDocumentIdentifier(uri=routes_uri),
            range=bad.range,
            context=types.CodeActionContext(diagnostics=[bad]),
        )
    )
    (declare,) = actions or []
    assert isinstance(declare, types.CodeAction) and declare.title.startswith(
        "Declare RTE-93 as a supplied record"
    )
    assert declare.edit is not None and declare.edit.changes is not None
    (insert,) = declare.edit.changes[routes_uri]
    assert insert.new_text == "supplied:\n  - id: RTE-93\n    declared_in:\n"


async def test_a_file_outside_the_records_is_not_read(client: LanguageClient, workspace: Path) -> None:
    outside = workspace / "outside.yaml"
    uri = outside.as_uri()
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(
                uri=uri, language_id="yaml", version=1, text=outside.read_text()
            )
        )
    )
    hover = await client.text_document_hover_async(
        types.HoverParams(
            text_document=types.TextDocumentIdentifier(uri=uri), position=types.Position(line=1, character=8)
        )
    )
    assert hover is None
    assert uri not in client.diagnostics


async def test_completion_of_keys_and_of_sources_in_evidence(client: LanguageClient, workspace: Path) -> None:
    routes = _file(workspace, "oh-my-pi/routes.yaml")
    text = routes.read_text(encoding="utf-8")
    uri = await _open(client, routes)
    anchor = "  - SRC-1 packages/coding-agent/src/session/agent-session.ts:6303-6428\n"
    typed = text.replace(anchor, anchor + "  - \n  own\n", 1)
    await _change(client, uri, typed, 2)
    in_evidence = _position(typed, anchor + "  - ", offset=len(anchor) + len("  - "))
    listed = await client.text_document_completion_async(
        types.CompletionParams(text_document=types.TextDocumentIdentifier(uri=uri), position=in_evidence)
    )
    assert isinstance(listed, types.CompletionList)
    assert [item.label for item in listed.items] == ["SRC-1", "SRC-2"]
    key = _position(typed, "\n  own\n", offset=len("\n  own"))
    listed = await client.text_document_completion_async(
        types.CompletionParams(text_document=types.TextDocumentIdentifier(uri=uri), position=key)
    )
    assert isinstance(listed, types.CompletionList)
    assert [(item.label, item.insert_text) for item in listed.items] == [("owner", "owner: ")]


async def test_evidence_anchors_link_to_the_cited_lines(client: LanguageClient, workspace: Path) -> None:
    routes = _file(workspace, "oh-my-pi/routes.yaml")
    uri = await _open(client, routes)
    links = await client.text_document_document_link_async(
        types.DocumentLinkParams(text_document=types.TextDocumentIdentifier(uri=uri))
    )
    graph = next(g for g in run_pipeline(workspace / "records", workspace).graphs if g.slug == "oh-my-pi")
    text = routes.read_text(encoding="utf-8")
    line = _position(text, "  - SRC-1 packages/coding-agent/src/session/agent-session.ts:6303-6428").line
    (first,) = [link for link in links or [] if link.range.start.line == line]
    assert first.range.start.character == len("  - SRC-1 ")
    expected = graph.evidence_url(
        "SRC-1", "packages/coding-agent/src/session/agent-session.ts", LineRange(6303, 6428)
    )
    assert first.target == expected and expected is not None and expected.startswith("https://")


async def test_a_huge_unsaved_file_costs_what_the_check_costs(
    client: LanguageClient, workspace: Path
) -> None:
    routes = _file(workspace, "oh-my-pi/routes.yaml")
    uri = await _open(client, routes)
    published = await _change(client, uri, "routes:\n" + "# padding\n" * 300_000, 2)
    assert [d.code for d in published.diagnostics] == ["KB005"]
    published = await _change(client, uri, routes.read_text(encoding="utf-8"), 3)
    assert published.diagnostics == ()
