"""``kbgen lsp`` as a door for untrusted records: the real server over stdio (pytest-lsp) on a
hostile workspace.

The editor goes through the build's doors: its links come from the one link builder and
its policy (http/https only, none for a source the check refuses), its Markdown from the
one escaper, its reads from the one reader (no symlinked records folder, no read of a file
it was not given), its diagnostics capped as ``kbgen check`` caps them, its positions
converted in time linear in a line. A malformed message gets a JSON-RPC error and the
server goes on answering. Timings are printed (``pytest -s``), never asserted: the machine
is shared.
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
import time
from collections import Counter
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
import pytest_lsp
from lsp_hostile_support import (
    HOSTILE_NAMES,
    HOSTILE_SOURCES,
    READABLE,
    bad_lines,
    document,
    initialize,
    links_system,
    long_line_system,
    names_system,
    open_file,
    published,
    utf16_column,
)
from lsprotocol import types
from markdown_it import MarkdownIt
from pygls.exceptions import JsonRpcException
from pytest_lsp import ClientServerConfig, LanguageClient

from generator.check.report import MAX_PER_RULE_AND_FILE

# Slow: each test starts the real server over stdio; some feed it hundreds of thousands
# of lines.
pytestmark = pytest.mark.slow

SERVER = ClientServerConfig(server_command=[sys.executable, "-m", "generator.cli.main", "lsp"])
LONG_LINES = (1_000, 4_000)
INVALID_PARAMS = -32602
PARSE_ERROR = -32700


@pytest.fixture(scope="module")
def hostile(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("hostile")
    records = root / "records"
    links_system(records / "links")
    names_system(records / "names")
    for mentions in LONG_LINES:
        long_line_system(records / f"long-{mentions}", mentions)
    (records / "huge").mkdir()
    (records / "huge" / "run.yaml").write_text("run:\n  system: Huge\n", encoding="utf-8")
    (records / "huge" / "routes.yaml").write_text("routes: []\n", encoding="utf-8")
    secret = root / "elsewhere" / "secret"
    secret.mkdir(parents=True)
    (secret / "routes.yaml").write_text(
        "routes:\n- id: RTE-1\n  label: Secret label\n  secret_key_xyz: 1\n", encoding="utf-8"
    )
    os.symlink(secret, records / "linked", target_is_directory=True)  # a system folder symlink
    os.mkfifo(root / "records" / "names" / "pipe.yaml")  # refused by the walk, never read
    return root


@pytest.fixture(scope="module")
def linked(tmp_path_factory: pytest.TempPathFactory, hostile: Path) -> Path:
    """A workspace whose records folder is a symlink to the hostile workspace's records."""
    root = tmp_path_factory.mktemp("linked")
    os.symlink(hostile / "records", root / "records", target_is_directory=True)
    return root


@pytest_lsp.fixture(config=SERVER)
async def client(lsp_client: LanguageClient, hostile: Path) -> AsyncIterator[None]:
    await initialize(lsp_client, hostile)
    yield
    await lsp_client.shutdown_session()


@pytest_lsp.fixture(config=SERVER)
async def linked_client(lsp_client: LanguageClient, linked: Path) -> AsyncIterator[None]:
    await initialize(lsp_client, linked)
    yield
    await lsp_client.shutdown_session()


def _frame(message: dict[str, object]) -> bytes:
    body = json.dumps(message).encode("utf-8")
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


def _markdown_links(value: str) -> list[str]:
    """Every link and image a Markdown renderer (markdown-it, as VS Code's) makes of a text."""
    found = []
    for token in MarkdownIt("commonmark").parseInline(value):
        for child in token.children or []:
            if child.type in ("link_open", "image"):
                found.append(f"{child.type} {child.attrGet('href') or child.attrGet('src')}")
            if child.type == "html_inline":
                found.append(f"html {child.content}")
    return found


# ---------------------------------------------------------------- links


async def test_no_link_leaves_http_and_none_is_made_for_a_refused_source(
    client: LanguageClient, hostile: Path
) -> None:
    routes = hostile / "records" / "links" / "routes.yaml"
    uri = open_file(client, routes)
    await published(client, uri)
    links = await client.text_document_document_link_async(
        types.DocumentLinkParams(text_document=document(uri))
    )
    text = routes.read_text(encoding="utf-8").split("\n")
    cited = [text[link.range.start.line][: link.range.start.character].split()[-1] for link in links or []]
    targets = [link.target or "" for link in links or []]
    assert targets and all(target.startswith("https://github.com/example/demo/blob/") for target in targets)
    assert set(cited) == {"SRC-1"}  # an anchor line's source, and the prose's: SRC-1's alone
    assert len(targets) == 2 and not any(sid in " ".join(targets) for sid in HOSTILE_SOURCES)


