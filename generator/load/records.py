"""Load a records folder: YAML files (with every value's file:line:col) and Markdown prose.

Built on libyaml's C composer for speed. Loading is safe and strict: only plain YAML
values, no anchors or aliases, no duplicate keys, one document per file, and a size
limit. Problems become diagnostics; nothing here raises to the caller.
"""

from __future__ import annotations

import os
import re
import stat
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any, NamedTuple

import yaml
from yaml.constructor import ConstructorError, SafeConstructor

from generator.diagnostics import Diagnostic, Rule, error
from generator.load.readfs import (
    CONTROL_CHARACTER,
    KB011,
    KB012,
    LINE_SEPARATOR,
    PROSE_SUFFIX,
    RECORD_SUFFIXES,
    editor_text,
    entry_kind,
    ignored,
    line_separator,
    not_regular,
    open_folder,
    printable,
    read_text,
    readable_relative,
    relative_name_refusal,
    walk_system,
)
from generator.load.scalarpos import ScalarSpan, scalar_locator
from generator.load.slugs import slug_problem, suggest_slug
from generator.load.textpos import LineIndex
from generator.model.meta import DataPath
from generator.model.profile import DUPLICATE_KEY_RULES
from generator.model.runs import RUNS_FOLDER
from generator.model.set_manifest import MANIFEST_FILE

KB001 = Rule("KB001", "yaml-syntax", "The file is not well-formed YAML.", doc="YAML syntax")

KB002 = Rule("KB002", "duplicate-key", "A mapping repeats a key.", doc="duplicate keys")

KB003 = Rule(
    "KB003",
    "alias-refused",
    "YAML anchors, aliases and merge keys are not allowed in records.",
    doc="anchors/aliases refused (merge keys too)",
)

KB004 = Rule(
    "KB004",
    "unsafe-tag",
    "Only plain YAML values are allowed: no custom or language tags.",
    doc="custom tags refused",
)

KB006 = Rule(
    "KB006", "not-a-mapping", "A record file must be a single YAML mapping.", doc="one mapping per file"
)


KB101 = Rule("KB101", "schema-type", "A value has the wrong type or shape.", doc="schema: wrong type")

KB308 = Rule(
    "KB308",
    "run-folder",
    "A run folder's name is not its run's ID, or runs/ holds a file.",
    doc=(
        "a further run's folder (`<system>/runs/<folder>/`) is not named by its run's `run_id`, or `runs/` "
        "holds a file or link instead of run folders"
    ),
)

# libyaml's loader; PyYAML's own where libyaml is missing: slower but equivalent.
_CLoader: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

_STR_TAG = "tag:yaml.org,2002:str"


class _Loader(_CLoader):
    """The safe loader, its scalar resolver answering the common case first.

    libyaml's composer asks the resolver, in Python, for the tag of every untagged
    scalar. Most record values are prose, quoted or plain, whose first character no
    implicit type (numbers, booleans, null, timestamps, merge keys) can start with: those
    are strings whatever their text, and are answered without trying the patterns. The
    rest go to PyYAML's own resolver. ``tests/load/test_loader_resolver.py`` holds the
    two to the same tags."""

    _MAY_BE_TYPED = frozenset(_CLoader.yaml_implicit_resolvers)
    # Only where no resolver applies to every first character, nor to a place in the tree.
    _SHORT_CUT = None not in _MAY_BE_TYPED and not _CLoader.yaml_path_resolvers

    def resolve(self, kind: type, value: Any, implicit: tuple[bool, bool]) -> str:
        if (
            kind is yaml.ScalarNode
            and self._SHORT_CUT
            and (not implicit[0] or (value and value[0] not in self._MAY_BE_TYPED))
        ):
            return _STR_TAG
        tag: str = super().resolve(kind, value, implicit)
        return tag


MAX_DEPTH = 64  # nesting of YAML collections; records need fewer than ten

_PLAIN_TAGS = frozenset(
    "tag:yaml.org,2002:" + name for name in ("str", "int", "float", "bool", "null", "map", "seq", "timestamp")
)

_SCALAR, _MAPPING, _SEQUENCE = yaml.ScalarNode, yaml.MappingNode, yaml.SequenceNode


