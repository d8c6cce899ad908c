"""Building blocks of the hostile editor tests: a workspace of hostile systems, and a client
that starts the real ``kbgen lsp`` over stdio on any workspace.

Each system of the workspace carries one class of attack on the editor as a door: sources
whose evidence links would run a command, file names written to plant Markdown, lines with
thousands of ID mentions, files of many thousand bad lines. A second workspace has a records
folder that is a symlink to records elsewhere.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

from lsprotocol import types
from pytest_lsp import LanguageClient, client_capabilities

WAIT_SECONDS = 120
REVISION = "0123456789abcdef0123456789abcdef01234567"
GOOD_SOURCE = "https://github.com/example/demo"

# A source per way a link could leave http(s): (links, location, link_template). Each is
# refused by `kbgen check` (KB406 or KB407), and the editor must link none of its anchors.
HOSTILE_SOURCES: dict[str, tuple[str | None, str, str | None]] = {
    "SRC-2": ("template", GOOD_SOURCE, "command:workbench.action.terminal.sendSequence?%7B%7D#{path}{start}"),
    "SRC-3": ("git", "command:workbench.action.terminal.sendSequence?x", None),
    "SRC-4": ("template", GOOD_SOURCE, "javascript:alert(1)//{path}"),
    "SRC-5": ("template", GOOD_SOURCE, "file:///etc/passwd#{path}"),
    "SRC-6": ("template", GOOD_SOURCE, "//evil.example/{path}#L{start}"),
    "SRC-7": ("template", "vscode://ms-vscode.x/run", "{location}/{path}"),
    "SRC-8": ("git", "ftp://github.com/example/demo", None),
    "SRC-9": ("template", GOOD_SOURCE, "{path}#L{start}"),
    "SRC-10": ("template", GOOD_SOURCE, "data:text/html,<b>{path}</b>"),
}

# File names that would close a code span, or open a link, an image or HTML, in hover text:
# outside the record-name grammar, so the editor refuses them as the check does (KB014).
HOSTILE_NAMES = [
    "x`[click me](https:evil.example)![i](https:evil.example?i.png).yaml",
    "y``[two](https:evil.example)``.yaml",
    "z<img src=x onerror=alert(1)>[a](b).yaml",
    "w**bold**_em_ ![p](https:evil.example).yaml",
]

RUN = "run:\n  system: Hostile\n"


def _source(source_id: str, links: str | None, location: str, template: str | None) -> str:
    lines = [
        f"- id: {source_id}",
        "  source_kind: Git",
        "  identity: a repository",
        f'  location: "{location}"',
        f"  revision: {REVISION}",
    ]
    if links is not None:
        lines.append(f"  links: {links}")
    if template is not None:
        lines.append(f'  link_template: "{template}"')
    return "\n".join(lines) + "\n"


def links_system(folder: Path) -> None:
    """SRC-1 links to GitHub; every other source is hostile, each cited by RTE-1."""
    folder.mkdir(parents=True)
    (folder / "run.yaml").write_text(RUN, encoding="utf-8")
    sources = _source("SRC-1", None, GOOD_SOURCE, None)
    sources += "".join(_source(sid, *spec) for sid, spec in HOSTILE_SOURCES.items())
    (folder / "sources.yaml").write_text("sources:\n" + sources, encoding="utf-8")
    cited = ["SRC-1", *HOSTILE_SOURCES]
    evidence = "".join(f"  - {sid} src/loop.ts:10-20\n" for sid in cited)
    prose = " ".join(f"{sid} src/loop.ts:3" for sid in cited)
    (folder / "routes.yaml").write_text(
        f"routes:\n- id: RTE-1\n  label: Loop\n  body: 'Cited: {prose}.'\n  evidence:\n{evidence}",
        encoding="utf-8",
    )


# The names system's one readable record file: RTE-1 and RTE-2 (a rename to it is refused).
READABLE = "routes.yaml"


def names_system(folder: Path) -> None:
    """One route per hostile file name, each declared in its file, and a readable file."""
    folder.mkdir(parents=True)
    (folder / "run.yaml").write_text(RUN, encoding="utf-8")
    (folder / READABLE).write_text(
        "routes:\n- id: RTE-1\n  label: '[label](https:evil.example) `x`'\n- id: RTE-2\n  label: Two\n",
        encoding="utf-8",
    )
    for number, name in enumerate(HOSTILE_NAMES, start=1):
        (folder / name).write_text(
            f"routes:\n- id: RTE-{number + 2}\n  label: '[label](https:evil.example) `x`'\n", encoding="utf-8"
        )


def long_line_system(folder: Path, mentions: int) -> None:
    """RTE-1, mentioned ``mentions`` times on one line (each after an emoji, so the line is not
    ASCII), and as many evidence anchors on another."""
    folder.mkdir(parents=True)
    (folder / "run.yaml").write_text(RUN, encoding="utf-8")
    (folder / "sources.yaml").write_text("sources:\n" + _source("SRC-1", None, GOOD_SOURCE, None))
    line = " ".join(["\U0001f600RTE-1"] * mentions)
    anchors = " ".join(["SRC-1 src/a.ts:1"] * mentions)
    (folder / "routes.yaml").write_text(
        f"routes:\n- id: RTE-1\n  label: Loop\n  body: |\n    {line}\n    {anchors}\n", encoding="utf-8"
    )


def bad_lines(count: int) -> str:
    """A routes file of ``count`` lines, every one after the first a schema error (KB101)."""
    return "routes:\n" + "- x\n" * (count - 1)


async def initialize(client: LanguageClient, root: Path) -> None:
    await client.initialize_session(
        types.InitializeParams(
            capabilities=client_capabilities("visual-studio-code"),
            root_uri=root.as_uri(),
            workspace_folders=[types.WorkspaceFolder(uri=root.as_uri(), name="kb")],
        )
    )


def open_file(client: LanguageClient, path: Path, text: str | None = None, version: int = 1) -> str:
    uri = path.as_uri()
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(
                uri=uri,
                language_id="yaml",
                version=version,
                text=path.read_text(encoding="utf-8") if text is None else text,
            )
        )
    )
    return uri


async def published(client: LanguageClient, uri: str) -> types.PublishDiagnosticsParams:
    """The next diagnostics published for ``uri`` (others are passed over)."""
    while True:
        found: types.PublishDiagnosticsParams = await asyncio.wait_for(
            client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS), WAIT_SECONDS
        )
        if found.uri == uri:
            return found


def document(uri: str) -> types.TextDocumentIdentifier:
    return types.TextDocumentIdentifier(uri=uri)


def utf16_column(line: str, character: int) -> int:
    return len(line[:character].encode("utf-16-le")) // 2
