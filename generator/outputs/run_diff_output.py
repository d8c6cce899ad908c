"""A run diff for tools (JSON, with its schema ``schemas/diff.schema.json``) and for people
(plain text: '+' added, '-' removed, '~' changed, word changes as ``[-old-]{+new+}``).

Conclusions come first: the statuses that moved (with the evidence behind each side),
the profile, the records newly found and no longer stated, the renumbering (each pair
with its confidence and why), and only then the word diffs of the changed records.

Both are deterministic: they keep the diff's own order, the JSON keys come in the
dataclasses' field order, and lines end with a newline.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from pydantic import TypeAdapter

from generator.graph.field_diff import FieldChanges, TextChange
from generator.graph.profile_diff import AxisChange, ProfileDiff
from generator.graph.record_diff import RecordChange, RecordRef, StatusChange
from generator.graph.run_diff import CollectionDiff, ConclusionMove, DocumentChange, Renumbering, RunDiff
from generator.graph.verdict_diff import VerdictMove
from generator.graph.word_diff import elided

DIFF_VERSION = 4
DIFF_SCHEMA_PATH = "schemas/diff.schema.json"
CONTEXT_WORDS = 6  # shared words kept beside each change in the text form

_ADAPTER: TypeAdapter[RunDiff] = TypeAdapter(RunDiff)


def as_json(diff: RunDiff) -> dict[str, Any]:
    """The diff as JSON data: ``version``, then every field of ``RunDiff``."""
    return {"version": DIFF_VERSION, **_ADAPTER.dump_python(diff, mode="json")}


def json_text(diff: RunDiff) -> str:
    return json.dumps(as_json(diff), indent=2, ensure_ascii=False) + "\n"


def diff_schema() -> dict[str, Any]:
    """The JSON Schema of ``as_json``, generated from the diff's dataclasses; every object
    is closed (no property beyond those listed)."""
    schema = _ADAPTER.json_schema(mode="serialization")
    for definition in [schema, *schema.get("$defs", {}).values()]:
        if "properties" in definition:
            # Every field is always written, defaults included.
            definition["required"] = list(definition["properties"])
            definition["additionalProperties"] = False
    schema["properties"] = {"version": {"const": DIFF_VERSION}, **schema["properties"]}
    schema["required"] = list(schema["properties"])
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "diff.schema.json",
        **schema,
        "title": "Run diff",
        "description": "What changed between two analysis runs of one system (kbgen diff --format json).",
    }


def diff_schema_text() -> str:
    """The schema as committed: stable key order, UTF-8, one trailing newline."""
    return json.dumps(diff_schema(), indent=2, ensure_ascii=False) + "\n"


def as_text(diff: RunDiff) -> str:
    """The diff for people, one line per change."""
    return "".join(f"{line}\n" for line in _lines(diff))


def _lines(diff: RunDiff) -> Iterator[str]:
    system = (
        diff.new_system if diff.old_system == diff.new_system else f"{diff.old_system} → {diff.new_system}"
    )
    yield f"{system}: {diff.old_run_id or '(no run ID)'} → {diff.new_run_id or '(no run ID)'}"
    yield _counts_line(diff)
    if diff.is_empty:
        yield "No changes."
        return
    yield from _section("Conclusions that moved", _conclusions(diff.conclusions))
    yield from _section("Verdicts that moved (the runs' written conclusions)", _verdicts(diff.verdicts))
    yield from _section("Statuses stated in one run only, and fields renamed", _conclusions(diff.statements))
    yield from _section("Memory-comparison profile", _profile(diff.profile))
    yield from _section("Records newly found", (f"  + {_ref(ref)}" for ref in diff.added))
    yield from _section("Records no longer stated", (f"  - {_ref(ref)}" for ref in diff.removed))
    yield from _section("Renumbered records", (_renumbering(r) for r in diff.renumbered))
    if diff.run:
        yield from _section("Run", _fields(diff.run, "  "))
    yield from _section("Changed records", (line for c in diff.changed for line in _record(c)))
    for title, collection in (
        ("Limitations", diff.limitations),
        ("Annotations", diff.annotations),
        ("Supplied records", diff.supplied),
    ):
        yield from _section(title, _collection(collection))
    yield from _section("Documents", (line for d in diff.documents for line in _document(d)))


_MARK = {"added": "+", "removed": "-", "changed": "~"}


def _counts_line(diff: RunDiff) -> str:
    counts = diff.counts
    flagged = counts.possible_different_referents
    note = f" ({flagged} possibly naming something else)" if flagged else ""
    return (
        f"records: {counts.added} added, {counts.removed} removed, {counts.changed} changed{note}, "
        f"{counts.renumbered} renumbered, {counts.unchanged} unchanged; "
        f"{counts.conclusions_moved} conclusion{'s' * (counts.conclusions_moved != 1)} moved, "
        f"{counts.verdicts_moved} verdict{'s' * (counts.verdicts_moved != 1)} moved; "
        f"statuses: {counts.conclusions_newly_stated} newly stated, "
        f"{counts.conclusions_no_longer_stated} no longer stated, "
        f"{counts.status_fields_renamed} field{'s' * (counts.status_fields_renamed != 1)} renamed"
    )


def _pair_head(old: RecordRef, new: RecordRef) -> str:
    head = new.id if old.id == new.id else f"{old.id} → {new.id}"
    return f"{head} ({new.kind})" + (f" {new.label}" if new.label else "")


def _conclusions(moves: tuple[ConclusionMove, ...]) -> Iterator[str]:
    """Each record's moves under one head, then the evidence behind each side once."""
    for index, move in enumerate(moves):
        first = index == 0 or moves[index - 1].new_record != move.new_record
        last = index == len(moves) - 1 or moves[index + 1].new_record != move.new_record
        if first:
            yield f"  ~ {_pair_head(move.old_record, move.new_record)}"
        field = f"{move.renamed_from} → {move.field}" if move.renamed_from else move.field
        yield f"      {field}: {status_change_text(move)}"
        if last:
            yield f"      old evidence: {'; '.join(move.old_evidence) or '(none)'}"
            yield f"      new evidence: {'; '.join(move.new_evidence) or '(none)'}"