class ValueSpot(NamedTuple):
    """Where a value starts, and enough about its style to locate text inside it.

    A named tuple: one is made for every value of every record file, and a tuple is made
    three times faster than a frozen dataclass."""

    line: int  # 1-based
    col: int  # 1-based
    style: str | None  # None plain, '|' literal, '>' folded, quote characters
    key_line: int
    key_col: int
    end_line: int = 0  # where the value ends (just after it); 0 when unknown
    end_col: int = 0


@dataclass
class LoadedFile:
    """One record file: its data and where each value came from."""

    display: str  # the path shown in diagnostics
    data: dict[str, Any]
    spots: dict[DataPath, ValueSpot]
    lines: list[str]
    _cache: dict[str, dict[Any, Any]] = field(default_factory=dict, repr=False, compare=False)

    def spot(self, path: DataPath) -> ValueSpot:
        """The spot of the value at ``path``, or of its nearest located ancestor."""
        for end in range(len(path), -1, -1):
            found = self.spots.get(path[:end])
            if found is not None:
                return found
        return ValueSpot(1, 1, None, 1, 1)

    def text_position(self, path: DataPath, offset: int) -> tuple[int, int]:
        """The line and column of character ``offset`` inside the string at ``path``."""
        return self.locator(path)(offset)

    def locator(self, path: DataPath) -> Callable[[int], tuple[int, int]]:
        """A function from an offset inside the string at ``path`` to its line and column.

        Everything that depends only on the string (its spot, line breaks, the column map
        of a quoted line) is computed once per path, so locating every ID of a long text
        stays linear.
        """
        cache = self._cache.setdefault("locators", {})
        found = cache.get(path)
        if found is None:
            found = cache[path] = self._make_locator(path)
        return found

    def _make_locator(self, path: DataPath) -> Callable[[int], tuple[int, int]]:
        spot = self.spot(path)
        value = self._value(path)
        if not isinstance(value, str) or path not in self.spots:
            return lambda offset: (spot.line, spot.col)
        span = ScalarSpan(spot.line, spot.col, spot.end_line or spot.line, spot.end_col, spot.style)
        located: list[Callable[[int], tuple[int, int]]] = []

        def locate(offset: int) -> tuple[int, int]:
            # Matched on first use: most strings never need a position.
            if not located:
                located.append(scalar_locator(self.lines, span, value))
            return located[0](offset)

        return locate

    def _value(self, path: DataPath) -> Any:
        value: Any = self.data
        for step in path:
            try:
                value = value[step]
            except (KeyError, IndexError, TypeError):
                return None
        return value


@dataclass
class SystemSource:
    """The raw input of one system folder, as loaded."""

    slug: str
    folder: Path
    display: str = ""  # the folder as diagnostics show it
    files: list[LoadedFile] = field(default_factory=list)
    prose: dict[str, tuple[str, str]] = field(default_factory=dict)  # relative path → (display, text)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    salvaged_ids: set[str] = field(default_factory=set)  # ``id: X`` lines of files that failed to load
    manifest: LoadedFile | None = None  # an analysis set's committed ``ARTIFACT.yaml``
    run_folder: str = ""  # the folder's name below the system's runs/, "" for its own run


