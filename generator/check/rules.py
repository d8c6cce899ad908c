"""Cross-record rules over one system's validated records.

Each check is a generator of diagnostics, declared with the rules it reports
(``@check_rule``); ``checks.run_rules`` runs them all, so every problem is reported in
one pass. Checks are pure: they read, never write.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from functools import partial
from typing import Any

from generator.check.context import Context
from generator.check.registry import check_rule
from generator.check.route_contract import route_field_gaps, run_contract
from generator.diagnostics import Diagnostic, Rule, error, warning
from generator.load.readfs import printable
from generator.load.records import KB308, DataPath, SystemSource
from generator.load.textpos import LineIndex
from generator.model.anchors import bad_range_reason, find_anchors, unsafe_path_reason
from generator.model.ids import RUN_ID, grammar, kind_of, range_ids
from generator.model.kinds import Role, has_role, kind_names, list_kinds, shared_kind_titles
from generator.model.records import Annotation, RecordBase, Route, Supplied
from generator.model.sets import annotation_member, record_member
from generator.model.system import Origin, SystemRecords
from generator.model.vocab import Member
from generator.model.walk import collect

KB201 = Rule(
    "KB201",
    "dangling-reference",
    "A structured field refers to an ID nobody declares.",
    doc=(
        "dangling reference in a structured field (placement, amendment, annotation, quote source, reviewed "
        "boundary)"
    ),
)

KB202 = Rule(
    "KB202",
    "dangling-reference-in-prose",
    "An ID written in prose resolves to nothing.",
    doc="an ID written in prose resolves to no record",
)

KB203 = Rule("KB203", "duplicate-id", "Two records of one system share an ID.", doc="duplicate ID")

KB204 = Rule(
    "KB204",
    "part-of-target",
    "part_of names itself, a missing record or a cycle.",
    doc="`part_of` names itself, a missing record, or a cycle",
)

KB205 = Rule(
    "KB205",
    "id-range",
    "A range such as RTE-21–RTE-29 spans an ID nobody declares, or one the KB cannot expand.",
    doc=(
        "warning: a range such as `RTE-21–RTE-29` hides IDs: it spans an ID nobody declares, or it "
        "cannot be expanded (its ends are of two kinds or analyst-prefixed, out of order, or 200 or more "
        "apart). A range whose every ID is declared cites each of them (each lists the citing place "
        "under 'Referenced by') and is no warning"
    ),
)

KB206 = Rule(
    "KB206",
    "record-placement",
    "A placement names a record of another kind, or places one twice.",
    doc="placement of a record of another kind, or twice on one page",
)


KB208 = Rule(
    "KB208",
    "kind-mismatch",
    "A record's ID names another kind than the list it is in.",
    doc="an ID's kind differs from the list it sits in",
)

KB209 = Rule(
    "KB209",
    "annotation-target",
    "An annotation must target a supplied record.",
    doc="an annotation targets a record declared in this system",
)

KB210 = Rule(
    "KB210",
    "alternative-route",
    "alternative_to names the route itself or a record that is not a route.",
    doc="`alternative_to` names the route itself or a record that is not a route",
)

KB212 = Rule(
    "KB212",
    "supersession",
    "A record is superseded by itself, or supersessions form a cycle.",
    doc="`superseded_by` names the record itself, or supersessions form a cycle",
)

KB301 = Rule(
    "KB301",
    "complete-result-null",
    "A complete result leaves a boundary field null.",
    doc="a complete result leaves a boundary field null",
)

KB302 = Rule(
    "KB302",
    "run-id-date",
    "The run ID's date differs from the run date.",
    doc="the run ID's date differs from the run date",
)

KB303 = Rule(
    "KB303",
    "run-id-slug",
    "The run ID's system slug differs from the folder name.",
    doc="the run ID's system slug differs from the folder",
)

KB304 = Rule(
    "KB304",
    "route-fields",
    "A route with labelled fields lacks one of the seven.",
    doc=(
        "a route with labelled fields lacks one, leaves it empty, or writes `uninspected`/`inapplicable` "
        "without a reason, in a run under today's route contract (in a run under an earlier one, which "
        "did not have this rule, these are findings listed on its result page)"
    ),
)

KB305 = Rule(
    "KB305", "missing-run", "A system folder declares no run.", doc="a system folder declares no run"
)

KB401 = Rule(
    "KB401",
    "anchor-source",
    "An evidence anchor cites a source the system does not declare.",
    doc="anchor source undeclared",
)

KB402 = Rule(
    "KB402", "anchor-path", "An evidence anchor's path is not a safe relative path.", doc="unsafe anchor path"
)

KB403 = Rule("KB403", "anchor-range", "An evidence anchor's line range is not sane.", doc="bad line range")

KB404 = Rule("KB404", "quote-path", "A quotation is not attributed to a file path.", doc="quote without path")

KB405 = Rule(
    "KB405",
    "include-missing",
    "A prose include names a Markdown file that is not in the folder.",
    doc="missing include",
)

KB409 = Rule(
    "KB409",
    "anchor-lookalike",
    "Prose looks like an evidence anchor but names no file: shown as text.",
    doc=(
        "warning: prose looks like an evidence anchor but names no file (`SRC-2 illustrations/reports`: no "
        "extension, line range or closing `/`); it is shown as text, never linked. In a run written under "
        "an earlier route contract it is no warning: the result page lists it among the run's findings"
    ),
)

KB806 = Rule(
    "KB806",
    "set-duplicate-id",
    "Two members of an analysis set declare one ID.",
    doc="two members of a set declare one ID (an ID is declared in one member and cited in the others)",
)

DANGLING_HINT = (
    "Declare the record, declare it under 'supplied:' if another member owns it, or correct the ID. "
    "A lens-local proposal tag is not a record: list it in a 'proposal-mapping' table's 'proposals' "
    "column (Specialist proposals), where it stays provenance."
)


def _owners(system: SystemRecords) -> Iterator[tuple[Any, Origin | None]]:
    """Every top-level declared object with its origin."""
    for obj in _declared_objects(system):
        yield obj, system.origin(obj)


def _declared_objects(system: SystemRecords) -> Iterator[Any]:
    for obj in (
        system.run,
        *system.records,
        *system.limitations,
        *system.supplied,
        *system.annotations,
        system.result,
        system.memory_report,
        system.analysis_set,
        system.overview,
        system.runtime_report,
        system.epistemic_report,
        system.reconciliation_report,
        system.memory_comparison,
    ):
        if obj is not None:
            yield obj


def _member_of(ctx: Context, obj: RecordBase | Supplied) -> Member | None:
    """In an analysis set, the member declaring a record (None for supplied ones)."""
    if ctx.system.analysis_set is None or isinstance(obj, Supplied):
        return None
    return record_member(obj)


@check_rule(KB203, KB806, order=20)
def rule_duplicate_ids(ctx: Context) -> Iterator[Diagnostic]:
    """KB203 within a system or member; KB806 when two members of a set declare one ID."""
    first: dict[str, RecordBase | Supplied] = {}
    declared: list[RecordBase | Supplied] = [*ctx.system.records, *ctx.system.supplied]
    for obj in declared:
        origin = ctx.system.origin(obj)
        if obj.id not in first:
            first[obj.id] = obj
            continue
        where = ctx.system.origin(first[obj.id])
        earlier = f"{where.file}" if where else "another file"
        members = (_member_of(ctx, first[obj.id]), _member_of(ctx, obj))
        if members[0] is not None and members[1] is not None and members[0] is not members[1]:
            yield error(
                KB806,
                f"ID {obj.id} is declared in the {members[1].value} member and already in the "
                f"{members[0].value} member ({earlier})",
                *ctx.at(origin, ("id",)),
                hint="An ID is declared in one member and cited in the others.",
            )
        else:
            yield error(KB203, f"ID {obj.id} is already declared in {earlier}", *ctx.at(origin, ("id",)))


@check_rule(KB208, order=30)
def rule_kind_matches_list(ctx: Context) -> Iterator[Diagnostic]:
    for record in ctx.system.records:
        origin = ctx.system.origin(record)
        if origin is None:
            continue
        expected = list_kinds().get(str(origin.path[0]))
        actual = kind_of(record.id)
        if expected and actual and actual != expected:
            yield error(
                KB208,
                f"{record.id} names a {kind_names()[actual][0]} but sits in {origin.path[0]!r}",
                *ctx.at(origin, ("id",)),
                hint=f"Move it to the list of {kind_names()[actual][1]}, or correct the ID.",
            )


@check_rule(KB204, order=40)
def rule_part_of(ctx: Context) -> Iterator[Diagnostic]:
    parents = {r.id: r.part_of for r in ctx.system.records if r.part_of}
    for record in ctx.system.records:
        if not record.part_of:
            continue
        where = ctx.at(ctx.system.origin(record), ("part_of",))
        if record.part_of == record.id:
            yield error(KB204, f"{record.id} is part of itself", *where)
        elif record.part_of not in ctx.declared:
            yield error(KB204, f"{record.id} is part of {record.part_of}, which nobody declares", *where)
        else:
            seen = {record.id}
            current: str | None = record.part_of
            while current is not None and current not in seen:
                seen.add(current)
                current = parents.get(current)
            if current == record.id:
                yield error(KB204, f"part_of of {record.id} forms a cycle", *where)


@check_rule(KB210, KB201, order=50)
def rule_alternatives(ctx: Context) -> Iterator[Diagnostic]:
    """KB210: a route's alternative branches are other declared routes."""
    for record in ctx.system.records:
        if not isinstance(record, Route):
            continue
        origin = ctx.system.origin(record)
        for key in ("reads", "writes"):
            for index, ref in enumerate(getattr(record, key)):
                if _undeclared(ctx, ref):
                    yield error(
                        KB201,
                        f"{record.id} {key} {ref}, which nobody declares",
                        *ctx.at(origin, (key, index)),
                    )
        for index, ref in enumerate(record.alternative_to):
            where = ctx.at(origin, ("alternative_to", index))
            if ref == record.id:
                yield error(KB210, f"{record.id} is an alternative to itself", *where)
            elif ref not in ctx.declared:
                yield error(KB201, f"{record.id} is an alternative to {ref}, which nobody declares", *where)
            elif kind_of(ref) is not None and not has_role(ref, Role.ROUTE):
                yield error(
                    KB210,
                    f"{record.id} is an alternative to {ref}, which is not a route",
                    *where,
                    hint="Alternative branches relate routes; name the route that takes the other branch.",
                )


