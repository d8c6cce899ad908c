"""The record kinds: one ``KindSpec`` per kind, and the registry everything derives from.

A kind is its code (the ``RTE`` in ``RTE-11``), the top-level list it is declared in
(``routes``), its model class, its names, its 'Shared records' title and the model
fields that hold conclusion statuses. A ``KindRegistry`` is an immutable, ordered set of
kinds with what derives from them (the ID grammar, the kind names, the lists);
``KINDS``, the built-in kinds, is built once at import. Whatever reads the kinds asks
``active()``, which is ``KINDS`` unless a caller runs under ``using(registry)``: that is
how a test (or a tool built on the generator) checks and renders records of a kind of
its own, in its own registry, without changing the built-in one.

Kind codes and analyst prefixes share a namespace of upper-case words
(``EPI-RTE-feedback-proposal`` has prefix ``EPI`` and kind ``RTE``). To keep every ID
unambiguous, a kind code is never a valid prefix (the prefix grammar excludes the
registered codes) and a code may not be one of the analyst prefixes in use
(``RESERVED_PREFIXES``).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from types import MappingProxyType

from generator.model.ids import (
    Grammar,
    RecordKind,
    builtin_grammar,
    compile_grammar,
    reset_grammar,
    use_grammar,
)
from generator.model.records import (
    Absence,
    AuthorityPath,
    Claim,
    Component,
    OperativeObject,
    RecordBase,
    Route,
    Source,
)

# Analyst prefixes the analysis set already uses (``MEM-RTE-…``, ``RT-OBJ-…``,
# ``EPI-RTE-…``): never available as kind codes.
RESERVED_PREFIXES = frozenset({"EPI", "MEM", "RT"})
# Top-level keys of a record file that are not kind lists.
OTHER_FILE_KEYS = frozenset(
    {
        "run",
        "limitations",
        "supplied",
        "annotations",
        "result",
        "memory_report",
        "analysis_set",
        "overview",
        "runtime_report",
        "epistemic_report",
        "reconciliation_report",
        "memory_comparison",
    }
)
_CODE = re.compile(r"^[A-Z]{2,5}\Z")
_LIST_KEY = re.compile(r"^[a-z]+(?:_[a-z]+)*\Z")


@dataclass(frozen=True)
class KindSpec:
    """Everything that defines one record kind."""

    code: str
    list_key: str
    model: type[RecordBase]
    singular: str
    plural: str
    # Title of the kind's 'Shared records' subsection; None: the kind has none (sources).
    shared_title: str | None = None
    # (model field, status-matrix label) for fields that hold a conclusion status.
    status_fields: tuple[tuple[str, str], ...] = ()

    @property
    def slug(self) -> str:
        """The CSS modifier of the kind's records: ``kb-record--operative-object``."""
        return re.sub(r"[^a-z0-9]+", "-", self.singular.lower()).strip("-")


def _refusal(spec: KindSpec, earlier: Mapping[str, KindSpec]) -> str | None:
    if not _CODE.match(spec.code):
        return f"kind code {spec.code!r} is not two to five upper-case letters"
    if spec.code in RESERVED_PREFIXES:
        return f"kind code {spec.code!r} is an analyst prefix in use; IDs would be ambiguous"
    if spec.code in earlier:
        return f"kind code {spec.code!r} is already registered"
    if not _LIST_KEY.match(spec.list_key) or spec.list_key in OTHER_FILE_KEYS:
        return f"list key {spec.list_key!r} is not a free snake_case key"
    if any(other.list_key == spec.list_key for other in earlier.values()):
        return f"list key {spec.list_key!r} is already registered"
    if not issubclass(spec.model, RecordBase):
        return f"model {spec.model.__name__} is not a RecordBase"
    unknown = [name for name, _ in spec.status_fields if name not in spec.model.model_fields]
    if unknown:
        return f"status fields {unknown} are not fields of {spec.model.__name__}"
    return None


class KindRegistry:
    """An ordered, immutable set of kinds (the order of pages and counts) and what
    derives from them. Compared and hashed by identity: derived models cache on it."""

    def __init__(self, specs: Iterable[KindSpec]) -> None:
        by_code: dict[str, KindSpec] = {}
        for spec in specs:
            refusal = _refusal(spec, by_code)
            if refusal:
                raise ValueError(refusal)
            by_code[spec.code] = spec
        self._by_code = by_code
        self._by_list = {spec.list_key: spec for spec in by_code.values()}
        self.specs: tuple[KindSpec, ...] = tuple(by_code.values())
        self.codes: tuple[str, ...] = tuple(by_code)
        self.grammar: Grammar = (
            builtin_grammar() if self.codes == BUILTIN_CODES else compile_grammar(self.codes)
        )
        # code → (singular, plural); list key → code; list key → 'Shared records' title.
        self.names: Mapping[str, tuple[str, str]] = MappingProxyType(
            {spec.code: (spec.singular, spec.plural) for spec in self.specs}
        )
        self.list_kinds: Mapping[str, str] = MappingProxyType(
            {spec.list_key: spec.code for spec in self.specs}
        )
        self.shared_titles: Mapping[str, str] = MappingProxyType(
            {spec.list_key: spec.shared_title for spec in self.specs if spec.shared_title}
        )

    def extended(self, *specs: KindSpec) -> KindRegistry:
        """A new registry: these kinds and then the given ones (refused as a whole on a conflict)."""
        return KindRegistry((*self.specs, *specs))

    def spec_of_code(self, code: str | None) -> KindSpec | None:
        return self._by_code.get(code) if code is not None else None

    def spec_of_list(self, list_key: str) -> KindSpec | None:
        return self._by_list.get(list_key)

    def spec_of_id(self, record_id: str) -> KindSpec | None:
        """The kind an ID names, or None when it follows neither grammar."""
        current = self.grammar
        match = current.numbered.match(record_id) or current.prefixed.match(record_id)
        return self._by_code.get(match.group("kind")) if match else None

    def shared_kinds(self) -> tuple[KindSpec, ...]:
        """The kinds with a 'Shared records' subsection, in order."""
        return tuple(spec for spec in self.specs if spec.shared_title)

    def count_by_kind(self, records: Iterable[RecordBase]) -> dict[KindSpec, int]:
        """Records per kind, every kind present (zero when none), in registry order."""
        counter = Counter(spec.code if (spec := self.spec_of_id(record.id)) else None for record in records)
        return {spec: counter[spec.code] for spec in self.specs}

    def status_field_names(self, list_key: str) -> frozenset[str]:
        """The fields of a list's kind that hold one conclusion status (a claim's conclusion_status)."""
        spec = self._by_list.get(list_key)
        return frozenset(name for name, _ in spec.status_fields) if spec else frozenset()