class _Builder:
    """Turns a composed node tree into plain data, recording spots and refusing unsafe YAML.

    ``aliases_possible``: the text holds a ``*``. Only an alias makes a node appear twice
    in the composed tree: the repeat is refused here instead of expanded, and
    ``alias_found`` tells the loader to locate every alias where it is used
    (``_alias_uses``), which the tree does not know. The set of every node's identity this
    takes is kept only where an alias can be written at all.
    """

    def __init__(self, display: str, aliases_possible: bool = True, through_door: bool = False) -> None:
        self.display = display
        self._text_clean = through_door  # no CR nor control character outside escapes
        self.alias_found = False  # a node met twice, or a merge key: ``_alias_uses`` says where
        self.spots: dict[DataPath, ValueSpot] = {}
        self.diagnostics: list[Diagnostic] = []
        self._seen: set[int] | None = set() if aliases_possible else None
        self._constructor = SafeConstructor()

    def build(self, node: Any, path: DataPath, key_mark: yaml.Mark | None = None) -> Any:
        # Called for every value of every record file (``node``: a composed scalar,
        # sequence or mapping node): attributes are read once, and a node's class is
        # compared rather than tested with isinstance.
        mark = node.start_mark
        end = node.end_mark
        key = key_mark or mark
        kind = node.__class__
        self.spots[path] = ValueSpot(
            mark.line + 1,
            mark.column + 1,
            (node.style or None) if kind is _SCALAR else None,  # libyaml reports plain scalars as ''
            key.line + 1,
            key.column + 1,
            end.line + 1,
            end.column + 1,
        )
        seen = self._seen
        if seen is not None:
            if id(node) in seen:
                self.alias_found = True
                self._refuse(KB003, "an alias repeats an anchored value; write the value out", mark)
                return None
            seen.add(id(node))
        tag = node.tag
        if tag == _STR_TAG and kind is _SCALAR:
            # The common case, without the constructor's bookkeeping.
            return self._text(node.value, mark, node.style)
        if tag not in _PLAIN_TAGS:
            self._refuse(KB004, f"tag {tag!r} is not allowed in records", mark)
            return None
        if kind is _MAPPING:
            return self._mapping(node, path)
        if kind is _SEQUENCE:
            build = self.build
            return [build(item, (*path, index)) for index, item in enumerate(node.value)]
        try:
            return self._constructor.construct_object(node, deep=True)
        except (ConstructorError, ValueError) as exc:
            self._refuse(KB101, f"cannot read this value: {exc}", mark)
            return None

    def _mapping(self, node: yaml.MappingNode, path: DataPath) -> dict[str, Any]:
        result: dict[str, Any] = {}
        build = self.build
        for key_node, value_node in node.value:
            tag = key_node.tag
            if tag == _STR_TAG and key_node.__class__ is _SCALAR:
                key = self._text(key_node.value, key_node.start_mark, key_node.style)
            elif tag == "tag:yaml.org,2002:merge":
                self.alias_found = True
                self._refuse(
                    KB003, "merge keys ('<<') are not allowed; write the keys out", key_node.start_mark
                )
                continue
            elif key_node.__class__ is not _SCALAR or tag not in _PLAIN_TAGS:
                self._refuse(KB101, "mapping keys must be plain strings", key_node.start_mark)
                continue
            else:
                key = self._text(str(key_node.value), key_node.start_mark, key_node.style)
            if key in result:
                self._duplicate_key(key, key_node.start_mark, path)
                continue
            result[key] = build(value_node, (*path, key), key_node.start_mark)
        return result

    def _text(self, text: str, mark: yaml.Mark, style: str | None) -> str:
        """A string as every later stage sees it: one kind of line break, no control
        character. The file's own bytes were checked at the door (``readfs``); a
        double-quoted scalar's escapes (``"\\r"``, ``"\\e"``) make characters the file
        does not hold, and only such a scalar is searched in a text read through it."""
        if self._text_clean and style != '"':
            return text
        if "\r" in text:
            text = text.replace("\r\n", "\n").replace("\r", "\n")
        bad = CONTROL_CHARACTER.search(text)
        if bad is not None:
            self._refuse(
                KB012,
                f"control character U+{ord(bad.group(0)):04X} (written as an escape) is not allowed",
                mark,
            )
        return text

    def _duplicate_key(self, key: str, mark: yaml.Mark, path: DataPath) -> None:
        # Some mappings are keyed collections with a rule of their own (the profile's axes).
        rule, message = DUPLICATE_KEY_RULES.get(path, (KB002, "key {key!r} appears twice in this mapping"))
        self.diagnostics.append(
            error(
                rule,
                message.format(key=key),
                self.display,
                mark.line + 1,
                mark.column + 1,
                hint="The file is refused: other YAML tools would silently keep one of the values; "
                "merge the two entries into one.",
            )
        )

    def _refuse(self, rule: Rule, message: str, mark: yaml.Mark) -> None:
        self.diagnostics.append(error(rule, message, self.display, mark.line + 1, mark.column + 1))


def load_record_file(path: Path, display: str) -> tuple[LoadedFile | None, list[Diagnostic]]:
    """Load one YAML record file through the same door as a system walk (no symlinks)."""
    folder_fd, problems = open_folder(str(path.parent), display)
    if folder_fd is None:
        return None, problems
    try:
        text, problems = read_text(folder_fd, path.name, display)
    finally:
        os.close(folder_fd)
    if text is None:
        return None, problems
    return load_record_text(text, display, through_door=True)


