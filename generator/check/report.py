"""Format check results for people (rich), for tools (JSON) and for GitHub Actions."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass

from rich.console import Console
from rich.markup import escape

from generator.check import CheckedSystem
from generator.diagnostics import Diagnostic, Severity
from generator.load.readfs import printable
from generator.model.kinds import count_by_kind, kind_names


def record_counts(system: CheckedSystem) -> dict[str, int]:
    """Records per kind, in the model's kind order, plus supplied and limitations."""
    records = system.records
    # An entry that failed validation is still counted where it was listed.
    ordered = {
        spec.plural: n + records.uncounted[spec.list_key]
        for spec, n in count_by_kind(records.records).items()
    }
    for key in ("limitations", "supplied", "annotations"):
        ordered[key] = len(getattr(records, key)) + records.uncounted[key]
    return ordered


@dataclass
class Reported:
    """What the reports say of one checked system, without its records: what a check in a
    forked child sends back (``check/in_two.py``)."""

    slug: str
    run_folder: str
    counts: dict[str, int]
    diagnostics: list[Diagnostic]

    @classmethod
    def of(cls, system: CheckedSystem) -> Reported:
        source = system.source
        return cls(source.slug, source.run_folder, record_counts(system), system.diagnostics)


def reported(systems: Sequence[CheckedSystem | Reported]) -> list[Reported]:
    return [system if isinstance(system, Reported) else Reported.of(system) for system in systems]


def _all(systems: Iterable[CheckedSystem | Reported]) -> list[Diagnostic]:
    return [d for system in systems for d in system.diagnostics]


def _count(number: int, plural: str) -> str:
    singular = {plural: name for name, plural in kind_names().values()}
    singular.update({"limitations": "limitation", "annotations": "annotation", "supplied": "supplied"})
    return f"{number} {plural if number != 1 else singular.get(plural, plural)}"


MAX_PER_RULE_AND_FILE = 20


def capped(
    diagnostics: Iterable[Diagnostic], limit: int = MAX_PER_RULE_AND_FILE
) -> Iterator[Diagnostic | str]:
    """The diagnostics to print: at most ``limit`` per (rule, file), then one summary line.

    A hostile or badly broken file can yield hundreds of thousands of the same
    diagnostic; people and GitHub annotations need the first few and a count. The
    summary (a string) follows the last diagnostic of its file.
    """
    shown: Counter[tuple[str, str]] = Counter()
    held_back: dict[str, Counter[str]] = {}
    current: str | None = None
    for diagnostic in diagnostics:
        if current is not None and diagnostic.file != current and current in held_back:
            yield from _more_lines(current, held_back.pop(current))
        current = diagnostic.file
        key = (diagnostic.code, diagnostic.file)
        shown[key] += 1
        if shown[key] <= limit:
            yield diagnostic
        else:
            if diagnostic.file not in held_back:
                held_back[diagnostic.file] = Counter()
            held_back[diagnostic.file][diagnostic.code] += 1
    for file, counts in held_back.items():
        yield from _more_lines(file, counts)


def _more_lines(file: str, counts: Counter[str]) -> Iterator[str]:
    for code, number in sorted(counts.items()):
        yield f"… and {number} more {code} in {file}"


def print_human(checked: Sequence[CheckedSystem | Reported], console: Console) -> None:
    systems = reported(checked)
    for item in capped(_all(systems)):
        if isinstance(item, str):
            console.print(escape(item), style="dim", soft_wrap=True, highlight=False)
            continue
        diagnostic = item
        style = "red" if diagnostic.severity is Severity.ERROR else "yellow"
        console.print(
            f"{escape(diagnostic.file)}:{diagnostic.line}:{diagnostic.col}: "
            f"[{style}]{diagnostic.severity}[/{style}] [bold]{diagnostic.code}[/bold] "
            f"{diagnostic.rule.name}: {escape(diagnostic.message)}",
            soft_wrap=True,
            highlight=False,
        )
        console.print(
            f"    hint: {escape(diagnostic.full_hint)}", style="dim", soft_wrap=True, highlight=False
        )
    for system in systems:
        counts = ", ".join(_count(n, name) for name, n in system.counts.items() if n)
        errors = sum(1 for d in system.diagnostics if d.severity is Severity.ERROR)
        warnings = len(system.diagnostics) - errors
        status = "[green]ok[/green]" if not errors else "[red]failed[/red]"
        run = f" (runs/{system.run_folder})" if system.run_folder else ""
        console.print(
            f"{escape(printable(system.slug + run))}: {status} — {counts or 'no records'}; "
            f"{errors} error{'s' * (errors != 1)}, {warnings} warning{'s' * (warnings != 1)}",
            soft_wrap=True,
            highlight=False,
        )


def as_json(checked: Sequence[CheckedSystem | Reported]) -> str:
    """Every diagnostic (never capped), one compact object per line.

    Written line by line so the C encoder handles each object: a pretty-printed dump
    of a few hundred thousand diagnostics takes the pure-Python encoder many seconds.
    """
    systems = reported(checked)
    summary = [
        {
            "slug": system.slug,
            **({"run_folder": system.run_folder} if system.run_folder else {}),
            "counts": system.counts,
            "errors": sum(1 for d in system.diagnostics if d.severity is Severity.ERROR),
            "warnings": sum(1 for d in system.diagnostics if d.severity is Severity.WARNING),
        }
        for system in systems
    ]
    systems_text = json.dumps(summary, indent=2, ensure_ascii=False).replace("\n", "\n  ")
    items = ",\n".join("    " + json.dumps(d.as_dict(), ensure_ascii=False) for d in _all(systems))
    diagnostics_text = f"[\n{items}\n  ]" if items else "[]"
    return f'{{\n  "systems": {systems_text},\n  "diagnostics": {diagnostics_text}\n}}\n'


def _github_escape(text: str, property_value: bool = False) -> str:
    text = text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
    if property_value:
        text = text.replace(":", "%3A").replace(",", "%2C")
    return text


def as_github(systems: Sequence[CheckedSystem | Reported]) -> str:
    """GitHub Actions workflow commands: one ::error/::warning line per diagnostic."""
    lines = []
    for d in capped(_all(systems)):
        if isinstance(d, str):
            lines.append(f"::notice::{_github_escape(d)}")
            continue
        command = "error" if d.severity is Severity.ERROR else "warning"
        props = (
            f"file={_github_escape(d.file, True)},line={d.line},col={d.col},"
            f"title={_github_escape(f'{d.code} {d.rule.name}', True)}"
        )
        message = f"{d.message} (hint: {d.full_hint})"
        lines.append(f"::{command} {props}::{_github_escape(message)}")
    return "".join(line + "\n" for line in lines)