def _verdicts(moves: tuple[VerdictMove, ...]) -> Iterator[str]:
    """Each moved verdict: where it is in each run, how it moved, both sentences."""
    for move in moves:
        old, new = move.old, move.new
        yield (
            f"  ~ {move.role}: {old.title} ({old.document}) → {new.title} ({new.document}), "
            f"{move.change}: {old.verdict} → {new.verdict}"
        )
        yield f"      old: {_one_line(old.text)}"
        yield f"      new: {_one_line(new.text)}"


def status_change_text(move: ConclusionMove | StatusChange) -> str:
    """A status change in words: a move as ``old → new``; a status one run alone states
    says which run, so silence never reads as a value."""
    if move.change == "newly stated":
        return f"newly stated: {move.new}"
    if move.change == "no longer stated":
        return f"no longer stated (was {move.old})"
    if move.change == "renamed":
        return f"renamed, value kept: {move.new}"
    return f"{move.old} → {move.new}"


def _renumbering(pair: Renumbering) -> str:
    why = "; ".join(pair.why) or "no signal above its threshold"
    return f"  {_pair_head(pair.old, pair.new)} — confidence {pair.confidence:.2f}: {why}"


def _document(document: DocumentChange) -> Iterator[str]:
    sections = f": {', '.join(document.sections)}" if document.sections else ""
    yield f"  {_MARK[document.change]} {document.document}{sections}"
    for text in document.texts:
        yield f"      {text.title}: {_words(text)}"


def _section(title: str, lines: Iterator[str]) -> Iterator[str]:
    body = list(lines)
    if body:
        yield ""
        yield title
        yield from body


def _ref(ref: RecordRef) -> str:
    return f"{ref.id} ({ref.kind})" + (f" {ref.label}" if ref.label else "")


def _record(change: RecordChange) -> Iterator[str]:
    yield f"  ~ {_pair_head(change.old, change.new)}"
    if change.possible_different_referent:
        share = f"{change.label_overlap:.0%}" if change.label_overlap is not None else "few"
        yield (
            f"      ! possibly a different referent: the labels share {share} of their words "
            f"(paired at {change.basis.confidence:.2f})"
        )
    for move in change.statuses:
        field = f"{move.renamed_from} → {move.title}" if move.renamed_from else move.title
        yield f"      {field}: {status_change_text(move)}"
    for guarantee in change.guarantees:
        yield f"      guarantee {guarantee.change}: " + " → ".join(
            text for text in (guarantee.old, guarantee.new) if text is not None
        )
    yield from (f"      evidence + {anchor}" for anchor in change.evidence_added)
    yield from (f"      evidence - {anchor}" for anchor in change.evidence_removed)
    yield from (
        f"      evidence ~ {m.old} → {m.new} (one file, another source ID)" for m in change.evidence_moved
    )
    yield from _fields(change.fields, "      ")


def _fields(fields: FieldChanges, indent: str) -> Iterator[str]:
    for text in fields.texts:
        yield f"{indent}{text.title}: {_words(text)}"
    for value in fields.values:
        yield f"{indent}{value.title}: {_one_line(value.old)} → {_one_line(value.new)}"
    for change in fields.lists:
        yield from (f"{indent}{change.title} + {_one_line(item)}" for item in change.added)
        yield from (f"{indent}{change.title} - {_one_line(item)}" for item in change.removed)


def _one_line(text: str | None) -> str:
    """A value on one line (a quotation may hold line breaks); '(none)' when unset."""
    return " ".join(text.split()) if text is not None else "(none)"


def _words(text: TextChange) -> str:
    if all(op.op == "equal" for op in text.ops):
        return "(spacing only)"
    parts = []
    for op in elided(text.ops, CONTEXT_WORDS):
        parts.append(
            op.text if op.op == "equal" else f"[-{op.text}-]" if op.op == "delete" else f"{{+{op.text}+}}"
        )
    return " ".join(parts) + (" (compared whole)" if text.whole else "")


def _collection(collection: CollectionDiff) -> Iterator[str]:
    yield from (f"  + {key}" for key in collection.added)
    yield from (f"  - {key}" for key in collection.removed)
    for item in collection.changed:
        yield f"  ~ {item.key}"
        yield from _fields(item.fields, "      ")


def _profile(profile: ProfileDiff) -> Iterator[str]:
    if profile.old_present != profile.new_present:
        yield (
            "  + a profile (the old run has none)"
            if profile.new_present
            else "  - the profile (the new run has none)"
        )
    if profile.scope is not None:
        yield f"  Scope: {_words(profile.scope)}"
    for axis in profile.axes:
        yield from _axis(axis)


def _axis(axis: AxisChange) -> Iterator[str]:
    yield f"  {_MARK[axis.change]} {axis.axis}"
    if axis.assessment is not None:
        yield f"      assessment: {axis.assessment.old or '(none)'} → {axis.assessment.new or '(none)'}"
    yield from (f"      value + {value}" for value in axis.values_added)
    yield from (f"      value - {value}" for value in axis.values_removed)
    for move in axis.basis:
        yield f"      {move.title.split(': ', 1)[-1]}: {move.old or '(none)'} → {move.new or '(none)'}"
    if axis.reshaped is not None:
        yield f"      reshaped: {axis.reshaped}"
    if axis.note is not None:
        yield f"      note: {_words(axis.note)}"
