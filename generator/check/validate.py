"""Validation stage: validate each loaded file against the models and merge a system.

Each list item is validated on its own, so one bad record costs only itself and
every error of a file is reported in one run. Diagnostics come from pydantic's
structured errors (type and loc), never from the exception's text: a table maps each
error type to its rule. Which model validates which top-level key comes from
the kind registry (``generator.model.kinds``).
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from pydantic import TypeAdapter, ValidationError

from generator.diagnostics import Diagnostic, Rule, error
from generator.load.records import KB101, LoadedFile, SystemSource
from generator.model import kinds
from generator.model.files import list_models, record_file_model, single_models
from generator.model.import_findings import IMPORT_FINDINGS_KEY
from generator.model.meta import DataPath
from generator.model.system import Origin, SystemRecords

KB102 = Rule("KB102", "missing-field", "A required field is missing.", doc="schema: missing field")

KB103 = Rule("KB103", "unknown-key", "A key is not part of the record model.", doc="schema: unknown key")

KB104 = Rule(
    "KB104",
    "controlled-value",
    "A value is not in its controlled vocabulary.",
    doc="schema: controlled value",
)

KB105 = Rule(
    "KB105",
    "id-grammar",
    "An ID follows neither the numbered nor the prefixed grammar.",
    doc="schema: ID grammar",
)

KB106 = Rule(
    "KB106",
    "run-id-grammar",
    "A run ID is not of the form AAS-YYYY-MM-DD-<slug>-NN.",
    doc="schema: run-ID grammar",
)

KB107 = Rule("KB107", "empty-text", "A text field is empty.", doc="schema: empty (or whitespace-only) text")

KB110 = Rule(
    "KB110",
    "quote-pin",
    "A quotation's pin is not a full commit ID or a sha256: digest.",
    doc=(
        "a quotation's `pin` is neither a full commit ID (40 or 64 hex digits) nor `sha256:` with 64 hex "
        "digits"
    ),
)

KB111 = Rule(
    "KB111",
    "anchor-locator",
    "A document locator is not a section, appendix, table, figure or page.",
    doc=(
        "a `locator` is not a document locator (`§3.1`, `Section 4`, `Appendix C`, `Table 2`, `Figure 3`, "
        "`p. 4`, `pp. 4-5`)"
    ),
)

KB207 = Rule(
    "KB207",
    "duplicate-singleton",
    "A run, document, profile or analysis set is declared twice.",
    doc=(
        "`run`, `result`, `memory_report`, `memory_comparison`, `analysis_set` or a member document declared "
        "twice"
    ),
)

__all__ = ["validate_system"]

_TYPE_WORDS = {int: "an integer", float: "a number", bool: "a boolean"}


@dataclass(frozen=True)
class _Problem:
    """What one pydantic error means to an analyst."""

    rule: Rule
    message: str
    hint: str | None = None
    at_key: bool = False  # point at the key (unknown keys), not the value


def _where(base: DataPath, loc: tuple[Any, ...]) -> str:
    return ".".join(str(step) for step in (*base, *loc))


def _missing(err: dict[str, Any], base: DataPath, loc: tuple[Any, ...]) -> _Problem:
    return _Problem(
        KB102,
        f"missing required field {loc[-1]!r} at {_where(base, loc[:-1])}",
        "Add the field; see schemas/records.schema.json for its shape.",
    )


def _unknown(err: dict[str, Any], base: DataPath, loc: tuple[Any, ...]) -> _Problem:
    return _Problem(
        KB103,
        f"unknown key {loc[-1]!r} at {_where(base, loc)}",
        "Check the spelling against the record model (the editor schema lists valid keys).",
        at_key=True,
    )


def _controlled(err: dict[str, Any], base: DataPath, loc: tuple[Any, ...]) -> _Problem:
    expected = (err.get("ctx") or {}).get("expected", "")
    return _Problem(
        KB104, f"{err.get('input')!r} is not an allowed value at {_where(base, loc)}; expected {expected}"
    )


def _record_id(err: dict[str, Any], base: DataPath, loc: tuple[Any, ...]) -> _Problem:
    return _Problem(
        KB105,
        f"{err.get('input')!r} is not a record ID at {_where(base, loc)}",
        "IDs are numbered (RTE-11) or prefixed slugs (MEM-RTE-knowledge-store).",
    )


def _run_id(err: dict[str, Any], base: DataPath, loc: tuple[Any, ...]) -> _Problem:
    return _Problem(
        KB106,
        f"{err.get('input')!r} is not a run ID at {_where(base, loc)}",
        "Run IDs are AAS-YYYY-MM-DD-<system-slug>-NN.",
    )


def _not_text(err: dict[str, Any], base: DataPath, loc: tuple[Any, ...]) -> _Problem | None:
    value = err.get("input")
    if not isinstance(value, int | float | bool):
        return None
    return _Problem(
        KB101,
        f"expected text but YAML read {value!r} as {_TYPE_WORDS.get(type(value), 'a value')} "
        f"at {_where(base, loc)}",
        "Quote the value so YAML keeps it as text (revisions made of digits, 'yes', 'no', …).",
    )


def _empty(err: dict[str, Any], base: DataPath, loc: tuple[Any, ...]) -> _Problem | None:
    if (err.get("ctx") or {}).get("min_length") != 1:
        return None
    return _Problem(KB107, f"empty text at {_where(base, loc)}")


def _pin(err: dict[str, Any], base: DataPath, loc: tuple[Any, ...]) -> _Problem:
    return _Problem(
        KB110,
        f"{err.get('input')!r} is not a pin at {_where(base, loc)}",
        "A pin is a full commit ID (40 hex digits) or 'sha256:' and the 64 hex digits of a capture.",
    )


def _locator(err: dict[str, Any], base: DataPath, loc: tuple[Any, ...]) -> _Problem:
    return _Problem(
        KB111,
        f"{err.get('input')!r} is not a document locator at {_where(base, loc)}",
        "Write '§3.1', 'Section 4', 'Appendix C', 'Table 2', 'Figure 3', 'p. 4' or 'pp. 4-5'.",
    )


# pydantic error type → what it means; ``record_id`` and ``run_id`` are the custom
# error types of the ID grammars (model/ids.py). Anything else is KB101.
_PROBLEMS: dict[str, Callable[[dict[str, Any], DataPath, tuple[Any, ...]], _Problem | None]] = {
    "missing": _missing,
    "extra_forbidden": _unknown,
    "enum": _controlled,
    "literal_error": _controlled,
    "record_id": _record_id,
    "run_id": _run_id,
    "string_type": _not_text,
    "string_too_short": _empty,
    "pin": _pin,
    "locator": _locator,
}


def _data_path(data: Any, loc: tuple[str | int, ...]) -> DataPath:
    """Map a pydantic error location onto the data: union tags and synthetic steps drop out."""
    path: list[str | int] = []
    value = data
    for step in loc:
        in_dict = isinstance(value, dict) and step in value
        in_list = isinstance(value, list) and isinstance(step, int) and 0 <= step < len(value)
        if in_dict or in_list:
            value = value[step]
            path.append(step)
    return tuple(path)


def _diagnostic(file: LoadedFile, base: DataPath, data: Any, err: Any) -> Diagnostic:
    loc = tuple(err.get("loc", ()))
    explain = _PROBLEMS.get(err.get("type", ""))
    problem = explain(err, base, loc) if explain else None
    if problem is None:
        problem = _Problem(KB101, f"{err.get('msg', 'invalid value')} at {_where(base, loc)}")
    spot = file.spot((*base, *_data_path(data, loc)))
    line, col = (spot.key_line, spot.key_col) if problem.at_key else (spot.line, spot.col)
    return error(problem.rule, problem.message, file.display, line, col, hint=problem.hint)


@lru_cache(maxsize=256)
def _registry_adapter(registry: kinds.KindRegistry, key: str) -> TypeAdapter[Any]:
    return TypeAdapter({**list_models(), **single_models()}[key])


def _adapter(key: str) -> TypeAdapter[Any]:
    """The validator of one top-level key, for the kinds in force (built once per registry)."""
    return _registry_adapter(kinds.active(), key)


@dataclass
class _Validated:
    """The model of one entry (None when nothing could be kept), its problems, and for
    a partial model the data paths of the values that failed and were left out."""

    model: Any
    problems: list[Diagnostic]
    dropped: list[DataPath]


def _validate(file: LoadedFile, key: str, base: DataPath, data: Any) -> _Validated:
    try:
        return _Validated(_adapter(key).validate_python(data), [], [])
    except ValidationError as exc:
        problems = [_diagnostic(file, base, data, err) for err in exc.errors(include_url=False)]
        model, dropped = _salvage(key, data, exc)
        return _Validated(model, problems, dropped)


_SALVAGE_ROUNDS = 8  # each round drops what failed; nesting is shallow


def _salvage(key: str, data: Any, exc: ValidationError) -> tuple[Any, list[DataPath]]:
    """A partial model: the entry without the values that failed, for the later rules.

    A record with one bad value is still a record: its ID, its counts and every field
    that did validate stay checked, so fixing one error does not reveal others that
    were there all along. A value that fails is left out (a required field that goes
    missing then leaves out its parent); the entry's ID or the entry as a whole failing
    leaves nothing to keep.
    """
    if not isinstance(data, dict):
        return None, []
    trimmed = copy.deepcopy(data)
    dropped: list[DataPath] = []
    errors = exc.errors(include_url=False)
    for _ in range(_SALVAGE_ROUNDS):
        paths = {_data_path(trimmed, tuple(err.get("loc", ()))) for err in errors}
        if any(not path or path[0] == "id" for path in paths):
            return None, dropped
        for path in sorted(paths, key=_path_order, reverse=True):
            _drop(trimmed, path)
        dropped.extend(paths)
        try:
            return _adapter(key).validate_python(trimmed), dropped
        except ValidationError as again:
            errors = again.errors(include_url=False)
    return None, dropped


def _path_order(path: DataPath) -> tuple[tuple[int, int, str], ...]:
    # Later list items first, so dropping one does not shift the index of another.
    return tuple((0, step, "") if isinstance(step, int) else (1, 0, step) for step in path)


def _drop(data: Any, path: DataPath) -> None:
    parent = data
    for step in path[:-1]:
        parent = parent[step]
    last = path[-1]
    if isinstance(parent, dict):
        parent.pop(last, None)
    elif isinstance(parent, list) and isinstance(last, int) and 0 <= last < len(parent):
        del parent[last]


def _collect_ids(value: Any) -> Iterator[str]:
    if isinstance(value, dict) and isinstance(value.get("id"), str):
        yield value["id"]


class _Merger:
    """Validates the top-level keys of a system's files and merges what validates."""

    def __init__(self, source: SystemSource) -> None:
        self.system = SystemRecords(slug=source.slug, run_folder=source.run_folder)
        self.system.prose = {relative: text for relative, (_, text) in source.prose.items()}
        self.system.prose_display = {relative: display for relative, (display, _) in source.prose.items()}
        # A file that failed to load may hold the run: don't also claim there is none.
        self.system.run_declared = any(d.severity.value == "error" for d in source.diagnostics)
        self.diagnostics: list[Diagnostic] = []
        self.singles: dict[str, str] = {}
        self.keys = tuple(record_file_model().model_fields)

    def key(self, file: LoadedFile, key: str, value: Any) -> None:
        spot = file.spot((key,))
        if key not in self.keys:
            self.diagnostics.append(
                error(
                    KB103,
                    f"unknown top-level key {key!r}",
                    file.display,
                    spot.key_line,
                    spot.key_col,
                    hint="Top-level keys: " + ", ".join(self.keys),
                )
            )
        elif value is None:
            return
        elif key in single_models():
            self.single(file, key, value)
        elif not isinstance(value, list):
            self.diagnostics.append(
                error(KB101, f"{key!r} must be a list of entries", file.display, spot.line, spot.col)
            )
        else:
            for index, item in enumerate(value):
                self.entry(file, key, index, item)

    def single(self, file: LoadedFile, key: str, value: Any) -> None:
        if key in self.singles:
            spot = file.spot((key,))
            message = f"{key!r} is already declared in {self.singles[key]}"
            self.diagnostics.append(error(KB207, message, file.display, spot.key_line, spot.key_col))
            return
        self.singles[key] = file.display
        self.system.declared_keys.add(key)
        if key == "run":
            self.system.run_declared = True
        validated = _validate(file, key, (key,), value)
        self.diagnostics.extend(validated.problems)
        if validated.model is not None:
            setattr(self.system, key, validated.model)
            self._place(validated, file, (key,))

    def entry(self, file: LoadedFile, key: str, index: int, item: Any) -> None:
        validated = _validate(file, key, (key, index), item)
        self.diagnostics.extend(validated.problems)
        model = validated.model
        if model is None:
            self.system.unvalidated_ids.update(_collect_ids(item))
            self.system.uncounted[key] += 1
            return
        self._place(validated, file, (key, index))
        if key in ("limitations", "supplied", "annotations", IMPORT_FINDINGS_KEY):
            getattr(self.system, key).append(model)
        else:
            self.system.records.append(model)

    def _place(self, validated: _Validated, file: LoadedFile, path: DataPath) -> None:
        self.system.origins[id(validated.model)] = Origin(file.display, path)
        for dropped in validated.dropped:
            self.system.invalid_paths.add((file.display, (*path, *dropped)))


def validate_system(source: SystemSource) -> tuple[SystemRecords, list[Diagnostic]]:
    """Validate every file of a system and merge what validates, in file order."""
    merger = _Merger(source)
    for file in source.files:
        for key, value in file.data.items():
            merger.key(file, key, value)
    return merger.system, merger.diagnostics
