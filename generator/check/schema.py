"""Schema stage: validate each loaded file against the models and merge a system.

Each list item is validated on its own, so one bad record costs only itself and
every error of a file is reported in one run. Diagnostics come from pydantic's
structured errors (type and loc), never from the exception's text.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from pydantic import BaseModel, TypeAdapter, ValidationError

from ..diagnostics import Diagnostic, error
from ..load import DataPath, LoadedFile, SystemSource
from ..model.files import RecordFile, Run
from ..model.ids import ID_PATTERN
from ..model.prose import MemoryReport, Result
from ..model.records import (
    Absence,
    Annotation,
    AuthorityPath,
    Claim,
    Component,
    Limitation,
    OperativeObject,
    Route,
    Source,
    Supplied,
)
from ..model.system import Origin, SystemRecords

LIST_MODELS: dict[str, type[BaseModel]] = {
    "sources": Source,
    "components": Component,
    "objects": OperativeObject,
    "routes": Route,
    "claims": Claim,
    "absences": Absence,
    "authority_paths": AuthorityPath,
    "limitations": Limitation,
    "supplied": Supplied,
    "annotations": Annotation,
}
SINGLE_MODELS: dict[str, type[BaseModel]] = {"run": Run, "result": Result, "memory_report": MemoryReport}
_ADAPTERS = {key: TypeAdapter(model) for key, model in {**LIST_MODELS, **SINGLE_MODELS}.items()}

_CONTROLLED = {"enum", "literal_error"}
_TYPE_WORDS = {int: "an integer", float: "a number", bool: "a boolean"}


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
    kind = err.get("type", "")
    path = (*base, *_data_path(data, loc))
    spot = file.spot(path)
    where = ".".join(str(step) for step in (*base, *loc))
    ctx = err.get("ctx") or {}
    if kind == "missing":
        return error(
            "KB102",
            f"missing required field {loc[-1]!r} at {'.'.join(str(s) for s in (*base, *loc[:-1]))}",
            file.display,
            spot.line,
            spot.col,
            hint="Add the field; see schemas/records.schema.json for its shape.",
        )
    if kind == "extra_forbidden":
        return error(
            "KB103",
            f"unknown key {loc[-1]!r} at {where}",
            file.display,
            spot.key_line,
            spot.key_col,
            hint="Check the spelling against the record model (the editor schema lists valid keys).",
        )
    if kind in _CONTROLLED:
        expected = ctx.get("expected", "")
        return error(
            "KB104",
            f"{err.get('input')!r} is not an allowed value at {where}; expected {expected}",
            file.display,
            spot.line,
            spot.col,
        )
    if kind == "string_pattern_mismatch":
        pattern = ctx.get("pattern", "")
        if pattern == ID_PATTERN:
            return error(
                "KB105",
                f"{err.get('input')!r} is not a record ID at {where}",
                file.display,
                spot.line,
                spot.col,
                hint="IDs are numbered (RTE-11) or prefixed slugs (MEM-RTE-knowledge-store).",
            )
        if "AAS-" in pattern:
            return error(
                "KB106",
                f"{err.get('input')!r} is not a run ID at {where}",
                file.display,
                spot.line,
                spot.col,
                hint="Run IDs are AAS-YYYY-MM-DD-<system-slug>-NN.",
            )
    if kind == "string_type" and isinstance(err.get("input"), int | float | bool):
        return error(
            "KB101",
            f"expected text but YAML read {err.get('input')!r} "
            f"as {_TYPE_WORDS.get(type(err.get('input')), 'a value')} at {where}",
            file.display,
            spot.line,
            spot.col,
            hint="Quote the value so YAML keeps it as text (revisions made of digits, 'yes', 'no', …).",
        )
    if kind == "string_too_short" and ctx.get("min_length") == 1:
        return error("KB107", f"empty text at {where}", file.display, spot.line, spot.col)
    return error("KB101", f"{err.get('msg', 'invalid value')} at {where}", file.display, spot.line, spot.col)


def _validate(file: LoadedFile, key: str, base: DataPath, data: Any) -> tuple[Any, list[Diagnostic]]:
    try:
        return _ADAPTERS[key].validate_python(data), []
    except ValidationError as exc:
        return None, [_diagnostic(file, base, data, err) for err in exc.errors(include_url=False)]


def _collect_ids(value: Any) -> Iterator[str]:
    if isinstance(value, dict) and isinstance(value.get("id"), str):
        yield value["id"]


def validate_system(source: SystemSource) -> tuple[SystemRecords, list[Diagnostic]]:
    """Validate every file of a system and merge what validates, in file order."""
    system = SystemRecords(slug=source.slug)
    system.prose = {relative: text for relative, (_, text) in source.prose.items()}
    system.prose_display = {relative: display for relative, (display, _) in source.prose.items()}
    diagnostics: list[Diagnostic] = []
    singles: dict[str, str] = {}
    # A file that failed to load may hold the run: don't also claim there is none.
    system.run_declared = any(d.severity.value == "error" for d in source.diagnostics)
    for file in source.files:
        for key, value in file.data.items():
            if key not in RecordFile.model_fields:
                spot = file.spot((key,))
                diagnostics.append(
                    error(
                        "KB103",
                        f"unknown top-level key {key!r}",
                        file.display,
                        spot.key_line,
                        spot.key_col,
                        hint="Top-level keys: " + ", ".join(RecordFile.model_fields),
                    )
                )
                continue
            if value is None:
                continue
            if key in SINGLE_MODELS:
                if key in singles:
                    spot = file.spot((key,))
                    diagnostics.append(
                        error(
                            "KB207",
                            f"{key!r} is already declared in {singles[key]}",
                            file.display,
                            spot.key_line,
                            spot.key_col,
                        )
                    )
                    continue
                singles[key] = file.display
                if key == "run":
                    system.run_declared = True
                model, problems = _validate(file, key, (key,), value)
                diagnostics.extend(problems)
                if model is not None:
                    setattr(system, key, model)
                    system.origins[id(model)] = Origin(file.display, (key,))
                continue
            if not isinstance(value, list):
                spot = file.spot((key,))
                diagnostics.append(
                    error("KB101", f"{key!r} must be a list of entries", file.display, spot.line, spot.col)
                )
                continue
            for index, item in enumerate(value):
                model, problems = _validate(file, key, (key, index), item)
                diagnostics.extend(problems)
                if model is None:
                    system.unvalidated_ids.update(_collect_ids(item))
                    continue
                system.origins[id(model)] = Origin(file.display, (key, index))
                if key == "limitations":
                    system.limitations.append(model)
                elif key == "supplied":
                    system.supplied.append(model)
                elif key == "annotations":
                    system.annotations.append(model)
                else:
                    system.records.append(model)
    return system, diagnostics