async def test_the_check_refuses_each_hostile_source_the_editor_links_none_of(
    client: LanguageClient, hostile: Path
) -> None:
    sources = hostile / "records" / "links" / "sources.yaml"
    uri = open_file(client, sources)
    found = await published(client, uri)
    codes = Counter(str(d.code) for d in found.diagnostics)
    assert codes["KB406"] + codes["KB407"] >= len(HOSTILE_SOURCES)


# ---------------------------------------------------------------- hover


@pytest.mark.parametrize("number", range(1, len(HOSTILE_NAMES) + 1))
async def test_a_hostile_file_name_is_refused_unread_and_shown_literally(
    client: LanguageClient, hostile: Path, number: int
) -> None:
    name = HOSTILE_NAMES[number - 1]
    uri = open_file(client, hostile / "records" / "names" / name)
    found = await published(client, uri)
    assert [(str(d.code), d.range.start.line, d.range.start.character) for d in found.diagnostics] == [
        ("KB014", 0, 0)
    ]
    assert repr(name) in found.diagnostics[0].message  # plain text: the name as it is on disk
    hover = await client.text_document_hover_async(
        types.HoverParams(text_document=document(uri), position=types.Position(line=1, character=8))
    )
    assert hover is None  # nothing of a refused file is read


async def test_the_hover_shows_record_text_literally(client: LanguageClient, hostile: Path) -> None:
    uri = open_file(client, hostile / "records" / "names" / READABLE)
    await published(client, uri)
    hover = await client.text_document_hover_async(
        types.HoverParams(text_document=document(uri), position=types.Position(line=1, character=8))
    )
    assert hover is not None and isinstance(hover.contents, types.MarkupContent)
    value = hover.contents.value
    assert value.startswith("**RTE-1**")
    assert _markdown_links(value) == [], value
    assert "records/names/" in value and ".yaml:2" in value


# ---------------------------------------------------------------- the one reader


async def test_a_symlinked_records_folder_is_not_read(linked_client: LanguageClient, linked: Path) -> None:
    symbols = await linked_client.workspace_symbol_async(types.WorkspaceSymbolParams(query=""))
    assert symbols == [] or symbols is None
    assert [message.type for message in linked_client.messages] == [types.MessageType.Warning]
    assert "KB008" in linked_client.messages[0].message
    path = linked / "records" / "linked" / "routes.yaml"
    uri = open_file(linked_client, path, "routes:\n- id: RTE-1\n  label: Secret label\n  secret_key_xyz: 1\n")
    hover = await linked_client.text_document_hover_async(
        types.HoverParams(text_document=document(uri), position=types.Position(line=1, character=8))
    )
    assert hover is None
    names = linked / "records" / "names" / HOSTILE_NAMES[0]
    names_uri = open_file(linked_client, names)
    links = await linked_client.text_document_document_link_async(
        types.DocumentLinkParams(text_document=document(names_uri))
    )
    assert not links
    await asyncio.sleep(0.5)
    assert uri not in linked_client.diagnostics and names_uri not in linked_client.diagnostics


async def test_a_symlinked_system_folder_is_neither_listed_nor_read(client: LanguageClient) -> None:
    symbols = await client.workspace_symbol_async(types.WorkspaceSymbolParams(query="Secret"))
    assert not symbols
    every = await client.workspace_symbol_async(types.WorkspaceSymbolParams(query=""))
    assert every and {symbol.container_name for symbol in every} >= {"links", "names"}
    assert "linked" not in {symbol.container_name for symbol in every}


async def test_a_change_of_a_file_never_opened_reads_nothing(client: LanguageClient, hostile: Path) -> None:
    """An edit of an unopened file (here a FIFO, which would block a read for good) is dropped."""
    fifo = hostile / "records" / "names" / "pipe.yaml"
    for changes in ([], [types.TextDocumentContentChangeWholeDocument(text="routes: []\n")]):
        client.text_document_did_change(
            types.DidChangeTextDocumentParams(
                text_document=types.VersionedTextDocumentIdentifier(uri=fifo.as_uri(), version=2),
                content_changes=changes,
            )
        )
    completion = await asyncio.wait_for(
        client.text_document_completion_async(
            types.CompletionParams(
                text_document=document(fifo.as_uri()), position=types.Position(line=0, character=0)
            )
        ),
        30,
    )
    assert isinstance(completion, types.CompletionList)  # answered: nothing blocked on the FIFO
    assert not any(item.kind == types.CompletionItemKind.Reference for item in completion.items)
    assert fifo.as_uri() not in client.diagnostics


