"""Set rules: the checks the analysis-set type runs across its members.

They apply to a system declaring ``analysis_set:`` and read only validated models:
run and boundary agree across members, membership follows the outcome, members keep
their types and order, each record belongs to a member of the set, and nothing stands
in as 'declared elsewhere' for a member that is present.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from generator.check.registry import check_rule
from generator.check.rules import KB201
from generator.diagnostics import Diagnostic, Rule, error
from generator.model.set_manifest import member_digests
from generator.model.sets import (
    DECLARING_MEMBERS,
    MEMBER_KEYS,
    MEMBER_ORDER,
    MEMBER_TYPES,
    AnalysisSet,
    prefix_member,
    record_member,
    type_member,
)
from generator.model.vocab import Disposition, Member

if TYPE_CHECKING:
    from generator.check.context import Context

KB801 = Rule(
    "KB801",
    "set-run",
    "A member of an analysis set names another run ID or reviewed boundary.",
    doc="in an analysis set, the set, the run or a member names another run ID or reviewed boundary",
)

KB802 = Rule(
    "KB802",
    "set-membership",
    "A set's members do not match its outcome or its member documents.",
    doc=(
        "a set's members do not match its outcome (complete: all five; blocked or out-of-scope: the overview "
        "only), or a listed member has no document, or a member document is not listed"
    ),
)

KB803 = Rule(
    "KB803",
    "set-member-type",
    "A set's members are out of order or carry another member's type.",
    doc=(
        "a set's members are listed twice or out of order (overview, runtime, memory, epistemic, "
        "reconciliation), or a member (in the list or its document) carries another member's type"
    ),
)

KB804 = Rule(
    "KB804",
    "set-record-member",
    "A record belongs to no member of the set that declares records.",
    doc=(
        "a record's `member:` contradicts its ID prefix, or it belongs to a member the set does not list or "
        "that declares no records (reconciliation)"
    ),
)

KB805 = Rule(
    "KB805",
    "set-supplied",
    "A record is supplied as declared elsewhere by a member the set holds.",
    doc=(
        "a `supplied:` record stands in for a member the set holds: the set resolves references against its "
        "own declarations"
    ),
)

KB807 = Rule(
    "KB807",
    "set-manifest",
    "A committed set manifest does not pin the members the records give.",
    doc=(
        "a committed `ARTIFACT.yaml` does not pin what the records give: names the member that changed, a "
        "member it lacks or one outside the set, or it is not a set manifest (or there is no `analysis_set:`)"
    ),
)


def _documents(ctx: Context) -> Iterator[tuple[Member, Any]]:
    """Each member document the system declares, in set order."""
    for member in MEMBER_ORDER:
        document = getattr(ctx.system, MEMBER_KEYS[member])
        if document is not None:
            yield member, document


@check_rule(KB801, order=230)
def rule_set_run(ctx: Context) -> Iterator[Diagnostic]:
    """KB801: the set, the run and every member name one run ID and one reviewed boundary."""
    the_set = ctx.system.analysis_set
    if the_set is None:
        return
    set_origin = ctx.system.origin(the_set)
    run = ctx.system.run
    if run is not None and run.run_id and run.run_id != the_set.run_id:
        yield error(
            KB801,
            f"the set's run ID {the_set.run_id} differs from the run's {run.run_id}",
            *ctx.at(set_origin, ("run_id",)),
        )
    if (
        run is not None
        and run.reviewed_boundary
        and run.reviewed_boundary.revision != the_set.reviewed_boundary
    ):
        yield error(
            KB801,
            f"the set's reviewed boundary {the_set.reviewed_boundary!r} differs from the run's "
            f"{run.reviewed_boundary.revision!r}",
            *ctx.at(set_origin, ("reviewed_boundary",)),
        )
    for member, document in _documents(ctx):
        origin = ctx.system.origin(document)
        for field, expected in (("run_id", the_set.run_id), ("reviewed_boundary", the_set.reviewed_boundary)):
            value = getattr(document, field)
            if value is not None and value != expected:
                yield error(
                    KB801,
                    f"the {member.value} member's {field} {value!r} differs from the set's {expected!r}",
                    *ctx.at(origin, (field,)),
                    hint="Every member of a set carries the set's run ID and reviewed boundary.",
                )


def _required_members(ctx: Context) -> tuple[Member, ...]:
    run = ctx.system.run
    complete = run is not None and run.disposition is Disposition.COMPLETE
    return MEMBER_ORDER if complete else (Member.OVERVIEW,)


@check_rule(KB802, order=240)
def rule_set_membership(ctx: Context) -> Iterator[Diagnostic]:
    """KB802: a complete outcome has all five members, a blocked or out-of-scope one only
    the overview; every listed member has its document and every document is listed."""
    the_set = ctx.system.analysis_set
    if the_set is None:
        return
    origin = ctx.system.origin(the_set)
    listed = {entry.member for entry in the_set.members}
    required = _required_members(ctx)
    outcome = (
        ctx.system.run.disposition.value if ctx.system.run and ctx.system.run.disposition else "unstated"
    )
    for member in required:
        if member not in listed:
            yield error(
                KB802,
                f"a {outcome} outcome requires the {member.value} member, which the set does not list",
                *ctx.at(origin, ("members",)),
            )
    for index, entry in enumerate(the_set.members):
        if entry.member not in required:
            yield error(
                KB802,
                f"a {outcome} outcome has only the overview; the set lists the {entry.member.value} member",
                *ctx.at(origin, ("members", index, "member")),
            )
        elif MEMBER_KEYS[entry.member] not in ctx.system.declared_keys:
            yield error(
                KB802,
                f"the set lists the {entry.member.value} member but no file declares "
                f"'{MEMBER_KEYS[entry.member]}:'",
                *ctx.at(origin, ("members", index, "member")),
            )
    for member, document in _documents(ctx):
        if member not in listed:
            yield error(
                KB802,
                f"'{MEMBER_KEYS[member]}:' is declared but the set does not list the {member.value} member",
                *ctx.key_at(ctx.system.origin(document)),
            )


def _order_problems(the_set: AnalysisSet) -> Iterator[tuple[int, str]]:
    seen: set[Member] = set()
    last = -1
    for index, entry in enumerate(the_set.members):
        position = MEMBER_ORDER.index(entry.member)
        if entry.member in seen:
            yield index, f"the {entry.member.value} member is listed twice"
        elif position < last:
            order = ", ".join(m.value for m in MEMBER_ORDER)
            yield index, f"the {entry.member.value} member is out of order (the order is {order})"
        seen.add(entry.member)
        last = max(last, position)


@check_rule(KB803, order=250)
def rule_set_types(ctx: Context) -> Iterator[Diagnostic]:
    """KB803: members in the schema's order, each with its member's type name."""
    the_set = ctx.system.analysis_set
    if the_set is None:
        return
    origin = ctx.system.origin(the_set)
    for index, message in _order_problems(the_set):
        yield error(KB803, message, *ctx.at(origin, ("members", index, "member")))
    for index, entry in enumerate(the_set.members):
        if type_member(entry.type) is not entry.member:
            yield error(
                KB803,
                f"the {entry.member.value} member's type {entry.type!r} is not "
                f"'{MEMBER_TYPES[entry.member]}'",
                *ctx.at(origin, ("members", index, "type")),
            )
    for member, document in _documents(ctx):
        if type_member(document.type) is not member:
            yield error(
                KB803,
                f"'{MEMBER_KEYS[member]}' has type {document.type!r}, not '{MEMBER_TYPES[member]}'",
                *ctx.at(ctx.system.origin(document), ("type",)),
            )


@check_rule(KB804, order=260)
def rule_set_record_members(ctx: Context) -> Iterator[Diagnostic]:
    """KB804: each record belongs to a member of the set that declares records, and a
    ``member:`` field agrees with the ID's analyst prefix."""
    the_set = ctx.system.analysis_set
    if the_set is None:
        return
    listed = {entry.member for entry in the_set.members}
    for record in ctx.system.records:
        member = record_member(record)
        origin = ctx.system.origin(record)
        prefixed = prefix_member(record.id)
        has_prefix = record.id.split("-", 1)[0] in ("RT", "MEM", "EPI")
        if record.member is not None and has_prefix and record.member is not prefixed:
            yield error(
                KB804,
                f"{record.id} carries the {prefixed.value} prefix but names the {record.member.value} member",
                *ctx.at(origin, ("member",)),
            )
        elif member not in DECLARING_MEMBERS:
            yield error(
                KB804,
                f"{record.id}: the {member.value} member declares no records",
                *ctx.at(origin, ("member",) if record.member else ("id",)),
            )
        elif member not in listed:
            yield error(
                KB804,
                f"{record.id} belongs to the {member.value} member, which the set does not list",
                *ctx.at(origin, ("member",) if record.member else ("id",)),
            )


