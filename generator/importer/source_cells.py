"""The source register's cells that fill a source's nested fields (layers, access gaps, location).

A register names its columns in several ways (``Identity/location``, ``Revision or
capture``, ``Access gaps``); ``columns.field_of`` knows them all, so the cells are handled
here by the field they fill, not by their title.
"""

from __future__ import annotations

import re

from generator.importer.drafts import Draft
from generator.model.vocab import EvidenceLayer

# A URL ends at whitespace, a separator, or the backtick or quote closing the span it is written in.
_URL = re.compile(r"https?://[^\s;,`'\"<>]+")
_LAYERS = sorted((layer.value for layer in EvidenceLayer), key=len, reverse=True)


def layer_entry(cell: str) -> dict[str, str] | None:
    """``Doctrine/design, with README assertions kept as claims`` → the controlled layer
    that opens the cell and the rest as its note; None when no layer opens it."""
    cell = cell.strip()
    folded = cell.lower()
    value = next((layer for layer in _LAYERS if folded.startswith(layer)), None)
    if value is None or (len(cell) > len(value) and cell[len(value)] not in ";,:— ("):
        return None
    note = cell[len(value) :].lstrip(";,:— ").strip()
    return {"layer": value, **({"note": note} if note else {})}


def revision_value(cell: str) -> str:
    """A revision cell as the record holds it, as written (a commit, ``SHA-256 <hex>``,
    ``sha256:<hex>``); one written as a single code span loses its backticks, which are
    markup, not the value."""
    cell = cell.strip()
    if re.fullmatch(r"`[^`]+`", cell):
        return cell[1:-1]
    return cell


def source_cell(draft: Draft, name: str, cell: str) -> bool:
    """Fill a source's nested field (``name``, the field the column names) from one register
    cell; False when the field is not one of them."""
    cell = cell.strip()
    if name == "identity":
        draft.set("identity", cell)
        url = _URL.search(cell)
        if url:
            draft.data["location"] = url.group(0)
        return True
    if name == "layer":
        entry = layer_entry(cell)
        if entry is None:
            return False
        draft.data.setdefault("layers", []).append(entry)
        return True
    if name == "scope":
        layers = draft.data.get("layers")
        if not layers:
            return False  # no layer to hold it: kept as the source's prose
        layers[-1]["scope"] = cell
        draft.text_fields.append(cell)
        return True
    if name == "access_gaps":
        draft.data.setdefault("access_gaps", []).append({"gap": cell})
        draft.text_fields.append(cell)
        return True
    return False


# The fields a further layer row states for its own layer, when they differ from the source's.
LAYER_ROW_FIELDS = ("source_kind", "identity", "revision", "scope", "citation_anchors", "access_gaps")


def further_layer(draft: Draft, cells: dict[str, str]) -> bool:
    """A further register row of a source already declared (one row per evidence layer):
    its layer joins the source's layers with what the row says of it. False when the row
    names no evidence layer (it is then not a layer row, and stays a duplicate)."""
    entry = layer_entry(cells.get("layer", ""))
    if entry is None:
        return False
    for name in LAYER_ROW_FIELDS:
        value = cells.get(name, "").strip()
        if not value:
            continue
        if name == "revision":
            value = revision_value(value)
        own = draft.data.get(name)
        if name != "scope" and isinstance(own, str) and own.strip() == value:
            continue  # the same as the source's: said once
        entry[name] = value
        draft.text_fields.append(value)
    draft.data.setdefault("layers", []).append(entry)
    return True