# ---------------------------------------------------------------- caps and time


async def _timed_open(
    client: LanguageClient, path: Path, text: str
) -> tuple[types.PublishDiagnosticsParams, float]:
    started = time.perf_counter()
    uri = open_file(client, path, text)
    found = await published(client, uri)
    return found, time.perf_counter() - started


def _assert_capped(found: types.PublishDiagnosticsParams, total: int) -> None:
    codes = Counter(str(d.code) for d in found.diagnostics)
    assert codes["KB101"] == MAX_PER_RULE_AND_FILE + 1  # the first ones and one summary
    summary = found.diagnostics[-1]
    assert summary.severity == types.DiagnosticSeverity.Information
    assert f"and {total - MAX_PER_RULE_AND_FILE} more KB101" in summary.message
    assert summary.range.start.line == MAX_PER_RULE_AND_FILE + 1  # where the first held back is


async def _answers_while_checking(client: LanguageClient, hostile: Path) -> float:
    """The time a request about another system takes while a huge file is being checked."""
    other = (hostile / "records" / "links" / "routes.yaml").as_uri()
    started = time.perf_counter()
    await client.text_document_document_link_async(types.DocumentLinkParams(text_document=document(other)))
    return time.perf_counter() - started


async def test_the_diagnostics_of_a_file_of_20000_bad_lines_are_capped(
    client: LanguageClient, hostile: Path
) -> None:
    path = hostile / "records" / "huge" / "routes.yaml"
    found, seconds = await _timed_open(client, path, bad_lines(20_000))
    print(f"\n20,000 bad lines: {len(found.diagnostics)} diagnostics published in {seconds:.2f} s")
    _assert_capped(found, 19_999)


@pytest.mark.slow
async def test_the_diagnostics_of_a_file_of_400000_bad_lines_are_capped_and_the_server_answers(
    client: LanguageClient, hostile: Path
) -> None:
    path = hostile / "records" / "huge" / "routes.yaml"
    started = time.perf_counter()
    uri = open_file(client, path, bad_lines(400_000))
    await asyncio.sleep(1)  # the check has started
    answered = await _answers_while_checking(client, hostile)
    found = await published(client, uri)
    seconds = time.perf_counter() - started
    print(
        f"\n400,000 bad lines: {len(found.diagnostics)} diagnostics published in {seconds:.2f} s; "
        f"a request about another system answered in {answered:.2f} s meanwhile"
    )
    _assert_capped(found, 399_999)


@pytest.mark.parametrize("mentions", LONG_LINES)
async def test_positions_on_a_line_of_thousands_of_mentions(
    client: LanguageClient, hostile: Path, mentions: int
) -> None:
    path = hostile / "records" / f"long-{mentions}" / "routes.yaml"
    text = path.read_text(encoding="utf-8")
    started = time.perf_counter()
    uri = open_file(client, path)
    await published(client, uri)
    opened = time.perf_counter() - started

    started = time.perf_counter()
    links = await client.text_document_document_link_async(
        types.DocumentLinkParams(text_document=document(uri))
    )
    linked = time.perf_counter() - started
    assert links is not None and len(links) == mentions

    declaration = types.Position(line=1, character=len("- id: "))
    started = time.perf_counter()
    found = await client.text_document_references_async(
        types.ReferenceParams(
            text_document=document(uri),
            position=declaration,
            context=types.ReferenceContext(include_declaration=True),
        )
    )
    referenced = time.perf_counter() - started
    assert found is not None and len(found) == mentions + 1
    lines = text.split("\n")
    line = lines[found[-1].range.start.line]
    last = line.rindex("RTE-1")
    assert found[-1].range.start.character == utf16_column(line, last)  # UTF-16, past the emoji

    started = time.perf_counter()
    edit = await client.text_document_rename_async(
        types.RenameParams(text_document=document(uri), position=declaration, new_name="RTE-2")
    )
    renamed = time.perf_counter() - started
    assert edit is not None and edit.changes is not None and len(edit.changes[uri]) == mentions + 1
    print(
        f"\n{mentions} mentions on one line: open to diagnostics {opened:.2f} s, links {linked:.2f} s, "
        f"references {referenced:.2f} s, rename {renamed:.2f} s"
    )


# ---------------------------------------------------------------- malformed messages


async def _still_answers(client: LanguageClient, hostile: Path) -> None:
    uri = (hostile / "records" / "names" / READABLE).as_uri()
    hover = await asyncio.wait_for(
        client.text_document_hover_async(
            types.HoverParams(text_document=document(uri), position=types.Position(line=1, character=8))
        ),
        30,
    )
    assert hover is not None


