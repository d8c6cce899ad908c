"""The rest of a result page's reading: a changes page links every ID and evidence anchor
into the run whose text names it, record sections fold by kind under an outline of kinds
with their counts, and the key verdicts (the statuses of routes and claims) follow the
bounded synthesis, each linked to its record.

Each test renders pages through the pipeline (a made-up system of two runs, or the shipped
records) and reads the Markdown as the site's Python-Markdown extensions convert it.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

import markdown
import pytest
from hostile_support import make_records
from many_runs import earlier_run_id, make_many_runs

from generator.model import kinds
from generator.model.ids import grammar
from generator.model.kinds import Role
from generator.pipeline import PipelineResult, run_pipeline

EXTENSIONS = ["attr_list", "md_in_html", "admonition", "tables", "toc", "pymdownx.superfences"]
CHANGES = "systems/demo/changes.md"
REPO_RECORDS = Path(__file__).resolve().parents[2] / "records"
OLD_REVISION = "0123456789abcdef"
NEW_REVISION = "fedcba9876543210"

# A route whose text each run writes differently: the old run names CMP-2 (which only it
# declares) and cites lines 1-40, the new run names CMP-3 (only it declares, and nothing
# pairs it with CMP-2) and lines 5-9; each run pins its own revision.
ROUTE_BODY = "  - id: RTE-1\n    label: Prompt to answer\n    body: {body}\n"
COMPONENT = (
    "  - id: {id}\n    label: {label}\n    form: Symbolic code.\n    statuses:\n"
    "      implementation conclusion status: wired\n    evidence:\n      - {anchor}\n"
)


def _plant(folder: Path, body: str, component: str, anchor: str, revision: str) -> None:
    records = folder / "records.yaml"
    text = records.read_text(encoding="utf-8")
    text = text.replace(
        "  - id: RTE-1\n    label: Prompt to answer\n", ROUTE_BODY.format(body=body), 1
    ).replace("\nroutes:\n", "\n" + component + "\nroutes:\n", 1)
    text = text.replace("SRC-1 src/agent.py:1-40", anchor)
    records.write_text(text, encoding="utf-8")
    for name in ("sources.yaml", "run.yaml"):
        path = folder / name
        path.write_text(path.read_text(encoding="utf-8").replace(OLD_REVISION, revision), encoding="utf-8")


@pytest.fixture(scope="module")
def two_runs(tmp_path_factory: pytest.TempPathFactory) -> PipelineResult:
    records = tmp_path_factory.mktemp("round3b") / "records"
    system = make_many_runs(records, 2)
    old = system / "runs" / earlier_run_id(0)
    _plant(
        old,
        "'CMP-2 feeds CMP-1 the prompt (SRC-1 src/agent.py:1-40) and **RTE-1** returns.'",
        COMPONENT.format(id="CMP-2", label="Prompt reader", anchor="SRC-1 src/reader.py:1-9"),
        "SRC-1 src/agent.py:1-40",
        OLD_REVISION,
    )
    _plant(
        system,
        "'CMP-3 feeds CMP-1 the prompt (SRC-1 src/agent.py:5-9) and **RTE-1** returns.'",
        COMPONENT.format(
            id="CMP-3", label="Session ledger archive beside CMP-1", anchor="SRC-1 src/ledger.py:3-4"
        ),
        "SRC-1 src/agent.py:5-9",
        NEW_REVISION,
    )
    found = run_pipeline(records)
    assert not found.errors, [d.as_text() for d in found.errors]
    return found


def _html(page: str) -> str:
    body = page.split("\n---\n", 1)[1] if page.startswith("---\n") else page
    return markdown.markdown(body, extensions=EXTENSIONS)


class _Mentions(HTMLParser):
    """Each ID written in the page's text outside links, code and headings, with the diff
    marker (``del`` or ``ins``) it sits in, if any; and every link's href and text."""

    SKIPPED = frozenset({"a", "code", "h1", "h2", "h3", "h4", "h5", "h6", "summary"})

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.open: list[str] = []
        self.mentions: list[tuple[str, str | None]] = []
        self.links: list[tuple[str, str]] = []
        self._href: str | None = None
        self._text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("br", "hr", "img", "input"):
            return
        self.open.append(tag)
        if tag == "a":
            self._href, self._text = dict(attrs).get("href") or "", []

    def handle_endtag(self, tag: str) -> None:
        if tag == "a" and self._href is not None:
            self.links.append((self._href, "".join(self._text)))
            self._href = None
        while self.open and self.open.pop() != tag:
            pass

    def handle_data(self, data: str) -> None:
        if self._href is not None:
            self._text.append(data)
        if self.SKIPPED.intersection(self.open):
            return
        marker = next((tag for tag in reversed(self.open) if tag in ("del", "ins")), None)
        self.mentions.extend((match.group(0), marker) for match in grammar().in_text.finditer(data))


def _read(page: str) -> _Mentions:
    parsed = _Mentions()
    parsed.feed(_html(page))
    return parsed


