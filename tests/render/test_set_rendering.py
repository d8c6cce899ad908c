"""The pages of an analysis set: one page per member, cross-member links and backlinks,
amendments on the records they amend, the review pinning the manifest.

Goldens of every page of the small fixture set (``tests/fixtures/check/clean-set``)
live in ``tests/goldens/sets/``; they change only through ``pytest --update-goldens``.
"""

from __future__ import annotations

import difflib
import hashlib
import mimetypes
import re
import shutil
from pathlib import Path

import pytest
import yaml

from generator.model.sets import LedgerEntry
from generator.pipeline import PipelineResult, run_pipeline
from generator.render import urls
from generator.render.registry import PLACEMENT, system_pages
from generator.render.set_pages import ledger_suffixes

TESTS = Path(__file__).resolve().parents[1]
SET_RECORDS = TESTS / "fixtures" / "check" / "clean-set" / "records"
GOLDENS = TESTS / "goldens" / "sets"
# The set's member pages, from the placement the renderer gives the graph.
MEMBER_PAGES = [f"{key}.md" for key in PLACEMENT.members.values()]


@pytest.fixture(scope="module")
def rendered() -> PipelineResult:
    result = run_pipeline(SET_RECORDS, SET_RECORDS.parent)
    assert result.errors == []
    return result


def _system_pages(result: PipelineResult) -> dict[str, str]:
    prefix = "systems/demo/"
    return {path.removeprefix(prefix): text for path, text in result.pages.items() if path.startswith(prefix)}


def test_one_page_per_member(rendered: PipelineResult) -> None:
    pages = _system_pages(rendered)
    (system,) = rendered.systems
    expected = [
        urls.page_path(spec.key, "demo").removeprefix("systems/demo/")
        for spec in system_pages(system.records)
    ]
    assert sorted(pages) == sorted(expected)
    assert set(MEMBER_PAGES) <= set(pages)


@pytest.mark.parametrize("page", [*MEMBER_PAGES, "index.md", "review.md"])
def test_set_page_matches_golden(page: str, rendered: PipelineResult, update_goldens: bool) -> None:
    text = _system_pages(rendered)[page]
    golden = GOLDENS / page
    if update_goldens:
        golden.write_text(text, encoding="utf-8", newline="\n")
    expected = golden.read_text(encoding="utf-8")
    diff = "".join(
        difflib.unified_diff(expected.splitlines(True), text.splitlines(True), f"tests/goldens/sets/{page}")
    )
    assert text == expected, diff


def test_cross_member_reference_lands_on_the_declaring_member(rendered: PipelineResult) -> None:
    memory = _system_pages(rendered)["memory-report.md"]
    assert "[RTE-2](runtime.md#rte-2)" in memory
    runtime = _system_pages(rendered)["runtime.md"]
    assert "#### RTE-2 — Read notes back { #rte-2 " in runtime


def test_referenced_by_lists_other_members(rendered: PipelineResult) -> None:
    runtime = _system_pages(rendered)["runtime.md"]
    section = runtime[runtime.index("{ #rte-2 ") :]
    backlinks = section[section.index("<strong>Referenced by:</strong>") :].split("\n", 1)[0]
    assert '<a href="../memory-report/#on-rte-2">On RTE-2 (memory report)</a>' in backlinks
    assert '<a href="../reconciliation/#amendment-rte-2">Amendment: RTE-2 (reconciliation)</a>' in backlinks


def test_amendment_is_shown_on_the_amended_record(rendered: PipelineResult) -> None:
    runtime = _system_pages(rendered)["runtime.md"]
    rte2 = runtime[runtime.index("{ #rte-2 ") : runtime.index("### Claims")]
    assert (
        '<strong>Amended:</strong> <a href="../reconciliation/#amendment-rte-2">Amendment: RTE-2</a>' in rte2
    )
    assert "Reads the newest file." in rte2
    rte1 = runtime[runtime.index("{ #rte-1 ") : runtime.index("{ #rte-2 ")]
    assert "Amended" not in rte1
    reconciliation = _system_pages(rendered)["reconciliation.md"]
    amendment = reconciliation[reconciliation.index('<div class="kb-amendment" id="amendment-rte-2">') :]
    assert '<p><strong>Amends:</strong> <a href="../runtime/#rte-2">RTE-2</a></p>\n' in amendment


