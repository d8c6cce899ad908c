"""``kbgen lsp``: a Language Server Protocol server for record files, over stdio (pygls).

Each handler is a few lines: it finds the system the file belongs to
(``workspace.RecordsWorkspace``), asks that system's analysis (``analysis.SystemAnalysis``)
or the editing helpers (``features.py``), and converts positions between the analysis'
character columns and the client's units (``positions.py``). An edit re-checks only the
system it touched, after a short pause in typing; a save re-checks at once.
"""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path
from typing import Any

from lsprotocol import types
from pygls.exceptions import JsonRpcException
from pygls.lsp.server import LanguageServer
from pygls.uris import from_fs_path, to_fs_path

from generator import __version__
from generator.lsp import features
from generator.lsp.positions import Positions
from generator.lsp.workspace import RecordsWorkspace

log = logging.getLogger("kbgen.lsp")

DEBOUNCE_SECONDS = 0.15  # a pause in typing this long re-checks the system
ID_TRIGGERS = ["-"]  # typing RTE- asks for the system's routes


class RecordsServer(LanguageServer):
    """The server: the workspace's records, the pending re-checks, the published files."""

    def __init__(self) -> None:
        super().__init__("kbgen", __version__, text_document_sync_kind=types.TextDocumentSyncKind.Full)
        self.records: RecordsWorkspace | None = None
        self.pending: dict[Path, asyncio.Task[None]] = {}
        self.published: dict[Path, set[Path]] = {}  # system folder → files given diagnostics

    def records_workspace(self) -> RecordsWorkspace:
        if self.records is None:
            root = Path(to_fs_path(self.workspace.root_uri) or ".") if self.workspace.root_uri else Path.cwd()
            self.records = RecordsWorkspace(root, root / "records")
        return self.records

    def positions(self) -> Positions:
        return Positions(self.workspace, self.records_workspace())

    def recheck(self, folder: Path, edited: Path | None = None) -> None:
        """Check one system again and publish the diagnostics of its open files (the edited
        file's first: that is what the analyst is looking at)."""
        records = self.records_workspace()
        try:
            analysis = records.refresh(folder)
        except Exception:  # a failure of one check must not end the editor's session
            log.exception("checking %s failed", folder)
            return
        positions = self.positions()
        by_file = features.diagnostics_by_file(analysis, positions)
        shown = set(records.open_paths(folder)) | self.published.get(folder, set())
        first = edited.resolve() if edited is not None else None
        for path in sorted(shown, key=lambda path: (path != first, path)):
            uri = str(from_fs_path(str(path)))
            document = self.workspace.text_documents.get(uri)
            self.text_document_publish_diagnostics(
                types.PublishDiagnosticsParams(
                    uri=uri,
                    diagnostics=by_file.get(path, []),
                    version=document.version if document is not None else None,
                )
            )
        self.published[folder] = {path for path in shown if by_file.get(path)}

    def recheck_later(self, folder: Path, edited: Path) -> None:
        """Re-check after a pause in typing: a newer edit of the system cancels this one."""
        earlier = self.pending.pop(folder, None)
        if earlier is not None:
            earlier.cancel()

        async def later() -> None:
            try:
                await asyncio.sleep(DEBOUNCE_SECONDS)
                self.recheck(folder, edited)
            except asyncio.CancelledError:
                pass
            finally:
                if self.pending.get(folder) is asyncio.current_task():
                    del self.pending[folder]

        self.pending[folder] = asyncio.create_task(later())


server = RecordsServer()


def _path(uri: str) -> Path:
    return Path(to_fs_path(uri) or uri)


@server.feature(types.INITIALIZE)
def _initialize(ls: RecordsServer, params: types.InitializeParams) -> None:
    options = params.initialization_options if isinstance(params.initialization_options, dict) else {}
    root = Path(to_fs_path(ls.workspace.root_uri) or ".") if ls.workspace.root_uri else Path.cwd()
    records = Path(str(options.get("records") or "records"))
    ls.records = RecordsWorkspace(root, records if records.is_absolute() else root / records)


@server.feature(types.TEXT_DOCUMENT_DID_OPEN)
def _did_open(ls: RecordsServer, params: types.DidOpenTextDocumentParams) -> None:
    path = _path(params.text_document.uri)
    folder = ls.records_workspace().hold(path, params.text_document.text)
    if folder is not None:
        ls.recheck(folder, path)


