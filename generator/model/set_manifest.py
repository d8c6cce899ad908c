"""The analysis set's manifest (``ARTIFACT.yaml``): each member's canonical SHA-256.

**Canonical digest of a member.** The SHA-256 of the UTF-8 bytes of one JSON document:
``{"member": <name>, "document": <its document>, "records": [...], "annotations": [...],
…}`` (the memory member also holds the memory-comparison profile, the overview the run,
sources, limitations and supplied records, and each member the text of the Markdown files
its document includes) where every value is the validated model dumped in JSON mode without default
values (so adding an optional field to a model does not move digests), records and
annotations in ID order, keys sorted, no whitespace (``separators=(",", ":")``), no
ASCII escaping. The overview also holds the run, the sources (its source register)
and the limitations. It depends on what the records say, never on file layout, YAML
formatting or page templates, so ``kbgen check`` verifies a committed manifest without
rendering, and a change names the member it touched.

**Manifest bytes.** ``manifest_text`` writes the set type and the members in set order,
``members: {<member>.md: {sha256: …}}``, with ``\\n`` line endings; the review pins the
SHA-256 of those bytes.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from pydantic import BaseModel

from generator.model.ids import sort_key
from generator.model.records import Source
from generator.model.sets import MEMBER_FILES, MEMBER_KEYS, MEMBER_ORDER, annotation_member, record_member
from generator.model.system import SystemRecords
from generator.model.vocab import Member

SET_TYPE_NAME = "agentic-system-analysis-set"
MANIFEST_FILE = "ARTIFACT.yaml"
# The same bytes under a name every server sends as text/plain, so a reader's browser
# opens the manifest instead of downloading it (servers send .yaml as a download type).
MANIFEST_TEXT_FILE = MANIFEST_FILE + ".txt"


def _dump(model: BaseModel | None) -> Any:
    return None if model is None else model.model_dump(mode="json", exclude_defaults=True)


def member_contents(system: SystemRecords, member: Member) -> dict[str, Any]:
    """Everything a member publishes, as plain JSON values."""
    records = sorted(
        (r for r in system.records if record_member(r) is member and not isinstance(r, Source)),
        key=lambda r: sort_key(r.id),
    )
    contents: dict[str, Any] = {
        "member": member.value,
        "document": _dump(getattr(system, MEMBER_KEYS[member])),
        "records": [_dump(r) for r in records],
        "annotations": [
            _dump(a)
            for a in sorted(system.annotations, key=lambda a: sort_key(a.target))
            if annotation_member(a) is member
        ],
    }
    if member is Member.OVERVIEW:
        sources = sorted((r for r in system.records if isinstance(r, Source)), key=lambda r: sort_key(r.id))
        contents["run"] = _dump(system.run)
        contents["sources"] = [_dump(r) for r in sources]
        contents["limitations"] = [_dump(limitation) for limitation in system.limitations]
        contents["supplied"] = [_dump(s) for s in sorted(system.supplied, key=lambda s: sort_key(s.id))]
    if member is _profile_member(system):
        # The memory-comparison profile is published with the memory report (the set's
        # overview without one): its digest covers every axis, value, basis and note.
        contents["memory_comparison"] = _dump(system.memory_comparison)
    included = _included(contents["document"])
    if included:
        # Prose kept in Markdown files beside the YAML is published as the member's text.
        contents["included"] = {name: system.prose.get(name) for name in included}
    return contents


def _profile_member(system: SystemRecords) -> Member:
    return Member.MEMORY if system.memory_report is not None else Member.OVERVIEW


def _included(value: Any) -> list[str]:
    """The Markdown files a dumped document includes (``include:`` blocks), in order, once."""
    found: list[str] = []
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            if isinstance(item.get("include"), str):
                found.append(item["include"])
            stack.extend(reversed(list(item.values())))
        elif isinstance(item, list):
            stack.extend(reversed(item))
    return sorted(set(found))


def canonical_bytes(contents: dict[str, Any]) -> bytes:
    return json.dumps(contents, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


def member_digest(system: SystemRecords, member: Member) -> str:
    """The canonical SHA-256 of one member."""
    return hashlib.sha256(canonical_bytes(member_contents(system, member))).hexdigest()


def set_members(system: SystemRecords) -> list[Member]:
    """The members the set lists, in set order (empty when the system is not a set)."""
    if system.analysis_set is None:
        return []
    listed = {entry.member for entry in system.analysis_set.members}
    return [member for member in MEMBER_ORDER if member in listed]


def member_digests(system: SystemRecords) -> dict[str, str]:
    """Member file name → canonical SHA-256, in set order."""
    return {MEMBER_FILES[m]: member_digest(system, m) for m in set_members(system)}


def set_type(system: SystemRecords) -> str:
    """The set's type name, in the type collection its overview's type names."""
    members = system.analysis_set.members if system.analysis_set is not None else []
    overview = next((m for m in members if m.member is Member.OVERVIEW), None)
    folder = overview.type.rsplit("/", 1)[0] if overview is not None and "/" in overview.type else "types"
    return f"{folder}/{SET_TYPE_NAME}.md"


def manifest_text(system: SystemRecords) -> str:
    """The ``ARTIFACT.yaml`` the records pin."""
    lines = [f"type: {set_type(system)}", "members:"]
    for name, digest in member_digests(system).items():
        lines += [f"  {name}:", f"    sha256: {digest}"]
    return "\n".join(lines) + "\n"


def manifest_digest(system: SystemRecords) -> str:
    """The SHA-256 of the manifest bytes: what a review pins."""
    return hashlib.sha256(manifest_text(system).encode("utf-8")).hexdigest()
