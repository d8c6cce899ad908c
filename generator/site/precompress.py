"""Compressed twins of a built site's text files, for a host that serves them as they are.

A static host (nginx's ``gzip_static``, Caddy's ``precompressed``, a CDN) answers a
request for ``page/index.html`` with ``page/index.html.gz`` (or ``.br``) when the browser
accepts it: no compression at request time, and a result page of hundreds of KB crosses
a phone's network in a fraction of its size. Each text file gets a ``.gz`` twin (and a
``.br`` one where the ``brotli`` package is installed), written only when smaller than
the file. The twins are deterministic: gzip with no name and mtime 0, files in sorted
order, so two builds of one commit give the same bytes. ``kbgen linkcheck`` reads only
the HTML pages, never a twin.

    python3 -m generator.site.precompress SITE
"""

from __future__ import annotations

import gzip
import importlib
import sys
from collections.abc import Callable
from pathlib import Path

TEXT_SUFFIXES = frozenset({".html", ".css", ".js", ".json", ".xml", ".svg", ".txt", ".csv", ".map"})
TWIN_SUFFIXES = (".gz", ".br")


def _gzip(data: bytes) -> bytes:
    return gzip.compress(data, compresslevel=9, mtime=0)


def compressors() -> dict[str, Callable[[bytes], bytes]]:
    """The twins to write: gzip always, Brotli where its package is installed."""
    found: dict[str, Callable[[bytes], bytes]] = {".gz": _gzip}
    try:
        brotli = importlib.import_module("brotli")
    except ImportError:
        return found
    found[".br"] = lambda data: bytes(brotli.compress(data, quality=11))
    return found


def text_files(site: Path) -> list[Path]:
    """The site's regular text files (never a symlink, never a twin), sorted."""
    return sorted(
        path
        for path in site.rglob("*")
        if path.suffix in TEXT_SUFFIXES and path.is_file() and not path.is_symlink()
    )


def precompress(site: Path) -> int:
    """Write the compressed twins beside each text file of ``site``; the number written."""
    written = 0
    makers = compressors()
    for path in text_files(site):
        data = path.read_bytes()
        for suffix, compress in makers.items():
            twin = path.with_name(path.name + suffix)
            if twin.is_symlink():
                twin.unlink()  # written as a file of its own, never through a link
            packed = compress(data)
            if len(packed) < len(data):
                twin.write_bytes(packed)
                written += 1
            elif twin.is_file() and not twin.is_symlink():
                twin.unlink()  # a twin no smaller than its file is not served
    return written


def main(argv: list[str]) -> int:
    if len(argv) != 1 or not Path(argv[0]).is_dir():
        print("usage: python3 -m generator.site.precompress SITE", file=sys.stderr)
        return 2
    written = precompress(Path(argv[0]))
    print(f"{argv[0]}: {written} compressed twins ({', '.join(compressors())})")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
