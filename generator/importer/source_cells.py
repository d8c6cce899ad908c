"""The source register's cells that fill a source's nested fields (layers, access gaps, location)."""

from __future__ import annotations

import re

from ..model.vocab import EvidenceLayer
from .drafts import Draft

# A URL ends at whitespace, a separator, or the backtick or quote closing the span it is written in.
_URL = re.compile(r"https?://[^\s;,`'\"<>]+")
_LAYERS = sorted((layer.value for layer in EvidenceLayer), key=len, reverse=True)


def source_cell(draft: Draft, header: str, cell: str) -> bool:
    """Fill a source's nested field from one register cell; False when the header is not one of them."""
    cell = cell.strip()
    if header == "identity/location":
        draft.set("identity", cell)
        url = _URL.search(cell)
        if url:
            draft.data["location"] = url.group(0)
        return True
    if header == "evidence layer":
        layer, _, note = cell.partition(";")
        value = layer.strip().lower()
        if value not in _LAYERS:
            return False
        entry = {"layer": value, **({"note": note.strip()} if note.strip() else {})}
        draft.data.setdefault("layers", []).append(entry)
        return True
    if header == "inspected scope":
        layers = draft.data.setdefault("layers", [{}])
        layers[-1]["scope"] = cell
        draft.text_fields.append(cell)
        return True
    if header == "access gaps and conclusion prevented":
        draft.data.setdefault("access_gaps", []).append({"gap": cell})
        draft.text_fields.append(cell)
        return True
    return False