@check_rule(KB212, KB201, order=55)
def rule_supersession(ctx: Context) -> Iterator[Diagnostic]:
    """KB212, KB201: a record is superseded by other declared records, and no chain of
    supersessions returns to the record it starts from."""
    replacing = {record.id: record.superseded_by for record in ctx.system.records if record.superseded_by}
    for record in ctx.system.records:
        origin = ctx.system.origin(record)
        for index, ref in enumerate(record.superseded_by):
            where = ctx.at(origin, ("superseded_by", index))
            if ref == record.id:
                yield error(KB212, f"{record.id} is superseded by itself", *where)
            elif ref not in ctx.declared:
                yield error(KB201, f"{record.id} is superseded by {ref}, which nobody declares", *where)
            elif _reaches(replacing, ref, record.id):
                yield error(
                    KB212,
                    f"{record.id} is superseded by {ref}, whose supersessions lead back to {record.id} "
                    "(a cycle)",
                    *where,
                    hint="A supersession runs one way: keep it on the record that is replaced.",
                )


def _reaches(edges: dict[str, list[str]], start: str, goal: str) -> bool:
    """Whether following ``edges`` from ``start`` arrives at ``goal`` (each ID visited once)."""
    seen = {start}
    pending = [start]
    while pending:
        current = pending.pop()
        if current == goal:
            return True
        for following in edges.get(current, ()):
            if following not in seen:
                seen.add(following)
                pending.append(following)
    return False


