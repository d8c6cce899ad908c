"""The record kinds: one ``KindSpec`` per kind, and the registry everything derives from.

A kind is its code (the ``RTE`` in ``RTE-11``), the top-level list it is declared in
(``routes``), its model class, its names, its 'Shared records' title, the model fields
that hold conclusion statuses, what else the generator does with its records (its
``roles``: cited as evidence, drawn on the route maps, an evidenced absence, …), the
symbol kind an editor shows it with, the other spellings of its field titles an imported
document may use, and the file an import writes its list to. A ``KindRegistry`` is an
immutable, ordered set of kinds with what derives from them (the ID grammar, the kind
names, the lists); ``KINDS``, the built-in kinds, is built once at import. Whatever
reads the kinds asks ``active()``, which is ``KINDS`` unless a caller runs under
``using(registry)``: that is how a test (or a tool built on the generator) checks,
imports and renders records of a kind of its own, in its own registry, without changing
the built-in one. No other module switches on a kind code: what treats some kinds apart
asks for a ``Role``.

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
from enum import StrEnum
from types import MappingProxyType

from generator.model.ids import (
    Grammar,
    RecordKind,
    compile_grammar,
    install_builtin_grammar,
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
# A symbol kind is the name of a member of the LSP's SymbolKind (``File``, ``Function``);
# the language server maps it, so the model needs no LSP types.
_SYMBOL_KIND = re.compile(r"^[A-Z][A-Za-z]*\Z")
# A folded field title: lower-case words, as the importer folds a column header or a label.
_FOLDED = re.compile(r"^\S+(?: \S+)*\Z")


class Role(StrEnum):
    """What the generator does with a kind's records besides checking, linking and showing
    them. Every place that treats some kinds apart asks for a role, never for a kind code,
    so a new kind takes part by naming its roles in its spec."""

    # Evidence anchors and quotations cite its records (``SRC-1 src/a.py:1-9``); a run's
    # reviewed boundary names one; evidence completion offers them.
    EVIDENCE_SOURCE = "evidence-source"
    # Its records are routes: drawn on the route maps, named as alternative branches, the
    # route contract's labelled fields and guarantee imported from a document.
    ROUTE = "route"
    # Its records establish a bounded absence: a profile axis assessed absent cites one;
    # a status after its label is part of the label.
    EVIDENCED_ABSENCE = "evidenced-absence"
    # Its records' labels name the routes that use them: the route maps relate them.
    ROUTE_USER = "route-user"
    # Its records' statuses are the analysis's verdicts: a result page lists them, linked,
    # under the bounded synthesis ("key verdicts").
    VERDICT = "verdict"


# Roles whose places read the fields of a model: a kind with the role has one of its models.
_ROLE_MODELS: Mapping[Role, type[RecordBase]] = MappingProxyType(
    {Role.EVIDENCE_SOURCE: Source, Role.ROUTE: Route}
)


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
    roles: frozenset[Role] = frozenset()
    # The LSP SymbolKind name of its records in an editor's outline and symbol search.
    symbol_kind: str = "Constant"
    # (folded label, model field): other spellings of its field titles that imported
    # documents use (a column 'Identity/location', a line 'Channels: …'); a document
    # written with the model's own titles needs none.
    title_aliases: tuple[tuple[str, str], ...] = ()
    # The file (without '.yaml') an import writes the kind's list to; None: the list key.
    file_stem: str | None = None

    @property
    def slug(self) -> str:
        """The CSS modifier of the kind's records: ``kb-record--operative-object``."""
        return re.sub(r"[^a-z0-9]+", "-", self.singular.lower()).strip("-")

    @property
    def file_name(self) -> str:
        """The record file an import writes the kind's list to (``authority.yaml``)."""
        return f"{self.file_stem or self.list_key}.yaml"

    def has(self, role: Role) -> bool:
        return role in self.roles


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
    for role, model in _ROLE_MODELS.items():
        if role in spec.roles and not issubclass(spec.model, model):
            return f"the {role} role reads {model.__name__}'s fields: {spec.model.__name__} is not one"
    if not _SYMBOL_KIND.match(spec.symbol_kind):
        return f"symbol kind {spec.symbol_kind!r} is not the name of an LSP SymbolKind"
    folded = [label for label, _ in spec.title_aliases if not _FOLDED.match(label) or label != label.lower()]
    if folded:
        return f"title aliases {folded} are not folded (lower-case words, single spaces)"
    if spec.file_stem is not None and not _LIST_KEY.match(spec.file_stem):
        return f"file stem {spec.file_stem!r} is not a snake_case name"
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
        sources = tuple(spec.code for spec in self.specs if Role.EVIDENCE_SOURCE in spec.roles)
        self.grammar: Grammar = compile_grammar(self.codes, sources)
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

    def with_role(self, role: Role) -> tuple[KindSpec, ...]:
        """The kinds that have a role, in order."""
        return tuple(spec for spec in self.specs if role in spec.roles)

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
    KindSpec(
        RecordKind.SOURCE,
        "sources",
        Source,
        "source",
        "sources",
        roles=frozenset({Role.EVIDENCE_SOURCE}),
        symbol_kind="File",
        title_aliases=(
            ("source id", "id"),
            ("id", "id"),
            ("kind", "source_kind"),
            ("identity/location", "identity"),
            ("identity", "identity"),
            ("location", "identity"),
            # One column holding both: ``Paper capture, <url>; local <path>`` (the kind
            # is the phrase before the first comma).
            ("kind and identity/location", "identity"),
            ("kind and identity", "identity"),
            ("revision or capture", "revision"),
            ("capture", "revision"),
            ("revision", "revision"),
            ("evidence layer", "layer"),
            ("inspected scope", "scope"),
            ("inspected scope / anchors", "scope"),
            ("access gaps and conclusion prevented", "access_gaps"),
            ("access gaps", "access_gaps"),
            ("citation anchors", "citation_anchors"),
        ),
    ),
    KindSpec(
        RecordKind.COMPONENT,
        "components",
        Component,
        "component",
        "components",
        "Components",
        roles=frozenset({Role.ROUTE_USER}),
        symbol_kind="Module",
        title_aliases=(
            ("source-native component", "source_native"),
            ("form/substrate and role", "form"),
            ("representational form", "form"),
        ),
    ),
    KindSpec(
        RecordKind.OBJECT,
        "objects",
        OperativeObject,
        "operative object",
        "operative objects",
        "Operative objects",
        roles=frozenset({Role.ROUTE_USER}),
        symbol_kind="Object",
        title_aliases=(
            ("source-native part", "source_native"),
            ("form / storage / lineage", "form"),
            ("representational form", "form"),
        ),
    ),
    KindSpec(
        RecordKind.ROUTE,
        "routes",
        Route,
        "route",
        "routes",
        "Routes",
        roles=frozenset({Role.ROUTE, Role.VERDICT}),
        symbol_kind="Function",
        title_aliases=(
            ("endpoints/progression", "progression"),
            ("endpoints and progression", "progression"),
        ),
    ),
    KindSpec(
        RecordKind.CLAIM,
        "claims",
        Claim,
        "claim",
        "claims",
        "Claims",
        status_fields=(("conclusion_status", "claim conclusion status"),),
        roles=frozenset({Role.VERDICT}),
        symbol_kind="Boolean",
        title_aliases=(
            ("source-native claim and evidence", "claim"),
            ("conclusion status and boundary", "boundary"),
            ("claimed operation", "claim"),
        ),
    ),
    KindSpec(
        RecordKind.ABSENCE,
        "absences",
        Absence,
        "evidenced absence",
        "evidenced absences",
        "Evidenced absences",
        status_fields=(("status", "absence status"),),
        roles=frozenset({Role.EVIDENCED_ABSENCE}),
        symbol_kind="Null",
    ),
    KindSpec(
        RecordKind.AUTHORITY_PATH,
        "authority_paths",
        AuthorityPath,
        "behavioral-authority path",
        "behavioral-authority paths",
        "Behavioral-authority paths",
        symbol_kind="Key",
        title_aliases=(("horizon and evidence", "horizon"), ("channels", "channel")),
        file_stem="authority",
    ),
)
KINDS = KindRegistry(BUILTIN_KINDS)
install_builtin_grammar(KINDS.grammar)
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


def with_role(role: Role) -> tuple[KindSpec, ...]:
    """The kinds in force that have a role, in order."""
    return active().with_role(role)


def has_role(record_id: str, role: Role) -> bool:
    """The ID names a record of a kind (in force) that has the role."""
    spec = active().spec_of_id(record_id)
    return spec is not None and role in spec.roles


def list_has_role(list_key: str | None, role: Role) -> bool:
    """The list (a kind's list key) holds records of a kind that has the role."""
    spec = active().spec_of_list(list_key) if list_key is not None else None
    return spec is not None and role in spec.roles


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
            found.append((label, str(getattr(value, "value", value)), getattr(value, "qualifier", None)))
    return found
