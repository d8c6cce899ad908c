"""What the server answers, request by request, from one system's analysis.

Every answer says what ``kbgen check`` and the site say: diagnostics are the check's,
references are the mentions of the ID in the system's files, hover names the record's
kind, label, statuses, declaration, the site's "Referenced by" count and its page.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Sequence
from pathlib import Path

from lsprotocol import types

from generator.check.rules import KB201, KB202, KB205
from generator.check.validate import KB104
from generator.load.readfs import MAX_FILE_BYTES
from generator.lsp.analysis import Span, SystemAnalysis
from generator.lsp.positions import Positions
from generator.lsp.schema_walk import keys_at, takes_ids, values_at
from generator.lsp.workspace import RecordsWorkspace
from generator.lsp.yaml_context import LIST_ITEM, context_at
from generator.model.ids import grammar, kind_of, range_ids, sort_key
from generator.model.inline_markup import plain_text
from generator.model.kinds import Role, has_role, spec_of_id
from generator.model.records import Supplied

MAX_WORKSPACE_SYMBOLS = 500
_ID_START = re.compile(r"(?:[A-Z]{2,5}-)*[A-Z]{1,5}(?:-[A-Za-z0-9-]*)?\Z")


class Refused(Exception):
    """A request the server will not carry out, with the reason the client shows."""


def _symbol_kind(record_id: str, supplied: bool) -> types.SymbolKind:
    """The symbol kind of a record: its kind spec's (``KindSpec.symbol_kind``, a SymbolKind
    name), ``Interface`` for a supplied record, ``Constant`` for an ID of no kind or a name
    this LSP version lacks."""
    if supplied:
        return types.SymbolKind.Interface
    spec = spec_of_id(record_id)
    found = types.SymbolKind.__members__.get(spec.symbol_kind) if spec else None
    return found if found is not None else types.SymbolKind.Constant


# ---------------------------------------------------------------- navigation


def _at(
    records: RecordsWorkspace, positions: Positions, path: Path, position: types.Position
) -> tuple[SystemAnalysis, str, Span] | None:
    analysis = records.analysis_of(path)
    if analysis is None:
        return None
    line, column = positions.server(path, position)
    resolved = path.resolve()
    record_id = analysis.id_at(resolved, line, column)
    if record_id is None:
        return None
    span = next(
        (s for s in analysis.references(record_id) if s.holds(resolved, line, column)),
        Span(resolved, line, column, column),
    )
    return analysis, record_id, span


def definition(
    records: RecordsWorkspace, positions: Positions, path: Path, position: types.Position
) -> types.Location | None:
    """Where the ID at the position is declared (a supplied record: its ``supplied:`` entry)."""
    found = _at(records, positions, path, position)
    if found is None:
        return None
    analysis, record_id, _ = found
    declaration = analysis.declarations.get(record_id)
    return positions.location(declaration.span) if declaration is not None else None


def references(
    records: RecordsWorkspace,
    positions: Positions,
    path: Path,
    position: types.Position,
    with_declaration: bool,
) -> list[types.Location]:
    """Every mention of the ID at the position in its system's files."""
    found = _at(records, positions, path, position)
    if found is None:
        return []
    analysis, record_id, _ = found
    declaration = analysis.declarations.get(record_id)
    skip = declaration.span if declaration is not None and not with_declaration else None
    return [positions.location(span) for span in analysis.references(record_id) if span != skip]


def hover(
    records: RecordsWorkspace, positions: Positions, path: Path, position: types.Position
) -> types.Hover | None:
    found = _at(records, positions, path, position)
    if found is None:
        return None
    analysis, record_id, span = found
    contents = types.MarkupContent(kind=types.MarkupKind.Markdown, value=analysis.hover(record_id))
    return types.Hover(contents=contents, range=positions.range(span))


