"""A file written whole or not at all."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path


def write_atomically(target: Path, text: str) -> None:
    """Write ``text`` to ``target`` so a reader sees the old file or the new one, never a part."""
    target.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.NamedTemporaryFile(
        "w", encoding="utf-8", newline="\n", dir=target.parent, prefix=f".{target.name}.", delete=False
    ) as handle:
        handle.write(text)
    try:
        os.replace(handle.name, target)
    except OSError:
        os.unlink(handle.name)
        raise
