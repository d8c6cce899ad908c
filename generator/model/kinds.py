"""The record-kind registry: one ``KindSpec`` per kind, everything else derives from it.

A kind is its code (the ``RTE`` in ``RTE-11``), the top-level list it is declared in
(``routes``), its model class, its names, its 'Shared records' title and the model
fields that hold conclusion statuses. The ID grammar, the record-file model, schema
validation, the status matrix and the record counters all read this registry when
they are used, so ``register_kind()`` is the one change a new kind needs.

Kind codes and analyst prefixes share a namespace of upper-case words
(``EPI-RTE-feedback-proposal`` has prefix ``EPI`` and kind ``RTE``). To keep every ID
unambiguous, a kind code is never a valid prefix (the prefix grammar excludes the
registered codes) and a code may not be one of the analyst prefixes in use
(``RESERVED_PREFIXES``).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import TypeVar

from generator.model.ids import RecordKind, kind_of
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


_REGISTRY: dict[str, KindSpec] = {}
_version = 0


def registry_version() -> int:
    """Changes whenever a kind is registered or removed: derived structures cache on it."""
    return _version


def _refusal(spec: KindSpec) -> str | None:
    if not _CODE.match(spec.code):
        return f"kind code {spec.code!r} is not two to five upper-case letters"
    if spec.code in RESERVED_PREFIXES:
        return f"kind code {spec.code!r} is an analyst prefix in use; IDs would be ambiguous"
    if spec.code in _REGISTRY:
        return f"kind code {spec.code!r} is already registered"
    if not _LIST_KEY.match(spec.list_key) or spec.list_key in OTHER_FILE_KEYS:
        return f"list key {spec.list_key!r} is not a free snake_case key"
    if any(other.list_key == spec.list_key for other in _REGISTRY.values()):
        return f"list key {spec.list_key!r} is already registered"
    if not issubclass(spec.model, RecordBase):
        return f"model {spec.model.__name__} is not a RecordBase"
    unknown = [name for name, _ in spec.status_fields if name not in spec.model.model_fields]
    if unknown:
        return f"status fields {unknown} are not fields of {spec.model.__name__}"
    return None


def register_kind(spec: KindSpec) -> KindSpec:
    """Add a kind; every derived structure (grammar, models, schema) follows."""
    global _version
    refusal = _refusal(spec)
    if refusal:
        raise ValueError(refusal)
    _REGISTRY[spec.code] = spec
    _version += 1
    return spec


def unregister_kind(code: str) -> None:
    """Remove a kind registered earlier (tests use it to clean up)."""
    global _version
    del _REGISTRY[code]
    _version += 1


def registered() -> tuple[KindSpec, ...]:
    """Every registered kind, in registration order (the order of pages and counts)."""
    return tuple(_REGISTRY.values())


def kind_codes() -> tuple[str, ...]:
    return tuple(_REGISTRY)


def spec_of_code(code: str | None) -> KindSpec | None:
    return _REGISTRY.get(code) if code is not None else None


def spec_of_id(record_id: str) -> KindSpec | None:
    """The kind an ID names, or None when it follows neither grammar."""
    return spec_of_code(kind_of(record_id))


def spec_of_list(list_key: str) -> KindSpec | None:
    return next((spec for spec in _REGISTRY.values() if spec.list_key == list_key), None)


def shared_kinds() -> tuple[KindSpec, ...]:
    """The kinds with a 'Shared records' subsection, in order."""
    return tuple(spec for spec in _REGISTRY.values() if spec.shared_title)


def count_by_kind(records: Iterable[RecordBase]) -> dict[KindSpec, int]:
    """Records per registered kind, every kind present (zero when none), in registry order."""
    counter = Counter(kind_of(record.id) for record in records)
    return {spec: counter[spec.code] for spec in _REGISTRY.values()}


def status_field_names(list_key: str) -> frozenset[str]:
    """The fields of a list's kind that hold one conclusion status (a claim's conclusion_status)."""
    spec = next((spec for spec in _REGISTRY.values() if spec.list_key == list_key), None)
    return frozenset(name for name, _ in spec.status_fields) if spec else frozenset()


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


_V = TypeVar("_V")


class LiveMapping(Mapping[str, _V]):
    """A read-only mapping recomputed from the registry when it changes.

    Lets modules keep importing ``KIND_NAMES`` or ``LIST_KINDS`` as names while a kind
    registered later still shows up in them.
    """

    def __init__(self, build: Callable[[], dict[str, _V]]) -> None:
        self._build = build
        self._cache: tuple[int, dict[str, _V]] | None = None

    def _current(self) -> dict[str, _V]:
        if self._cache is None or self._cache[0] != _version:
            self._cache = (_version, self._build())
        return self._cache[1]

    def __getitem__(self, key: str) -> _V:
        return self._current()[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._current())

    def __len__(self) -> int:
        return len(self._current())


KIND_NAMES: LiveMapping[tuple[str, str]] = LiveMapping(
    lambda: {spec.code: (spec.singular, spec.plural) for spec in _REGISTRY.values()}
)
LIST_KINDS: LiveMapping[str] = LiveMapping(lambda: {spec.list_key: spec.code for spec in _REGISTRY.values()})
SHARED_KIND_TITLES: LiveMapping[str] = LiveMapping(
    lambda: {spec.list_key: spec.shared_title for spec in _REGISTRY.values() if spec.shared_title}
)


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
for _spec in BUILTIN_KINDS:
    register_kind(_spec)