@check_rule(KB805, order=270)
def rule_set_supplied(ctx: Context) -> Iterator[Diagnostic]:
    """KB805: every cross-member reference resolves against the set's own declarations: a
    record 'declared elsewhere' may not stand in for a member that is in the set."""
    the_set = ctx.system.analysis_set
    if the_set is None:
        return
    listed = {entry.member for entry in the_set.members}
    for supplied in ctx.system.supplied:
        member = prefix_member(supplied.id)
        if member in listed:
            yield error(
                KB805,
                f"{supplied.id} is supplied as declared elsewhere, but the set's {member.value} member "
                "is here and declares no such record",
                *ctx.at(ctx.system.origin(supplied), ("id",)),
                hint=f"Declare it in the {member.value} member, or correct the reference.",
            )


def _reconciliation_references(ctx: Context) -> Iterator[tuple[str, str, tuple[str | int, ...]]]:
    """(ID, what cites it, data path) for every ID the reconciliation's typed entries name."""
    report = ctx.system.reconciliation_report
    if report is None:
        return
    for index, amendment in enumerate(report.amendments):
        for t_index, target in enumerate(amendment.targets):
            yield target, "an amendment targets", ("amendments", index, "targets", t_index)
        for r_index, ref in enumerate(amendment.affects):
            yield (
                ref,
                f"the amendment of {', '.join(amendment.targets)} affects",
                ("amendments", index, "affects", r_index),
            )
    for index, supersession in enumerate(report.supersessions):
        yield supersession.superseded, "a supersession retires", ("supersessions", index, "superseded")
        yield supersession.by, "a supersession keeps", ("supersessions", index, "by")
    for index, conflict in enumerate(report.unresolved_conflicts):
        for r_index, ref in enumerate(conflict.affects):
            yield ref, "an unresolved conflict affects", ("unresolved_conflicts", index, "affects", r_index)


