"""What an import gathers while it walks the document: records, diagnostics, cited IDs."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from generator.diagnostics import Diagnostic, Rule, error, warning
from generator.importer.drafts import Draft
from generator.model.contracts import TODAY, RouteContract
from generator.model.ids import grammar


@dataclass
class Gathered:
    """The records and findings of one import, in document order."""

    display: str
    drafts: dict[str, Draft] = field(default_factory=dict)  # record ID → draft
    limitations: list[Draft] = field(default_factory=list)
    annotations: list[Draft] = field(default_factory=list)
    supplied_labels: dict[str, str] = field(default_factory=dict)
    cited: dict[str, tuple[int, int]] = field(default_factory=dict)  # ID → first (line, col)
    quote_commits: dict[int, str] = field(default_factory=dict)  # id(quote) → commit written
    quote_sources: dict[int, str] = field(default_factory=dict)  # id(quote) → source written
    quote_places: dict[int, tuple[int, int]] = field(default_factory=dict)  # id(quote) → (line, col)
    prose_quotes: list[dict[str, Any]] = field(default_factory=list)  # quotations outside records
    diagnostics: list[Diagnostic] = field(default_factory=list)
    contract: RouteContract = TODAY  # the route contract the document was written under

    def warn(self, rule: Rule, message: str, line: int, col: int, hint: str | None = None) -> None:
        self.diagnostics.append(warning(rule, message, self.display, line, col, hint))

    def fail(self, rule: Rule, message: str, line: int, col: int, hint: str | None = None) -> None:
        self.diagnostics.append(error(rule, message, self.display, line, col, hint))

    def note_quote(self, quote: dict[str, Any], written: Any, line: int, col: int) -> None:
        """Remember how a quotation was attributed (its pin, the source it names) and where."""
        if written.commit:
            self.quote_commits[id(quote)] = written.commit
        if written.source:
            self.quote_sources[id(quote)] = written.source
        self.quote_places[id(quote)] = (line, col)

    def cite(self, text: str, line: int, col: int) -> None:
        """Note every ID written in prose (for the supplied records of IDs nobody declares)."""
        single = "\n" not in text
        for match in grammar().in_text.finditer(text):
            self.cited.setdefault(match.group(0), (line, col + match.start() if single else col))

    def cite_value(self, value: Any, line: int, col: int) -> None:
        if isinstance(value, str):
            self.cite(value, line, col)
        elif isinstance(value, dict):
            for item in value.values():
                self.cite_value(item, line, col)
        elif isinstance(value, list):
            for item in value:
                self.cite_value(item, line, col)
