"""Hostile corpus: analysis sets whose members contradict one another.

Each case starts from the clean set fixture (``tests/fixtures/check/clean-set``),
changes one member file the way a contributor might to make a set look more complete
or more consistent than it is, and asserts the rule code, file, line and column.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from hostile_support import located

CLEAN_SET = Path(__file__).resolve().parents[1] / "fixtures" / "check" / "clean-set" / "records" / "demo"


def plant(root: Path, file: str, old: str, new: str) -> None:
    """Copy the clean set to ``root/records/demo`` and replace ``old`` by ``new`` in ``file``."""
    system = root / "records" / "demo"
    shutil.copytree(CLEAN_SET, system)
    target = system / file
    text = target.read_text(encoding="utf-8")
    assert old in text, f"{old!r} not in {file}"
    target.write_text(text.replace(old, new, 1), encoding="utf-8")


EPI_HEAD = "  - id: EPI-OBJ-1\n    label: Stored note\n"
BOUNDARY = '  reviewed_boundary: "0123456789abcdef"\n'
AFFECTS = "      affects: [MEM-RTE-1]\n"
FIRST_BLOCK = "      - The members share SRC-1; MEM-RTE-1 retains what RTE-1 writes.\n"

CASES = {
    "test_member_claims_another_run": (
        "memory.yaml",
        "  run_id: AAS-2024-05-01-demo-01\n",
        "  run_id: AAS-2024-05-01-demo-07\n",
        ("KB801", "records/demo/memory.yaml", 5, 11),
    ),
    "test_member_claims_another_boundary": (
        "epistemic.yaml",
        BOUNDARY,
        '  reviewed_boundary: "fedcba9876543210"\n',
        ("KB801", "records/demo/epistemic.yaml", 6, 22),
    ),
    "test_set_claims_another_run_than_the_run": (
        "set.yaml",
        "analysis_set:\n  run_id: AAS-2024-05-01-demo-01\n",
        "analysis_set:\n  run_id: AAS-2024-05-01-demo-02\n",
        ("KB801", "records/demo/set.yaml", 16, 11),
    ),
    "test_blocked_outcome_keeps_its_members": (
        "set.yaml",
        "  disposition: complete\n",
        "  disposition: blocked\n",
        ("KB802", "records/demo/set.yaml", 21, 15),
    ),
    "test_complete_outcome_drops_a_member": (
        "set.yaml",
        "    - member: epistemic\n      type: agentic-systems/types/agentic-system-epistemic-report.md\n",
        "",
        ("KB802", "records/demo/set.yaml", 19, 5),
    ),
    "test_member_lists_itself_twice": (
        "set.yaml",
        "    - member: epistemic\n",
        "    - member: memory\n      type: agentic-systems/types/agent-memory-analysis-report.md\n"
        "    - member: epistemic\n",
        ("KB803", "records/demo/set.yaml", 25, 15),
    ),
    "test_member_document_wears_another_type": (
        "reconciliation.yaml",
        "  type: agentic-systems/types/agentic-system-reconciliation-report.md\n",
        "  type: agentic-systems/types/agentic-system-analysis-overview.md\n",
        ("KB803", "records/demo/reconciliation.yaml", 3, 9),
    ),
    "test_record_declared_by_the_reconciliation": (
        "runtime.yaml",
        "  - id: RTE-1\n",
        "  - id: RTE-1\n    member: reconciliation\n",
        ("KB804", "records/demo/runtime.yaml", 24, 13),
    ),
    "test_prefix_disowned_by_member_field": (
        "epistemic.yaml",
        EPI_HEAD,
        EPI_HEAD + "    member: runtime\n",
        ("KB804", "records/demo/epistemic.yaml", 43, 13),
    ),
    "test_supplied_stand_in_hides_a_missing_declaration": (
        "memory.yaml",
        "annotations:\n",
        "supplied:\n  - id: EPI-RTE-missing\n    declared_in: epistemic member\nannotations:\n",
        ("KB805", "records/demo/memory.yaml", 34, 9),
    ),
    "test_member_redeclares_another_members_id": (
        "epistemic.yaml",
        EPI_HEAD,
        EPI_HEAD + "  - id: OBJ-1\n    member: epistemic\n    label: Another note file\n",
        ("KB806", "records/demo/runtime.yaml", 19, 9),
    ),
    "test_ledger_invents_a_route_function": (
        "epistemic.yaml",
        "        route_function: retention\n",
        "        route_function: trusted storage\n",
        ("KB104", "records/demo/epistemic.yaml", 18, 25),
    ),
    "test_ledger_uses_a_conclusion_status_as_architectural_status": (
        "epistemic.yaml",
        "        architectural_status: implemented\n",
        "        architectural_status: wired\n",
        ("KB104", "records/demo/epistemic.yaml", 19, 31),
    ),
    "test_ledger_invents_a_content_relation": (
        "epistemic.yaml",
        "        content_relation: no content change\n",
        "        content_relation: verified knowledge\n",
        ("KB104", "records/demo/epistemic.yaml", 21, 27),
    ),
    "test_ledger_traces_an_undeclared_route": (
        "epistemic.yaml",
        "      - routes: [RTE-1]\n",
        "      - routes: [RTE-1, RTE-99]\n",
        ("KB201", "records/demo/epistemic.yaml", 17, 25),
    ),
    "test_amendment_targets_an_undeclared_record": (
        "reconciliation.yaml",
        "    - targets: [RTE-2]\n",
        "    - targets: [RTE-20]\n",
        ("KB201", "records/demo/reconciliation.yaml", 11, 17),
    ),
    "test_amendment_names_no_record": (
        "reconciliation.yaml",
        "    - targets: [RTE-2]\n",
        "    - targets: []\n",
        ("KB101", "records/demo/reconciliation.yaml", 11, 16),
    ),
    "test_amendment_hides_an_undeclared_record_behind_a_declared_one": (
        "reconciliation.yaml",
        "    - targets: [RTE-2]\n",
        "    - targets: [RTE-2, RTE-21]\n",
        ("KB201", "records/demo/reconciliation.yaml", 11, 24),
    ),
    "test_amendment_evidence_prose_cites_an_undeclared_record": (
        "reconciliation.yaml",
        AFFECTS,
        AFFECTS + "      evidence_text: RTE-22 shows it.\n",
        ("KB202", "records/demo/reconciliation.yaml", 18, 22),
    ),
    "test_amendment_affected_findings_cite_an_undeclared_record": (
        "reconciliation.yaml",
        AFFECTS,
        AFFECTS + "      affected_findings: The RTE-23 reads.\n",
        ("KB202", "records/demo/reconciliation.yaml", 18, 30),
    ),
    "test_amendment_quotation_without_a_file": (
        "reconciliation.yaml",
        AFFECTS,
        AFFECTS + "      quotes:\n        - text: unattributed\n",
        ("KB404", "records/demo/reconciliation.yaml", 19, 11),
    ),
    "test_prose_quotation_reads_outside_the_repository": (
        "reconciliation.yaml",
        FIRST_BLOCK,
        FIRST_BLOCK + "      - quote: {text: secret, path: ../../etc/passwd, source: SRC-1}\n",
        ("KB402", "records/demo/reconciliation.yaml", 10, 37),
    ),
    "test_prose_quotation_without_a_file": (
        "reconciliation.yaml",
        FIRST_BLOCK,
        FIRST_BLOCK + "      - quote: {text: unattributed}\n",
        ("KB404", "records/demo/reconciliation.yaml", 10, 16),
    ),
    "test_prose_quotation_cites_an_undeclared_source": (
        "reconciliation.yaml",
        FIRST_BLOCK,
        FIRST_BLOCK + "      - quote: {text: x, path: src/a.py, source: SRC-9}\n",
        ("KB201", "records/demo/reconciliation.yaml", 10, 50),
    ),
    "test_memory_member_published_as_a_draft": (
        "memory.yaml",
        "  description: Memory routes of Demo.\n",
        "  description: Memory routes of Demo.\n  report_status: draft\n",
        ("KB104", "records/demo/memory.yaml", 5, 18),
    ),
    "test_amendments_placed_twice": (
        "reconciliation.yaml",
        FIRST_BLOCK,
        FIRST_BLOCK + "      - amendments: here\n      - amendments: here\n",
        ("KB101", "records/demo/reconciliation.yaml", 8, 5),
    ),
    "test_amendments_placed_with_an_unknown_value": (
        "reconciliation.yaml",
        FIRST_BLOCK,
        FIRST_BLOCK + "      - amendments: there\n",
        ("KB104", "records/demo/reconciliation.yaml", 10, 21),
    ),
    "test_conflict_affects_an_undeclared_record": (
        "reconciliation.yaml",
        "  amendments:\n",
        "  unresolved_conflicts:\n    - affects: [MEM-RTE-2]\n      findings: Two readings.\n"
        "      prevents: A settled read-back.\n  amendments:\n",
        ("KB201", "records/demo/reconciliation.yaml", 11, 17),
    ),
    "test_member_edited_after_the_manifest_was_pinned": (
        "runtime.yaml",
        "    label: Write a note\n",
        "    label: Write a trusted note\n",
        ("KB807", "records/demo/ARTIFACT.yaml", 6, 13),
    ),
    "test_manifest_pins_a_member_outside_the_set": (
        "ARTIFACT.yaml",
        "members:\n",
        "members:\n  notes.md:\n    sha256: " + "ab" * 32 + "\n",
        ("KB807", "records/demo/ARTIFACT.yaml", 3, 3),
    ),
    "test_manifest_drops_a_member": (
        "ARTIFACT.yaml",
        "  epistemic.md:\n    sha256: 5a3c62ba92667d094195d4dfa03d16df20e71a24e551d33170df39a0417a7552\n",
        "",
        ("KB807", "records/demo/ARTIFACT.yaml", 3, 3),
    ),
    "test_manifest_pins_digests_yaml_reads_as_numbers": (
        "ARTIFACT.yaml",
        "    sha256: bf80067231ca4398faf8884ced0a1653a3ac9710741af26c1e51dbd726a32312\n",
        "    sha256: 1234\n",
        ("KB807", "records/demo/ARTIFACT.yaml", 3, 3),
    ),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_set_attack(name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, kbgen) -> None:
    file, old, new, expected = CASES[name]
    plant(tmp_path, file, old, new)
    monkeypatch.chdir(tmp_path)
    result = kbgen("check", "records", "--format", "json")
    assert result.code == 1
    assert expected in located(result)


def test_clean_set_checks_clean(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, kbgen) -> None:
    plant(tmp_path, "set.yaml", "", "")
    monkeypatch.chdir(tmp_path)
    result = kbgen("check", "records", "--format", "json")
    assert result.code == 0, result.out
    assert located(result) == set()
