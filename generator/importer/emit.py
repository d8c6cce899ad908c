"""YAML as a person writes it: block style, the schema modeline first, no anchors or aliases.

Long strings stay on one line as plain or quoted scalars (like the shipped records); a
string holding line breaks is a literal block. Keys keep the order they were built in
(the model's field order), so the same document always gives the same bytes.
"""

from __future__ import annotations

from typing import Any

import yaml

SCHEMA_FILE = "schemas/records.schema.json"  # beside records/, where 'kbgen schema' writes it


def modeline(depth: int) -> str:
    """The editor-schema line of a record file ``depth`` folders below the folder holding
    ``records/`` and ``schemas/``: the editor resolves the path from the file's folder."""
    return f"# yaml-language-server: $schema={'../' * depth}{SCHEMA_FILE}\n"


MODELINE = modeline(2)  # a system folder's file: records/<system>/
RUN_MODELINE = modeline(4)  # a further run's file: records/<system>/runs/<run-id>/


# libyaml's emitter when PyYAML has it (the same YAML, several times faster).
_BASE: type[yaml.SafeDumper] = getattr(yaml, "CSafeDumper", yaml.SafeDumper)


class RecordDumper(_BASE):  # type: ignore[valid-type,misc]
    """SafeDumper that never writes an alias and writes multi-line strings as literal blocks."""

    def ignore_aliases(self, data: Any) -> bool:
        return True


def _string(dumper: yaml.SafeDumper, value: str) -> yaml.ScalarNode:
    if "\n" in value:
        # A literal block cannot keep trailing spaces on a line; those strings are quoted.
        style = "|" if not any(line != line.rstrip() for line in value.split("\n")) else '"'
        return dumper.represent_scalar("tag:yaml.org,2002:str", value, style=style)
    return dumper.represent_scalar("tag:yaml.org,2002:str", value)


def _list(dumper: yaml.SafeDumper, value: list[Any]) -> yaml.SequenceNode:
    # Line ranges read best inline: lines: [[434, 435]].
    numeric = all(
        isinstance(item, int) or (isinstance(item, list) and all(isinstance(i, int) for i in item))
        for item in value
    )
    return dumper.represent_sequence("tag:yaml.org,2002:seq", value, flow_style=bool(value) and numeric)


RecordDumper.add_representer(str, _string)
RecordDumper.add_representer(list, _list)


def dump_file(mapping: dict[str, Any], schema_line: str = MODELINE) -> str:
    """One record file: the editor-schema line (``MODELINE`` for a system folder's file,
    ``RUN_MODELINE`` for a further run's), then the mapping in block style."""
    text = yaml.dump(
        mapping,
        Dumper=RecordDumper,
        sort_keys=False,
        allow_unicode=True,
        default_flow_style=False,
        width=1_000_000,
    )
    return schema_line + text
