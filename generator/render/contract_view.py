"""The route contract a run is checked under, as its pages state it: its name, the dates it
was in force, and for an earlier contract what today's would flag (findings, never errors).
The result page's run table and the review say it in the same words."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from generator.check.route_contract import contract_findings, run_contract
from generator.model.contracts import TODAY, RouteContract
from generator.render import rawhtml

if TYPE_CHECKING:
    from generator.graph.system_graph import SystemGraph


def dates_in_force(contract: RouteContract) -> str:
    """``from 2026-09-26 to 2026-09-27``, or ``since 2026-10-02`` for today's."""
    if contract.last_seen is None:
        return f"since {contract.first_seen.isoformat()}"
    return f"from {contract.first_seen.isoformat()} to {contract.last_seen.isoformat()}"


def contract_statement(view: dict[str, Any], listed: rawhtml.Html | None = None) -> rawhtml.Html:
    """One sentence or two of raw HTML naming the contract of a ``contract_view`` and its
    dates in force; for an earlier one, how many findings today's would flag and where
    they are ``listed``."""
    contract: RouteContract = view["contract"]
    findings = len(view["contract_findings"])
    name = rawhtml.code_span(contract.name.value)
    if contract.is_today:
        return rawhtml.Html(f"{name} (today's), in force {dates_in_force(contract)}.")
    today = rawhtml.code_span(TODAY.name.value)
    flagged = (
        f"would flag {findings} finding{'' if findings == 1 else 's'} in it"
        + (f", listed {listed}" if listed else "")
        if findings
        else "would flag nothing in it"
    )
    return rawhtml.Html(
        f"{name}, in force {dates_in_force(contract)}; the run is checked as that contract had it. "
        f"Today's contract, {today}, {flagged}."
    )


def contract_view(graph: SystemGraph) -> dict[str, Any]:
    """The route contract the run is checked under, and what today's would flag in it
    (findings, shown on its pages; none for a run under today's contract)."""
    return {
        "contract": run_contract(graph.system),
        "today_contract": TODAY,
        "contract_findings": [finding.text for finding in contract_findings(graph.system)],
    }