def test_review_pins_the_manifest_digest(rendered: PipelineResult) -> None:
    review = _system_pages(rendered)["review.md"]
    manifest = rendered.artifacts["systems/demo/ARTIFACT.yaml"]
    digest = hashlib.sha256(manifest.encode("utf-8")).hexdigest()
    assert f"analysis-artifact-sha256: {digest}\n" in review
    assert "analysis-artifact: systems/demo/ARTIFACT.yaml\n" in review
    # The generated-review spec's type and required fields.
    assert review.startswith("---\ntype: agentic-systems/types/generated-review.md\n")
    for field in ("description", "generated-by", "analysis-run", "source-identity", "reviewed-revision"):
        assert f"\n{field}: " in review


def test_system_page_lists_members_with_their_digests(rendered: PipelineResult) -> None:
    index = _system_pages(rendered)["index.md"]
    manifest = rendered.artifacts["systems/demo/ARTIFACT.yaml"]
    digests = dict(re.findall(r"  (\w+\.md):\n    sha256: ([0-9a-f]{64})", manifest))
    assert list(digests) == ["overview.md", "runtime.md", "memory.md", "epistemic.md", "reconciliation.md"]
    for name, digest in digests.items():
        assert f"| `{name}` | `{digest}` |" in index


def test_ledger_entry_shows_the_controlled_values(rendered: PipelineResult) -> None:
    epistemic = _system_pages(rendered)["epistemic.md"]
    assert "### [RTE-1](runtime.md#rte-1) — retention: A note. { #ledger-1 .kb-ledger-entry }" in epistemic
    assert "<strong>Route function:</strong> retention" in epistemic
    assert "<strong>Content/update relation:</strong> no content change" in epistemic


def test_ledger_entries_that_read_alike_are_told_apart_by_their_number() -> None:
    epistemic = yaml.safe_load((SET_RECORDS / "demo" / "epistemic.yaml").read_text(encoding="utf-8"))
    entry = epistemic["epistemic_report"]["authority_route_ledger"]["entries"][0]
    other_target = {**entry, "target": "Another note."}
    other_function = {**entry, "route_function": "content transformation"}
    entries = [LedgerEntry.model_validate(e) for e in (entry, other_target, entry, other_function)]
    assert ledger_suffixes(entries) == [" (entry 1)", "", " (entry 3)", ""]
    assert ledger_suffixes(entries[:2]) == ["", ""]


def test_build_writes_the_manifest_the_records_pin(rendered: PipelineResult) -> None:
    committed = (SET_RECORDS / "demo" / "ARTIFACT.yaml").read_text(encoding="utf-8")
    # Its text copy, the same bytes, is what the review links to: a browser opens a .txt
    # file (text/plain on every server, kbgen serve's too) and downloads a .yaml one.
    assert rendered.artifacts == {
        "systems/demo/ARTIFACT.yaml": committed,
        "systems/demo/ARTIFACT.yaml.txt": committed,
    }
    review = _system_pages(rendered)["review.md"]
    assert "pinned by [ARTIFACT.yaml](ARTIFACT.yaml.txt)" in review
    assert mimetypes.guess_type("ARTIFACT.yaml.txt")[0] == "text/plain"


