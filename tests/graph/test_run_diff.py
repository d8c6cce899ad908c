"""``diff_runs``: two made-up runs of one system (a copy of a clean fixture, changed), the
JSON and its schema, word diffs that stay linear on hostile text, and the two real
oh-my-pi runs (skipped when ``../shared/reference`` is absent)."""

from __future__ import annotations

import copy as copy_module
import difflib
import json
from pathlib import Path

import jsonschema
import pytest
from run_diff_support import REPO_ROOT, checked, edit, record, rename_id, run_copy

from generator.graph import word_diff as word_diff_module
from generator.graph.record_match import label_overlap, normalised, possibly_different
from generator.graph.run_diff import RunDiff, diff_runs
from generator.graph.word_diff import MAX_TOKENS, WORK_PER_TOKEN, WordOp, elided, word_diff
from generator.model.system import SystemRecords
from generator.outputs.run_diff_output import as_json, as_text, diff_schema_text, json_text
from generator.pipeline import check_records

SCHEMA = REPO_ROOT / "schemas" / "diff.schema.json"


def _pair(tmp_path: Path) -> tuple[Path, Path]:
    return run_copy(tmp_path, "old"), run_copy(tmp_path, "new")


def _diff(old: Path, new: Path) -> RunDiff:
    return diff_runs(checked(old), checked(new))


def _validate(diff: RunDiff) -> None:
    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator.check_schema(schema)
    jsonschema.Draft202012Validator(schema).validate(as_json(diff))


def test_an_unchanged_run_gives_an_empty_diff(tmp_path: Path) -> None:
    old, new = _pair(tmp_path)
    diff = _diff(old, new)
    assert diff.is_empty
    counts = diff.counts
    assert (counts.added, counts.removed, counts.changed, counts.renumbered) == (0, 0, 0, 0)
    assert counts.unchanged == len(checked(old).records) == 13
    assert not (diff.run or diff.limitations or diff.annotations or diff.supplied or diff.profile)
    assert diff.documents == ()
    assert "No changes." in as_text(diff)
    _validate(diff)


def test_a_status_move_per_field(tmp_path: Path) -> None:
    old, new = _pair(tmp_path)

    def move(data: dict) -> None:
        statuses = record(data, "routes", "RTE-1")["statuses"]
        statuses["operation conclusion status"] = "observed, in one recorded run"
        del statuses["implementation conclusion status"]
        statuses["delivery conclusion status"] = "wired"

    edit(new, "routes.yaml", move)
    edit(new, "findings.yaml", lambda d: record(d, "claims", "CLM-1").update(conclusion_status="afforded"))
    edit(new, "components.yaml", lambda d: d["components"][0].update(architectural_status="doctrine only"))
    diff = _diff(old, new)
    assert diff.counts.changed == 3 and diff.counts.possible_different_referents == 0
    by_id = {change.new.id: change for change in diff.changed}
    moves = {(m.title, m.old, m.new) for m in by_id["RTE-1"].statuses}
    assert moves == {
        ("implementation conclusion status", "wired", None),
        ("operation conclusion status", "uninspected", "observed, in one recorded run"),
        ("delivery conclusion status", None, "wired"),
    }
    assert [(m.title, m.old, m.new) for m in by_id["CLM-1"].statuses] == [
        ("claim conclusion status", "claimed", "afforded")
    ]
    assert [(m.title, m.old, m.new) for m in by_id["CMP-1"].statuses] == [
        ("architectural status", "implemented", "doctrine only")
    ]
    # Statuses are compared on their own, never again as fields.
    assert not any(change.fields for change in diff.changed)
    _validate(diff)


