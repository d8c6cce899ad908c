"""``kbgen lsp``: a Language Server Protocol server for record files, over stdio (pygls).

Each handler is a few lines: it finds the system the file belongs to
(``workspace.RecordsWorkspace``), asks that system's analysis (``analysis.SystemAnalysis``)
or the editing helpers (``features.py``), and converts positions between the analysis'
character columns and the client's units (``positions.py``). An edit re-checks only the
system it touched, after a short pause in typing; a save re-checks at once. A check runs in
a worker thread, one at a time per system, so a huge file costs CPU but never stops the
server answering; a request about a system being checked waits for that check.

Messages reach pygls through ``stream.py``, which answers a malformed one with a JSON-RPC
error and keeps the stream; a request the server refuses (a rename it will not do) is an
answer, logged without a traceback. Every handler is registered through
``answers.shielded``: a failure answers with a short message and leaves its traceback in
the server's log (stderr), never in a reply. The records folder the client names
(``initializationOptions.records``) must lie inside the workspace folder, or nothing is read.
"""

from __future__ import annotations

import asyncio
import logging
import sys
from pathlib import Path
from typing import Any, BinaryIO
from urllib.parse import unquote

from lsprotocol import types
from pygls.exceptions import FeatureRequestError, JsonRpcException
from pygls.io_ import StdoutWriter
from pygls.lsp.server import LanguageServer
from pygls.uris import from_fs_path, to_fs_path

from generator import __version__
from generator.lsp import features
from generator.lsp.analysis import SystemAnalysis
from generator.lsp.answers import shielded
from generator.lsp.diagnostics import diagnostics_by_file
from generator.lsp.positions import LineTables, Positions
from generator.lsp.stream import MessageGate, serve
from generator.lsp.workspace import RecordsWorkspace, records_folder

log = logging.getLogger("kbgen.lsp")

INTERNAL_ERROR_NOTICE = "kbgen: an internal error occurred; the server's log has the details"
DEBOUNCE_SECONDS = 0.15  # a pause in typing this long re-checks the system
ID_TRIGGERS = ["-"]  # typing RTE- asks for the system's routes


class RefusedRequest(JsonRpcException):
    """A request the server answers with a refusal (RequestFailed and the reason): an
    answer, not a failure, so its log line carries no traceback."""

    CODE = types.LSPErrorCodes.RequestFailed


class _QuietRefusals(logging.Filter):
    """Drops pygls' traceback for a refused request: the client has the reason already."""

    def filter(self, record: logging.LogRecord) -> bool:
        error = record.exc_info[1] if record.exc_info else None
        return not isinstance(error, RefusedRequest)