def test_digest_ignores_file_layout_and_yaml_style(tmp_path: Path) -> None:
    """The canonical digest is of what the records say: moving a record to another file
    and re-quoting a value leave every member's digest unchanged."""
    from generator.model.set_manifest import manifest_text
    from generator.pipeline import check_records

    shutil.copytree(SET_RECORDS, tmp_path / "records")
    system = tmp_path / "records" / "demo"
    runtime = (system / "runtime.yaml").read_text(encoding="utf-8")
    head, bap = runtime.split("authority_paths:\n")
    (system / "runtime.yaml").write_text(
        head.replace("label: Note file", 'label: "Note file"'), encoding="utf-8"
    )
    (system / "paths.yaml").write_text("authority_paths:\n" + bap, encoding="utf-8")
    [checked] = check_records(tmp_path / "records", tmp_path)
    assert checked.errors == []
    assert manifest_text(checked.records) == (SET_RECORDS / "demo" / "ARTIFACT.yaml").read_text(
        encoding="utf-8"
    )


def test_amendment_and_prose_quotation_smuggle_markup(tmp_path: Path) -> None:
    """An amendment's written parts and a prose quotation are data: HTML and macro braces
    stay text, and a javascript: link is its text (the ID linked) followed by its target."""
    from generator.model.set_manifest import manifest_text

    shutil.copytree(SET_RECORDS, tmp_path / "records")
    system = tmp_path / "records" / "demo"
    reconciliation = system / "reconciliation.yaml"
    text = reconciliation.read_text(encoding="utf-8")
    text = text.replace(
        "      affects: [MEM-RTE-1]\n",
        "      affects: [MEM-RTE-1]\n"
        "      evidence_text: <script>alert(1)</script> in SRC-1.\n"
        "      affected_findings: '[RTE-1](javascript:alert(1)) {{ config }}'\n",
    ).replace(
        "      - The members share SRC-1; MEM-RTE-1 retains what RTE-1 writes.\n",
        "      - The members share SRC-1; MEM-RTE-1 retains what RTE-1 writes.\n"
        "      - quote: {text: '<img src=x onerror=alert(1)>', path: notes/README.md, source: SRC-1}\n",
    )
    reconciliation.write_text(text, encoding="utf-8")
    from generator.pipeline import check_records

    [checked] = check_records(tmp_path / "records", tmp_path)
    (system / "ARTIFACT.yaml").write_text(manifest_text(checked.records), encoding="utf-8")
    result = run_pipeline(tmp_path / "records", tmp_path)
    assert result.errors == []
    page = _system_pages(result)["reconciliation.md"]
    assert "<script>" not in page and "<img" not in page
    assert '&lt;script&gt;alert(1)&lt;/script&gt; in <a href="../overview/#src-1">SRC-1</a>.' in page
    # Raw HTML: the link to a script URL is its text, its ID linked, then the target as
    # code; the braces are entities.
    assert '<a href="../runtime/#rte-1">RTE-1</a> (<code>javascript:alert(1)</code>)' in page
    assert 'href="javascript' not in page
    assert "{{ config }}" not in page and "&#123;&#123; config &#125;&#125;" in page
    assert "&lt;img src=x onerror=alert(1)&gt;" in page


def test_placed_amendments_show_where_the_prose_places_them(tmp_path: Path) -> None:
    from generator.model.set_manifest import manifest_text
    from generator.pipeline import check_records

    shutil.copytree(SET_RECORDS, tmp_path / "records")
    system = tmp_path / "records" / "demo"
    reconciliation = system / "reconciliation.yaml"
    first = "      - The members share SRC-1; MEM-RTE-1 retains what RTE-1 writes.\n"
    text = reconciliation.read_text(encoding="utf-8")
    reconciliation.write_text(text.replace(first, "      - amendments: here\n" + first), encoding="utf-8")
    [checked] = check_records(tmp_path / "records", tmp_path)
    (system / "ARTIFACT.yaml").write_text(manifest_text(checked.records), encoding="utf-8")
    result = run_pipeline(tmp_path / "records", tmp_path)
    assert result.errors == []
    page = _system_pages(result)["reconciliation.md"]
    assert "### Amendments {" not in page
    section = page[page.index("## Reconciliation { #reconciliation }") :]
    assert section.index('<div class="kb-amendment" id="amendment-rte-2"') < section.index(
        "The members share"
    )
