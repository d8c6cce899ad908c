"""One diagnostic type for every stage: a rule, a severity, a location and a hint.

A rule is declared once, as a module-level ``Rule`` constant beside the code that
emits it (a rule emitted by several layers in the lowest of them), named by its code:
``KB201 = Rule("KB201", …)``. ``error`` and ``warning`` take the rule itself, so mypy
refuses a bare string and a misspelt code is a NameError. The rules catalogue,
``docs/rules.md``, is generated from the declarations (``tests/project/test_docs.py``).
A stage yields diagnostics and never exits, the command decides the exit code.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum


class Severity(StrEnum):
    ERROR = "error"
    WARNING = "warning"


# The rules catalogue, relative to the project (docs/rules.md has an anchor per code).
RULES_DOC = "docs/rules.md"

_CODE = re.compile(r"KB[0-9]{3}\Z")


@dataclass(frozen=True, slots=True)
class Rule:
    """One diagnostic rule: its stable code, its name, a one-line summary and ``doc``, its
    entry in the catalogue (Markdown: what it reports, when and how it is located)."""

    code: str
    name: str
    summary: str
    doc: str

    def __post_init__(self) -> None:
        if not _CODE.match(self.code):
            raise ValueError(f"a rule code is KB and three digits, not {self.code!r}")

    @property
    def docs(self) -> str:
        """Where the rule is documented: its entry in the rules catalogue (a stable anchor)."""
        return f"{RULES_DOC}#{self.code.lower()}"


@dataclass(frozen=True, slots=True)
class Diagnostic:
    """One problem found in the records, located at file:line:col (1-based)."""

    rule: Rule
    severity: Severity
    message: str
    file: str
    line: int = 1
    col: int = 1
    hint: str | None = None

    @property
    def code(self) -> str:
        return self.rule.code

    def sort_key(self) -> tuple[str, int, int, str, str]:
        return (self.file, self.line, self.col, self.rule.code, self.message)

    def as_text(self) -> str:
        """The one-line form: ``records/x.yaml:12:3: error KB201 dangling-reference: …``."""
        head = f"{self.file}:{self.line}:{self.col}: {self.severity} {self.code} {self.rule.name}"
        return f"{head}: {self.message}"

    def as_dict(self) -> dict[str, object]:
        return {
            "file": self.file,
            "line": self.line,
            "col": self.col,
            "severity": str(self.severity),
            "code": self.code,
            "rule": self.rule.name,
            "message": self.message,
            "hint": self.hint,
            "docs": self.rule.docs,
        }

    @property
    def full_hint(self) -> str:
        """The hint as output shows it: what to do, then where the rule is documented."""
        return f"{self.hint} — see {self.rule.docs}" if self.hint else f"see {self.rule.docs}"


def error(
    rule: Rule, message: str, file: str, line: int = 1, col: int = 1, hint: str | None = None
) -> Diagnostic:
    return Diagnostic(rule, Severity.ERROR, message, file, line, col, hint)


def warning(
    rule: Rule, message: str, file: str, line: int = 1, col: int = 1, hint: str | None = None
) -> Diagnostic:
    return Diagnostic(rule, Severity.WARNING, message, file, line, col, hint)
