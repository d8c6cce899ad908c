"""Format check results for people (rich), for tools (JSON) and for GitHub Actions."""

from __future__ import annotations

import json
from collections.abc import Iterable

from rich.console import Console
from rich.markup import escape

from .check import CheckedSystem
from .diagnostics import Diagnostic, Severity
from .model.kinds import KIND_NAMES, count_by_kind


def record_counts(system: CheckedSystem) -> dict[str, int]:
    """Records per kind, in the model's kind order, plus supplied and limitations."""
    ordered = {spec.plural: n for spec, n in count_by_kind(system.records.records).items()}
    ordered["limitations"] = len(system.records.limitations)
    ordered["supplied"] = len(system.records.supplied)
    ordered["annotations"] = len(system.records.annotations)
    return ordered


def _all(systems: Iterable[CheckedSystem]) -> list[Diagnostic]:
    return [d for system in systems for d in system.diagnostics]


def _count(number: int, plural: str) -> str:
    singular = {plural: name for name, plural in KIND_NAMES.values()}
    singular.update({"limitations": "limitation", "annotations": "annotation", "supplied": "supplied"})
    return f"{number} {plural if number != 1 else singular.get(plural, plural)}"


def print_human(systems: list[CheckedSystem], console: Console) -> None:
    for diagnostic in _all(systems):
        style = "red" if diagnostic.severity is Severity.ERROR else "yellow"
        console.print(
            f"{escape(diagnostic.file)}:{diagnostic.line}:{diagnostic.col}: "
            f"[{style}]{diagnostic.severity}[/{style}] [bold]{diagnostic.code}[/bold] "
            f"{diagnostic.rule.name}: {escape(diagnostic.message)}",
            soft_wrap=True,
            highlight=False,
        )
        if diagnostic.hint:
            console.print(
                f"    hint: {escape(diagnostic.hint)}", style="dim", soft_wrap=True, highlight=False
            )
    for system in systems:
        counts = ", ".join(_count(n, name) for name, n in record_counts(system).items() if n)
        errors = sum(1 for d in system.diagnostics if d.severity is Severity.ERROR)
        warnings = len(system.diagnostics) - errors
        status = "[green]ok[/green]" if not errors else "[red]failed[/red]"
        console.print(
            f"{escape(system.source.slug)}: {status} — {counts or 'no records'}; "
            f"{errors} error{'s' * (errors != 1)}, {warnings} warning{'s' * (warnings != 1)}",
            soft_wrap=True,
            highlight=False,
        )


def as_json(systems: list[CheckedSystem]) -> str:
    payload = {
        "systems": [
            {
                "slug": system.source.slug,
                "counts": record_counts(system),
                "errors": sum(1 for d in system.diagnostics if d.severity is Severity.ERROR),
                "warnings": sum(1 for d in system.diagnostics if d.severity is Severity.WARNING),
            }
            for system in systems
        ],
        "diagnostics": [d.as_dict() for d in _all(systems)],
    }
    return json.dumps(payload, indent=2, ensure_ascii=False) + "\n"


def _github_escape(text: str, property_value: bool = False) -> str:
    text = text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
    if property_value:
        text = text.replace(":", "%3A").replace(",", "%2C")
    return text


def as_github(systems: list[CheckedSystem]) -> str:
    """GitHub Actions workflow commands: one ::error/::warning line per diagnostic."""
    lines = []
    for d in _all(systems):
        command = "error" if d.severity is Severity.ERROR else "warning"
        props = (
            f"file={_github_escape(d.file, True)},line={d.line},col={d.col},"
            f"title={_github_escape(f'{d.code} {d.rule.name}', True)}"
        )
        message = d.message + (f" (hint: {d.hint})" if d.hint else "")
        lines.append(f"::{command} {props}::{_github_escape(message)}")
    return "".join(line + "\n" for line in lines)