class Answers:
    """The answers the client receives to messages the test wrote itself, by id (pygls'
    client passes over an answer to a request it did not send)."""

    def __init__(self, client: LanguageClient) -> None:
        self.by_id: dict[object, asyncio.Future[object]] = {}
        self._client = client
        self._original = client.protocol.handle_message
        client.protocol.handle_message = self._seen  # type: ignore[method-assign]

    def _seen(self, message: Any) -> None:
        waiting = self.by_id.get(getattr(message, "id", "none"))
        if waiting is not None and not waiting.done():
            waiting.set_result(message)
            return
        self._original(message)

    async def send(self, frame: bytes, answer_id: object) -> object:
        self.by_id[answer_id] = asyncio.get_running_loop().create_future()
        writer = self._client.protocol.writer
        assert writer is not None
        writer.write(frame)
        return await asyncio.wait_for(self.by_id[answer_id], 30)


@pytest.mark.parametrize(
    "position",
    [
        {"line": -1, "character": 0},
        {"line": 0, "character": -5},
        {"line": "one", "character": 0},
        {"line": None, "character": 0},
        {"line": 2**40, "character": 0},
        "nowhere",
    ],
)
async def test_a_malformed_position_gets_invalid_params_and_the_server_goes_on(
    client: LanguageClient, hostile: Path, position: object, capfd: pytest.CaptureFixture[str]
) -> None:
    uri = (hostile / "records" / "names" / READABLE).as_uri()
    request = {
        "jsonrpc": "2.0",
        "id": 7001,
        "method": "textDocument/hover",
        "params": {"textDocument": {"uri": uri}, "position": position},
    }
    answer = await Answers(client).send(_frame(request), 7001)
    assert getattr(answer, "error", None) is not None, answer
    assert answer.error.code == INVALID_PARAMS  # type: ignore[attr-defined]
    assert "position" in answer.error.message  # type: ignore[attr-defined]
    await _still_answers(client, hostile)
    await asyncio.sleep(0.3)
    assert "Traceback" not in capfd.readouterr().err


async def test_a_refused_rename_is_an_error_answer_without_a_traceback(
    client: LanguageClient, hostile: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    path = hostile / "records" / "names" / READABLE
    uri = open_file(client, path)
    await published(client, uri)
    for new_name in ("not an id", "CLM-9", "RTE-2"):
        with pytest.raises(JsonRpcException) as raised:
            await client.text_document_rename_async(
                types.RenameParams(
                    text_document=document(uri),
                    position=types.Position(line=1, character=8),
                    new_name=new_name,
                )
            )
        assert raised.value.code == types.LSPErrorCodes.RequestFailed
    await asyncio.sleep(0.3)  # the server's stderr is forwarded as it comes
    assert "Traceback" not in capfd.readouterr().err


@pytest.mark.parametrize(
    "frame",
    [
        b"Content-Length: abc\r\n\r\n" + b'{"jsonrpc": "2.0", "id": 900, "method": "shutdown"}',
        b"Content-Length: 5\r\n\r\n" + b'{"jsonrpc": "2.0", "id": 901, "method": "shutdown"}',
        b"Content-Length: 4000\r\n\r\n" + b'{"jsonrpc": "2.0", "id": 902, "method": "shutdown"}',
        b"Content-Length: 99999999999999\r\n\r\n",
        b"Content-Length: 12\r\n\r\nnot json at!",
        b"garbage without any header\r\n\r\n",
        _frame({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": 5}}),
        _frame({"jsonrpc": "2.0", "id": [1], "method": "textDocument/hover", "params": {}}),
    ],
    ids=[
        "not-a-number",
        "too-short",
        "too-long",
        "over-the-cap",
        "not-json",
        "garbage",
        "mistyped-notification",
        "mistyped-id",
    ],
)
async def test_a_malformed_frame_costs_nothing_after_it(
    client: LanguageClient, hostile: Path, frame: bytes, capfd: pytest.CaptureFixture[str]
) -> None:
    """The frame's own message is lost (or answered with a parse error); the next is read."""
    writer = client.protocol.writer
    assert writer is not None
    writer.write(frame)
    await _still_answers(client, hostile)
    await asyncio.sleep(0.3)
    assert "Traceback" not in capfd.readouterr().err


async def test_a_body_that_is_not_json_gets_a_parse_error(client: LanguageClient) -> None:
    answer = await Answers(client).send(b"Content-Length: 12\r\n\r\nnot json at!", None)
    assert answer.error.code == PARSE_ERROR  # type: ignore[attr-defined]
