"""Hostile corpus, fourth round: the editor stays in the folder it was opened on.

The client's ``initializationOptions.records`` names the records folder. A value that
leads out of the workspace folder (an absolute path elsewhere, ``../``, a symlink that
points out) is refused with a message to the client, and nothing outside is listed, read,
checked or shown. No reply carries a traceback: an internal error answers with a short
message, and the traceback goes to the server's log only.
"""

from __future__ import annotations

import asyncio
import os
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_lsp
from lsp_hostile_support import WAIT_SECONDS, document, open_file
from lsprotocol import types
from pygls.exceptions import JsonRpcException
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities

from generator.lsp.answers import shielded

pytestmark = pytest.mark.slow

SERVER = ClientServerConfig(server_command=[sys.executable, "-m", "generator.cli.main", "lsp"])
SECRET = "routes:\n- id: RTE-1\n  label: Secret label outside\n  secret_key_xyz: 1\n"
RUN = "run:\n  system: Outside\n"

# How each case names the records folder outside the workspace (the option's value).
OUTSIDE = ["absolute", "dot-dot", "symlink", "symlinked-parent"]


@pytest.fixture(scope="module")
def tree(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("round4")
    workspace = root / "workspace"
    (workspace / "records" / "inside").mkdir(parents=True)
    (workspace / "records" / "inside" / "run.yaml").write_text("run:\n  system: Inside\n", encoding="utf-8")
    (workspace / "records" / "inside" / "routes.yaml").write_text(
        "routes:\n- id: RTE-1\n  label: Inside label\n", encoding="utf-8"
    )
    system = root / "outside" / "records" / "secret"
    system.mkdir(parents=True)
    (system / "run.yaml").write_text(RUN, encoding="utf-8")
    (system / "routes.yaml").write_text(SECRET, encoding="utf-8")
    os.symlink(root / "outside" / "records", workspace / "linked-records", target_is_directory=True)
    os.symlink(root / "outside", workspace / "linked-parent", target_is_directory=True)
    return root


def _option(tree: Path, case: str) -> str:
    return {
        "absolute": str(tree / "outside" / "records"),
        "dot-dot": "../outside/records",
        "symlink": "linked-records",
        "symlinked-parent": "linked-parent/records",
    }[case]


async def _initialize(client: LanguageClient, workspace: Path, records: str | None) -> None:
    await client.initialize_session(
        types.InitializeParams(
            capabilities=client_capabilities("visual-studio-code"),
            root_uri=workspace.as_uri(),
            workspace_folders=[types.WorkspaceFolder(uri=workspace.as_uri(), name="kb")],
            initialization_options={"records": records} if records is not None else None,
        )
    )


@pytest_lsp.fixture(config=SERVER, params=OUTSIDE)
async def outside_client(
    lsp_client: LanguageClient, tree: Path, request: pytest.FixtureRequest
) -> AsyncIterator[None]:
    await _initialize(lsp_client, tree / "workspace", _option(tree, request.param))
    yield
    await lsp_client.shutdown_session()


@pytest_lsp.fixture(config=SERVER)
async def inside_client(lsp_client: LanguageClient, tree: Path) -> AsyncIterator[None]:
    await _initialize(lsp_client, tree / "workspace", "records")
    yield
    await lsp_client.shutdown_session()


async def _messages(client: LanguageClient) -> list[types.ShowMessageParams]:
    for _ in range(50):
        if client.messages:
            break
        await asyncio.sleep(0.1)
    return list(client.messages)


async def test_a_records_option_leading_out_of_the_workspace_is_refused_and_said(
    outside_client: LanguageClient, tree: Path
) -> None:
    messages = await _messages(outside_client)
    assert [message.type for message in messages] == [types.MessageType.Warning]
    text = messages[0].message
    assert text.startswith("kbgen: refused") and "checked" in text and "Traceback" not in text
    # A records folder that is itself a symlink is KB008, as `kbgen check` says; any other
    # way out names the workspace it leaves.
    assert ("KB008" in text) if "linked-records" in text else ("outside the workspace" in text)


async def test_nothing_outside_is_listed_read_or_checked(outside_client: LanguageClient, tree: Path) -> None:
    symbols = await outside_client.workspace_symbol_async(types.WorkspaceSymbolParams(query=""))
    assert not symbols
    path = tree / "outside" / "records" / "secret" / "routes.yaml"
    uri = open_file(outside_client, path)
    hover = await asyncio.wait_for(
        outside_client.text_document_hover_async(
            types.HoverParams(text_document=document(uri), position=types.Position(line=1, character=8))
        ),
        WAIT_SECONDS,
    )
    assert hover is None
    symbols = await outside_client.text_document_document_symbol_async(
        types.DocumentSymbolParams(text_document=document(uri))
    )
    assert not symbols
    await asyncio.sleep(0.5)
    assert uri not in outside_client.diagnostics  # not checked: no secret_key_xyz KB103


async def test_a_records_option_inside_the_workspace_is_read(inside_client: LanguageClient) -> None:
    symbols = await inside_client.workspace_symbol_async(types.WorkspaceSymbolParams(query="Inside"))
    assert symbols and {symbol.container_name for symbol in symbols} == {"inside"}
    assert inside_client.messages == []


async def test_an_internal_error_answers_without_a_traceback(caplog: pytest.LogCaptureFixture) -> None:
    async def hover(ls: object, params: object) -> None:
        raise ValueError("lookup failed in /home/someone/secret/path")

    with pytest.raises(JsonRpcException) as raised:
        await shielded(hover)(None, None)
    answer = raised.value.to_response_error()
    assert answer.code == -32603
    assert answer.data is None
    assert "secret" not in answer.message and "Traceback" not in answer.message
    assert "Traceback" in caplog.text and "secret/path" in caplog.text  # the server's log keeps it


def test_a_synchronous_handler_is_shielded_too(caplog: pytest.LogCaptureFixture) -> None:
    def initialized(ls: object, params: object) -> None:
        raise KeyError("options")

    with pytest.raises(JsonRpcException) as raised:
        shielded(initialized)(None, None)
    assert raised.value.to_response_error().data is None
    assert "Traceback" in caplog.text


async def test_every_handler_the_server_registers_is_shielded() -> None:
    from generator.lsp.server import RecordsServer

    server = RecordsServer()

    @server.feature("kbgen/boom")
    async def boom(ls: RecordsServer, params: object) -> None:
        raise RuntimeError("/home/someone/.ssh/id_rsa")

    registered = server.protocol.fm.features["kbgen/boom"]
    with pytest.raises(JsonRpcException) as raised:
        await registered(None)
    assert raised.value.to_response_error().data is None
    assert ".ssh" not in raised.value.to_response_error().message
