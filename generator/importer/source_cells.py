"""The source register's cells that fill a source's nested fields (layers, access gaps, location).

A register names its columns in several ways (``Identity/location``, ``Revision or
capture``, ``Access gaps``); ``columns.field_of`` knows them all, so the cells are handled
here by the field they fill, not by their title. A cell may name several evidence layers
(``Implementation: …; Doctrine/design: …``: one layer each), a revision cell a capture
digest (``SHA-256 <hex>; 90009 bytes``: the revision is ``sha256:<hex>``) or another
source's (``Same capture and digest as SRC-1``), and one column may hold a source's kind
and identity (``Kind and identity/location``: ``Paper capture, <url>; local <path>``).
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from generator.importer.columns import field_of
from generator.importer.drafts import Draft
from generator.importer.recognisers.fields import labelled
from generator.importer.recognisers.sources import (
    SourceHead,
    capture_digest,
    labelled_layers,
    only_a_digest,
    same_as,
)
from generator.model.vocab import EvidenceLayer

# A URL ends at whitespace, a separator, or the backtick or quote closing the span it is written in.
_URL = re.compile(r"https?://[^\s;,`'\"<>]+")
_LAYERS = sorted((layer.value for layer in EvidenceLayer), key=len, reverse=True)
_SENTENCE_END = re.compile(r"\.(?=\s|\Z)")


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


def source_cell(
    draft: Draft, name: str, cell: str, header: str = "", declared: Mapping[str, Draft] | None = None
) -> bool:
    """Fill a source's nested field (``name``, the field the column names) from one register
    cell; False when the field is not one of them. ``header`` is the column's title as
    written, ``declared`` the sources declared before (a cell may name one)."""
    cell = cell.strip()
    if name == "identity":
        if " ".join(header.lower().split()).startswith("kind and ") and "source_kind" not in draft.data:
            kind, comma, rest = cell.partition(", ")
            if comma and kind.strip() and "`" not in kind and "://" not in kind:
                draft.set("source_kind", kind.strip())
                cell = rest.strip()
        draft.set("identity", cell)
        url = _URL.search(cell)
        if url:
            draft.data["location"] = url.group(0)
        return True
    if name == "revision":
        return _revision(draft, cell, header, declared or {})
    if name == "layer":
        layered = labelled_layers(cell)
        if layered is not None and not layered.before:
            draft.data.setdefault("layers", []).extend(layered.entries)
            if layered.after:
                draft.add_prose(layered.after)
            return True
        entry = layer_entry(cell)
        if entry is None:
            return False
        draft.data.setdefault("layers", []).append(entry)
        return True
    if name == "scope":
        layers = draft.data.get("layers")
        if not layers:
            return False  # no layer to hold it: kept as the source's prose
        # The row's first layer (a cell naming several states the source's scope once).
        target = next((layer for layer in layers if "scope" not in layer), layers[-1])
        target["scope"] = cell
        draft.text_fields.append(cell)
        return True
    if name == "access_gaps":
        draft.data.setdefault("access_gaps", []).append({"gap": cell})
        draft.text_fields.append(cell)
        return True
    return False


def _revision(draft: Draft, cell: str, header: str, declared: Mapping[str, Draft]) -> bool:
    """A capture digest is the revision ``sha256:<hex>``; ``Same capture and digest as
    SRC-1`` takes SRC-1's revision and location. Either way a cell that says more than the
    revision is kept as written, labelled with its column, as the source's prose. False for
    any other cell (a commit, a phrase): the caller keeps it as written."""
    digest = capture_digest(cell)
    other = declared.get(same_as(cell) or "")
    if digest is not None:
        draft.set("revision", digest)
        if not only_a_digest(cell):
            draft.add_prose(f"{header}: {cell}" if header else cell)
        return True
    if other is None or not other.data.get("revision"):
        return False
    draft.data["revision"] = other.data["revision"]
    if "location" in other.data:
        draft.data.setdefault("location", other.data["location"])
    draft.add_prose(f"{header}: {cell}" if header else cell)
    return True


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


def declared_by_paragraph(draft: Draft, head: SourceHead, rest: str) -> list[str]:
    """Fill a source declared by a paragraph (``SRC-1 — Git <location> at <commit>; access
    root <path>. Implementation: … Doctrine/design: …``) from its label's ``head`` and the
    text after it: kind, identity (as written after the kind, access root included),
    location, revision, one layer per layer it names, and an ``Access gaps:`` sentence after
    them. Returns the rest of the text, in order, for the record's own fields and prose."""
    draft.set("source_kind", head.source_kind)
    draft.set("identity", head.identity)
    draft.data["location"] = head.location
    if head.revision is not None:
        draft.data["revision"] = head.revision
    layers = labelled_layers(rest, least=1)
    if layers is None:
        return [rest] if rest.strip() else []
    draft.data.setdefault("layers", []).extend(layers.entries)
    after = layers.after
    field = labelled(after) if after else None
    if field is not None and field_of(draft.list_key, field.label) == "access_gaps":
        stop = _SENTENCE_END.search(field.value)
        gap = field.value[: stop.end()] if stop else field.value
        draft.data.setdefault("access_gaps", []).append({"gap": gap})
        draft.text_fields.append(gap)
        draft.note_label("access_gaps", field.label)
        after = field.value[len(gap) :].strip()
    return [text for text in (layers.before, after) if text]
