"""Faithfulness of the shipped analysis set ``records/instinctual-memory``.

It was produced by ``kbgen import`` from the published reference set
(``../shared/reference/AAS-2026-10-02-instinctual-memory-02/``, beside the repository;
the tests that read it skip when it is absent) and reviewed by hand. Checks:

- the reference's member files match its manifest (what the importer verifies first);
- every record ID the members write is declared, and no record is invented;
- every quotation, table cell and prose sentence of every member reaches the pages of
  the system (a field label the records turn into a field title is compared by value);
- the system checks clean and its committed ``ARTIFACT.yaml`` pins its members.
"""

from __future__ import annotations

import hashlib
import html
import re

import pytest
import yaml
from set_support import REFERENCE, REPO_ROOT
from test_seeds import _normalise, markdown_to_text

from generator.importer.columns import ROUTE_FIELD_ALIASES
from generator.model.ids import grammar
from generator.model.set_manifest import manifest_text
from generator.pipeline import PipelineResult, run_pipeline

MEMBERS = ("overview.md", "runtime.md", "memory.md", "epistemic.md", "reconciliation.md")
SLUG = "instinctual-memory"
# Labels of the reference that the records hold as a field shown under the field's title.
# A route's labelled fields written in an earlier contract's wording (``Invalidation/expiry``,
# ``Activation/effect``) are shown under the model's titles too.
FIELD_LABELS = (
    "Representational form: ",
    "Claimed operation: ",
    *(f"{label[:1].upper()}{label[1:]}: " for label in ROUTE_FIELD_ALIASES),
)
_ID_LINK = re.compile(r"\[([A-Za-z0-9-]+)\]\([^)\s]*\)")
_WRITTEN_LINK = re.compile(r"\[([^\]\n]*)\]\([^)\s]*\)")

pytestmark = pytest.mark.skipif(not REFERENCE.is_dir(), reason=f"reference set not found at {REFERENCE}")


@pytest.fixture(scope="module")
def pipeline() -> PipelineResult:
    result = run_pipeline(REPO_ROOT / "records", REPO_ROOT)
    assert result.errors == []
    return result


def _body(name: str) -> str:
    return (REFERENCE / name).read_text(encoding="utf-8").split("\n---\n", 1)[1]


@pytest.fixture(scope="module")
def rendered(pipeline: PipelineResult) -> tuple[str, ...]:
    """The system's pages: their text as a reader sees it, and their Markdown with the
    links the generator added taken out (record text is shown as written: a Markdown link
    written in a record is displayed, not followed)."""
    pages = "\n".join(text for path, text in pipeline.pages.items() if path.startswith(f"systems/{SLUG}/"))
    plain = html.unescape(markdown_to_text(pages))
    written = _ID_LINK.sub(r"\1", pages)
    # Raw HTML blocks: the generator's links and emphasis out, code and list items as written.
    written = re.sub(r"</?(?:a|strong|em)\b[^>\n]*>", "", written)
    written = re.sub(r"</?code>", "`", written).replace("<li>", "- ")
    written = re.sub(r"\\(.)", r"\1", written)
    for _ in range(2):
        written = _WRITTEN_LINK.sub(r"\1", written)
    return _normalise(plain), _normalise(html.unescape(written))


def _found(text: str, rendered: tuple[str, ...]) -> bool:
    plain, markdown = rendered
    candidates = [_normalise(text)]
    candidates += [_normalise(text.removeprefix(label)) for label in FIELD_LABELS if text.startswith(label)]
    return any(c in plain or c in markdown for c in candidates)


def test_reference_members_match_its_manifest() -> None:
    manifest = yaml.safe_load((REFERENCE / "ARTIFACT.yaml").read_text(encoding="utf-8"))
    for name in MEMBERS:
        assert (
            hashlib.sha256((REFERENCE / name).read_bytes()).hexdigest() == manifest["members"][name]["sha256"]
        )


def test_every_id_is_declared_and_none_invented(pipeline: PipelineResult) -> None:
    written = {m.group(0) for name in MEMBERS for m in grammar().in_text.finditer(_body(name))}
    graph = next(g for g in pipeline.graphs if g.slug == SLUG)
    declared = {record.id for record in graph.records_in_id_order}
    assert written - declared == set()
    assert declared - written == set()
    assert graph.supplied_in_id_order == ()  # the set declares everything it cites


def _quotes(body: str) -> list[str]:
    found, current = [], []
    for line in body.splitlines():
        if line.startswith("> --- "):
            found.append("\n".join(current))
            current = []
        elif line.startswith(">"):
            current.append(line[2:] if line.startswith("> ") else line[1:])
    return found


def test_every_quotation_line_is_recorded(pipeline: PipelineResult, rendered: tuple[str, ...]) -> None:
    graph = next(g for g in pipeline.graphs if g.slug == SLUG)
    system = graph.system
    recorded = _normalise(
        " ".join(q.text for owner in (*system.records, *system.annotations) for q in owner.quotes)
    )
    for name in MEMBERS:
        for quote in _quotes(_body(name)):
            for line in filter(None, (_normalise(line) for line in quote.splitlines())):
                assert line in recorded or _found(line, rendered), (name, line)


def _table_cells(body: str) -> list[str]:
    """The cells of every table row (not the header rows: column titles become field titles)."""
    cells = []
    lines = body.splitlines()
    for index, line in enumerate(lines):
        header = index + 1 < len(lines) and re.fullmatch(r"[|\s:-]+", lines[index + 1]) is not None
        if line.startswith("|") and not header and not re.fullmatch(r"[|\s:-]+", line):
            cells += [cell.strip() for cell in re.split(r"(?<!\\)\|", line.strip().strip("|"))]
    return [cell for cell in cells if len(cell) > 3]


def _sentences(body: str) -> list[str]:
    found = []
    for paragraph in body.split("\n\n"):
        paragraph = paragraph.strip()
        if not paragraph or paragraph[0] in "#|>`":
            continue
        for sentence in re.split(r"(?<=[.;])\s+", markdown_to_text(paragraph)):
            if len(sentence.strip()) >= 12:
                found.append(sentence.strip())
    return found


@pytest.mark.parametrize("name", MEMBERS)
def test_every_sentence_and_cell_reaches_the_pages(name: str, rendered: tuple[str, ...]) -> None:
    body = _body(name)
    texts = _sentences(body) + [markdown_to_text(cell) for cell in _table_cells(body)]
    missing = [text for text in texts if not _found(text, rendered)]
    assert missing == []


def test_the_committed_manifest_pins_the_members(pipeline: PipelineResult) -> None:
    graph = next(g for g in pipeline.graphs if g.slug == SLUG)
    committed = (REPO_ROOT / "records" / SLUG / "ARTIFACT.yaml").read_text(encoding="utf-8")
    assert committed == manifest_text(graph.system)