def test_guarantee_changes(tmp_path: Path) -> None:
    old, new = _pair(tmp_path)

    def change(data: dict) -> None:
        route = record(data, "routes", "RTE-1")
        route["guarantee"] = [
            {"strength": "policy", "scope": "delivery", "status": "wired"},  # was best effort
            {"strength": "invariant", "scope": "ordering"},  # new; the unscoped protocol is gone
            {"strength": "protocol", "scope": "retry"},
        ]

    edit(new, "routes.yaml", change)
    (route,) = _diff(old, new).changed
    found = [(g.change, g.old, g.new) for g in route.guarantees]
    assert found == [
        ("changed", "best effort — delivery", "policy — delivery (wired)"),
        ("removed", "protocol", None),
        ("added", None, "invariant — ordering"),
        ("added", None, "protocol — retry"),
    ]
    moved = route.guarantees[0].fields.values
    assert {(v.field, v.old, v.new) for v in moved} == {
        ("strength", "best effort", "policy"),
        ("status", None, "wired"),
    }


def test_the_only_guarantee_on_each_side_pairs_whatever_its_scope(tmp_path: Path) -> None:
    old, new = _pair(tmp_path)
    edit(
        new, "routes.yaml", lambda d: record(d, "routes", "RTE-1").update(guarantee=[{"strength": "policy"}])
    )
    edit(
        old,
        "routes.yaml",
        lambda d: record(d, "routes", "RTE-1").update(guarantee=[{"strength": "protocol", "scope": "a"}]),
    )
    (route,) = _diff(old, new).changed
    assert [(g.change, g.old, g.new) for g in route.guarantees] == [("changed", "protocol — a", "policy")]


def test_evidence_anchors_added_and_removed_by_their_text(tmp_path: Path) -> None:
    old, new = _pair(tmp_path)

    def change(data: dict) -> None:
        route = record(data, "routes", "RTE-1")
        # Written as a mapping, the same anchor as 'SRC-1 src/agent/loop.py:10-20': no change.
        route["evidence"] = [
            {"source": "SRC-1", "path": "src/agent/loop.py", "lines": [[10, 20]]},
            "SRC-1 src/agent/history.py:5-9",
            "SRC-2 docs/loop.md:3-4",
        ]

    edit(new, "routes.yaml", change)
    (route,) = _diff(old, new).changed
    assert route.evidence_added == ("SRC-1 src/agent/history.py:5-9", "SRC-2 docs/loop.md:3-4")
    assert route.evidence_removed == ("SRC-2 docs/loop.md:3",)
    assert "      evidence + SRC-2 docs/loop.md:3-4" in as_text(_diff(old, new)).split("\n")


def test_renumbered_ids_are_paired_by_content(tmp_path: Path) -> None:
    old, new = _pair(tmp_path)
    rename_id(new, "RTE-2", "RTE-7")
    rename_id(new, "CMP-1", "CMP-4")
    edit(
        new, "components.yaml", lambda d: d["components"][0].update(label="AGENT   loop!")
    )  # normalised: same
    edit(
        new,
        "routes.yaml",
        lambda d: record(d, "routes", "RTE-7")["statuses"].update(
            {"implementation conclusion status": "wired"}
        ),
    )
    diff = _diff(old, new)
    assert [(c.old.id, c.new.id) for c in diff.renumbered] == [("CMP-1", "CMP-4"), ("RTE-2", "RTE-7")]
    assert (diff.counts.renumbered, diff.counts.added, diff.counts.removed) == (2, 0, 0)
    assert all(pair.confidence >= 0.9 and "label 100% similar" in pair.why for pair in diff.renumbered)
    by_id = {change.new.id: change for change in diff.changed}
    route, component = by_id["RTE-7"], by_id["CMP-4"]
    assert [(m.old, m.new) for m in route.statuses] == [("afforded", "wired")]
    assert [(m.old_record.id, m.new_record.id, m.old, m.new) for m in diff.conclusions] == [
        ("RTE-2", "RTE-7", "afforded", "wired")
    ]
    # The spelling of the label moved, not the referent; its own text names its new ID,
    # which follows the renumbering and is no change.
    assert [t.field for t in component.fields.texts] == ["label"]
    assert not component.possible_different_referent
    # The records that name them are read as renumbered: they did not change; no record
    # was added or removed.
    assert {c.new.id for c in diff.changed} == {"CMP-4", "RTE-7"}
    _validate(diff)


