"""What a reader finds on the shipped records' pages: record text's lists as lists."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from generator.pipeline import PipelineResult, run_pipeline

REPO_ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def shipped() -> PipelineResult:
    result = run_pipeline(REPO_ROOT / "records", REPO_ROOT)
    assert result.errors == []
    return result


def test_record_text_that_writes_a_list_is_a_list(shipped: PipelineResult) -> None:
    page = shipped.pages["systems/dynamic-cheatsheet/memory-report.md"]
    paragraphs = re.findall(r"<p>(.*?)</p>", page, re.S)
    # No paragraph runs list items together: each "- item" line is an item of a list.
    assert not [p for p in paragraphs if re.search(r"(?m)^- ", p)]
    annotation = page.split("{ #on-rt-obj-1 .kb-annotation }", 1)[1].split("\n### ", 1)[0]
    items = re.findall(r"<li>(.*?)</li>", annotation)
    assert len(items) == 9
    assert items[0] == "Storage substrate: process memory and result JSONL file."


def test_each_evidence_anchor_is_shown_once_and_linked(shipped: PipelineResult) -> None:
    page = shipped.pages["systems/oh-my-pi/result.md"]
    # CMP-1's text writes its three anchors as code: each is linked there, and the record
    # lists no evidence line repeating them.
    record = page.split("{ #cmp-1 ", 1)[1].split("\n#### ", 1)[0]
    blob = "https://github.com/can1357/oh-my-pi/blob/be6cb8217cd4c1dafcc86793ae5d809ea4d7396a"
    assert (
        f'<a href="{blob}/packages/coding-agent/src/main.ts#L2045-L2118">'
        "<code>packages/coding-agent/src/main.ts:2045-2118</code></a>"
    ) in record
    assert "Evidence anchors:" not in record
    for path in ("packages/coding-agent/src/main.ts", "packages/coding-agent/src/sdk.ts"):
        assert record.count(f"{path}#L") == 1
    assert page.count("<strong>Evidence anchors:</strong>") == 5


def test_records_cited_but_declared_elsewhere_are_rows_not_empty_headings(shipped: PipelineResult) -> None:
    page = shipped.pages["systems/oh-my-pi/index.md"]
    section = page.split("## Declared elsewhere { #declared-elsewhere }", 1)[1]
    # Seventeen records with only an ID, where they are declared and who cites them: no
    # heading each, one table row each, holding the anchor the citing links lead to.
    assert "\n### " not in section
    rows = re.findall(r'<tr class="kb-record kb-record--elsewhere" id="([^"]+)"><td>([^<]+)</td>', section)
    assert len(rows) == 17
    assert rows[0] == ("mem-abs-1", "MEM-ABS-1")
    first = section.split('id="mem-abs-1">', 1)[1].split("</tr>", 1)[0]
    assert "<td>no declaration in the imported result (cited, not declared)</td>" in first
    assert '<a href="result/#reconciliation">Reconciliation (result)</a>' in first
    # The result's links to them land on the rows.
    assert 'href="../#mem-cmp-1"' in shipped.pages["systems/oh-my-pi/result.md"]
