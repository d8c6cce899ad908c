"""Shared pydantic building blocks: strict models, record IDs, text and anchors."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, StringConstraints, model_validator
from pydantic_core import PydanticCustomError

from .anchors import LineRange, parse_anchor
from .ids import IdGrammar
from .meta import PROSE, Display


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

# A revision or version as written: shown as code, never prose.
Revision = Annotated[
    str, StringConstraints(min_length=1), Display("code"), Field(description="A revision as written.")
]


class Anchor(Strict):
    """An evidence anchor: a declared source, a safe relative path and optional line ranges.

    Written either as a mapping or as text: ``SRC-1 packages/agent/src/agent-loop.ts:1593-1639``.
    """

    source: RecordId
    path: Annotated[str, StringConstraints(min_length=1)]
    lines: list[Annotated[list[int], Field(min_length=1, max_length=2)]] = Field(
        default_factory=list,
        description="Line ranges as [start, end] or [line].",
    )

    @model_validator(mode="before")
    @classmethod
    def _from_text(cls, data: Any) -> Any:
        if isinstance(data, str):
            parsed = parse_anchor(data)
            if parsed is None:
                raise ValueError(
                    "an anchor is written 'SRC-1 path/to/file.ext:10-20' "
                    "(source ID, a space, a relative path, optional line ranges)"
                )
            source, path, ranges = parsed
            return {"source": source, "path": path, "lines": [[r.start, r.end] for r in ranges]}
        return data

    @property
    def ranges(self) -> tuple[LineRange, ...]:
        """The line ranges as typed pairs."""
        return tuple(LineRange(pair[0], pair[-1]) for pair in self.lines)

    def as_text(self) -> str:
        """The anchor in its written form."""
        ranges = ",".join(str(r) for r in self.ranges)
        return f"{self.source} {self.path}" + (f":{ranges}" if ranges else "")


class Quote(Strict):
    """A verbatim quotation from a source file, always attributed to its path."""

    text: Text
    path: str | None = Field(default=None, description="The quoted file's path (required by rule KB404).")
    source: RecordId | None = Field(default=None, description="The source the file belongs to.")
    lines: list[Annotated[list[int], Field(min_length=1, max_length=2)]] = Field(default_factory=list)

    @property
    def ranges(self) -> tuple[LineRange, ...]:
        """The line ranges as typed pairs."""
        return tuple(LineRange(pair[0], pair[-1]) for pair in self.lines)
