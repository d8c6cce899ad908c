"""The source register's cells that fill a source's nested fields (layers, access gaps, location)."""

from __future__ import annotations

import re

from generator.importer.drafts import Draft
from generator.model.vocab import EvidenceLayer

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
        # The controlled layer opens the cell; what follows a separator is its note
        # (``Doctrine/design, with README assertions kept as claims``).
        folded = cell.lower()
        value = next((layer for layer in _LAYERS if folded.startswith(layer)), None)
        if value is None or (len(cell) > len(value) and cell[len(value)] not in ";,:— ("):
            return False
        note = cell[len(value) :].lstrip(";,:— ").strip()
        entry = {"layer": value, **({"note": note} if note else {})}
        draft.data.setdefault("layers", []).append(entry)
        return True
    if header == "inspected scope":
        layers = draft.data.get("layers")
        if not layers:
            return False  # no layer to hold it: kept as the source's prose
        layers[-1]["scope"] = cell
        draft.text_fields.append(cell)
        return True
    if header == "access gaps and conclusion prevented":
        draft.data.setdefault("access_gaps", []).append({"gap": cell})
        draft.text_fields.append(cell)
        return True
    return False
