"""The record loader's scalar resolver gives every scalar the tag PyYAML's own gives it.

The loader answers most scalars (prose whose first character no implicit type starts
with) without trying PyYAML's patterns; these tests compose the same documents with both
loaders and compare every node's tag, over the scalars each implicit type knows, their
near misses, and random text.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from pathlib import Path

import yaml

from generator.load.records import _Loader

REPO_RECORDS = Path(__file__).resolve().parents[2] / "records"

# Every implicit type of YAML 1.1 as PyYAML resolves it, with near misses of each.
TYPED_OR_NEARLY = [
    "yes",
    "Yes",
    "YES",
    "no",
    "No",
    "NO",
    "true",
    "True",
    "TRUE",
    "false",
    "False",
    "FALSE",
    "on",
    "On",
    "ON",
    "off",
    "Off",
    "OFF",
    "y",
    "n",
    "Y",
    "N",
    "yess",
    "nope",
    "tRue",
    "offset",
    "null",
    "Null",
    "NULL",
    "~",
    "",
    "nul",
    "none",
    "None",
    "0",
    "-1",
    "+1",
    "1_000",
    "0x1F",
    "0o17",
    "017",
    "0b101",
    "1:20",
    "190:20:30",
    "12abc",
    "1.5",
    "-1.5e3",
    "+.5",
    ".5",
    ".inf",
    "-.Inf",
    "+.INF",
    ".nan",
    ".NaN",
    ".NAN",
    ".x",
    "1e3",
    "2001-12-14",
    "2001-12-14t21:59:43.10-05:00",
    "2001-12-14 21:59:43.10",
    "2001-12-1",
    "<<",
    "<",
    "<<a",
    "=",
    "==",
    "!",
    "&",
    "*",
    "Apple",
    "a sentence of prose",
    "Évidence",
    "ß",
    "日本",
    "-",
    "- x",
    "_x",
    "@",
    "`",
]


def _tags(node: yaml.Node) -> Iterator[tuple[str, str]]:
    if isinstance(node, yaml.ScalarNode):
        yield node.tag, node.value
    elif isinstance(node, yaml.MappingNode):
        for key, value in node.value:
            yield from _tags(key)
            yield from _tags(value)
    else:
        for item in node.value:
            yield from _tags(item)


def _both(text: str) -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
    ours = yaml.compose(text, Loader=_Loader)
    theirs = yaml.compose(text, Loader=yaml.CSafeLoader)
    return list(_tags(ours)), list(_tags(theirs))


def _reads_back(written: str, value: str) -> bool:
    """Whether ``written`` after a key reads back as ``value``, alone or as a flow list's
    one item (not every text can be written bare)."""
    try:
        node = yaml.compose(f"k: {written}\n", Loader=yaml.CSafeLoader)
    except yaml.YAMLError:
        return False
    read = node.value[0][1] if isinstance(node, yaml.MappingNode) else None
    if isinstance(read, yaml.SequenceNode) and len(read.value) == 1:
        read = read.value[0]
    return isinstance(read, yaml.ScalarNode) and read.value == value


def _document(values: list[str]) -> str:
    """Each value as a plain value and flow-list item where it can be one, double-quoted as
    a key and a value, and single-quoted."""
    lines = []
    for index, value in enumerate(values):
        quoted = json.dumps(value)
        if _reads_back(value, value):
            lines.append(f"k{index}: {value}")
        if _reads_back(f"[{value}]", value):
            lines.append(f"p{index}: [{value}]")
        lines.append(f"{quoted}: {quoted}")
        lines.append(f"s{index}: '{value.replace(chr(39), chr(39) * 2)}'")
    return "\n".join(lines) + "\n"


def test_typed_scalars_and_near_misses_resolve_alike() -> None:
    ours, theirs = _both(_document(TYPED_OR_NEARLY))
    assert ours == theirs
    tags = {tag for tag, _ in ours}
    # The corpus reaches every implicit type, so the comparison is not of strings alone.
    for name in ("bool", "int", "float", "null", "timestamp", "merge", "str"):
        assert f"tag:yaml.org,2002:{name}" in tags, name


def test_plain_scalars_of_every_first_character_resolve_alike() -> None:
    values = [
        chr(code) + tail
        for code in range(0x21, 0x250)
        if chr(code).isprintable()
        for tail in ("", "1", "es", "x y")
    ]
    ours, theirs = _both(_document(values))
    assert ours == theirs


def test_random_scalars_resolve_alike() -> None:
    alphabet = "0123456789.+-_:eExXoObB yYnNtTfF~<=!&*aAlLuUsS\t"
    chooser = random.Random(7)
    values = ["".join(chooser.choice(alphabet) for _ in range(chooser.randint(1, 9))) for _ in range(3000)]
    ours, theirs = _both(_document(values))
    assert ours == theirs


def test_the_shipped_records_resolve_alike() -> None:
    files = sorted(REPO_RECORDS.rglob("*.yaml"))
    assert files
    for path in files:
        ours, theirs = _both(path.read_text(encoding="utf-8"))
        assert ours == theirs, path