def _undeclared(ctx: Context, ref: str) -> bool:
    return ref not in ctx.declared


def _other_member_declares(members: dict[str, Member], annotation: Annotation) -> bool:
    """In an analysis set, a record declared by another member than the annotation's."""
    member = members.get(annotation.target)
    return member is not None and member is not annotation_member(annotation)


def _record_members(system: SystemRecords) -> dict[str, Member]:
    """Record ID → its member, for a system declaring an analysis set (else empty)."""
    if system.analysis_set is None:
        return {}
    return {record.id: record_member(record) for record in system.records}


@check_rule(KB201, KB209, order=60)
def rule_structured_references(ctx: Context) -> Iterator[Diagnostic]:
    for record in ctx.system.records:
        origin = ctx.system.origin(record)
        for a_index, amendment in enumerate(record.amendments):
            for r_index, ref in enumerate(amendment.affects):
                if _undeclared(ctx, ref):
                    yield error(
                        KB201,
                        f"amendment of {record.id} affects {ref}, which nobody declares",
                        *ctx.at(origin, ("amendments", a_index, "affects", r_index)),
                    )
    members = _record_members(ctx.system)
    for annotation in ctx.system.annotations:
        origin = ctx.system.origin(annotation)
        if _undeclared(ctx, annotation.target):
            yield error(
                KB201,
                f"annotation targets {annotation.target}, which nobody declares",
                *ctx.at(origin, ("target",)),
                hint="Declare it under 'supplied:' with the member that declares it.",
            )
        elif (
            annotation.target not in ctx.supplied
            and annotation.target not in ctx.system.unvalidated_ids
            and not _other_member_declares(members, annotation)
        ):
            # (an unvalidated or unloaded entry may be the 'supplied:' one: don't guess)
            yield error(
                KB209,
                f"annotation targets {annotation.target}, a record declared in this system",
                *ctx.at(origin, ("target",)),
                hint="Annotations are for records declared elsewhere; add the fields to the record itself.",
            )
    run = ctx.system.run
    if run and run.reviewed_boundary and _undeclared(ctx, run.reviewed_boundary.source):
        yield error(
            KB201,
            f"reviewed boundary cites {run.reviewed_boundary.source}, which nobody declares",
            *ctx.at(ctx.system.origin(run), ("reviewed_boundary", "source")),
        )
    for _, origin, contents in ctx.owners:
        for path, block in contents.placements:
            for index, ref in enumerate(block.records):
                if _undeclared(ctx, ref):
                    yield error(
                        KB201,
                        f"placement names {ref}, which nobody declares",
                        *ctx.at(origin, (*path, "records", index)),
                    )
        for path, quote in contents.quotes:
            if quote.source and _undeclared(ctx, quote.source):
                yield error(
                    KB201,
                    f"quotation cites source {quote.source}, which nobody declares",
                    *ctx.at(origin, (*path, "source")),
                )


