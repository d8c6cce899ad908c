"""The surface forms the importer reads, as a registry: which form applies where, and first.

A form is one declaration (``FormSpec``): its name, the context it applies in (a block of
a record kind's section, ``kind-section``; a block of any other section, ``prose``), the
block kinds it reads and its precedence there (lower is tried first), and the function
that reads a block in that form, returning what the block becomes in its section (prose
blocks, record placements) or None when the block is not in this form. The walkers ask
the registry in force for a block's forms in order and take the first answer; a block no
form reads stays prose. The built-in forms and the registry in force are in
``form_registry.py``; a registry of one's own is put in force with ``using_forms`` (the
architecture test adds a form so).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Literal

from generator.importer.markdown_blocks import Block

Context = Literal["kind-section", "prose"]


@dataclass(frozen=True)
class FormState:
    """What a form may read besides its block: the walker, the status group in force over
    the section (``… below have implementation conclusion status wired …``), and the record
    a paragraph declared just before (its quotations and continuations follow it)."""

    walker: Any
    statuses: Mapping[str, str] = field(default_factory=dict)
    previous: Any = None


Reader = Callable[[Block, FormState], "list[Any] | None"]


@dataclass(frozen=True)
class FormSpec:
    """One surface form: where it applies, how early, and how it is read."""

    name: str
    context: Context
    block_kinds: frozenset[str]
    precedence: int
    read: Reader
    description: str = ""
    # Words a declaration in this form opens with before its ID (``Record CMP-1 …``): the
    # form's structure, which the text measure does not look for in the records.
    markers: tuple[str, ...] = ()


@dataclass(frozen=True)
class FormRegistry:
    """The forms in force, by context and block kind, in precedence order."""

    forms: tuple[FormSpec, ...]

    def __post_init__(self) -> None:
        names = [form.name for form in self.forms]
        duplicates = sorted({name for name in names if names.count(name) > 1})
        if duplicates:
            raise ValueError(f"import forms declared twice: {', '.join(duplicates)}")

    @cached_property
    def _ordered(self) -> dict[tuple[str, str], tuple[FormSpec, ...]]:
        table: dict[tuple[str, str], list[FormSpec]] = {}
        for form in sorted(self.forms, key=lambda f: (f.precedence, f.name)):
            for kind in form.block_kinds:
                table.setdefault((form.context, kind), []).append(form)
        return {key: tuple(forms) for key, forms in table.items()}

    def for_block(self, context: Context, block_kind: str) -> tuple[FormSpec, ...]:
        """The forms that may read a block of this kind in this context, first first."""
        return self._ordered.get((context, block_kind), ())

    def with_forms(self, *more: FormSpec) -> FormRegistry:
        """This registry and ``more`` (a new registry; this one is unchanged)."""
        return FormRegistry((*self.forms, *more))

    def read(self, context: Context, block: Block, state: FormState) -> list[Any] | None:
        """What the first form that reads ``block`` makes of it; None when no form does."""
        for form in self.for_block(context, block.kind):
            found = form.read(block, state)
            if found is not None:
                return found
        return None
