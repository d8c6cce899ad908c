"""Document-grounded analyses: locators, pinned quotes, link policies and look-alike anchors.

A paper is cited by section, appendix, table or page, a quotation by a capture file
and its digest; a source off a git host gets no ``/blob/`` links. The fixture system
``tests/fixtures/doc-grounded`` (written for these tests) checks clean and renders so.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hostile_support import located, make_records
from map_support import maps_of

from generator.model.anchors import find_anchors
from generator.model.url_policy import LinkPolicy, is_git_host, link_policy, source_links
from generator.pipeline import PipelineResult, run_pipeline

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "doc-grounded"
RESULT_PAGE = "systems/paper-agent/result.md"
DIGEST = "c093b5e0f1a2d3c4b5a69788796a5b4c3d2e1f00112233445566778899aabbcc"
ARXIV = "https://arxiv.org/abs/2501.00001v2"


@pytest.fixture(scope="module")
def paper() -> PipelineResult:
    result = run_pipeline(FIXTURE / "records", FIXTURE)
    assert [d.as_text() for d in result.diagnostics] == []
    return result


def test_the_document_grounded_fixture_checks_clean(paper: PipelineResult) -> None:
    assert RESULT_PAGE in paper.pages


def test_locators_render_as_text_beside_their_linked_source(paper: PipelineResult) -> None:
    page = paper.pages[RESULT_PAGE]
    for locator in ("§3.1", "Appendix C", "Table 2", "Figure 2", "p. 4", "§3.2"):
        assert re.search(r'<a href="[^"]*#src-1">SRC-1</a> ' + re.escape(locator), page), locator


def test_no_blob_link_to_a_host_that_is_not_git(paper: PipelineResult) -> None:
    text = "\n".join(paper.pages.values())
    assert "/blob/" not in text
    assert "/tree/" not in text
    assert "paper-agent.example.org/blob" not in text


def test_pinned_quotes_show_their_capture_and_digest_without_a_link(paper: PipelineResult) -> None:
    page = paper.pages[RESULT_PAGE]
    assert f"captures/paper-v2.md:81-82 §3.1 @ <code>sha256:{DIGEST}</code>" in page
    assert "capture/project-page.md:12 @ <code>sha256:" in page


def test_section_anchors_of_the_result_page(paper: PipelineResult) -> None:
    page = paper.pages[RESULT_PAGE]
    for anchor in ("cmp-1", "obj-1", "rte-1", "clm-1"):
        assert "{ #" + anchor in page


# ---------------------------------------------------------------- link policies


@pytest.mark.parametrize(
    ("location", "git"),
    [
        ("https://github.com/a/b", True),
        ("https://gitlab.example.org/a/b", True),
        ("https://codeberg.org/a/b", True),
        ("https://example.org/a/b.git", True),
        (ARXIV, False),
        ("https://example.org/report.pdf", False),
    ],
)
def test_git_hosts_are_recognised(location: str, git: bool) -> None:
    assert is_git_host(location) is git


def test_default_policies_keep_git_links_and_drop_the_rest() -> None:
    assert link_policy(None, "https://github.com/a/b", None) is LinkPolicy.GIT
    assert link_policy(None, ARXIV, None) is LinkPolicy.NONE
    assert link_policy(None, ARXIV, "{location}#{path}") is LinkPolicy.TEMPLATE
    assert link_policy("none", "https://github.com/a/b", None) is LinkPolicy.NONE


def test_a_template_builds_every_link_of_its_source_the_boundary_too() -> None:
    links = source_links(None, "https://git.example.org/r", "abc1234", "{location}/-/blob/{revision}/{path}")
    assert links.file("a.py", 1, 2) == "https://git.example.org/r/-/blob/abc1234/a.py"
    assert links.tree("sha256:ff") == "https://git.example.org/r/-/blob/sha256%3Aff/"


def test_no_policy_means_no_links() -> None:
    links = source_links("none", "https://github.com/a/b", "abc1234", None)
    assert links.file("a.py", 1, 2) is None
    assert links.tree("abc1234") is None


@pytest.mark.parametrize(
    ("text", "locator"),
    [
        ("see SRC-1 §3.1.", "§3.1"),
        ("SRC-1 Appendix C", "Appendix C"),
        ("SRC-2 Table 2,", "Table 2"),
        ("SRC-1 p. 4", "p. 4"),
        ("SRC-1 pp. 4-5", "pp. 4-5"),
        ("SRC-1 Section 3.2", "Section 3.2"),
    ],
)
def test_locators_are_found_in_prose(text: str, locator: str) -> None:
    (anchor,) = find_anchors(text)
    assert anchor.locator == locator and anchor.path == ""


# ---------------------------------------------------------------- hostile cases


def _check(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, kbgen, changes: dict) -> set:
    make_records(tmp_path, changes)
    monkeypatch.chdir(tmp_path)
    return located(kbgen("check", "records", "--format", "json"))


PAPER = """sources:
  - id: SRC-2
    source_kind: Paper
    identity: A paper.
    location: https://arxiv.org/abs/2401.00001
    revision: v2
{extra}"""


def test_give_a_paper_git_links(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, kbgen) -> None:
    found = _check(tmp_path, monkeypatch, kbgen, {"paper.yaml": PAPER.format(extra="    links: git\n")})
    assert found == {("KB408", "records/demo/paper.yaml", 7, 12)}


def test_ask_for_template_links_without_a_template(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, kbgen
) -> None:
    found = _check(tmp_path, monkeypatch, kbgen, {"paper.yaml": PAPER.format(extra="    links: template\n")})
    assert found == {("KB407", "records/demo/paper.yaml", 7, 12)}


def test_pass_prose_off_as_an_anchor(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, kbgen) -> None:
    text = (
        "claims:\n  - id: CLM-1\n    claim: Shown in SRC-1 illustrations/reports.\n"
        "    conclusion_status: claimed\n"
    )
    found = _check(tmp_path, monkeypatch, kbgen, {"claims.yaml": text})
    assert found == {("KB409", "records/demo/claims.yaml", 3, 27)}


def test_cite_a_section_as_a_file_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, kbgen) -> None:
    """``SRC-1 §3.1`` is a locator now, never a path: nothing to report, nothing to link."""
    text = (
        "claims:\n  - id: CLM-1\n    claim: Stated.\n    conclusion_status: claimed\n"
        "    evidence: [SRC-1 §3.1]\n"
    )
    assert _check(tmp_path, monkeypatch, kbgen, {"claims.yaml": text}) == set()


def test_pin_a_quote_with_a_short_digest(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, kbgen) -> None:
    text = (
        "claims:\n  - id: CLM-1\n    claim: Stated.\n    conclusion_status: claimed\n    quotes:\n"
        "      - text: stated\n        path: capture.md\n        pin: sha256:c093\n"
    )
    found = _check(tmp_path, monkeypatch, kbgen, {"claims.yaml": text})
    assert found == {("KB110", "records/demo/claims.yaml", 8, 14)}


def test_cite_a_document_part_that_is_no_locator(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, kbgen
) -> None:
    text = (
        "claims:\n  - id: CLM-1\n    claim: Stated.\n    conclusion_status: claimed\n"
        "    evidence:\n      - {source: SRC-1, locator: Paragraph 4}\n"
    )
    found = _check(tmp_path, monkeypatch, kbgen, {"claims.yaml": text})
    assert found == {("KB111", "records/demo/claims.yaml", 6, 34)}


def test_put_line_ranges_on_a_locator(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, kbgen) -> None:
    text = (
        "claims:\n  - id: CLM-1\n    claim: Stated.\n    conclusion_status: claimed\n"
        "    evidence:\n      - {source: SRC-1, locator: §3.1, lines: [[1, 2]]}\n"
    )
    found = _check(tmp_path, monkeypatch, kbgen, {"claims.yaml": text})
    assert found == {("KB101", "records/demo/claims.yaml", 6, 9)}


# ---------------------------------------------------------------- records that fit the analysis


def test_run_identity_is_on_the_result_page(paper: PipelineResult) -> None:
    page = paper.pages[RESULT_PAGE]
    section = page[page.index("## Run identity") : page.index("## Boundary and evidence")]
    assert "<td>Run ID</td>\n<td><code>AAS-2025-03-14-paper-agent-01</code></td>" in section
    assert "<td>Run date</td>\n<td>2025-03-14</td>" in section
    document_type = "<td><code>kb/types/agentic-system-analysis-result.md</code></td>"
    assert f"<td>Document type</td>\n{document_type}" in section
    assert "result-disposition-complete" in section and "evidence-tier-doc-grounded" in section


def test_quotations_of_prose_are_block_quotations(paper: PipelineResult) -> None:
    page = paper.pages[RESULT_PAGE]
    # A capture of a Markdown file is read as Markdown, inside its block quotation.
    opening = '<blockquote class="kb-quote__markdown">\n<p>'
    assert opening + "After each session the rewriter replaces the note with a revised note." in page
    assert "```text\nAfter each session" not in page


def test_an_ordered_list_continues_its_numbering(paper: PipelineResult) -> None:
    page = paper.pages[RESULT_PAGE]
    # One ordered list: Python-Markdown numbers every list from 1 (its lazy_ol), as before.
    first = page[page.index("<ol>") : page.index("</ol>")]
    assert "<li>The note is rewritten" in first and "<li>The next session" in first
    assert "<ol>\n<li>Over its size limit" in page


def test_the_route_map_draws_only_structured_relations(paper: PipelineResult) -> None:
    # Owner, reads, writes, the records the progression names and those RTE-1's labelled
    # fields name (its later read-back), one edge per pair labelled by every field that
    # draws it; the alternative dotted.
    (drawn,) = maps_of(paper.pages["systems/paper-agent/index.md"])
    assert sorted(drawn.edges) == [
        ("RTE-1", "owner, progression", "CMP-1", False),
        ("RTE-1", "reads, writes, progression, later read-back", "OBJ-1", False),
        ("RTE-2", "alternative to", "RTE-1", True),
        ("RTE-2", "owner, progression", "CMP-1", False),
    ]


def test_guarantee_alternatives_and_one_cell_authority_render(paper: PipelineResult) -> None:
    page = paper.pages[RESULT_PAGE]
    assert '<strong>Alternative to:</strong> <a href="#rte-1">RTE-1</a>' in page
    assert '<strong>Guarantee (policy):</strong> owner: <a href="#cmp-1">CMP-1</a>; guarantee point:' in page
    assert 'guarantee status</span>: <a class="kb-badge kb-badge--claimed"' in page
    assert "<strong>Force and horizon:</strong> Advisory context" in page
    assert "<strong>Immediate return:</strong> inapplicable — the session has ended." in page


# ---------------------------------------------------------------- the guide


def _guide_fields() -> set[tuple[str, str]]:
    guide = (Path(__file__).resolve().parents[2] / "kb" / "authoring.md").read_text(encoding="utf-8")
    return set(re.findall(r"^\| (.+?) \| `([a-z_]+)` \|", guide, flags=re.MULTILINE))


def test_the_guide_names_every_field_of_every_record_kind() -> None:
    from generator.model import kinds
    from generator.model.records import RecordBase

    listed = _guide_fields()
    missing = [
        (spec.list_key, name)
        for spec in kinds.registered()
        for name in spec.model.model_fields
        if name not in RecordBase.model_fields and (f"`{spec.list_key}`", name) not in listed
    ]
    missing += [
        ("every record", name) for name in RecordBase.model_fields if ("every record", name) not in listed
    ]
    assert missing == []


def test_the_guide_lists_every_typed_table() -> None:
    from generator.model.prose import ROW_TYPES

    guide = (Path(__file__).resolve().parents[2] / "kb" / "authoring.md").read_text(encoding="utf-8")
    for kind, row in ROW_TYPES.items():
        assert f"| `{kind}` |" in guide
        for header in row.COLUMNS.values():
            assert header in guide


@pytest.mark.parametrize(
    ("line", "col"),
    [("    claim: See [the docs](https://example.org/d).\n", 16), ("    claim: It is **always** on.\n", 18)],
    ids=["link", "strong"],
)
def test_format_record_text_with_markdown(
    line: str, col: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, kbgen
) -> None:
    """Record text is Markdown (rendered safely), so a link or strong text is no finding."""
    text = "claims:\n  - id: CLM-1\n" + line + "    conclusion_status: claimed\n"
    found = _check(tmp_path, monkeypatch, kbgen, {"claims.yaml": text})
    assert found == set()


def test_attribute_a_quote_with_a_malformed_attribution(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, kbgen
) -> None:
    text = (
        "claims:\n  - id: CLM-1\n    claim: Stated.\n    conclusion_status: claimed\n    quotes:\n"
        "      - text: stated\n        at: capture.md lines 3 to 4\n"
    )
    found = _check(tmp_path, monkeypatch, kbgen, {"claims.yaml": text})
    assert found == {("KB101", "records/demo/claims.yaml", 6, 9)}


def test_attribute_a_quote_twice_with_different_pins(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, kbgen
) -> None:
    pin = "sha256:" + "a" * 64
    text = (
        "claims:\n  - id: CLM-1\n    claim: Stated.\n    conclusion_status: claimed\n    quotes:\n"
        f"      - text: stated\n        at: capture.md:3-4 @ {pin}\n        pin: {'0' * 40}\n"
    )
    found = _check(tmp_path, monkeypatch, kbgen, {"claims.yaml": text})
    assert found == {("KB101", "records/demo/claims.yaml", 6, 9)}


def test_verify_a_paper_as_if_it_were_a_git_repository(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, kbgen
) -> None:
    """A paper and a capture are not repositories: --sources neither refuses their
    sha256 revisions (KB505) nor misses their clones (KB501)."""
    monkeypatch.chdir(FIXTURE)
    result = kbgen("check", "records", "--sources", str(tmp_path / "clones"), "--format", "json")
    assert result.code == 0
    assert located(result) == set()


def test_every_source_whose_anchors_do_not_link_says_why(paper: PipelineResult) -> None:
    """An anchor links to the cited lines, or its source's record says why it does not."""
    page = paper.pages[RESULT_PAGE]
    reasons = re.findall(r'<p class="kb-unlinked"><strong>Evidence anchors:</strong> ([^<]*)</p>', page)
    assert reasons == [
        "shown as text: a capture, pinned by its digest, not a repository",
        "shown as text: the source says &#x27;links: none&#x27;",
    ]


@pytest.mark.parametrize(
    ("links", "location", "revision", "template", "reason"),
    [
        (None, "https://github.com/e/x", "0123abc", None, None),
        (
            None,
            "https://github.com/e/x",
            None,
            None,
            "not linked: the source states no revision to pin its anchors at",
        ),
        ("none", "https://github.com/e/x", "0123abc", None, "shown as text: the source says 'links: none'"),
        (None, "https://arxiv.org/abs/1", "v2", None, "shown as text: the source is not on a git host"),
        (None, None, "sha256:" + "a" * 64, None, "shown as text: a capture, pinned by its digest"),
        ("git", "command:run", "0123abc", None, "not linked: its location"),
        ("template", "https://x.example", "0123abc", "command:x#{path}", "not linked: its link template"),
    ],
)
def test_why_a_source_s_anchors_do_not_link(links, location, revision, template, reason) -> None:
    from generator.model.url_policy import unlinked_reason

    found = unlinked_reason(links, location, revision, template)
    assert (found is None) if reason is None else (found or "").startswith(reason)
