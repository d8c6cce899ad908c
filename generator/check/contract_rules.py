"""The route contract a run claims is bound to its date (KB310).

An earlier contract did not have some of today's rules; a run that could claim it at any
date could opt out of them. So a run may claim an earlier contract only when every date it
states (its run date, its run ID's date) falls within the dates that contract was in force.
"""

from __future__ import annotations

from collections.abc import Iterator

from generator.check.context import Context
from generator.check.registry import check_rule
from generator.check.route_contract import RefusedClaim, refused_claim
from generator.diagnostics import Diagnostic, Rule, error

KB310 = Rule(
    "KB310",
    "contract-date",
    "A run claims a route contract that was not in force at its date.",
    doc=(
        "a run's `contract` names an earlier route contract, and a date the run states (its `run_date`, or "
        "the date its run ID carries) is before the contract's first date or after its last, or the run "
        "states no date; the run is checked under the contract in force at its date (today's has no last "
        "date and may be claimed by any run)"
    ),
)


def _dates_in_force(claim: RefusedClaim) -> str:
    contract = claim.claimed
    last = contract.last_seen.isoformat() if contract.last_seen else "today"
    return f"{contract.name.value} was in force from {contract.first_seen.isoformat()} to {last}"


def _in_force_name(claim: RefusedClaim) -> str:
    name = claim.in_force.name.value
    return f"{name} (today's)" if claim.in_force.is_today else name


def _message(claim: RefusedClaim) -> str:
    contract = claim.claimed
    if claim.date is None:
        return f"the run claims route contract {contract.name.value} but states no run date to bind it to"
    if contract.last_seen is not None and claim.date > contract.last_seen:
        when = f"after its last date, {contract.last_seen.isoformat()}"
    else:
        when = f"before its first date, {contract.first_seen.isoformat()}"
    return (
        f"the run claims route contract {contract.name.value}, but its {claim.stated_as} "
        f"{claim.date.isoformat()} is {when}"
    )


def _hint(claim: RefusedClaim) -> str:
    if claim.date is None:
        return (
            f"{_dates_in_force(claim)}. State the run's date (run_date, or the run ID's), or remove "
            "'contract:' to check the run under today's contract."
        )
    return (
        f"{_dates_in_force(claim)}; on {claim.date.isoformat()} the contract in force is "
        f"{_in_force_name(claim)}. Remove 'contract:' (or name the contract in force), and the run is "
        "checked by its rules."
    )


@check_rule(KB310, order=15)
def rule_contract_date(ctx: Context) -> Iterator[Diagnostic]:
    run = ctx.system.run
    claim = refused_claim(run)
    if run is None or claim is None:
        return
    yield error(KB310, _message(claim), *ctx.at(ctx.system.origin(run), ("contract",)), hint=_hint(claim))