# ---------------------------------------------------------------- changes pages


def test_a_changes_page_leaves_no_id_unlinked(two_runs: PipelineResult) -> None:
    parsed = _read(two_runs.pages[CHANGES])
    assert parsed.mentions == []


def test_each_run_s_text_links_into_that_run_s_pages(two_runs: PipelineResult) -> None:
    links = _read(two_runs.pages[CHANGES]).links
    old_pages = f"../runs/{earlier_run_id(0).lower()}/"
    assert (f"{old_pages}#cmp-2", "CMP-2") in links  # the old run's word, into the old run
    assert ("../#cmp-3", "CMP-3") in links  # the new run's word, into the new run
    # The words both runs write link into the new run.
    assert ("../#cmp-1", "CMP-1") in links
    assert not any(href.startswith(old_pages) and text == "CMP-3" for href, text in links)


def test_evidence_anchors_link_to_their_run_s_revision(two_runs: PipelineResult) -> None:
    links = _read(two_runs.pages[CHANGES]).links
    old = f"https://github.com/example/demo/blob/{OLD_REVISION}/src/agent.py#L1-L40"
    new = f"https://github.com/example/demo/blob/{NEW_REVISION}/src/agent.py#L5-L9"
    assert (old, "1-40") in links and (new, "5-9") in links
    assert (old, "src/agent.py") in links and (new, "src/agent.py") in links
    # No evidence anchor is left as code.
    assert not re.search(r"<code>SRC-1 [^<]*</code>", _html(two_runs.pages[CHANGES]))


def test_a_word_diff_keeps_its_markers_around_linked_ids(two_runs: PipelineResult) -> None:
    html = _html(two_runs.pages[CHANGES])
    old_pages = f"../runs/{earlier_run_id(0).lower()}/"
    assert re.search(
        rf'<del class="kb-diff__del">[^<]*<a href="{re.escape(old_pages)}#cmp-2">CMP-2</a>', html
    )
    assert re.search(r'<ins class="kb-diff__ins">[^<]*<a href="\.\./#cmp-3">CMP-3</a>', html)


@pytest.fixture(scope="module")
def shipped() -> PipelineResult:
    found = run_pipeline(REPO_RECORDS)
    assert not found.errors
    return found


@pytest.mark.parametrize("slug", ["oh-my-pi", "napkin"])
def test_the_shipped_changes_pages_link_every_declared_id(shipped: PipelineResult, slug: str) -> None:
    """An ID stays text only where its run declares no such record (the old run's label
    names an object it never declared): linking it would lead nowhere."""
    current = next(graph for graph in shipped.graphs if graph.slug == slug)
    assert current.history is not None and current.run is not None
    before = current.history.before(current.run)
    assert before is not None
    older = next(g for g in shipped.earlier_runs if g.run is not None and g.run.folder == before.folder)
    parsed = _read(shipped.pages[f"systems/{slug}/changes.md"])
    assert len(parsed.links) > 500
    left = [(mention, marker) for mention, marker in parsed.mentions]
    declared = [
        (mention, marker)
        for mention, marker in left
        if (older if marker == "del" else current).resolve(mention) is not None
    ]
    assert declared == []
    assert len(left) < 10


# ---------------------------------------------------------------- key verdicts

RESULT = "systems/demo/result.md"
CLAIM = """
claims:
  - id: CLM-1
    label: Reported **results**
    conclusion_status: claimed
    body: The README reports it.
"""


def _result(tmp_path: Path, changes: dict[str, str]) -> str:
    records = make_records(tmp_path, changes)
    found = run_pipeline(records, tmp_path)
    assert found.errors == []
    return found.pages[RESULT]


def _synthesis(page: str) -> str:
    start = page.index("{ #bounded-synthesis }")
    return page[start : page.index("\n## ", start)]


def test_key_verdicts_follow_the_bounded_synthesis_linked(tmp_path: Path) -> None:
    synthesis = _synthesis(_result(tmp_path, {"claims.yaml": CLAIM}))
    html = _html(synthesis)
    assert (
        '<li><a href="#rte-1">RTE-1</a> Prompt to answer: '
        '<span class="kb-verdict">implementation wired</span>' in html
    )
    # A claim's one status is its verdict; its label is formatted as its heading is.
    assert (
        '<a href="#clm-1">CLM-1</a> Reported <strong>results</strong>: '
        '<span class="kb-verdict">claimed</span>' in html
    )


def test_the_kinds_whose_statuses_are_verdicts_are_a_role_of_the_registry() -> None:
    assert [spec.list_key for spec in kinds.with_role(Role.VERDICT)] == ["routes", "claims"]


def test_a_record_without_a_status_is_no_verdict(tmp_path: Path) -> None:
    page = _result(tmp_path, {})
    synthesis = _synthesis(page)
    assert "Key verdicts" in synthesis
    # Components state statuses too, but theirs are no verdicts.
    assert "#cmp-1" not in _synthesis(page).split("kb-key-verdicts", 1)[1]