class RecordsServer(LanguageServer):
    """The server: the workspace's records, the pending re-checks, the published files."""

    def __init__(self) -> None:
        super().__init__("kbgen", __version__, text_document_sync_kind=types.TextDocumentSyncKind.Full)
        self.records: RecordsWorkspace | None = None
        self.pending: dict[Path, asyncio.Task[None]] = {}
        self.published: dict[Path, set[Path]] = {}  # system folder → files given diagnostics
        self.tables = LineTables()
        self._checking: dict[Path, asyncio.Lock] = {}

    def records_workspace(self) -> RecordsWorkspace:
        if self.records is None:
            root = Path(to_fs_path(self.workspace.root_uri) or ".") if self.workspace.root_uri else Path.cwd()
            self.records = RecordsWorkspace(root, root / "records")
        return self.records

    def positions(self) -> Positions:
        return Positions(self.workspace, self.records_workspace(), self.tables)

    def is_open(self, uri: str) -> bool:
        return unquote(uri) in self.workspace.text_documents

    def checking(self, folder: Path) -> asyncio.Lock:
        """The lock one system's checks take: never two at once, requests wait for one."""
        return self._checking.setdefault(folder, asyncio.Lock())

    async def settled(self, path: Path) -> None:
        """Make sure the file's system has a current analysis, made in a worker thread (a
        request about a system being checked waits for that check, not a second one)."""
        records = self.records_workspace()
        folder = records.system_of(path)
        if folder is not None:
            async with self.checking(folder):
                await asyncio.to_thread(records.analysis, folder)

    async def recheck(self, folder: Path, edited: Path | None = None) -> None:
        """Check one system again in a worker thread and publish the diagnostics of its open
        files (the edited file's first: that is what the analyst is looking at)."""
        records = self.records_workspace()
        async with self.checking(folder):
            versions = {
                uri: document.version for uri, document in list(self.workspace.text_documents.items())
            }
            try:
                analysis = await asyncio.to_thread(records.refresh, folder)
            except Exception:  # a failure of one check must not end the editor's session
                log.exception("checking %s failed", folder)
                return
        self.publish(folder, analysis, edited, versions)

    def publish(
        self, folder: Path, analysis: SystemAnalysis, edited: Path | None, versions: dict[str, int | None]
    ) -> None:
        records = self.records_workspace()
        by_file = diagnostics_by_file(analysis, self.positions())
        shown = set(records.open_paths(folder)) | self.published.get(folder, set())
        first = edited.resolve() if edited is not None else None
        for path in sorted(shown, key=lambda path: (path != first, path)):
            uri = str(from_fs_path(str(path)))
            self.text_document_publish_diagnostics(
                types.PublishDiagnosticsParams(
                    uri=uri, diagnostics=by_file.get(path, []), version=versions.get(unquote(uri))
                )
            )
        self.published[folder] = {path for path in shown if by_file.get(path)}

    def recheck_later(self, folder: Path, edited: Path) -> None:
        """Re-check after a pause in typing: a newer edit of the system cancels this one
        while it waits (a check that has started runs to its end, then the newer one)."""
        earlier = self.pending.pop(folder, None)
        if earlier is not None:
            earlier.cancel()

        async def later() -> None:
            try:
                await asyncio.sleep(DEBOUNCE_SECONDS)
            except asyncio.CancelledError:
                return
            if self.pending.get(folder) is asyncio.current_task():
                del self.pending[folder]
            await self.recheck(folder, edited)

        self.pending[folder] = asyncio.create_task(later())

    def admit(self, message: Any) -> bool:
        """Whether a typed message goes on to pygls: an edit of a file the editor never
        opened is dropped (pygls would read the file from disk, outside the loader's door)."""
        if isinstance(message, types.DidChangeTextDocumentNotification) and not self.is_open(
            message.params.text_document.uri
        ):
            log.warning("dropped a change of a file that is not open: %s", message.params.text_document.uri)
            return False
        return True

    def feature(self, feature_name: str, options: Any | None = None) -> Any:
        """pygls' registration, of the handler ``answers.shielded``: no reply carries a traceback."""
        register = super().feature(feature_name, options)

        def decorator(handler: Any) -> Any:
            register(shielded(handler))
            return handler

        return decorator

    def report_server_error(self, error: Exception, source: Any) -> None:
        """A failed request is answered in its reply; any other failure is said in one fixed
        line (pygls would show the exception's text, which may name the server's files)."""
        if isinstance(error, RefusedRequest) or source is FeatureRequestError:
            return
        self.window_show_message(
            types.ShowMessageParams(type=types.MessageType.Error, message=INTERNAL_ERROR_NOTICE)
        )

    def start_io(self, stdin: BinaryIO | None = None, stdout: BinaryIO | None = None) -> None:
        """Serve over stdio through ``stream.serve`` (pygls' handlers, this reader)."""
        self.protocol.set_writer(StdoutWriter(stdout or sys.stdout.buffer))
        gate = MessageGate(self.protocol, self.admit)
        try:
            asyncio.run(serve(stdin or sys.stdin.buffer, self.thread_pool, gate))
        except BrokenPipeError:
            log.error("the client closed the connection")
        except (KeyboardInterrupt, SystemExit):
            pass
        finally:
            self.shutdown()


server = RecordsServer()


def _path(uri: str) -> Path:
    return Path(to_fs_path(uri) or uri)


@server.feature(types.INITIALIZE)
def _initialize(ls: RecordsServer, params: types.InitializeParams) -> None:
    options = params.initialization_options if isinstance(params.initialization_options, dict) else {}
    root = Path(to_fs_path(ls.workspace.root_uri) or ".") if ls.workspace.root_uri else Path.cwd()
    records, refusal = records_folder(root, str(options.get("records") or "records"))
    ls.records = RecordsWorkspace(root, records, refusal=refusal)


@server.feature(types.INITIALIZED)
def _initialized(ls: RecordsServer, params: types.InitializedParams) -> None:
    """Say once why nothing will be checked when the records folder is refused: it lies
    outside the workspace folder, or it is a symlink (KB008)."""
    records = ls.records_workspace()
    if records.refusal is not None:
        message = f"kbgen: refused the records folder {records.refusal}; nothing is checked"
        log.warning("%s", message.removeprefix("kbgen: "))
        ls.window_show_message(types.ShowMessageParams(type=types.MessageType.Warning, message=message))
    elif records.root_refused() and records.records.is_symlink():
        message = (
            f"kbgen: refused {records.records}: it is a symlink, and records are read only from "
            "a regular folder (KB008); nothing below it is checked"
        )
        log.warning("%s", message.removeprefix("kbgen: "))
        ls.window_show_message(types.ShowMessageParams(type=types.MessageType.Warning, message=message))


@server.feature(types.TEXT_DOCUMENT_DID_OPEN)
async def _did_open(ls: RecordsServer, params: types.DidOpenTextDocumentParams) -> None:
    path = _path(params.text_document.uri)
    folder = ls.records_workspace().hold(path, params.text_document.text)
    if folder is not None:
        await ls.recheck(folder, path)


@server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
def _did_change(ls: RecordsServer, params: types.DidChangeTextDocumentParams) -> None:
    document = ls.workspace.text_documents.get(unquote(params.text_document.uri))
    if document is None:  # not open: nothing to hold (see RecordsServer.admit)
        return
    path = _path(params.text_document.uri)
    folder = ls.records_workspace().hold(path, document.source)
    if folder is not None:
        ls.recheck_later(folder, path)