@check_rule(KB202, KB205, KB409, KB401, KB402, KB403, order=70)
def rule_prose_references(ctx: Context) -> Iterator[Diagnostic]:
    ids = grammar()
    # An ID, a range of IDs and an evidence anchor each name a kind's code: a text naming
    # none (most texts) holds nothing to check here, so it is passed over whole (provided
    # every code evidence cites is a kind's code, as a grammar built from kinds has it).
    may_hold = ids.may_name_a_record if set(ids.source_markers) <= set(ids.id_markers) else None
    for _, origin, contents in ctx.owners:
        for path, text in contents.texts:
            if may_hold is None or may_hold(text):
                yield from _check_text(ctx, origin, path, text)
    for relative, content in sorted(ctx.system.prose.items()):
        display = ctx.system.prose_display.get(relative, relative)
        lines: LineIndex | None = None
        for match in grammar().in_text.finditer(content):
            if ctx.resolve(match.group(0)) is None:
                lines = lines or LineIndex(content)
                line, col = lines.position(match.start())
                yield error(
                    KB202,
                    f"{match.group(0)} in prose resolves to no record",
                    display,
                    line,
                    col,
                )


def _check_text(ctx: Context, origin: Origin | None, path: DataPath, text: str) -> Iterator[Diagnostic]:
    # Cheap guards first: most texts hold no dash range and no anchor.
    anchors = find_anchors(text)
    # The source ID of an anchor is checked as an anchor (KB401), not again as prose.
    anchor_sources = {anchor.source_start for anchor in anchors} if anchors else ()
    # Most texts have no dangling ID: their locator is made on the first one found.
    locate: Callable[[int], tuple[str, int, int]] | None = None
    ids = grammar()
    for match in ids.in_text.finditer(text) if ids.may_name_a_record(text) else ():
        if match.start() in anchor_sources:
            continue
        if ctx.resolve(match.group(0)) is None:
            locate = locate or ctx.text_locator(origin, path)
            yield error(
                KB202,
                f"{match.group(0)} in prose resolves to no record",
                *locate(match.start()),
                hint=DANGLING_HINT,
            )
    ranges = grammar().range_in_text.finditer(text) if "–" in text or "—" in text else ()
    for match in ranges:
        # A range whose every ID is declared cites each of them (the graph expands it);
        # one the KB cannot expand, or that spans an ID nobody declares, hides IDs.
        spanned = range_ids(match.group("first"), match.group("last"))
        missing = [rid for rid in spanned or () if ctx.resolve(rid) != rid]
        if spanned is not None and not missing:
            continue
        shown = (
            f"range {match.group(0)} spans {missing[0]}, which nobody declares; list each ID"
            if missing
            else f"range {match.group(0)} hides the IDs it spans; list each ID"
        )
        yield warning(KB205, shown, *ctx.in_text(origin, path, match.start()))
    for anchor in anchors:
        offset = anchor.source_start if anchor.source not in ctx.sources else anchor.start
        if anchor.lookalike and unsafe_path_reason(anchor.path) is None:
            # A run written under an earlier contract lists it on its pages instead
            # (route_contract.lookalike_findings): its text is published as written.
            if ctx.today_contract:
                yield _lookalike(anchor.source, anchor.path, *ctx.in_text(origin, path, anchor.start))
            continue
        yield from _check_anchor(
            ctx,
            anchor.source,
            anchor.path or None,
            anchor.ranges,
            partial(ctx.in_text, origin, path, offset),
        )