def test_records_sharing_a_label_are_told_apart_by_what_they_are(tmp_path: Path) -> None:
    """The old pairing by (kind, label) matched neither of two records sharing a label;
    their cited files and text pair each with its own counterpart."""
    old, new = _pair(tmp_path)
    for folder in (old, new):
        edit(folder, "objects.yaml", lambda d: [r.update(label="Same") for r in d["objects"]])
    rename_id(new, "OBJ-1", "OBJ-8")
    rename_id(new, "OBJ-2", "OBJ-9")
    diff = _diff(old, new)
    assert [(r.old.id, r.new.id) for r in diff.renumbered] == [("OBJ-1", "OBJ-8"), ("OBJ-2", "OBJ-9")]
    assert diff.added == () and diff.removed == ()


def test_a_relabelled_record_of_the_same_content_is_one_record(tmp_path: Path) -> None:
    """A new label on the same files and text is the same record relabelled: paired
    surely, not flagged; a pair with little else in common is flagged when its labels
    share few words."""
    old, new = _pair(tmp_path)
    edit(new, "components.yaml", lambda d: d["components"][0].update(label="Sandbox policy engine"))
    edit(new, "objects.yaml", lambda d: d["objects"][0].update(label="Conversation histories kept per turn"))
    diff = _diff(old, new)
    by_id = {change.new.id: change for change in diff.changed}
    relabelled = by_id["CMP-1"]
    assert not relabelled.possible_different_referent and relabelled.basis.confidence >= 0.6
    assert (relabelled.old.label, relabelled.new.label) == ("Agent loop", "Sandbox policy engine")
    assert [t.field for t in relabelled.fields.texts] == ["label"]
    assert not by_id["OBJ-1"].possible_different_referent
    assert diff.counts.possible_different_referents == 0
    # A weak pair whose labels share no word is flagged; a sure one or one of like labels is not.
    assert possibly_different("Agent loop", "Sandbox policy engine", 0.4) == 0.0
    assert possibly_different("Agent loop", "Sandbox policy engine", 0.9) is None
    assert possibly_different("Conversation history", "Conversation histories kept per turn", 0.4) is None


def test_a_renamed_status_field_and_a_file_under_another_source_id(tmp_path: Path) -> None:
    """A status field renamed keeps its value and is shown renamed; a file cited under
    another source of the same location and revision is moved, not removed and added."""
    old, new = _pair(tmp_path)

    def sources(data: dict) -> None:
        copy = copy_module.deepcopy(data["sources"][0])  # no YAML alias to the first one
        copy.update(id="SRC-3", identity="https://github.com/example/demo")
        data["sources"].append(copy)

    def routes(data: dict) -> None:
        route = record(data, "routes", "RTE-1")
        statuses = route["statuses"]
        statuses["implementation status"] = statuses.pop("implementation conclusion status")
        statuses["operational conclusion status"] = statuses.pop("operation conclusion status")
        statuses["operational conclusion status"] = "observed"
        route["evidence"] = ["SRC-3 src/agent/loop.py:10-20", "SRC-2 docs/loop.md:3"]

    edit(new, "sources.yaml", sources)
    edit(new, "routes.yaml", routes)
    diff = _diff(old, new)
    route = next(change for change in diff.changed if change.new.id == "RTE-1")
    moves = [(m.renamed_from, m.title, m.old, m.new) for m in route.statuses]
    assert moves == [
        ("implementation conclusion status", "implementation status", "wired", "wired"),
        ("operation conclusion status", "operational conclusion status", "uninspected", "observed"),
    ]
    assert [(m.old, m.new) for m in route.evidence_moved] == [
        ("SRC-1 src/agent/loop.py:10-20", "SRC-3 src/agent/loop.py:10-20")
    ]
    assert route.evidence_added == () and route.evidence_removed == ()
    # Only a value that moved is a conclusion that moved.
    assert [(m.renamed_from, m.field, m.old, m.new) for m in diff.conclusions] == [
        ("operation conclusion status", "operational conclusion status", "uninspected", "observed")
    ]
    text = as_text(diff)
    assert "      operation conclusion status → operational conclusion status: uninspected → observed" in text
    assert "evidence ~ SRC-1 src/agent/loop.py:10-20 → SRC-3 src/agent/loop.py:10-20" in text
    _validate(diff)


