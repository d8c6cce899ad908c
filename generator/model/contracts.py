"""The versions of the route contract a run may be written under, one line each.

Published analyses are history: a run is checked by the contract it was written under
(``run.contract``; today's when it names none), and what today's contract would flag in
an older run is a finding shown on its pages, never an error. Each version says which
route fields it named, whether their labels were exact, and which rules it did not have
(those rules are not applied to its runs). The versions are read from the published
documents themselves (see "Route contract versions" in docs/authoring.md): nothing here
is history the documents do not show.

A contract binds by date: its ``first_seen`` and ``last_seen`` are the dates it was in
force, and a run dated outside them may not claim it (KB310), so naming an earlier
contract is no way out of today's checks. Today's contract has no last date, and a run of
any date may claim it: it holds the run to every rule.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from enum import StrEnum

from generator.model.records import ROUTE_FIELD_LABELS


class ContractName(StrEnum):
    """A route contract version, named by what distinguishes it."""

    SIX_FIELDS_FREE_WORDING = "six-fields-free-wording"
    SEVEN_FIELDS_EXACT_LABELS = "seven-fields-exact-labels"


@dataclass(frozen=True, slots=True)
class RouteContract:
    """One version of the route contract."""

    name: ContractName
    route_fields: tuple[str, ...]  # the labelled fields it named (RouteFields' names)
    exact_labels: bool  # its fields are the exact labels, each stated once (else any wording)
    lacks: frozenset[str]  # the codes of the rules it did not have
    # The dates it was in force: the earliest and latest run date a document written under
    # it carries (no last date for today's).
    first_seen: datetime.date
    last_seen: datetime.date | None
    summary: str

    @property
    def is_today(self) -> bool:
        return self.name is TODAY.name

    def in_force_on(self, date: datetime.date) -> bool:
        """Whether the contract was in force on ``date``."""
        return self.first_seen <= date and (self.last_seen is None or date <= self.last_seen)

    def may_be_claimed_on(self, date: datetime.date) -> bool:
        """Whether a run dated ``date`` may claim this contract: today's by any run (it lacks
        no rule), an earlier one only by a run of the dates it was in force."""
        return self.is_today or self.in_force_on(date)

    def has_rule(self, code: str) -> bool:
        """Whether runs under this contract are held to the rule ``code``."""
        return code not in self.lacks


_SEVEN = tuple(ROUTE_FIELD_LABELS)

# Oldest first; the last is today's. One line each.
# fmt: off
CONTRACTS: tuple[RouteContract, ...] = (
    RouteContract(ContractName.SIX_FIELDS_FREE_WORDING, _SEVEN[:6], False, frozenset({"KB304"}), datetime.date(2026, 9, 26), datetime.date(2026, 9, 27), "six route fields in the route's prose, in any wording; no evidence-limits field, no presence check"),  # noqa: E501
    RouteContract(ContractName.SEVEN_FIELDS_EXACT_LABELS, _SEVEN, True, frozenset(), datetime.date(2026, 10, 2), None, "seven route fields, each an exact label with a non-empty value; uncertainty with a reason (KB304)"),  # noqa: E501
)
# fmt: on
TODAY = CONTRACTS[-1]
_BY_NAME = {contract.name: contract for contract in CONTRACTS}


def contract_named(name: ContractName | None) -> RouteContract:
    """The contract of that name; today's when a run names none."""
    return TODAY if name is None else _BY_NAME[name]


def contract_at(run_date: datetime.date | None) -> RouteContract:
    """The contract a document that does not name one was written under, by its run date:
    the earlier version whose documents span that date, else today's."""
    if run_date is None:
        return TODAY
    for contract in CONTRACTS[:-1]:
        if contract.in_force_on(run_date):
            return contract
    return TODAY