@server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
def _did_change(ls: RecordsServer, params: types.DidChangeTextDocumentParams) -> None:
    document = ls.workspace.get_text_document(params.text_document.uri)
    path = _path(params.text_document.uri)
    folder = ls.records_workspace().hold(path, document.source)
    if folder is not None:
        ls.recheck_later(folder, path)


@server.feature(types.TEXT_DOCUMENT_DID_SAVE, types.SaveOptions(include_text=False))
def _did_save(ls: RecordsServer, params: types.DidSaveTextDocumentParams) -> None:
    path = _path(params.text_document.uri)
    folder = ls.records_workspace().system_of(path)
    if folder is not None:
        ls.recheck(folder, path)


@server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
def _did_close(ls: RecordsServer, params: types.DidCloseTextDocumentParams) -> None:
    path = _path(params.text_document.uri)
    folder = ls.records_workspace().release(path)
    ls.text_document_publish_diagnostics(
        types.PublishDiagnosticsParams(uri=params.text_document.uri, diagnostics=[])
    )
    if folder is not None:
        ls.published.get(folder, set()).discard(path.resolve())
        ls.recheck(folder)


@server.feature(types.TEXT_DOCUMENT_DEFINITION)
def _definition(ls: RecordsServer, params: types.DefinitionParams) -> types.Location | None:
    return features.definition(
        ls.records_workspace(), ls.positions(), _path(params.text_document.uri), params.position
    )


@server.feature(types.TEXT_DOCUMENT_REFERENCES)
def _references(ls: RecordsServer, params: types.ReferenceParams) -> list[types.Location]:
    path = _path(params.text_document.uri)
    return features.references(
        ls.records_workspace(), ls.positions(), path, params.position, params.context.include_declaration
    )


@server.feature(types.TEXT_DOCUMENT_HOVER)
def _hover(ls: RecordsServer, params: types.HoverParams) -> types.Hover | None:
    return features.hover(
        ls.records_workspace(), ls.positions(), _path(params.text_document.uri), params.position
    )


@server.feature(types.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
def _document_symbols(ls: RecordsServer, params: types.DocumentSymbolParams) -> list[types.DocumentSymbol]:
    return features.document_symbols(ls.records_workspace(), ls.positions(), _path(params.text_document.uri))


@server.feature(types.WORKSPACE_SYMBOL)
def _workspace_symbols(ls: RecordsServer, params: types.WorkspaceSymbolParams) -> list[types.WorkspaceSymbol]:
    return features.workspace_symbols(ls.records_workspace(), ls.positions(), params.query)


@server.feature(types.TEXT_DOCUMENT_COMPLETION, types.CompletionOptions(trigger_characters=ID_TRIGGERS))
def _completion(ls: RecordsServer, params: types.CompletionParams) -> types.CompletionList:
    document = ls.workspace.get_text_document(params.text_document.uri)
    return features.completion(
        ls.records_workspace(), document, _path(params.text_document.uri), params.position
    )


@server.feature(types.TEXT_DOCUMENT_DOCUMENT_LINK)
def _document_links(ls: RecordsServer, params: types.DocumentLinkParams) -> list[types.DocumentLink]:
    return features.document_links(ls.records_workspace(), ls.positions(), _path(params.text_document.uri))


@server.feature(types.TEXT_DOCUMENT_PREPARE_RENAME)
def _prepare_rename(ls: RecordsServer, params: types.PrepareRenameParams) -> Any:
    return features.prepare_rename(
        ls.records_workspace(), ls.positions(), _path(params.text_document.uri), params.position
    )


@server.feature(types.TEXT_DOCUMENT_RENAME)
def _rename(ls: RecordsServer, params: types.RenameParams) -> types.WorkspaceEdit:
    try:
        return features.rename(
            ls.records_workspace(),
            ls.positions(),
            _path(params.text_document.uri),
            params.position,
            params.new_name,
        )
    except features.Refused as refusal:
        raise JsonRpcException(code=types.LSPErrorCodes.RequestFailed, message=str(refusal)) from None


@server.feature(
    types.TEXT_DOCUMENT_CODE_ACTION,
    types.CodeActionOptions(code_action_kinds=[types.CodeActionKind.QuickFix]),
)
def _code_actions(ls: RecordsServer, params: types.CodeActionParams) -> list[types.CodeAction]:
    return features.code_actions(
        ls.records_workspace(), ls.positions(), _path(params.text_document.uri), params.context.diagnostics
    )


def run() -> None:
    """Serve over stdio until the client exits (stdout is the protocol: logs go to stderr)."""
    logging.basicConfig(level=logging.WARNING, format="kbgen lsp: %(levelname)s %(message)s")
    server.start_io()