def test_label_overlap_and_normalisation() -> None:
    assert normalised("  Prompt → Answer,  (v2) ") == "prompt answer v2"
    assert label_overlap("Advisor note and severity", "Advisor note plus severity levels") == 1.0
    assert label_overlap("Agent loop", "Tool registry") == 0.0
    assert label_overlap("→", "Agent loop") is None  # no words: nothing to compare


def test_text_fields_get_a_word_diff(tmp_path: Path) -> None:
    old, new = _pair(tmp_path)

    def change(data: dict) -> None:
        route = record(data, "routes", "RTE-1")
        route["fields"]["later_read_back"] = "OBJ-1 is replayed on every later turn."
        route["progression"] = "user prompt → CMP-1 → model → OBJ-1"  # unchanged
        route["reads"] = ["OBJ-1"]

    edit(new, "routes.yaml", change)
    edit(
        new,
        "components.yaml",
        lambda d: d["components"][0].update(remarks=d["components"][0]["remarks"] + "  "),
    )
    diff = _diff(old, new)
    by_id = {change.new.id: change for change in diff.changed}
    (text,) = by_id["RTE-1"].fields.texts
    assert (text.field, text.title) == ("fields.later_read_back", "Later read-back")
    assert [(op.op, op.text) for op in text.ops] == [
        ("equal", "OBJ-1 is replayed on"),
        ("delete", "the next"),
        ("insert", "every later"),
        ("equal", "turn."),
    ]
    assert [(c.field, c.added, c.removed) for c in by_id["RTE-1"].fields.lists] == [("reads", ("OBJ-1",), ())]
    # Trailing spaces are no change of the words: shown as spacing only.
    (remarks,) = by_id["CMP-1"].fields.texts
    assert all(op.op == "equal" for op in remarks.ops)
    assert "Remarks: (spacing only)" in as_text(diff)


def test_limitations_annotations_and_supplied_by_key(tmp_path: Path) -> None:
    old, new = _pair(tmp_path)

    def change(data: dict) -> None:
        data["limitations"][0]["prevents"] = "Observed operation and its timing"
        data["limitations"].append({"title": "No eviction traced", "affected": "ABS-1"})

    edit(new, "findings.yaml", change)

    def memory(data: dict) -> None:
        data["annotations"][0]["remarks"] = "Supplements the supplied route."
        data["supplied"][0]["label"] = "Context resolver"

    edit(new, "memory.yaml", memory)
    diff = _diff(old, new)
    assert diff.limitations.added == ("No eviction traced",)
    ((limitation),) = diff.limitations.changed
    assert limitation.key == "No runtime evidence" and [t.field for t in limitation.fields.texts] == [
        "prevents"
    ]
    assert [item.key for item in diff.annotations.changed] == ["On RT-RTE-context-resolve"]
    assert [item.key for item in diff.supplied.changed] == ["RT-RTE-context-resolve"]
    _validate(diff)


def test_run_fields_that_differ(tmp_path: Path) -> None:
    old, new = _pair(tmp_path)

    def change(data: dict) -> None:
        run = data["run"]
        run["evidence_tier"] = "doc-grounded"
        run["reviewed_boundary"]["revision"] = "fedcba9876543210fedcba9876543210fedcba98"

    edit(new, "run.yaml", change)
    diff = _diff(old, new)
    moved = {(v.field, v.old, v.new) for v in diff.run.values}
    assert ("evidence_tier", "code-grounded", "doc-grounded") in moved
    assert any(
        field == "reviewed_boundary" and new_value and "fedcba98" in new_value
        for field, _, new_value in moved
    )
    assert diff.counts.changed == 0 and not diff.is_empty