def _lookalike(source: str, path: str, file: str, line: int, col: int) -> Diagnostic:
    return warning(
        KB409,
        f"{source} {path} looks like an evidence anchor but names no file; it is shown as text",
        file,
        line,
        col,
        hint="Cite a file with its extension or line range, a folder with a closing '/', a document "
        "part with a locator ('§3.1', 'Table 2', 'p. 4'), or reword the sentence.",
    )


def _source_ids(system: SystemRecords) -> frozenset[str]:
    return frozenset(system.source_records()) | system.unvalidated_ids


def _check_anchor(
    ctx: Context, source: str, path: str | None, ranges: Any, where: Callable[[], tuple[str, int, int]]
) -> Iterator[Diagnostic]:
    """Check one anchor; ``where`` locates it, computed only when there is a problem."""
    if source not in ctx.sources:
        yield error(
            KB401,
            f"evidence anchor cites {source}, which is not a declared source",
            *where(),
            hint="Declare the source under 'sources:' (or 'supplied:' if another member declares it).",
        )
    reason = unsafe_path_reason(path) if path is not None else None
    if reason:
        yield error(KB402, f"evidence path {path!r} {reason}", *where())
    bad = bad_range_reason(tuple(ranges))
    if bad:
        yield error(KB403, f"evidence anchor {source} {path}: {bad}", *where())


@check_rule(KB401, KB402, KB403, order=80)
def rule_structured_anchors(ctx: Context) -> Iterator[Diagnostic]:
    for _, origin, contents in ctx.owners:
        for path, anchor in contents.anchors:
            yield from _check_anchor(
                ctx, anchor.source, anchor.path, anchor.ranges, partial(ctx.at, origin, path)
            )


@check_rule(KB404, KB402, order=90)
def rule_quotes(ctx: Context) -> Iterator[Diagnostic]:
    for _, origin, contents in ctx.owners:
        for path, quote in contents.quotes:
            if not quote.path:
                if not quote.locator and not ctx.dropped(origin, (*path, "path")):
                    yield error(
                        KB404,
                        "quotation is not attributed to a file path",
                        *ctx.at(origin, path),
                        hint="Add 'path:' with the quoted (or captured) file's relative path, or "
                        "'locator:' with the part of a document ('§3.1', 'p. 4').",
                    )
            else:
                reason = unsafe_path_reason(quote.path)
                if reason:
                    yield error(
                        KB402, f"quotation path {quote.path!r} {reason}", *ctx.at(origin, (*path, "path"))
                    )


@check_rule(KB405, order=100)
def rule_includes(ctx: Context) -> Iterator[Diagnostic]:
    for _, origin, contents in ctx.owners:
        for path, block in contents.includes:
            if block.include not in ctx.system.prose:
                yield error(
                    KB405,
                    f"included prose file {block.include!r} is not in the system folder {ctx.folder}",
                    *ctx.at(origin, (*path, "include")),
                )