def document_symbols(
    records: RecordsWorkspace, positions: Positions, path: Path
) -> list[types.DocumentSymbol]:
    """The file's records as an outline, in file order."""
    analysis = records.analysis_of(path)
    if analysis is None:
        return []
    symbols = []
    for declaration in sorted(analysis.declarations_in(path.resolve()), key=lambda d: d.span):
        selection = positions.range(declaration.span)
        whole = selection
        if declaration.item is not None:
            first, last = declaration.item
            whole = types.Range(start=positions.range(first).start, end=positions.range(last).end)
            if (whole.end.line, whole.end.character) < (selection.end.line, selection.end.character):
                whole = types.Range(start=whole.start, end=selection.end)
        label = _label_text(declaration.record)
        symbols.append(
            types.DocumentSymbol(
                name=declaration.record_id,
                detail=label or None,
                kind=_symbol_kind(declaration.record_id, isinstance(declaration.record, Supplied)),
                range=whole,
                selection_range=selection,
            )
        )
    return symbols


def _label_text(record: object) -> str:
    """A record's label as a reader sees it, on one line: its Markdown's text, without the
    markers (an editor shows a symbol's name and a completion's detail as plain text)."""
    return " ".join(plain_text(str(getattr(record, "label", None) or "")).split())


def workspace_symbols(
    records: RecordsWorkspace, positions: Positions, query: str
) -> list[types.WorkspaceSymbol]:
    """Every ID and label of the KB that holds the query (case-folded), systems in order."""
    wanted = query.casefold()
    found: list[types.WorkspaceSymbol] = []
    for analysis in records.every_analysis():
        for record_id, declaration in sorted(
            analysis.declarations.items(), key=lambda item: sort_key(item[0])
        ):
            label = _label_text(declaration.record)
            if wanted and wanted not in record_id.casefold() and wanted not in label.casefold():
                continue
            found.append(
                types.WorkspaceSymbol(
                    name=f"{record_id} {label}".strip(),
                    kind=_symbol_kind(record_id, isinstance(declaration.record, Supplied)),
                    container_name=analysis.slug,
                    location=positions.location(declaration.span),
                )
            )
            if len(found) >= MAX_WORKSPACE_SYMBOLS:
                return found
    return found


def document_links(records: RecordsWorkspace, positions: Positions, path: Path) -> list[types.DocumentLink]:
    """Each evidence anchor's path, linked to the cited lines at the source's pinned revision."""
    analysis = records.analysis_of(path)
    if analysis is None:
        return []
    resolved = path.resolve()
    return [
        types.DocumentLink(range=positions.range(link.span), target=link.url, tooltip="the cited lines")
        for link in analysis.links
        if link.span.path == resolved
    ]


# ---------------------------------------------------------------- completion


def _id_items(analysis: SystemAnalysis, prefix: str, sources_only: bool) -> list[types.CompletionItem]:
    items = []
    for record_id, declaration in analysis.declarations.items():
        if sources_only and not has_role(record_id, Role.EVIDENCE_SOURCE):
            continue
        if prefix and not record_id.startswith(prefix.upper()) and prefix.upper() not in record_id:
            continue
        spec = spec_of_id(record_id)
        label = _label_text(declaration.record)
        items.append(
            types.CompletionItem(
                label=record_id,
                kind=types.CompletionItemKind.Reference,
                detail=f"{spec.singular if spec else 'record'}" + (f" — {label}" if label else ""),
                sort_text=_sort_text(record_id),
            )
        )
    return items


def _sort_text(record_id: str) -> str:
    """IDs sort as the site lists them (RTE-2 before RTE-10), as text for the client."""
    prefix, kind, number, slug = sort_key(record_id)
    return f"{prefix} {kind} {number:08d} {slug}"


def _replacing(line: int, column: int, written: str) -> types.Range:
    return types.Range(
        start=types.Position(line=line, character=column - len(written)),
        end=types.Position(line=line, character=column),
    )