def load_record_text(
    text: str, display: str, through_door: bool = False
) -> tuple[LoadedFile | None, list[Diagnostic]]:
    """Load record YAML from text (the file-independent part of loading); ``through_door``:
    the text was read by ``readfs.read_text`` or ``readfs.editor_text``, which refuse
    control characters and turn each CR into LF."""
    separator = line_separator(text, display)
    if separator is not None:  # before libyaml, which would count it as a line break
        return None, [separator]
    try:
        too_deep = _too_deep(text, display)
        if too_deep is not None:
            return None, [too_deep]
        documents = list(yaml.compose_all(text, Loader=_Loader))
    except yaml.reader.ReaderError as exc:
        line, col = LineIndex(text).position(exc.position)
        return None, [error(KB012, f"character not allowed in YAML: {exc.reason}", display, line, col)]
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line, col = (mark.line + 1, mark.column + 1) if mark else (1, 1)
        problem = exc.problem or "malformed YAML"
        context = f" ({exc.context})" if exc.context else ""
        return None, [error(KB001, f"{problem}{context}", display, line, col)]
    except yaml.YAMLError as exc:
        return None, [error(KB001, str(exc).splitlines()[0], display)]
    documents = [doc for doc in documents if doc is not None]
    if not documents:
        return LoadedFile(display, {}, {}, text.splitlines()), []
    if len(documents) > 1:
        mark = documents[1].start_mark
        return None, [
            error(KB006, "a record file holds one YAML document", display, mark.line + 1, mark.column + 1)
        ]
    root = documents[0]
    # Only an alias makes the composed tree meet a node twice (and a merge key needs one):
    # the builder notices, without expanding it, and the aliases are then located where
    # they are used, which the tree does not know. A file refused for another reason may
    # have hidden its alias's first use: it is scanned too where it can hold an alias, and
    # its aliases are what it is refused for, as when every such file was scanned first.
    aliases_possible = "*" in text
    builder = _Builder(display, aliases_possible=aliases_possible, through_door=through_door)
    data = builder.build(root, ())
    if builder.alias_found or (builder.diagnostics and aliases_possible and "&" in text):
        aliases = _alias_uses(text, display)
        if aliases:
            return None, aliases
    if builder.diagnostics:
        return None, builder.diagnostics
    if not isinstance(data, dict):
        mark = root.start_mark
        return None, [
            error(
                KB006,
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
            found.append(error(KB003, message, display, line, col))
        previous = event
    return found


def _too_deep(text: str, display: str) -> Diagnostic | None:
    """KB011 where collections first nest deeper than MAX_DEPTH, before anything recurses.

    libyaml's composer and the builder below are recursive: a few thousand nested
    brackets crash or overflow them. The event stream is flat, so count depth there
    and stop at the first crossing.
    """
    if _nesting_bound(text) <= MAX_DEPTH:
        return None
    try:
        return _first_crossing(yaml.parse(text, Loader=_Loader), display)
    except yaml.MarkedYAMLError as exc:
        if "maximum nesting depth" not in (exc.problem or ""):
            raise
        # Newer libyaml stops at a nesting limit of its own while it scans ahead of the
        # events, before the crossing of MAX_DEPTH is seen. The crossing lies in the text
        # before that point: find it there with the pure-Python parser, which yields
        # each event as soon as it is scanned.
        end = exc.problem_mark.index if exc.problem_mark is not None else len(text)
        try:
            found = _first_crossing(yaml.parse(text[:end], Loader=yaml.SafeLoader), display)
        except yaml.YAMLError:
            found = None
        mark = exc.problem_mark
        line, col = (mark.line + 1, mark.column + 1) if mark is not None else (1, 1)
        return found or _too_deep_at(display, line, col)


# What may stand before a block collection's first token on its line: indentation, the
# indicators of entries, keys and values, and properties (anchors, tags). Generous on
# purpose: a longer prefix only loosens the bound below.
_PREFIX = r"(?:[ \t]+|[-?:]+(?=[ \t]|$)|[&!][^ \t\n]*)*"
_FIRST_LINE_PREFIX = re.compile(_PREFIX, re.M)
# Every other line's, after its line break: led by a literal, the pattern is tried only at
# line breaks (led by ``^``, it was tried, and failed, at every character of the text).
_PREFIX_AFTER_BREAK = re.compile(rf"\n({_PREFIX})", re.M)


def _nesting_bound(text: str) -> int:
    """An upper bound of the text's collection nesting, found without parsing it.

    A flow collection opens at a ``[`` or ``{`` (counted wherever they are), and nothing
    nests in block style inside one. A nested block collection starts further right than
    its parent, except a sequence at its mapping's own indentation, so block nesting is
    at most twice the widest column a collection can start at: the longest line prefix.
    Most record files are bounded well below MAX_DEPTH and skip the event scan.
    """
    flow = text.count("[") + text.count("{")
    first = _FIRST_LINE_PREFIX.match(text)  # always matches, if only the empty prefix
    widest = max(map(len, _PREFIX_AFTER_BREAK.findall(text)), default=0)
    return flow + 2 * (max(widest, len(first.group(0)) if first else 0) + 1)


def _first_crossing(events: Iterator[yaml.Event], display: str) -> Diagnostic | None:
    depth = 0
    for event in events:
        if isinstance(event, yaml.CollectionStartEvent):
            depth += 1
            if depth > MAX_DEPTH:
                mark = event.start_mark
                line, col = (mark.line + 1, mark.column + 1) if mark is not None else (1, 1)
                return _too_deep_at(display, line, col)
        elif isinstance(event, yaml.CollectionEndEvent):
            depth -= 1
    return None


def _too_deep_at(display: str, line: int, col: int) -> Diagnostic:
    return error(
        KB011,
        f"values nest deeper than {MAX_DEPTH} levels",
        display,
        line,
        col,
        hint="Records are shallow; flatten the structure.",
    )


_DECLARED_ID = re.compile(r"^[ \t]*(?:-[ \t]+)?id:[ \t]*[\"']?([A-Za-z][A-Za-z0-9]*(?:-[A-Za-z0-9]+)+)", re.M)


def declared_ids_in_raw(text: str) -> set[str]:
    """IDs written as ``id: X`` in a file that failed to load (a cheap look at its lines).

    Counting them as declared keeps one syntax error from turning every reference to
    the file's records into a dangling-reference error.
    """
    return set(_DECLARED_ID.findall(text))


def _display(path: Path, base: Path) -> str:
    try:
        return printable(path.absolute().relative_to(base.absolute()).as_posix())
    except ValueError:
        return printable(path.as_posix())


def load_system(
    folder: Path,
    base: Path | None = None,
    unsaved: Mapping[str, str] | None = None,
    run_of: str | None = None,
) -> SystemSource:
    """Load every record file and Markdown prose file of one system folder, sorted by path.

    Files are found and read only through :mod:`generator.load.readfs`: no symlink is
    followed, nothing outside the folder is opened. ``unsaved`` (path below the folder →
    text) is what an editor holds of open files: it stands in for a file's bytes on disk,
    and a file not yet saved joins the folder, held to the same rules as a file read.

    A system folder's own run leaves out its ``runs/`` folder; ``run_of`` names the system
    when ``folder`` is one of those further runs (``<system>/runs/<run-id>/``).
    """
    base = base or Path.cwd()
    display = _display(folder, base).rstrip("/") + "/"
    source = SystemSource(
        slug=run_of or folder.name, folder=folder, display=display, run_folder=folder.name if run_of else ""
    )
    root_fd, problems = open_folder(str(folder), display)
    source.diagnostics.extend(problems)
    if root_fd is None:
        return source
    found: list[tuple[str, str, str]] = []  # (relative, display, text)
    try:
        skip = frozenset() if run_of else frozenset({RUNS_FOLDER})
        for entry, diagnostics in walk_system(root_fd, display, skip):
            source.diagnostics.extend(diagnostics)
            if entry is None:
                continue
            if unsaved is not None and entry.relative in unsaved:
                text, diagnostics = editor_text(unsaved[entry.relative], entry.display)
            else:
                text, diagnostics = read_text(entry.dir_fd, entry.name, entry.display)
            source.diagnostics.extend(diagnostics)
            if text is not None:
                found.append((entry.relative, entry.display, text))
    finally:
        os.close(root_fd)
    walked = {relative for relative, _, _ in found}
    for relative, held in sorted((unsaved or {}).items()):
        if relative not in walked and readable_relative(relative) and _not_on_disk(folder, relative):
            refusal = relative_name_refusal(relative, display)
            if refusal is not None:
                source.diagnostics.append(refusal)
                continue
            shown = display + printable(relative)
            text, diagnostics = editor_text(held, shown)
            source.diagnostics.extend(diagnostics)
            if text is not None:
                found.append((relative, shown, text))
    for relative, shown, text in sorted(found, key=lambda item: PurePosixPath(item[0])):
        _add_file(source, relative, shown, text)
    return source


def _not_on_disk(folder: Path, relative: str) -> bool:
    """Whether a file an editor holds unsaved is new: absent, below real folders only (a
    file on disk, read or refused, is never replaced by what the editor says of it)."""
    current = folder
    for part in relative.split("/"):
        current = current / part
        try:
            mode = os.lstat(current).st_mode
        except FileNotFoundError:
            return True
        except OSError:
            return False
        if not stat.S_ISDIR(mode):
            return False
    return False


# An analysis set's manifest beside its records: loaded like a record file, checked apart.


def _add_file(source: SystemSource, relative: str, display: str, text: str) -> None:
    if relative.endswith(PROSE_SUFFIX):
        separator = line_separator(text, display)
        if separator is not None:
            # Refused, yet kept (so its includes do not cascade into KB405), with each
            # separator a space: no later stage sees a second notion of a line.
            source.diagnostics.append(separator)
            text = LINE_SEPARATOR.sub(" ", text)
        source.prose[relative] = (display, text)
        return
    loaded, diagnostics = load_record_text(text, display, through_door=True)
    source.diagnostics.extend(diagnostics)
    if relative == MANIFEST_FILE:
        source.manifest = loaded
    elif loaded is not None:
        source.files.append(loaded)
    else:
        source.salvaged_ids |= declared_ids_in_raw(text)


def system_folders(records: Path) -> Iterator[Path]:
    """The system folders under a records folder; a folder holding YAML itself is one system."""
    yield from discover_systems(records).folders


@dataclass
class Discovery:
    """What a records folder holds: system folders, refused entries, ignored names."""

    folders: list[Path] = field(default_factory=list)
    refused: list[SystemSource] = field(default_factory=list)  # each counted as a failed system
    ignored: list[Diagnostic] = field(default_factory=list)  # warnings, attached to a real system
    nested: bool = True  # False when the folder given is itself one system
    # The folder given is one further run (``<system>/runs/<run>/``): ``folders`` holds its
    # system, checked whole so the run's findings are those of the whole records folder's
    # check, and only this run is reported.
    run: str = ""


def _listing(folder: Path, slug: str, display: str, refused: list[SystemSource]) -> dict[str, str] | None:
    """Each entry of a folder by name, with its kind (no symlink followed); None, and the
    folder among ``refused`` (as a failed system ``slug``), when it cannot be opened."""
    fd, problems = open_folder(str(folder), display)
    if fd is None:
        refused.append(SystemSource(slug, folder, display, diagnostics=problems))
        return None
    try:
        with os.scandir(fd) as listing:
            return {entry.name: entry_kind(entry) for entry in sorted(listing, key=lambda e: e.name)}
    finally:
        os.close(fd)


def discover_systems(records: Path, base: Path | None = None) -> Discovery:
    """Find the system folders of a records folder without following any symlink.

    A folder holding record files is one system, or, below a system's ``runs/``, one further
    run of that system; a folder holding nothing but ``runs/`` is a system of runs only."""
    base = base or Path.cwd()
    display = _display(records, base).rstrip("/") + "/"
    found = Discovery()
    kinds = _listing(records, records.name, display, found.refused)
    if kinds is None:
        return found
    if _holds_records(kinds):
        run = _run_of(records)
        if run is not None:
            return Discovery(folders=[run[0]], run=run[1])
        return Discovery(folders=[records], nested=False)
    if _only_runs(records, kinds):
        return Discovery(folders=[records], nested=False)
    for name, kind in kinds.items():
        shown = display + printable(name)
        if kind not in ("dir", "file"):
            found.refused.append(
                SystemSource(name, records / name, shown, diagnostics=[not_regular(shown, kind)])
            )
        elif name.startswith((".", "_")):
            found.ignored.append(ignored(shown + "/" * (kind == "dir"), "its name starts with '.' or '_'"))
        elif kind == "file":
            found.ignored.append(ignored(shown, "files beside system folders are not records"))
        else:
            found.folders.append(records / name)
    return found


def _holds_records(kinds: dict[str, str]) -> bool:
    return any(kind == "file" and name.endswith(RECORD_SUFFIXES) for name, kind in kinds.items())


def _only_runs(folder: Path, kinds: dict[str, str]) -> bool:
    """Whether a folder without record files is a system folder holding nothing but its
    further runs: its one entry is ``runs/``, and that holds run folders, not the record
    files of a system named "runs" (the folder would then be a records folder)."""
    shown = [name for name in kinds if not name.startswith((".", "_"))]
    if shown != [RUNS_FOLDER] or kinds[RUNS_FOLDER] != "dir":
        return False
    runs = _listing(folder / RUNS_FOLDER, RUNS_FOLDER, RUNS_FOLDER, [])
    return runs is None or not _holds_records(runs)  # an unreadable runs/ is the system's to report


def _run_of(folder: Path) -> tuple[Path, str] | None:
    """The system folder whose further run ``folder`` is (its parent is the system's
    ``runs/``) and the run folder's name, or None. Read from the path's names, so the
    system's files are shown as the whole records folder's check shows them
    (``records/demo/runs/<run>`` gives ``records/demo``)."""
    path = Path(os.path.normpath(folder))
    if len(path.parts) < 3 or ".." in path.parts[-3:]:
        path = Path(os.path.abspath(folder))  # ".", or a path climbing out: the names are above
    if path.parent.name != RUNS_FOLDER or not path.parent.parent.name:
        return None
    return path.parent.parent, path.name


@dataclass
class SystemRuns:
    """The run folders of one system folder: its own run and those below ``runs/``."""

    folders: list[Path] = field(default_factory=list)  # ``<system>/runs/<run-id>/``, in name order
    refused: list[SystemSource] = field(default_factory=list)  # entries of runs/ that are no folder
    own_run: bool = True  # False when the system folder holds nothing but runs/


def system_runs(system: Path, base: Path | None = None) -> SystemRuns:
    """The further runs of a system folder (``runs/<run-id>/``), no symlink followed."""
    base = base or Path.cwd()
    found = SystemRuns()
    runs = system / RUNS_FOLDER
    try:
        os.lstat(runs)
    except OSError:
        return found  # no further runs (an unreadable runs/ is refused by open_folder below)
    display = _display(runs, base).rstrip("/") + "/"
    kinds = _listing(runs, system.name, display, found.refused)
    if kinds is None:
        return found
    for name, entry in kinds.items():
        shown = display + printable(name)
        if name.startswith((".", "_")):
            continue
        if entry != "dir":
            problem = error(
                KB308,
                f"refused: {shown} is not a run folder (runs/ holds one folder per run)",
                shown,
                hint="Put each further run of the system in runs/<run-id>/.",
            )
            found.refused.append(SystemSource(system.name, runs / name, shown, diagnostics=[problem]))
            continue
        found.folders.append(runs / name)
    try:
        with os.scandir(system) as listing:
            found.own_run = any(
                entry.name != RUNS_FOLDER and not entry.name.startswith((".", "_")) for entry in listing
            )
    except OSError:
        pass  # the system's own load reports the folder
    return found


def slug_diagnostic(source: SystemSource, reserved: frozenset[str]) -> Diagnostic | None:
    """KB306/KB307 when a system folder's name cannot be its slug (a URL segment of the site;
    ``reserved``: the names the site keeps for itself)."""
    problem = slug_problem(source.slug, reserved)
    if problem is None:
        return None
    rule, reason = problem
    return error(
        rule,
        f"system folder name {printable(source.slug)!r} {reason}",
        source.display,
        hint="Rename the folder, e.g. to " + repr(suggest_slug(source.slug, reserved)) + ".",
    )