@check_rule(KB301, KB302, KB303, KB305, KB308, order=10)
def rule_run(ctx: Context) -> Iterator[Diagnostic]:
    run = ctx.system.run
    if run is None and ctx.system.run_declared:
        return
    if run is None:
        first = next(iter(ctx.files.values()), None)
        yield error(
            KB305,
            f"system {ctx.system.slug!r} declares no run",
            first.display if first else ctx.folder,
            hint="Add a 'run:' mapping with at least 'system:'.",
        )
        return
    origin = ctx.system.origin(run)
    has_result = ctx.system.result is not None or ctx.system.overview is not None
    if has_result and run.disposition is not None and run.disposition.value == "complete":
        for name in (
            "run_id",
            "run_date",
            "target_class",
            "boundary_kind",
            "reviewed_boundary",
            "analysis_cutoff",
            "evidence_tier",
        ):
            if getattr(run, name) is None and not ctx.dropped(origin, (name,)):
                yield error(
                    KB301,
                    f"a complete result may not leave {name!r} null",
                    *ctx.at(origin),
                    hint="State the value, or change the disposition.",
                )
    if run.run_id:
        match = RUN_ID.match(run.run_id)
        if match:
            if run.run_date and match.group("date") != run.run_date.isoformat():
                yield error(
                    KB302,
                    f"run ID date {match.group('date')} differs from run_date {run.run_date.isoformat()}",
                    *ctx.at(origin, ("run_id",)),
                )
            if match.group("slug") != ctx.system.slug:
                yield error(
                    KB303,
                    f"run ID names system {match.group('slug')!r} but the folder is {ctx.system.slug!r}",
                    *ctx.at(origin, ("run_id",)),
                )
    folder = printable(ctx.system.run_folder)
    if ctx.system.run_folder and run.run_id != ctx.system.run_folder:
        yield error(
            KB308,
            f"the run folder is runs/{folder}/ but its run ID is {run.run_id!r}"
            if run.run_id
            else f"the run in runs/{folder}/ states no run ID",
            *ctx.at(origin, ("run_id",) if run.run_id else ()),
            hint="Name each further run's folder by its run ID: runs/<run-id>/.",
        )


@check_rule(KB304, order=120)
def rule_route_fields(ctx: Context) -> Iterator[Diagnostic]:
    # A run written under an earlier route contract that did not have this rule is not
    # held to it: what it would flag is listed on the run's pages (contract_findings).
    if not run_contract(ctx.system).has_rule(KB304.code):
        return
    for gap in route_field_gaps(ctx.system):
        origin = ctx.system.origin(gap.route)
        if ctx.dropped(origin, ("fields", gap.field)):
            continue
        if gap.reasonless and gap.value is not None:
            yield error(
                KB304,
                f"route {gap.route.id} states {gap.label!r} as {gap.value.split()[0]} without a reason",
                *ctx.at(origin, ("fields", gap.field)),
                hint="Write 'uninspected — reason' or 'inapplicable — reason' with the reason.",
            )
        else:
            yield error(
                KB304,
                f"route {gap.route.id} lacks the labelled field {gap.label!r}",
                *ctx.at(origin, ("fields", gap.field) if gap.value is not None else ("fields",)),
                hint="Every labelled field is non-empty; write 'inapplicable — reason' or "
                "'uninspected — reason' where it does not apply.",
            )


@check_rule(KB206, order=130)
def rule_placements(ctx: Context) -> Iterator[Diagnostic]:
    for page in (
        ctx.system.result,
        ctx.system.memory_report,
        ctx.system.runtime_report,
        ctx.system.epistemic_report,
    ):
        if page is None:
            continue
        origin = ctx.system.origin(page)
        placed: set[str] = set()
        for section in shared_kind_titles():
            kind = list_kinds()[section]
            for path, block in collect(getattr(page.shared_records, section)).placements:
                for index, ref in enumerate(block.records):
                    where = ctx.at(origin, ("shared_records", section, *path, "records", index))
                    ref_kind = kind_of(ref)
                    if ref_kind is not None and ref_kind != kind and ref in ctx.declared:
                        yield error(
                            KB206,
                            f"{ref} is not a {kind_names()[kind][0]} but is placed under {section}",
                            *where,
                        )
                    if ref in placed:
                        yield warning(KB206, f"{ref} is placed twice on this page", *where)
                    placed.add(ref)


def build_context(system: SystemRecords, source: SystemSource) -> Context:
    """The shared view the rules (and the git check) work from, computed once."""
    return Context(
        system=system,
        files={file.display: file for file in source.files},
        declared=frozenset(
            {r.id for r in system.records} | {s.id for s in system.supplied} | system.unvalidated_ids
        ),
        supplied=frozenset(s.id for s in system.supplied),
        sources=_source_ids(system),
        owners=[(owner, origin, system.contents(owner)) for owner, origin in _owners(system)],
        folder=source.display,
        manifest=source.manifest,
    )
