"""A shipped run renumbered: each kind's IDs permuted with a seeded generator, every mention
in every file rewritten at once, and the text of a third of the records edited."""

from __future__ import annotations

import random
import re
import shutil
from pathlib import Path

import yaml

from generator.model import kinds


def copy_run(system: Path, target: Path) -> Path:
    """The system folder's own run (its record files, not ``runs/``) at ``target/<name>``."""
    folder = target / system.name
    shutil.copytree(system, folder, ignore=shutil.ignore_patterns("runs"))
    return folder


def permutation(ids: list[str], seed: int) -> dict[str, str]:
    """Each ID → another ID of its kind, a seeded random permutation within each kind."""
    by_kind: dict[str, list[str]] = {}
    for record_id in ids:
        spec = kinds.spec_of_id(record_id)
        by_kind.setdefault(spec.code if spec else "", []).append(record_id)
    rng = random.Random(seed)
    mapping: dict[str, str] = {}
    for code in sorted(by_kind):
        members = sorted(by_kind[code])
        shuffled = members[:]
        rng.shuffle(shuffled)
        mapping.update(zip(members, shuffled, strict=True))
    return mapping


def renumber(folder: Path, mapping: dict[str, str]) -> None:
    """Every mention of an ID in every file becomes its image, all in one pass."""
    names = sorted(mapping, key=len, reverse=True)
    pattern = re.compile(r"(?<![A-Za-z0-9-])(" + "|".join(map(re.escape, names)) + r")(?![A-Za-z0-9-])")
    for path in sorted(folder.rglob("*")):
        if path.is_file():
            text = path.read_text(encoding="utf-8")
            path.write_text(pattern.sub(lambda m: mapping[m.group(1)], text), encoding="utf-8")


def edit_a_third(folder: Path, seed: int) -> set[str]:
    """Edit the text of a third of the records (a seeded sample of those with a body,
    remarks or label): every seventh word dropped and a sentence added. The IDs edited."""
    files = {path: yaml.safe_load(path.read_text(encoding="utf-8")) for path in sorted(folder.glob("*.yaml"))}
    records = [
        (path, record)
        for path, data in files.items()
        if isinstance(data, dict)
        for value in data.values()
        if isinstance(value, list)
        for record in value
        if isinstance(record, dict) and "id" in record
    ]
    editable = [(path, record) for path, record in records if _field(record) is not None]
    chosen = random.Random(seed).sample(editable, len(records) // 3)
    for _, record in chosen:
        field = _field(record)
        assert field is not None
        words = str(record[field]).split()
        kept = [word for index, word in enumerate(words) if index % 7 != 6]
        record[field] = " ".join(kept) + " The later run restates this with different words."
    for path in sorted({path for path, _ in chosen}):
        path.write_text(yaml.safe_dump(files[path], sort_keys=False, allow_unicode=True), encoding="utf-8")
    return {str(record["id"]) for _, record in chosen}


def _field(record: dict[str, object]) -> str | None:
    return next((f for f in ("body", "remarks", "label") if record.get(f)), None)
