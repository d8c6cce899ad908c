"""The check's diagnostics as the editor shows them: located on the token each names, and
capped per rule and file as ``kbgen check`` caps its human output.

A hostile or badly broken file can yield hundreds of thousands of the same diagnostic; an
editor needs the first few and a count, not a message of a hundred megabytes. The first
``MAX_PER_RULE_AND_FILE`` of each rule in each file are shown, then one diagnostic, where the
first one held back is, says how many more there are. Only what is shown is converted.
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

from lsprotocol import types

from generator.check.report import MAX_PER_RULE_AND_FILE
from generator.diagnostics import Diagnostic, Severity
from generator.lsp.analysis import Span, SystemAnalysis
from generator.lsp.positions import Positions
from generator.model.ids import grammar

_TOKEN_END = re.compile(r"\S*")
SOURCE = "kbgen"


def diagnostics_by_file(analysis: SystemAnalysis, positions: Positions) -> dict[Path, list[types.Diagnostic]]:
    """The check's diagnostics of the system, by file, capped per rule and file."""
    found: dict[Path, list[types.Diagnostic]] = {}
    shown: Counter[tuple[str, str]] = Counter()
    first_held: dict[tuple[str, str], Diagnostic] = {}
    for diagnostic in analysis.checked.diagnostics:
        key = (diagnostic.code, diagnostic.file)
        shown[key] += 1
        if shown[key] > MAX_PER_RULE_AND_FILE:
            first_held.setdefault(key, diagnostic)
            continue
        path = analysis.absolute(diagnostic.file)
        found.setdefault(path, []).append(_converted(diagnostic, path, positions))
    for (code, file), diagnostic in first_held.items():
        more = shown[(code, file)] - MAX_PER_RULE_AND_FILE
        path = analysis.absolute(file)
        summary = _converted(diagnostic, path, positions)
        summary.severity = types.DiagnosticSeverity.Information
        summary.message = (
            f"… and {more} more {code} in this file, from here on "
            f"(`kbgen check --format json` lists every one)"
        )
        found.setdefault(path, []).append(summary)
    return found


def _converted(diagnostic: Diagnostic, path: Path, positions: Positions) -> types.Diagnostic:
    """One diagnostic, its range the ID it points at, else the run of text up to a space."""
    lines = positions.lines(path)
    line = max(diagnostic.line - 1, 0)
    start = max(diagnostic.col - 1, 0)
    text = lines[line].rstrip("\n") if line < len(lines) else ""
    at = min(start, len(text))
    token = grammar().in_text.match(text, at) or _TOKEN_END.match(text, at)
    end = max(token.end() if token else start, start + 1) if text else start
    severity = (
        types.DiagnosticSeverity.Error
        if diagnostic.severity is Severity.ERROR
        else types.DiagnosticSeverity.Warning
    )
    return types.Diagnostic(
        range=positions.range(Span(path, line, start, min(end, max(len(text), start)))),
        severity=severity,
        code=diagnostic.code,
        source=SOURCE,
        message=f"{diagnostic.message}\n{diagnostic.full_hint}",
    )