BUILTIN_KINDS = (
    KindSpec(RecordKind.SOURCE, "sources", Source, "source", "sources"),
    KindSpec(RecordKind.COMPONENT, "components", Component, "component", "components", "Components"),
    KindSpec(
        RecordKind.OBJECT,
        "objects",
        OperativeObject,
        "operative object",
        "operative objects",
        "Operative objects",
    ),
    KindSpec(RecordKind.ROUTE, "routes", Route, "route", "routes", "Routes"),
    KindSpec(
        RecordKind.CLAIM,
        "claims",
        Claim,
        "claim",
        "claims",
        "Claims",
        status_fields=(("conclusion_status", "claim conclusion status"),),
    ),
    KindSpec(
        RecordKind.ABSENCE,
        "absences",
        Absence,
        "evidenced absence",
        "evidenced absences",
        "Evidenced absences",
        status_fields=(("status", "absence status"),),
    ),
    KindSpec(
        RecordKind.AUTHORITY_PATH,
        "authority_paths",
        AuthorityPath,
        "behavioral-authority path",
        "behavioral-authority paths",
        "Behavioral-authority paths",
    ),
)
BUILTIN_CODES = tuple(kind.value for kind in RecordKind)
KINDS = KindRegistry(BUILTIN_KINDS)
_ACTIVE: ContextVar[KindRegistry] = ContextVar("kb_kinds", default=KINDS)


def active() -> KindRegistry:
    """The registry in force: ``KINDS``, or the one a caller runs under (``using``)."""
    return _ACTIVE.get()


@contextmanager
def using(registry: KindRegistry) -> Iterator[KindRegistry]:
    """Run the block with ``registry`` in force: the ID grammar, the record-file model,
    validation, checks, rendering and the schema follow it."""
    token = _ACTIVE.set(registry)
    grammar_token = use_grammar(registry.grammar)
    try:
        yield registry
    finally:
        reset_grammar(grammar_token)
        _ACTIVE.reset(token)


def registered() -> tuple[KindSpec, ...]:
    """Every kind in force, in order (the order of pages and counts)."""
    return active().specs


def kind_codes() -> tuple[str, ...]:
    return active().codes


def kind_names() -> Mapping[str, tuple[str, str]]:
    """Kind code → (singular, plural) of the kinds in force."""
    return active().names


def list_kinds() -> Mapping[str, str]:
    """List key → kind code of the kinds in force, in order."""
    return active().list_kinds


def shared_kind_titles() -> Mapping[str, str]:
    """List key → 'Shared records' subsection title, for the kinds that have one."""
    return active().shared_titles


def spec_of_code(code: str | None) -> KindSpec | None:
    return active().spec_of_code(code)


def spec_of_id(record_id: str) -> KindSpec | None:
    """The kind an ID names, or None when it follows neither grammar."""
    return active().spec_of_id(record_id)


def spec_of_list(list_key: str) -> KindSpec | None:
    return active().spec_of_list(list_key)


def shared_kinds() -> tuple[KindSpec, ...]:
    """The kinds with a 'Shared records' subsection, in order."""
    return active().shared_kinds()


def count_by_kind(records: Iterable[RecordBase]) -> dict[KindSpec, int]:
    """Records per kind in force, every kind present (zero when none), in order."""
    return active().count_by_kind(records)


def status_field_names(list_key: str) -> frozenset[str]:
    """The fields of a list's kind that hold one conclusion status (a claim's conclusion_status)."""
    return active().status_field_names(list_key)


def status_fields(record: RecordBase) -> list[tuple[str, str]]:
    """Every labelled conclusion status of a record: its ``statuses`` and its kind's status
    fields, each as its controlled value."""
    return [(label, value) for label, value, _ in qualified_status_fields(record)]


def qualified_status_fields(record: RecordBase) -> list[tuple[str, str, str | None]]:
    """Every labelled conclusion status of a record with its qualifier (None when unqualified)."""
    found = [(label, status.value.value, status.qualifier) for label, status in record.statuses.items()]
    spec = spec_of_id(record.id)
    for name, label in spec.status_fields if spec else ():
        value = getattr(record, name)
        if value is not None:
            found.append((label, str(getattr(value, "value", value)), None))
    return found
