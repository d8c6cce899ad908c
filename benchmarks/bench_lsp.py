"""How fast ``kbgen lsp`` answers an edit, and what it holds, at 10 and 100 systems.

    python3 benchmarks/bench_lsp.py [--systems 10,100] [--edits 5]

For each KB size (renamed copies of the shipped systems, as ``kb_sizes.py`` makes them)
the real server is started over stdio and driven by an LSP client: one record file is
opened, then edited ``--edits`` times; each figure is the time from sending ``didChange``
to receiving the file's ``publishDiagnostics``, less the server's pause for typing
(``DEBOUNCE_SECONDS``), so it is the work one edit costs. A workspace-symbol query then
makes the server analyse every system; its peak resident memory is read from /proc.
The ratio of the per-edit time at the largest size to the smallest shows whether the
work per edit is one system's (near 1) or the KB's (near the ratio of the sizes).
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path

from lsprotocol import types
from pytest_lsp.client import make_test_lsp_client

sys.path.insert(0, str(Path(__file__).resolve().parent))
from kb_sizes import EDITED_FILE, EDITED_LABEL, synthesise

from generator.lsp.server import DEBOUNCE_SECONDS


def _peak_memory_mib(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text(encoding="utf-8").splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return float("nan")


async def _measure(project: Path, edits: int) -> tuple[list[float], float, float]:
    client = make_test_lsp_client()
    await client.start_io(sys.executable, "-m", "generator.cli.main", "lsp")
    try:
        await client.initialize_session(
            types.InitializeParams(capabilities=types.ClientCapabilities(), root_uri=project.as_uri())
        )
        first = sorted((project / "records").iterdir())[0] / EDITED_FILE
        uri = first.as_uri()
        text = first.read_text(encoding="utf-8")
        client.text_document_did_open(
            types.DidOpenTextDocumentParams(
                text_document=types.TextDocumentItem(uri=uri, language_id="yaml", version=1, text=text)
            )
        )
        await client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
        timings = []
        for version in range(2, edits + 2):
            edited = text.replace(EDITED_LABEL, f"{EDITED_LABEL} {version}", 1)
            started = time.perf_counter()
            client.text_document_did_change(
                types.DidChangeTextDocumentParams(
                    text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
                    content_changes=[types.TextDocumentContentChangeWholeDocument(text=edited)],
                )
            )
            await client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
            timings.append(time.perf_counter() - started - DEBOUNCE_SECONDS)
        started = time.perf_counter()
        await client.workspace_symbol_async(types.WorkspaceSymbolParams(query="route"))
        every = time.perf_counter() - started
        assert client._server is not None
        memory = _peak_memory_mib(client._server.pid)
    finally:
        await client.shutdown_session()
    return timings, every, memory


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--systems", default="10,100")
    parser.add_argument("--edits", type=int, default=5)
    args = parser.parse_args()
    sizes = [int(n) for n in args.systems.split(",")]
    medians = {}
    with tempfile.TemporaryDirectory() as tmp:
        for systems in sizes:
            project = synthesise(Path(tmp) / f"kb-{systems}", systems)
            timings, every, memory = asyncio.run(_measure(project, args.edits))
            medians[systems] = statistics.median(timings)
            print(f"[systems {systems}]")
            pause = DEBOUNCE_SECONDS * 1000
            print(
                f"    edit to diagnostics  {medians[systems] * 1000:7.0f} ms  "
                f"(median of {len(timings)}, after the {pause:.0f} ms pause for typing)"
            )
            print(f"    workspace symbols    {every:7.2f} s   (the first query analyses every system)")
            print(f"    peak memory          {memory:7.0f} MiB")
    if len(sizes) > 1:
        low, high = min(sizes), max(sizes)
        ratio = medians[high] / medians[low]
        print(f"[ratios] per-edit time at {high} / at {low} systems: {ratio:.2f} (flat: near 1)")


if __name__ == "__main__":
    main()
