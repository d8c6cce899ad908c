"""Load a records folder: YAML files (with every value's file:line:col) and Markdown prose.

Built on libyaml's C composer for speed. Loading is safe and strict: only plain YAML
values, no anchors or aliases, no duplicate keys, one document per file, and a size
limit. Problems become diagnostics; nothing here raises to the caller.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml
from yaml.constructor import ConstructorError, SafeConstructor

from .diagnostics import Diagnostic, error
from .model.meta import DataPath

try:
    _Loader: type = yaml.CSafeLoader
except AttributeError:  # pragma: no cover - libyaml missing: slower but equivalent
    _Loader = yaml.SafeLoader

MAX_FILE_BYTES = 2 * 1024 * 1024
RECORD_SUFFIXES = (".yaml", ".yml")
PROSE_SUFFIX = ".md"

_PLAIN_TAGS = frozenset(
    "tag:yaml.org,2002:" + name for name in ("str", "int", "float", "bool", "null", "map", "seq", "timestamp")
)

_STR_TAG = "tag:yaml.org,2002:str"


@dataclass(frozen=True, slots=True)
class ValueSpot:
    """Where a value starts, and enough about its style to locate text inside it."""

    line: int  # 1-based
    col: int  # 1-based
    style: str | None  # None plain, '|' literal, '>' folded, quote characters
    key_line: int
    key_col: int


@dataclass
class LoadedFile:
    """One record file: its data and where each value came from."""

    display: str  # the path shown in diagnostics
    data: dict[str, Any]
    spots: dict[DataPath, ValueSpot]
    lines: list[str]

    def spot(self, path: DataPath) -> ValueSpot:
        """The spot of the value at ``path``, or of its nearest located ancestor."""
        for end in range(len(path), -1, -1):
            found = self.spots.get(path[:end])
            if found is not None:
                return found
        return ValueSpot(1, 1, None, 1, 1)

    def text_position(self, path: DataPath, offset: int) -> tuple[int, int]:
        """The line and column of character ``offset`` inside the string at ``path``."""
        spot = self.spot(path)
        value = self._value(path)
        if not isinstance(value, str):
            return spot.line, spot.col
        before = value[:offset]
        if spot.style == "|":
            # Literal block: content lines follow the indicator line, all indented by the
            # block's indentation (that of its first non-empty line).
            indent = self._block_indent(spot.line)
            row = before.count("\n")
            return spot.line + 1 + row, indent + 1 + len(before) - (before.rfind("\n") + 1)
        if "\n" in before:
            return spot.line, spot.col
        raw = self.lines[spot.line - 1] if spot.line - 1 < len(self.lines) else ""
        if spot.style is None:
            # Plain scalar on one line: characters map one to one while it is unwrapped.
            if len(raw) >= spot.col - 1 + offset:
                return spot.line, spot.col + offset
            return spot.line, spot.col
        column = _quoted_column(raw, spot.col, spot.style, offset)
        return (spot.line, column) if column is not None else (spot.line, spot.col)

    def _block_indent(self, indicator_line: int) -> int:
        for raw in self.lines[indicator_line:]:
            if raw.strip():
                return len(raw) - len(raw.lstrip(" "))
        return 0

    def _value(self, path: DataPath) -> Any:
        value: Any = self.data
        for step in path:
            try:
                value = value[step]
            except (KeyError, IndexError, TypeError):
                return None
        return value


def _quoted_column(raw: str, col: int, quote: str, offset: int) -> int | None:
    """Map a decoded offset inside a quoted scalar back to its source column (1-based).

    ``''`` in single quotes and backslash escapes in double quotes take more source
    characters than the one character they stand for.
    """
    index = col  # col is 1-based and points at the opening quote: index is the first char
    escape_mark = "''" if quote == "'" else "\\"
    if escape_mark not in raw[index : index + 2 * offset + 2]:
        return index + offset + 1  # no escapes before the offset: one character each
    decoded = 0
    while decoded < offset:
        if index >= len(raw):
            return None
        if quote == "'" and raw.startswith("''", index):
            index += 2
        elif quote == '"' and raw[index] == "\\":
            code = raw[index + 1 : index + 2]
            index += {"x": 4, "u": 6, "U": 10}.get(code, 2)
        else:
            index += 1
        decoded += 1
    return index + 1


@dataclass
class SystemSource:
    """The raw input of one system folder, as loaded."""

    slug: str
    folder: Path
    display: str = ""  # the folder as diagnostics show it
    files: list[LoadedFile] = field(default_factory=list)
    prose: dict[str, tuple[str, str]] = field(default_factory=dict)  # relative path → (display, text)
    diagnostics: list[Diagnostic] = field(default_factory=list)


class _Builder:
    """Turns a composed node tree into plain data, recording spots and refusing unsafe YAML."""

    def __init__(self, display: str) -> None:
        self.display = display
        self.spots: dict[DataPath, ValueSpot] = {}
        self.diagnostics: list[Diagnostic] = []
        self._seen: set[int] = set()
        self._constructor = SafeConstructor()

    def build(self, node: yaml.Node, path: DataPath, key_mark: yaml.Mark | None = None) -> Any:
        mark = node.start_mark
        key = key_mark or mark
        self.spots[path] = ValueSpot(
            mark.line + 1,
            mark.column + 1,
            getattr(node, "style", None) or None,  # libyaml reports plain scalars as ''
            key.line + 1,
            key.column + 1,
        )
        if id(node) in self._seen:
            self._refuse("KB003", "an alias repeats an anchored value; write the value out", mark)
            return None
        self._seen.add(id(node))
        if node.tag not in _PLAIN_TAGS:
            self._refuse("KB004", f"tag {node.tag!r} is not allowed in records", mark)
            return None
        if isinstance(node, yaml.MappingNode):
            return self._mapping(node, path)
        if isinstance(node, yaml.SequenceNode):
            return [self.build(item, (*path, index)) for index, item in enumerate(node.value)]
        if node.tag == _STR_TAG:
            return node.value  # the common case, without the constructor's bookkeeping
        try:
            return self._constructor.construct_object(node, deep=True)
        except (ConstructorError, ValueError) as exc:
            self._refuse("KB101", f"cannot read this value: {exc}", mark)
            return None

    def _mapping(self, node: yaml.MappingNode, path: DataPath) -> dict[str, Any]:
        result: dict[str, Any] = {}
        for key_node, value_node in node.value:
            if key_node.tag == "tag:yaml.org,2002:merge":
                self._refuse(
                    "KB003", "merge keys ('<<') are not allowed; write the keys out", key_node.start_mark
                )
                continue
            if not isinstance(key_node, yaml.ScalarNode) or key_node.tag not in _PLAIN_TAGS:
                self._refuse("KB101", "mapping keys must be plain strings", key_node.start_mark)
                continue
            key = str(key_node.value)
            if key in result:
                line = key_node.start_mark.line + 1
                self.diagnostics.append(
                    error(
                        "KB002",
                        f"key {key!r} appears twice in this mapping",
                        self.display,
                        line,
                        key_node.start_mark.column + 1,
                        hint="YAML keeps only the last value; merge the two entries.",
                    )
                )
                continue
            result[key] = self.build(value_node, (*path, key), key_node.start_mark)
        return result

    def _refuse(self, code: str, message: str, mark: yaml.Mark) -> None:
        self.diagnostics.append(error(code, message, self.display, mark.line + 1, mark.column + 1))


def load_record_file(path: Path, display: str) -> tuple[LoadedFile | None, list[Diagnostic]]:
    """Load one YAML record file, returning its data with spots, or diagnostics."""
    try:
        size = path.stat().st_size
        if size > MAX_FILE_BYTES:
            return None, [
                error(
                    "KB005",
                    f"file is {size} bytes; the limit is {MAX_FILE_BYTES}",
                    display,
                    hint="Split the records over several files, or move long prose into Markdown files.",
                )
            ]
        text = path.read_bytes().decode("utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        return None, [error("KB007", f"cannot read file: {exc}", display)]
    return load_record_text(text, display)


def load_record_text(text: str, display: str) -> tuple[LoadedFile | None, list[Diagnostic]]:
    """Load record YAML from text (the file-independent part of loading)."""
    try:
        documents = list(yaml.compose_all(text, Loader=_Loader))
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line, col = (mark.line + 1, mark.column + 1) if mark else (1, 1)
        problem = exc.problem or "malformed YAML"
        context = f" ({exc.context})" if exc.context else ""
        return None, [error("KB001", f"{problem}{context}", display, line, col)]
    except yaml.YAMLError as exc:
        return None, [error("KB001", str(exc).splitlines()[0], display)]
    documents = [doc for doc in documents if doc is not None]
    if not documents:
        return LoadedFile(display, {}, {}, text.splitlines()), []
    if len(documents) > 1:
        mark = documents[1].start_mark
        return None, [
            error("KB006", "a record file holds one YAML document", display, mark.line + 1, mark.column + 1)
        ]
    root = documents[0]
    if "*" in text and "&" in text:
        aliases = _alias_uses(text, display)
        if aliases:
            return None, aliases
    builder = _Builder(display)
    data = builder.build(root, ())
    if builder.diagnostics:
        return None, builder.diagnostics
    if not isinstance(data, dict):
        mark = root.start_mark
        return None, [
            error(
                "KB006",
                f"a record file must be a mapping of top-level keys, not a {type(data).__name__}",
                display,
                mark.line + 1,
                mark.column + 1,
            )
        ]
    return LoadedFile(display, data, builder.spots, text.splitlines()), []


def _alias_uses(text: str, display: str) -> list[Diagnostic]:
    """Locate each alias where it is used (the composed tree only knows the anchor)."""
    found: list[Diagnostic] = []
    previous: yaml.Event | None = None
    for event in yaml.parse(text, Loader=_Loader):
        if isinstance(event, yaml.AliasEvent):
            merge = isinstance(previous, yaml.ScalarEvent) and previous.value == "<<" and not previous.style
            mark = previous.start_mark if merge and previous is not None else event.start_mark
            message = (
                "merge keys ('<<') are not allowed; write the keys out"
                if merge
                else f"alias *{event.anchor} repeats an anchored value; write the value out"
            )
            line, col = (mark.line + 1, mark.column + 1) if mark is not None else (1, 1)
            found.append(error("KB003", message, display, line, col))
        previous = event
    return found


def _display(path: Path, base: Path) -> str:
    try:
        return path.resolve().relative_to(base.resolve()).as_posix()
    except ValueError:
        return path.as_posix()


def load_system(folder: Path, base: Path | None = None) -> SystemSource:
    """Load every record file and Markdown prose file of one system folder, sorted by path."""
    base = base or Path.cwd()
    source = SystemSource(slug=folder.name, folder=folder, display=_display(folder, base) + "/")
    for path in sorted(p for p in folder.rglob("*") if p.is_file()):
        relative = path.relative_to(folder).as_posix()
        display = _display(path, base)
        if path.suffix in RECORD_SUFFIXES:
            loaded, diagnostics = load_record_file(path, display)
            source.diagnostics.extend(diagnostics)
            if loaded is not None:
                source.files.append(loaded)
        elif path.suffix == PROSE_SUFFIX:
            try:
                source.prose[relative] = (display, path.read_bytes().decode("utf-8"))
            except (OSError, UnicodeDecodeError) as exc:
                source.diagnostics.append(error("KB007", f"cannot read file: {exc}", display))
    return source


def system_folders(records: Path) -> Iterator[Path]:
    """The system folders under a records folder; a folder holding YAML itself is one system."""
    if any(p.suffix in RECORD_SUFFIXES for p in records.iterdir() if p.is_file()):
        yield records
        return
    for child in sorted(records.iterdir()):
        if child.is_dir() and not child.name.startswith((".", "_")):
            yield child