def test_profile_changes_per_axis(tmp_path: Path) -> None:
    old, new = _pair(tmp_path)

    def change(data: dict) -> None:
        axes = data["memory_comparison"]["axes"]
        storage = axes["storage_substrate"]
        storage["values"] = ["files"]
        del storage["evidence"]["in-memory"]
        storage["evidence"]["files"]["basis"] = "observed"
        axes["lineage"]["assessment"] = "known"
        axes["lineage"]["note"] = "The notes come from run output."
        axes["read_back_signal"]["values"] = ["coarse", "identifier"]
        axes["read_back_signal"]["evidence"]["identifier"] = {
            "basis": "afforded",
            "records": ["MEM-RTE-knowledge"],
            "note": "Rows are looked up by key.",
        }

    def extra_axis(data: dict) -> None:
        data["memory_comparison"]["axes"]["learning_timing"] = {
            "assessment": "known",
            "values": ["online"],
            "evidence": {"online": {"basis": "wired", "records": ["MEM-RTE-knowledge"], "note": "Each run."}},
            "records": ["MEM-RTE-knowledge"],
            "note": "Notes are written as the loop runs.",
        }

    edit(new, "profile.yaml", change)
    edit(old, "profile.yaml", extra_axis)  # an extra axis only the old run has
    diff = _diff(old, new)
    axes = {axis.axis: axis for axis in diff.profile.axes}
    assert list(axes) == ["storage_substrate", "lineage", "read_back_signal", "learning_timing"]
    storage = axes["storage_substrate"]
    assert storage.values_removed == ("in-memory",) and storage.assessment is None
    # A removed value's basis goes with it: only a value both runs find has a basis that moves.
    assert {(m.title, m.old, m.new) for m in storage.basis} == {
        ("Storage substrate: basis of files", "wired", "observed"),
    }
    lineage = axes["lineage"]
    assert (lineage.assessment.old, lineage.assessment.new) == ("partial", "known")
    assert lineage.note is not None
    assert axes["read_back_signal"].values_added == ("identifier",)
    removed = axes["learning_timing"]
    assert removed.change == "removed" and removed.values_removed == ("online",)
    assert (removed.assessment.old, removed.assessment.new) == ("known", None)
    _validate(diff)


def test_a_profile_only_the_new_run_has(tmp_path: Path) -> None:
    old, new = _pair(tmp_path)
    (old / "profile.yaml").unlink()
    diff = diff_runs(checked(old), checked(new))
    assert (diff.profile.old_present, diff.profile.new_present) == (False, True)
    assert len(diff.profile.axes) == 10 and {a.change for a in diff.profile.axes} == {"added"}
    assert "  + a profile (the old run has none)" in as_text(diff).split("\n")


def test_documents_and_prose_files_by_section(tmp_path: Path) -> None:
    old, new = _pair(tmp_path)
    edit(new, "result.yaml", lambda d: d["result"]["runtime_account"]["blocks"].append("One more paragraph."))
    notes = next((new / "notes").glob("*.md"))
    notes.write_text(notes.read_text(encoding="utf-8") + "\nMore.\n", encoding="utf-8")
    diff = _diff(old, new)
    found = {(d.document, d.change, d.sections) for d in diff.documents}
    assert ("result", "changed", ("Runtime account",)) in found
    assert (f"notes/{notes.name}", "changed", ()) in found


def test_the_diff_is_deterministic(tmp_path: Path) -> None:
    old, new = _pair(tmp_path)
    rename_id(new, "RTE-2", "RTE-7")
    edit(new, "components.yaml", lambda d: d["components"][0].update(label="Sandbox policy engine"))
    first, second = _diff(old, new), _diff(old, new)
    assert first == second
    assert json_text(first) == json_text(second) and as_text(first) == as_text(second)


def test_the_committed_schema_matches_the_dataclasses() -> None:
    assert SCHEMA.read_text(encoding="utf-8") == diff_schema_text(), (
        "run 'kbgen diff --schema --out schemas/diff.schema.json'"
    )


# ---------------------------------------------------------------- word diffs on hostile text