def completion(
    records: RecordsWorkspace, positions: Positions, path: Path, position: types.Position
) -> types.CompletionList:
    """IDs of the system, controlled values, keys from the model, sources in evidence (the
    text the editor holds, or the one the analysis read: never a read of its own)."""
    analysis = records.analysis_of(path)
    text = positions.text(path)
    if analysis is None or len(text) > MAX_FILE_BYTES:  # the check refuses it too
        return types.CompletionList(is_incomplete=False, items=[])
    line, column = positions.server(path, position)
    context = context_at(text, line, column)
    items: list[types.CompletionItem] = []
    in_evidence = "evidence" in (context.key, *context.path[-2:])
    if context.key is not None:
        written = context.value.strip().strip("'\"")
        for value in values_at((*context.path, context.key)):
            if value.casefold().startswith(written.casefold()):
                edit = types.TextEdit(
                    range=_replacing(position.line, position.character, written), new_text=value
                )
                items.append(
                    types.CompletionItem(
                        label=value, kind=types.CompletionItemKind.EnumMember, text_edit=edit
                    )
                )
        if not items and (takes_ids((*context.path, context.key)) or _ID_START.search(context.prefix or "-")):
            items = _id_items(
                analysis, context.prefix if _ID_START.search(context.prefix) else "", in_evidence
            )
    elif context.path and context.path[-1] == LIST_ITEM and (in_evidence or takes_ids(context.path)):
        items = _id_items(analysis, context.prefix, in_evidence)
    elif context.prefix and _ID_START.search(context.prefix) and not context.prefix.islower():
        items = _id_items(analysis, context.prefix, False)
    else:
        for key, title in keys_at(context.path).items():
            if key.startswith(context.prefix):
                items.append(
                    types.CompletionItem(
                        label=key,
                        kind=types.CompletionItemKind.Property,
                        detail=title or None,
                        insert_text=f"{key}: ",
                    )
                )
    return types.CompletionList(is_incomplete=False, items=items)


# ---------------------------------------------------------------- rename


def prepare_rename(
    records: RecordsWorkspace, positions: Positions, path: Path, position: types.Position
) -> types.PrepareRenamePlaceholder | None:
    found = _at(records, positions, path, position)
    if found is None:
        return None
    analysis, record_id, span = found
    if analysis.graph.record(record_id) is None:
        return None  # a supplied record is renamed where it is declared
    return types.PrepareRenamePlaceholder(range=positions.range(span), placeholder=record_id)


def rename(
    records: RecordsWorkspace, positions: Positions, path: Path, position: types.Position, new_id: str
) -> types.WorkspaceEdit:
    """Every mention of the ID in its system folder, renamed; refused when the new ID is taken,
    breaks the grammar or names another kind."""
    found = _at(records, positions, path, position)
    if found is None:
        raise Refused("no record ID here to rename")
    analysis, record_id, _ = found
    if analysis.graph.record(record_id) is None:
        raise Refused(f"{record_id} is a supplied record: rename it in the member that declares it")
    if not grammar().whole.match(new_id):
        raise Refused(f"{new_id!r} is not a record ID (like RTE-12 or MEM-RTE-knowledge-store)")
    if kind_of(new_id) != kind_of(record_id):
        raise Refused(f"{new_id} names another kind than {record_id}; a rename keeps the kind")
    if analysis.graph.is_declared(new_id):
        raise Refused(f"{new_id} is declared already in {analysis.slug}")
    changes: dict[str, list[types.TextEdit]] = {}
    for span in analysis.references(record_id):
        changes.setdefault(positions.uri(span.path), []).append(
            types.TextEdit(range=positions.range(span), new_text=new_id)
        )
    return types.WorkspaceEdit(changes=changes)


# ---------------------------------------------------------------- code actions


def code_actions(
    records: RecordsWorkspace, positions: Positions, path: Path, diagnostics: Sequence[types.Diagnostic]
) -> list[types.CodeAction]:
    analysis = records.analysis_of(path)
    if analysis is None:
        return []
    actions: list[types.CodeAction] = []
    for diagnostic in diagnostics:
        if diagnostic.source not in (None, "kbgen"):
            continue
        line, column = positions.server(path, diagnostic.range.start)
        text = positions.lines(path)[line].rstrip("\n") if line < len(positions.lines(path)) else ""
        made = None
        if diagnostic.code == KB205.code:
            made = _list_range(positions, path, line, column, text)
        elif diagnostic.code in (KB201.code, KB202.code):
            made = _declare_supplied(analysis, positions, path, line, column, text)
        elif diagnostic.code == KB104.code:
            made = _nearest_value(positions, path, line, column, text)
        if made is not None:
            title, edit = made
            actions.append(
                types.CodeAction(
                    title=title,
                    kind=types.CodeActionKind.QuickFix,
                    diagnostics=[diagnostic],
                    edit=edit,
                    is_preferred=True,
                )
            )
    return actions