def _ledger_references(ctx: Context) -> Iterator[tuple[str, str, tuple[str | int, ...]]]:
    report = ctx.system.epistemic_report
    if report is None:
        return
    for index, entry in enumerate(report.authority_route_ledger.entries):
        for r_index, ref in enumerate(entry.routes):
            yield (
                ref,
                "a ledger entry traces",
                ("authority_route_ledger", "entries", index, "routes", r_index),
            )


@check_rule(KB201, order=220)
def rule_set_references(ctx: Context) -> Iterator[Diagnostic]:
    """KB201: the IDs the reconciliation and the ledger name in typed fields are declared."""
    for document, found in (
        (ctx.system.reconciliation_report, _reconciliation_references(ctx)),
        (ctx.system.epistemic_report, _ledger_references(ctx)),
    ):
        origin = ctx.system.origin(document)
        for ref, what, path in found:
            if ref not in ctx.declared:
                yield error(KB201, f"{what} {ref}, which no member declares", *ctx.at(origin, path))


def _pinned(ctx: Context) -> tuple[dict[str, Any], Diagnostic | None]:
    """The manifest's member → pinned digest mapping, or why it is not a set manifest."""
    assert ctx.manifest is not None
    data = ctx.manifest.data
    members = data.get("members") if isinstance(data, dict) else None
    spot = ctx.manifest.spot(("members",) if members is not None else ())
    if not isinstance(members, dict) or not all(
        isinstance(v, dict) and isinstance(v.get("sha256"), str) for v in members.values()
    ):
        message = "not a set manifest: expected 'members: {<member>.md: {sha256: …}}'"
        problem = error(KB807, message, ctx.manifest.display, spot.line, spot.col)
        return {}, problem
    return {str(name): entry["sha256"] for name, entry in members.items()}, None


@check_rule(KB807, order=210)
def rule_set_manifest(ctx: Context) -> Iterator[Diagnostic]:
    """KB807: a committed ``ARTIFACT.yaml`` pins each member's canonical digest; a member
    whose records changed since is named."""
    if ctx.manifest is None:
        return
    manifest = ctx.manifest
    if ctx.system.analysis_set is None:
        yield error(KB807, "ARTIFACT.yaml pins a set, but no file declares 'analysis_set:'", manifest.display)
        return
    pinned, problem = _pinned(ctx)
    if problem is not None:
        yield problem
        return
    computed = member_digests(ctx.system)
    for name, digest in computed.items():
        if name not in pinned:
            spot = manifest.spot(("members",))
            message = f"the manifest does not pin the member {name}"
            yield error(KB807, message, manifest.display, spot.line, spot.col)
        elif pinned[name] != digest:
            spot = manifest.spot(("members", name, "sha256"))
            yield error(
                KB807,
                f"{name} changed: its records give SHA-256 {digest}, the manifest pins {pinned[name]}",
                manifest.display,
                spot.line,
                spot.col,
                hint="A published set is frozen; a correction is a new run with a new manifest.",
            )
    for name in pinned:
        if name not in computed:
            spot = manifest.spot(("members", name))
            message = f"the manifest pins {name}, which is not a member of the set"
            yield error(KB807, message, manifest.display, spot.key_line, spot.key_col)