def _spied(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The cost of every search the matcher runs (as it reckons it before running it)."""
    costs: list[int] = []
    original = difflib.SequenceMatcher.find_longest_match

    def spy(self, alo=0, ahi=None, blo=0, bhi=None):  # type: ignore[no-untyped-def]
        end = len(self.a) if ahi is None else ahi
        costs.append(self._cost_before[end] - self._cost_before[alo] + 1)
        return original(self, alo, ahi, blo, bhi)

    monkeypatch.setattr(difflib.SequenceMatcher, "find_longest_match", spy)
    return costs


def test_a_cyclic_text_built_to_defeat_the_matcher_stays_within_its_budget(monkeypatch) -> None:
    # Plain SequenceMatcher takes seconds on this (tens of seconds at 20,000 words).
    words = 10_000
    cycle = words // 100 - 1  # just below the matcher's 'popular' threshold
    old = " ".join(f"w{i % cycle}" for i in range(words))
    new = " ".join(f"w{(i * 7) % cycle}" for i in range(words))
    costs = _spied(monkeypatch)
    diff = word_diff("start " + old + " end", "begin " + new + " finish")
    assert diff.whole  # the budget ran out: shown replaced whole
    assert costs and sum(costs) <= WORK_PER_TOKEN * 2 * words  # the refused search never ran
    assert [op.op for op in diff.ops] == ["delete", "insert"]


def test_a_field_over_the_token_cap_is_compared_whole_without_the_matcher(monkeypatch) -> None:
    costs = _spied(monkeypatch)
    huge = " ".join(f"w{i}" for i in range(MAX_TOKENS + 1))
    diff = word_diff("a " + huge + " z", "b " + huge[::-1] + " y")
    assert diff.whole and costs == []
    # A long shared head and tail are taken off first: only the middle counts.
    small = word_diff("x " + huge + " y", "x " + huge + " changed y")
    assert not small.whole and [op.op for op in small.ops] == ["equal", "insert", "equal"]


def test_huge_hostile_fields_are_compared_within_the_bounds(tmp_path: Path, monkeypatch) -> None:
    """Two runs whose record bodies are a cycle of words built against the matcher (within
    the token cap) and half a megabyte of words (over it): the diff is made, the bodies
    shown replaced whole, and no search ran past its field's budget."""
    old, new = _pair(tmp_path)
    cycle = "start " + " ".join(f"w{i % 99}" for i in range(10_000)) + " end"
    shuffled = "begin " + " ".join(f"w{(i * 7) % 99}" for i in range(10_000)) + " finish"
    flood = "word " * 100_000
    for folder, body, other in ((old, cycle, flood), (new, shuffled, flood + "more")):
        edit(folder, "routes.yaml", lambda d, body=body: record(d, "routes", "RTE-2").update(body=body))
        edit(folder, "objects.yaml", lambda d, other=other: d["objects"][0].update(body="x " + other))
    costs = _spied(monkeypatch)
    diff = _diff(old, new)
    bodies = {change.new.id: change.fields.texts[0] for change in diff.changed}
    assert bodies["RTE-2"].whole
    assert [op.op for op in bodies["OBJ-1"].ops] == ["equal", "insert"]  # the shared head is taken off
    assert sum(costs) <= WORK_PER_TOKEN * 2 * 10_000


def test_the_budget_leaves_out_the_words_the_matcher_calls_popular() -> None:
    """The budget's own reckoning of popular words is the matcher's (its ``bpopular``)."""
    for words in (150, 199, 200, 1_000, 5_000):
        text = [f"w{(i * 31) % (words // 40 + 1)}" for i in range(words)]
        matcher = word_diff_module._BudgetedMatcher(text, text, 1)
        costs = matcher._cost_before
        unweighted = {word for i, word in enumerate(text) if costs[i + 1] == costs[i]}
        assert unweighted == matcher.bpopular, words


def test_elided_keeps_context_beside_each_change() -> None:
    ops = (
        WordOp("equal", " ".join(f"a{i}" for i in range(30))),
        WordOp("delete", "x"),
        WordOp("equal", " ".join(f"b{i}" for i in range(30))),
    )
    shown = [op.text for op in elided(ops, 3)]
    assert shown == ["… a27 a28 a29", "x", "b0 b1 b2 …"]


def test_the_module_docstring_names_its_bounds() -> None:
    doc = word_diff_module.__doc__ or ""
    assert "MAX_TOKENS" in doc and "WORK_PER_TOKEN" in doc


# ---------------------------------------------------------------- the two real oh-my-pi runs


@pytest.fixture(scope="module")
def oh_my_pi_runs() -> tuple[SystemRecords, SystemRecords]:
    """The seed's run and the -01 run shipped beside it (records/oh-my-pi/runs/)."""
    systems = check_records(REPO_ROOT / "records" / "oh-my-pi")
    assert [s.errors for s in systems] == [[], []]
    seed, imported = (s.records for s in systems)
    return seed, imported


def test_the_two_real_oh_my_pi_runs(oh_my_pi_runs: tuple[SystemRecords, SystemRecords]) -> None:
    seed, imported = oh_my_pi_runs
    diff = diff_runs(seed, imported)
    assert not diff.is_empty
    assert (diff.old_run_id, diff.new_run_id) == ("AAS-2026-09-05-oh-my-pi-02", "AAS-2026-09-26-oh-my-pi-01")
    counts = diff.counts
    assert counts.added and counts.removed and counts.changed
    # The runs number their records independently: pairing by content renumbers many of
    # them, and few pairs are weak enough to be flagged (by ID first, 38 of 44 were).
    assert counts.renumbered >= 20
    assert counts.possible_different_referents <= counts.changed // 4
    assert diff.profile.new_present and not diff.profile.old_present
    again = diff_runs(seed, imported)
    assert json_text(again) == json_text(diff)
    _validate(diff)


def test_a_status_is_compared_as_written_with_its_qualifier() -> None:
    """A status's qualifier keeps the separator the record wrote ('claimed; default off'),
    so the diff neither shows a rewording nor hides a change of the qualifier."""
    from generator.graph.record_diff import statuses_of

    case = REPO_ROOT / "tests" / "fixtures" / "check" / "clean-statuses-semicolon-qualifier"
    (checked_system,) = check_records(case / "records", case)
    found = {record.id: statuses_of(record) for record in checked_system.records.records}
    assert found["CLM-1"] == {"claim conclusion status": "claimed; default off"}
    assert found["RTE-1"]["implementation conclusion status"] == "wired; default off"


def test_a_record_whose_labels_alone_differ_between_runs_has_not_changed() -> None:
    """How a document worded a field's label is not what it found (a run's changes page)."""
    from generator.graph.record_diff import diff_record
    from generator.graph.record_match import Basis
    from generator.model.records import Component

    basis = Basis(1.0, True, (), 1.0, 1.0, 0, ())
    old = Component(id="CMP-1", form="Markdown files", labels={"form": "Form"})
    new = Component(id="CMP-1", form="Markdown files", labels={"form": "Representational form"})
    assert not diff_record(old, new, basis).fields
    changed = Component(id="CMP-1", form="JSON files", labels={"form": "Representational form"})
    assert [text.field for text in diff_record(old, changed, basis).fields.texts] == ["form"]


def test_a_section_whose_table_headers_alone_differ_between_runs_has_not_changed() -> None:
    """A table's header words, like a field's label, are the document's wording."""
    from generator.graph.run_diff import _document
    from generator.model.prose import Result

    required = ("run_identity", "boundary_and_evidence", "runtime_account", "lens_scoping")
    required += ("lens_outputs", "reconciliation", "bounded_synthesis", "verification")
    base = {"title": "Tiny", "type": "result", **{key: {} for key in required}}
    headers = ["limitation", "affected IDs", "inspected boundary", "conclusion prevented", "evidence"]
    old = Result.model_validate(base)
    assert (
        _document("result", old, Result.model_validate({**base, "limitations": {"headers": headers}})) is None
    )
    moved = Result.model_validate({**base, "limitations": {"headers": headers, "blocks": ["None known."]}})
    changed = _document("result", old, moved)
    assert changed is not None and changed.sections == ("Limitations",)