@server.feature(types.TEXT_DOCUMENT_DID_SAVE, types.SaveOptions(include_text=False))
async def _did_save(ls: RecordsServer, params: types.DidSaveTextDocumentParams) -> None:
    path = _path(params.text_document.uri)
    folder = ls.records_workspace().system_of(path)
    if folder is not None:
        await ls.recheck(folder, path)


@server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
async def _did_close(ls: RecordsServer, params: types.DidCloseTextDocumentParams) -> None:
    path = _path(params.text_document.uri)
    folder = ls.records_workspace().release(path)
    ls.text_document_publish_diagnostics(
        types.PublishDiagnosticsParams(uri=params.text_document.uri, diagnostics=[])
    )
    if folder is not None:
        ls.published.get(folder, set()).discard(path.resolve())
        await ls.recheck(folder)


@server.feature(types.TEXT_DOCUMENT_DEFINITION)
async def _definition(ls: RecordsServer, params: types.DefinitionParams) -> types.Location | None:
    path = _path(params.text_document.uri)
    await ls.settled(path)
    return features.definition(ls.records_workspace(), ls.positions(), path, params.position)


@server.feature(types.TEXT_DOCUMENT_REFERENCES)
async def _references(ls: RecordsServer, params: types.ReferenceParams) -> list[types.Location]:
    path = _path(params.text_document.uri)
    await ls.settled(path)
    return features.references(
        ls.records_workspace(), ls.positions(), path, params.position, params.context.include_declaration
    )


@server.feature(types.TEXT_DOCUMENT_HOVER)
async def _hover(ls: RecordsServer, params: types.HoverParams) -> types.Hover | None:
    path = _path(params.text_document.uri)
    await ls.settled(path)
    return features.hover(ls.records_workspace(), ls.positions(), path, params.position)


@server.feature(types.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
async def _document_symbols(
    ls: RecordsServer, params: types.DocumentSymbolParams
) -> list[types.DocumentSymbol]:
    path = _path(params.text_document.uri)
    await ls.settled(path)
    return features.document_symbols(ls.records_workspace(), ls.positions(), path)


@server.feature(types.WORKSPACE_SYMBOL)
async def _workspace_symbols(
    ls: RecordsServer, params: types.WorkspaceSymbolParams
) -> list[types.WorkspaceSymbol]:
    records = ls.records_workspace()
    await asyncio.to_thread(lambda: list(records.every_analysis()))  # each system made current
    return features.workspace_symbols(records, ls.positions(), params.query)


@server.feature(types.TEXT_DOCUMENT_COMPLETION, types.CompletionOptions(trigger_characters=ID_TRIGGERS))
async def _completion(ls: RecordsServer, params: types.CompletionParams) -> types.CompletionList:
    path = _path(params.text_document.uri)
    await ls.settled(path)
    return features.completion(ls.records_workspace(), ls.positions(), path, params.position)


@server.feature(types.TEXT_DOCUMENT_DOCUMENT_LINK)
async def _document_links(ls: RecordsServer, params: types.DocumentLinkParams) -> list[types.DocumentLink]:
    path = _path(params.text_document.uri)
    await ls.settled(path)
    return features.document_links(ls.records_workspace(), ls.positions(), path)


@server.feature(types.TEXT_DOCUMENT_PREPARE_RENAME)
async def _prepare_rename(ls: RecordsServer, params: types.PrepareRenameParams) -> Any:
    path = _path(params.text_document.uri)
    await ls.settled(path)
    return features.prepare_rename(ls.records_workspace(), ls.positions(), path, params.position)


@server.feature(types.TEXT_DOCUMENT_RENAME)
async def _rename(ls: RecordsServer, params: types.RenameParams) -> types.WorkspaceEdit:
    path = _path(params.text_document.uri)
    await ls.settled(path)
    try:
        return features.rename(ls.records_workspace(), ls.positions(), path, params.position, params.new_name)
    except features.Refused as refusal:
        log.info("rename refused: %s", refusal)
        raise RefusedRequest(str(refusal)) from None


@server.feature(
    types.TEXT_DOCUMENT_CODE_ACTION,
    types.CodeActionOptions(code_action_kinds=[types.CodeActionKind.QuickFix]),
)
async def _code_actions(ls: RecordsServer, params: types.CodeActionParams) -> list[types.CodeAction]:
    path = _path(params.text_document.uri)
    await ls.settled(path)
    return features.code_actions(ls.records_workspace(), ls.positions(), path, params.context.diagnostics)


def run() -> None:
    """Serve over stdio until the client exits (stdout is the protocol: logs go to stderr)."""
    logging.basicConfig(level=logging.WARNING, format="kbgen lsp: %(levelname)s %(message)s")
    logging.getLogger("pygls.protocol.json_rpc").addFilter(_QuietRefusals())
    server.start_io()