def _edit(
    positions: Positions, path: Path, line: int, start: int, end: int, text: str
) -> types.WorkspaceEdit:
    edit = types.TextEdit(range=positions.range(Span(path.resolve(), line, start, end)), new_text=text)
    return types.WorkspaceEdit(changes={positions.uri(path.resolve()): [edit]})


def _list_range(
    positions: Positions, path: Path, line: int, column: int, text: str
) -> tuple[str, types.WorkspaceEdit] | None:
    """``RTE-21–RTE-29`` → ``RTE-21, RTE-22, …, RTE-29``."""
    for match in grammar().range_in_text.finditer(text):
        if not match.start() <= column <= match.end():
            continue
        spanned = range_ids(match.group("first"), match.group("last"))
        if spanned is None:
            return None
        listed = ", ".join(spanned)
        return f"List each ID: {listed}", _edit(positions, path, line, match.start(), match.end(), listed)
    return None


def _declare_supplied(
    analysis: SystemAnalysis, positions: Positions, path: Path, line: int, column: int, text: str
) -> tuple[str, types.WorkspaceEdit] | None:
    """A dangling ID → a ``supplied:`` entry for it, to say which member declares it."""
    match = next((m for m in grammar().in_text.finditer(text) if m.start() <= column <= m.end()), None)
    if match is None or not path.name.endswith((".yaml", ".yml")):
        return None
    record_id = match.group(0)
    lines = positions.lines(path)
    entry = f"  - id: {record_id}\n    declared_in:\n"
    header = next((index for index, found in enumerate(lines) if found.rstrip("\n") == "supplied:"), None)
    if header is None:
        at = len(lines)
        last = lines[-1] if lines else ""
        prefix = "" if not lines or last.endswith("\n") else "\n"
        insert = f"{prefix}supplied:\n{entry}"
        end_line, end_col = (at - 1, len(last)) if lines and not last.endswith("\n") else (at, 0)
    else:
        after = next(
            (
                index
                for index in range(header + 1, len(lines))
                if lines[index][:1] not in (" ", "-", "\n", "#")
            ),
            len(lines),
        )
        end_line, end_col, insert = after, 0, entry
    span = Span(path.resolve(), end_line, end_col, end_col)
    edit = types.WorkspaceEdit(
        changes={
            positions.uri(path.resolve()): [
                types.TextEdit(range=_insert_range(positions, span), new_text=insert)
            ]
        }
    )
    return f"Declare {record_id} as a supplied record (say which member declares it)", edit


def _insert_range(positions: Positions, span: Span) -> types.Range:
    lines = positions.lines(span.path)
    if span.line >= len(lines):
        point = types.Position(line=span.line, character=0)
        return types.Range(start=point, end=point)
    return positions.range(span)


# A misspelt controlled value longer than this has no near one (and difflib would be slow).
MAX_VALUE_CHARS = 100


def _nearest_value(
    positions: Positions, path: Path, line: int, column: int, text: str
) -> tuple[str, types.WorkspaceEdit] | None:
    """A misspelt controlled value → the nearest one the field takes. The check's diagnostic
    starts at the value; it runs to a comment or the line's end."""
    rest = text[column:]
    comment = rest.find(" #")
    value = (rest if comment < 0 else rest[:comment]).rstrip()
    written = value.strip("'\"")
    if not written or len(written) > MAX_VALUE_CHARS:
        return None
    whole = "\n".join(line_text.rstrip("\n") for line_text in positions.lines(path))
    context = context_at(whole, line, len(text))
    options = values_at((*context.path, context.key)) if context.key else values_at(context.path)
    nearest = difflib.get_close_matches(written, options, n=1, cutoff=0.5)
    if not nearest:
        return None
    return f"Change to '{nearest[0]}'", _edit(positions, path, line, column, column + len(value), nearest[0])
