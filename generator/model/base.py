"""Shared pydantic building blocks: strict models, record IDs, text and anchors."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    StringConstraints,
    WithJsonSchema,
    model_validator,
)
from pydantic_core import PydanticCustomError, Url, ValidationError

from generator.model.anchors import LOCATOR, LineRange, parse_anchor, parse_attribution, parse_locator
from generator.model.ids import IdGrammar, whole_string
from generator.model.meta import PROSE, Display


class Strict(BaseModel):
    """Base of every record model: unknown keys are errors, values are immutable."""

    model_config = ConfigDict(extra="forbid", frozen=True, use_enum_values=False)


RecordId = Annotated[
    str,
    IdGrammar(),
    Field(description="A record ID: numbered (RTE-11) or analyst-prefixed (MEM-RTE-knowledge-store)."),
]


def _not_blank(text: str) -> str:
    """Whitespace-only text is empty text (rule KB107), like the empty string."""
    if text.strip() == "":
        raise PydanticCustomError("string_too_short", "text is empty", {"min_length": 1})
    return text


Text = Annotated[
    str,
    StringConstraints(min_length=1),
    AfterValidator(_not_blank),
    PROSE,
    Field(description="Markdown prose. Record IDs and evidence anchors written in it are linked."),
]

# Surrounding whitespace (a folded scalar's trailing newline) is dropped; an inner line
# break is refused by rule KB109, since a label becomes part of a heading.
Label = Annotated[
    str, StringConstraints(strip_whitespace=True, min_length=1), PROSE, Field(description="A short label.")
]


def _one_line(text: str) -> str:
    if text != text.strip() or "\n" in text or "\r" in text:
        raise PydanticCustomError(
            "one_line", "a title is one line of plain text, without surrounding spaces", {}
        )
    return text


# A title as a document wrote it (a column header, a field's label): one line of plain
# text, shown as written (escaped, never formatted or linked).
WrittenTitle = Annotated[
    str,
    StringConstraints(min_length=1),
    AfterValidator(_one_line),
    Field(description="A title as the document wrote it: one line of plain text."),
]


# A revision or version as written: shown as code, never prose.
Revision = Annotated[
    str, StringConstraints(min_length=1), Display("code"), Field(description="A revision as written.")
]


def _url(text: str) -> str:
    """A URL, kept as written: the check reads what the reviewer reads (KB406, KB411), and a
    parsed URL would already be normalised (``/a/%2e%2e/b`` is ``/b`` once parsed)."""
    try:
        Url(text)
    except ValidationError as exc:
        first = exc.errors()[0]
        raise PydanticCustomError(first["type"], "{message}", {"message": first["msg"]}) from None
    return text


Location = Annotated[
    str,
    AfterValidator(_url),
    WithJsonSchema({"type": "string", "format": "uri", "minLength": 1}),
    Field(description="A URL, as written."),
]


def _locator(text: str) -> str:
    if LOCATOR.fullmatch(text) is None:
        raise PydanticCustomError(
            "locator",
            "not a document locator",
            {"expected": "'§3.1', 'Section 4', 'Appendix C', 'Table 2', 'Figure 3', 'p. 4' or 'pp. 4-5'"},
        )
    return text


Locator = Annotated[
    str,
    AfterValidator(_locator),
    Field(description="A document locator: '§3.1', 'Appendix C', 'Table 2', 'Figure 3', 'p. 4'."),
]

# Quoted files whose text is prose, not code.
PROSE_SUFFIXES = (".md", ".markdown", ".txt", ".rst", ".html", ".htm", ".pdf", ".tex")

PIN_PATTERN = r"^(?:[0-9a-f]{40}|[0-9a-f]{64}|sha256:[0-9a-f]{64})$"
_PIN = whole_string(PIN_PATTERN)


def _pin(text: str) -> str:
    if _PIN.match(text) is None:
        raise PydanticCustomError("pin", "not a pin", {})
    return text


Pin = Annotated[
    str,
    AfterValidator(_pin),
    Field(
        description="A full commit ID (40 or 64 hex digits) or 'sha256:' and 64 hex digits.",
        json_schema_extra={"pattern": PIN_PATTERN},
    ),
]


class Anchor(Strict):
    """An evidence anchor: a declared source and either a safe relative path with optional
    line ranges, or a document locator (section, appendix, table, figure, page).

    Written either as a mapping or as text: ``SRC-1 packages/agent/src/agent-loop.ts:1593-1639``,
    ``SRC-1 §3.1``, ``SRC-1 Appendix C``, ``SRC-2 Table 2``, ``SRC-1 p. 4``.
    """

    source: RecordId
    path: Annotated[str, StringConstraints(min_length=1)] | None = Field(
        default=None, description="A file path relative to the source's root."
    )
    locator: Locator | None = None
    lines: list[Annotated[list[int], Field(min_length=1, max_length=2)]] = Field(
        default_factory=list,
        description="Line ranges as [start, end] or [line] (with a path only).",
    )

    @model_validator(mode="before")
    @classmethod
    def _from_text(cls, data: Any) -> Any:
        if isinstance(data, str):
            located = parse_locator(data)
            if located is not None:
                return {"source": located[0], "locator": located[1]}
            parsed = parse_anchor(data)
            if parsed is None:
                raise ValueError(
                    "an anchor is written 'SRC-1 path/to/file.ext:10-20' (source ID, a space, a "
                    "relative path, optional line ranges) or 'SRC-1 §3.1' (a section, appendix, "
                    "table, figure or page locator)"
                )
            source, path, ranges = parsed
            return {"source": source, "path": path, "lines": [[r.start, r.end] for r in ranges]}
        return data

    @model_validator(mode="after")
    def _path_or_locator(self) -> Anchor:
        if (self.path is None) == (self.locator is None):
            raise ValueError("an anchor cites either a 'path' or a 'locator', not both or neither")
        if self.locator is not None and self.lines:
            raise ValueError("line ranges belong to a file path, not to a locator")
        return self

    @property
    def ranges(self) -> tuple[LineRange, ...]:
        """The line ranges as typed pairs."""
        return tuple(LineRange(pair[0], pair[-1]) for pair in self.lines)

    def as_text(self) -> str:
        """The anchor in its written form."""
        if self.locator is not None:
            return f"{self.source} {self.locator}"
        ranges = ",".join(str(r) for r in self.ranges)
        return f"{self.source} {self.path}" + (f":{ranges}" if ranges else "")


class Quote(Strict):
    """A verbatim quotation from a source file, always attributed to its path."""

    text: Text
    path: str | None = Field(
        default=None,
        description="The quoted file's path, or a capture file's (a path or a locator is required, KB404).",
    )
    source: RecordId | None = Field(default=None, description="The source the file belongs to.")
    lines: list[Annotated[list[int], Field(min_length=1, max_length=2)]] = Field(default_factory=list)
    locator: Locator | None = Field(default=None, description="Where in a document: '§3.1', 'p. 4'.")
    pin: Pin | None = Field(
        default=None,
        description="The quote's own pin: a full commit ID, or 'sha256:<digest>' of a capture file "
        "(which may lie outside the source's location).",
    )
    at: str | None = Field(
        default=None,
        description="The attribution as the method writes it, 'capture.txt:81-82 @ sha256:…' or "
        "'path/file.ts @ <commit>' (backticks allowed): sets path, lines and pin.",
    )

    @model_validator(mode="before")
    @classmethod
    def _from_attribution(cls, data: Any) -> Any:
        if not isinstance(data, dict) or not isinstance(data.get("at"), str):
            return data
        parsed = parse_attribution(data["at"])
        if parsed is None:
            raise ValueError(
                "an attribution is written 'capture.txt:81-82 @ sha256:<digest>' or 'path/file.ts @ <commit>'"
            )
        path, ranges, pin = parsed
        filled = {"path": path, "lines": [[r.start, r.end] for r in ranges], "pin": pin}
        clash = [key for key, value in filled.items() if data.get(key) not in (None, [], value)]
        if clash:
            raise ValueError(f"'at' and {', '.join(repr(key) for key in clash)} disagree; write one of them")
        return {**data, **{key: value for key, value in filled.items() if value not in (None, [])}}

    @property
    def ranges(self) -> tuple[LineRange, ...]:
        """The line ranges as typed pairs."""
        return tuple(LineRange(pair[0], pair[-1]) for pair in self.lines)

    @property
    def is_prose(self) -> bool:
        """A quotation of prose (a document part, a captured or text file), shown as a block
        quotation that wraps; code keeps its lines in a code block."""
        if self.locator or (self.pin or "").startswith("sha256:") or not self.path:
            return True
        return self.path.lower().endswith(PROSE_SUFFIXES)
