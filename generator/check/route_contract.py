"""What a run's route contract makes of its routes: the gaps today's contract finds in a
route's labelled fields (KB304 reports them in a run under today's contract), the contract
a run was written under (a claim its dates do not allow is refused, KB310, and the run is
checked under the contract in force at its date), and what today's would flag in a run
under an earlier one (the findings its pages list, never errors)."""

from __future__ import annotations

import datetime
import re
from collections.abc import Iterator
from dataclasses import dataclass

from generator.model.anchors import find_anchors, unsafe_path_reason
from generator.model.contracts import TODAY, RouteContract, contract_at, contract_named
from generator.model.files import Run
from generator.model.ids import run_id_date
from generator.model.records import ROUTE_FIELD_LABELS, Route
from generator.model.system import SystemRecords
from generator.model.walk import collect

_REASONLESS = re.compile(r"(?:uninspected|inapplicable)\s*(?:[—–-]\s*)?", re.IGNORECASE)


@dataclass(frozen=True)
class RouteFieldGap:
    """A labelled field today's route contract wants of a route with labelled fields: one it
    lacks or leaves empty, or states as ``uninspected``/``inapplicable`` without a reason."""

    route: Route
    field: str
    label: str
    value: str | None
    reasonless: bool


def route_field_gaps(system: SystemRecords) -> Iterator[RouteFieldGap]:
    """Every gap today's route contract finds in the routes that state labelled fields
    (a narrative route, with none, has none)."""
    for record in system.records:
        if not isinstance(record, Route) or record.fields is None:
            continue
        for name, label in ROUTE_FIELD_LABELS.items():
            value = getattr(record.fields, name)
            reasonless = value is not None and _REASONLESS.fullmatch(value.strip()) is not None
            if reasonless or value is None or not value.strip():
                yield RouteFieldGap(record, name, label, value, reasonless)


def run_dates(run: Run) -> tuple[tuple[str, datetime.date], ...]:
    """The dates a run states, each with what states it: its run date and the date its run
    ID carries (once when they agree; the run ID's alone when the run date is absent)."""
    dates: list[tuple[str, datetime.date]] = []
    if run.run_date is not None:
        dates.append(("run date", run.run_date))
    carried = run_id_date(run.run_id)
    if carried is not None and carried != run.run_date:
        dates.append(("run ID's date", carried))
    return tuple(dates)


@dataclass(frozen=True)
class RefusedClaim:
    """A run's claim of an earlier route contract that its dates do not allow (KB310): a
    date it states falls outside the dates the contract was in force, or it states none."""

    claimed: RouteContract
    stated_as: str | None  # what states the date outside ("run date", "run ID's date"); None: no date
    date: datetime.date | None
    in_force: RouteContract  # the contract in force at that date (today's without a date)


def refused_claim(run: Run | None) -> RefusedClaim | None:
    """Why the run may not claim the contract it names, or None when it may (or names none).
    Every date the run states must allow the claim, so a run date and a run ID that disagree
    cannot pick the date that suits them."""
    if run is None or run.contract is None:
        return None
    claimed = contract_named(run.contract)
    if claimed.is_today:
        return None
    dates = run_dates(run)
    if not dates:
        return RefusedClaim(claimed, None, None, TODAY)
    for stated_as, date in dates:
        if not claimed.may_be_claimed_on(date):
            return RefusedClaim(claimed, stated_as, date, contract_at(date))
    return None


def run_contract(system: SystemRecords) -> RouteContract:
    """The route contract the system's run is checked under: the one it names, today's when
    it names none, and the one in force at its date when its claim is refused (KB310)."""
    run = system.run
    refused = refused_claim(run)
    if refused is not None:
        return refused.in_force
    return contract_named(run.contract if run is not None else None)


@dataclass(frozen=True)
class ContractFinding:
    """What today's route contract would flag in one route of a run written under an
    earlier one: shown on the run's pages, never an error."""

    route: str
    stated: int  # how many of today's labelled fields the route states
    wanted: int
    lacking: tuple[str, ...]  # the labels of the fields it lacks
    reasonless: tuple[str, ...]  # the labels it states as uninspected/inapplicable without a reason

    @property
    def text(self) -> str:
        parts = [f"{self.route} states {self.stated} of {self.wanted} route fields"]
        if self.lacking:
            parts.append("lacks " + ", ".join(self.lacking))
        if self.reasonless:
            parts.append("gives no reason for " + ", ".join(self.reasonless))
        return "; ".join(parts)


@dataclass(frozen=True)
class LookalikeFinding:
    """Text of a run written under an earlier contract that today's check would warn about
    (KB409): written like an evidence anchor, it names no file, and it is shown as text."""

    owner: str  # the record (or document) whose text holds it
    written: str  # the source ID and what follows it, as written

    @property
    def text(self) -> str:
        return (
            f"{self.owner}: {self.written} is written like an evidence anchor but names no file "
            "(shown as text)"
        )


def lookalike_findings(system: SystemRecords) -> tuple[LookalikeFinding, ...]:
    """The look-alike anchors of a run written under an earlier contract, in record order;
    none for a run under today's contract (there they are KB409 warnings)."""
    if run_contract(system).is_today:
        return ()
    found: list[LookalikeFinding] = []
    owners = [*system.records, system.result, system.memory_report]
    for owner in owners:
        if owner is None:
            continue
        name = getattr(owner, "id", None) or "The result"
        for text in collect(owner).texts:
            if "/" not in text.text:
                continue  # every look-alike names a path-like word
            for anchor in find_anchors(text.text):
                if anchor.lookalike and unsafe_path_reason(anchor.path) is None:
                    found.append(LookalikeFinding(name, f"{anchor.source} {anchor.path}"))
    return tuple(found)


def contract_findings(system: SystemRecords) -> tuple[ContractFinding | LookalikeFinding, ...]:
    """What today's contract would flag in a run written under an earlier one: one finding
    per route lacking fields, in record order, then the text written like an evidence
    anchor; none for a run under today's contract (KB304 errors and KB409 warnings there)."""
    contract = run_contract(system)
    if contract.is_today:
        return ()
    by_route: dict[str, list[RouteFieldGap]] = {}
    for gap in route_field_gaps(system):
        by_route.setdefault(gap.route.id, []).append(gap)
    wanted = len(ROUTE_FIELD_LABELS)
    return tuple(
        ContractFinding(
            route=route,
            stated=wanted - sum(1 for gap in gaps if not gap.reasonless),
            wanted=wanted,
            lacking=tuple(gap.label for gap in gaps if not gap.reasonless),
            reasonless=tuple(gap.label for gap in gaps if gap.reasonless),
        )
        for route, gaps in by_route.items()
    ) + lookalike_findings(system)
