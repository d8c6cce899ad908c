"""Seed faithfulness: the shipped records transcribe the two seed documents, and the site shows them.

The seeds are the documents the records were written from: the oh-my-pi analysis
result and the Decapod memory report. They live outside the repository, in
``<repo>/../shared/seeds/`` (CI places a copy of ``shared/`` beside the clone); the
tests that read them skip when that folder is absent.

Checks, per system:

- every record ID written in a seed is declared (as a record or a supplied record),
  except the lens-local proposal tags of the oh-my-pi reconciliation table, which
  must not be records; and no declared record is missing from its seed;
- every evidence anchor written in a seed is among the records' anchors;
- the record counts per kind, pinned;
- every sentence of a seed reaches the rendered pages of its system;
- ``kbgen check --strict records`` reports nothing (the seeds' ranges span declared IDs).
"""

from __future__ import annotations

import html
import re
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest
from pydantic import BaseModel

from generator.graph.system_graph import SystemGraph
from generator.model.anchors import LineRange, find_anchors
from generator.model.base import Anchor as AnchorModel
from generator.model.ids import grammar, kind_of
from generator.model.kinds import registered
from generator.model.system import SystemRecords
from generator.pipeline import PipelineResult, run_pipeline

REPO_ROOT = Path(__file__).resolve().parents[2]
SEEDS_DIR = REPO_ROOT.parent / "shared" / "seeds"
SEED_FILES = {
    "oh-my-pi": "000_d1fca30ea6d6494c.txt",  # the oh-my-pi analysis result
    "decapod": "004_456987315658c088.txt",  # the Decapod memory report
}
SYSTEMS = sorted(SEED_FILES)

# The oh-my-pi reconciliation table maps the memory specialist's lens-local proposal
# tags to canonical records. The tags are provenance, not records.
LENS_LOCAL_TAGS = {
    "oh-my-pi": {
        "MEM-BAP-1",
        "MEM-BAP-4",
        "MEM-CMP-1",
        "MEM-CMP-8",
        "MEM-OBJ-1",
        "MEM-OBJ-2",
        "MEM-OBJ-5",
        "MEM-OBJ-6",
        "MEM-OBJ-8",
        "MEM-OBJ-10",
        "MEM-OBJ-11",
        "MEM-OBJ-14",
        "MEM-OBJ-15",
        "MEM-OBJ-16",
        "MEM-RTE-1",
        "MEM-RTE-12",
        "MEM-RTE-13",
    },
    "decapod": set(),
}

# Every kind the registry holds and the lists counted beside the kinds, none counted.
NOTHING_COUNTED = {
    **{spec.plural: 0 for spec in registered()},
    "limitations": 0,
    "supplied": 0,
    "annotations": 0,
}
# Records per kind, as `kbgen check` counts them (pinned from the records and the seeds);
# a kind not named has none.
EXPECTED_COUNTS = {
    "oh-my-pi": {
        **NOTHING_COUNTED,
        "sources": 2,
        "components": 14,
        "operative objects": 37,
        "routes": 26,
        "claims": 7,
        "behavioral-authority paths": 11,
        "limitations": 11,
    },
    "decapod": {
        **NOTHING_COUNTED,
        "operative objects": 14,
        "routes": 11,
        "behavioral-authority paths": 1,
        "supplied": 11,
        "annotations": 2,
    },
}

# Seed text the site shows in another form: (system, seed sentence) → the rendered form.
# Each entry is still checked (the rendered form must occur); an unused entry fails.
KNOWN_RENDERINGS = {
    # The source register's evidence-layer cell is split into the controlled layer value
    # (written lower-case, as a glossary badge) and its note, joined by a dash.
    ("oh-my-pi", "Doctrine/design; promotional outcome claims identified separately"): (
        "doctrine/design — promotional outcome claims identified separately"
    ),
    # An authority path's fields carry fixed labels: the seed's plural "Channels:" is
    # shown under the template's "Channel:" label (the value is the same).
    (
        "decapod",
        "Channels: knowledge/decision query, archive restore, LCM summary/show and aptitude "
        "prompt/remind outputs",
    ): (
        "Channel: knowledge/decision query, archive restore, LCM summary/show and aptitude "
        "prompt/remind outputs"
    ),
}


# ---------------------------------------------------------------- fixtures and helpers


@pytest.fixture(scope="module")
def pipeline() -> PipelineResult:
    result = run_pipeline(REPO_ROOT / "records", REPO_ROOT)
    assert result.errors == [], [d.as_text() for d in result.errors]
    return result


def _seed(slug: str) -> str:
    """The seed's text; skips only when the whole seeds folder is absent (a missing file fails)."""
    if not SEEDS_DIR.is_dir():
        pytest.skip(f"seed folder {SEEDS_DIR} is absent (CI places shared/ beside the repo clone)")
    return (SEEDS_DIR / SEED_FILES[slug]).read_text(encoding="utf-8")


# A seed is the run of its system folder itself (``run_folder == ""``); oh-my-pi's is an
# earlier run since the run imported into its runs/ became current.


def _system(pipeline: PipelineResult, slug: str) -> SystemRecords:
    (system,) = [s.records for s in pipeline.systems if s.records.slug == slug and not s.records.run_folder]
    return system


def _graph(pipeline: PipelineResult, slug: str) -> SystemGraph:
    runs = [*pipeline.graphs, *pipeline.earlier_runs]
    (graph,) = [g for g in runs if g.system.slug == slug and not g.system.run_folder]
    return graph


def _seed_pages(pipeline: PipelineResult, slug: str) -> dict[str, str]:
    """The pages of the seed's run (not of another run of its system, nor the changes pages)."""
    root = f"systems/{_graph(pipeline, slug).slug}/"
    return {
        path: md
        for path, md in pipeline.pages.items()
        if path.startswith(root)
        and not path[len(root) :].startswith("runs/")
        and not path.endswith("/changes.md")
    }


def _ids_in(text: str) -> set[str]:
    return {match.group(0) for match in grammar().in_text.finditer(text)}


def _everything(system: SystemRecords) -> list[object]:
    return [
        system.records,
        system.limitations,
        system.supplied,
        system.annotations,
        system.result,
        system.memory_report,
    ]


Anchor = tuple[str, str, tuple[LineRange, ...]]


def _walk(value: object) -> Iterator[AnchorModel | str]:
    """Every structured anchor and every string inside a model, list or mapping."""
    if isinstance(value, AnchorModel | str):
        yield value
    elif isinstance(value, BaseModel):
        for name in type(value).model_fields:
            yield from _walk(getattr(value, name))
    elif isinstance(value, list | tuple):
        for item in value:
            yield from _walk(item)
    elif isinstance(value, dict):
        for item in value.values():
            yield from _walk(item)


def _record_anchors(system: SystemRecords) -> set[Anchor]:
    """Structured evidence anchors plus the anchors written in the records' text."""
    found: set[Anchor] = set()
    for item in _walk([*_everything(system), *system.prose.values()]):
        if isinstance(item, AnchorModel):
            found.add((item.source, item.path, item.ranges))
        else:
            found.update((a.source, a.path, a.ranges) for a in find_anchors(item))
    return found


# ---------------------------------------------------------------- Markdown → plain text

_FENCE = re.compile(r"^\s*(`{3,}|~{3,})")
_LINK = re.compile(r"\[((?:\\.|[^\\\]])*)\]\(([^()\s]*)\)")
_STATUS_LABEL = re.compile(r'<span class="kb-status-label">([^<]*)</span>\s*(?=\[|<a )')
_ADMONITION = re.compile(r'^!!! [\w-]+ "(.*)"$')
_TAG = re.compile(r"<[^>\n]+>")
# Inline elements of the raw HTML blocks join their text to its neighbours; other tags
# (paragraphs, cells, line breaks) separate words.
_INLINE_TAG = re.compile(r"</?(?:a|strong|em|code|span)\b[^>\n]*>")
_ATTR_LIST = re.compile(r"(?<!\\)\{\s*[#.][^{}\n]*\}")
_ESCAPED = re.compile(r"\\([!-/:-@\[-`{-~])")
_TABLE_RULE = re.compile(r"\s*:?-+:?\s*")


def _protect_code_spans(line: str) -> tuple[str, list[str]]:
    """Replace code spans by placeholders (their content is literal), honouring escapes."""
    out: list[str] = []
    spans: list[str] = []
    i = 0
    while i < len(line):
        if line[i] == "\\" and i + 1 < len(line):
            out.append(line[i : i + 2])
            i += 2
            continue
        if line[i] == "`":
            j = i
            while j < len(line) and line[j] == "`":
                j += 1
            fence = line[i:j]
            close = re.compile(rf"(?<!`){fence}(?!`)").search(line, j)
            if close:
                content = line[j : close.start()]
                if content.startswith(" ") and content.endswith(" ") and content.strip():
                    content = content[1:-1]
                spans.append(content)
                out.append(f"\x00{len(spans) - 1}\x00")
                i = close.end()
                continue
            out.append(fence)
            i = j
            continue
        out.append(line[i])
        i += 1
    return "".join(out), spans


def inline_to_text(line: str) -> str:
    """One line of generated Markdown → what a reader sees."""
    text, spans = _protect_code_spans(line)
    text = _ADMONITION.sub(r"\1", text)
    # A status badge reads "label value"; the seeds write "label: value".
    text = _STATUS_LABEL.sub(lambda m: m.group(1) + ": ", text)
    text = _LINK.sub(lambda m: m.group(1), text)
    text = _INLINE_TAG.sub("", text)
    text = _TAG.sub(" ", text)
    text = _ATTR_LIST.sub("", text)
    text = text.replace("**", "")
    text = _ESCAPED.sub(r"\1", text)
    text = html.unescape(text)
    return re.sub("\x00(\\d+)\x00", lambda m: spans[int(m.group(1))], text)


# A run of consecutive IDs shown as a range (``RTE-1–RTE-3``) names every ID in its title.
_ID_RANGE = re.compile(r'<span class="kb-id-range" title="([^"<>]*)">.*?</span>')


def markdown_to_text(markdown: str) -> str:
    """Generated Markdown → plain text with normalised whitespace; table cells joined by
    spaces, and an ID range read as the IDs it names."""
    lines = _ID_RANGE.sub(r"\1", markdown).split("\n")
    if lines and lines[0] == "---":
        lines = lines[lines.index("---", 1) + 1 :]
    out: list[str] = []
    fence: str | None = None
    for line in lines:
        if fence is not None:
            if line.strip() == fence:
                fence = None
            else:
                out.append(line)
            continue
        opening = _FENCE.match(line)
        if opening:
            fence = opening.group(1)
            continue
        stripped = line.strip()
        if stripped.startswith("|") and stripped.endswith("|") and len(stripped) > 1:
            cells = re.split(r"(?<!\\)\|", stripped[1:-1])
            if not all(_TABLE_RULE.fullmatch(cell) for cell in cells):
                out.append(" ".join(inline_to_text(cell.strip()) for cell in cells))
            continue
        out.append(inline_to_text(re.sub(r"^#+\s+", "", stripped)))
    return _normalise(" ".join(out))


def _normalise(text: str) -> str:
    return " ".join(text.split())


def _table_headers(markdown: str) -> set[str]:
    """The header rows of the Markdown tables of a page, as plain text."""
    lines = markdown.split("\n")
    return {
        markdown_to_text(lines[index - 1])
        for index, line in enumerate(lines)
        if index and re.fullmatch(r"\|(\s*:?-+:?\s*\|)+", line.strip())
    }


# ---------------------------------------------------------------- seed → sentences

# "OBJ-20 — Label: body" declares a record inline; "RTE-10 memory amendment — body"
# declares an amendment. The site shows the lead-in as a heading, apart from the body.
_ID_LEAD = re.compile(r"^(?P<id>\S+)(?P<label>(?: [^—:]+?)?) — (?P<rest>.*)$")
_LIST_MARKER = re.compile(r"^(?:•|[0-9]+\.)\s+")


def _is_heading(line: str) -> bool:
    """A bare section heading: short, capitalised, no sentence punctuation, no 'Label: value'."""
    words = line.split()
    return (
        len(words) <= 8
        and (line[0].isupper() or line[0].isdigit())
        and not re.search(r"[.:;!?,)\"”]$", line)
        and ": " not in line
        and " --- " not in line
    )


def seed_sentences(seed: str, table_headers: set[str]) -> list[tuple[int, str]]:
    """(line number, sentence) for every sentence of a seed the site must show.

    Ignored: the title line, the "Type: …" line, bare section headings and table header
    rows. Table rows (tab-separated, or flattened Markdown pipe tables) are compared
    cell by cell; quotations ("text --- path") as quote and path.
    """
    units: list[tuple[int, str]] = []
    previous_tabbed = False
    for number, raw in enumerate(seed.split("\n"), 1):
        line = raw.strip()
        tabbed = "\t" in raw
        header_row = tabbed and not previous_tabbed
        previous_tabbed = tabbed
        if not line or number == 1 or line.startswith("Type: ") or header_row:
            continue
        if _normalise(line) in table_headers or (not tabbed and _is_heading(line)):
            continue
        if tabbed:
            cells = raw.split("\t")
        elif line.startswith("|"):
            cells = line.split("|")
        else:
            cells = [line]
        for cell in cells:
            cell = _LIST_MARKER.sub("", cell.strip())
            if cell.startswith("Label: "):  # shown as the record heading "ID — label"
                cell = cell[len("Label: ") :]
            for part in cell.split(" --- "):
                for index, sentence in enumerate(part.split(". ")):
                    sentence = _normalise(sentence)
                    if sentence:
                        units.extend((number, unit) for unit in _lead_in(sentence, first=index == 0))
    return units


def _lead_in(sentence: str, first: bool) -> list[str]:
    lead = _ID_LEAD.match(sentence) if first else None
    if lead is None or not grammar().in_text.fullmatch(lead["id"]):
        return [sentence]
    if lead["label"]:  # an amendment: shown as 'Amendment: <label>' above its body
        return [f"Amendment:{lead['label']} {lead['rest']}"]
    heading, colon, body = lead["rest"].partition(": ")
    return [f"{lead['id']} — {heading}", *([body] if colon else [])]


def _rendered_text(pipeline: PipelineResult, slug: str) -> tuple[str, set[str]]:
    pages = _seed_pages(pipeline, slug)
    assert pages, f"no pages rendered for {slug}"
    text = " ".join(markdown_to_text(md) for _, md in sorted(pages.items()))
    headers = set().union(*(_table_headers(md) for md in pages.values()))
    return text, headers


# ---------------------------------------------------------------- record IDs


@pytest.mark.parametrize("slug", SYSTEMS)
def test_every_id_in_the_seed_is_declared(slug: str, pipeline: PipelineResult) -> None:
    seed = _seed(slug)
    graph = _graph(pipeline, slug)
    declared = {r.id for r in graph.records_in_id_order} | {s.id for s in graph.supplied_in_id_order}
    written = _ids_in(seed)
    undeclared = sorted(written - declared - LENS_LOCAL_TAGS[slug])
    assert undeclared == [], f"IDs written in the {slug} seed but declared nowhere: {undeclared}"


def test_lens_local_tags_are_not_records(pipeline: PipelineResult) -> None:
    seed = _seed("oh-my-pi")
    graph = _graph(pipeline, "oh-my-pi")
    declared = {r.id for r in graph.records_in_id_order} | {s.id for s in graph.supplied_in_id_order}
    tags = {token for token in _ids_in(seed) if token.startswith("MEM-")}
    assert tags == LENS_LOCAL_TAGS["oh-my-pi"]
    assert {"MEM-CMP-1", "MEM-OBJ-5", "MEM-RTE-13", "MEM-BAP-4"} <= tags
    assert tags & declared == set()
    # Kept literal on the page: provenance, never a link.
    result_md = _seed_pages(pipeline, "oh-my-pi")[f"systems/{graph.slug}/result.md"]
    for tag in sorted(tags):
        assert tag in result_md
        assert f"[{tag}](" not in result_md


@pytest.mark.parametrize("slug", SYSTEMS)
def test_no_record_is_invented(slug: str, pipeline: PipelineResult) -> None:
    seed = _seed(slug)
    graph = _graph(pipeline, slug)
    written = _ids_in(seed)
    invented = sorted({r.id for r in graph.records_in_id_order} - written)
    assert invented == [], f"records declared for {slug} that its seed never names: {invented}"
    invented_supplied = sorted({s.id for s in graph.supplied_in_id_order} - written)
    assert invented_supplied == [], f"supplied IDs the {slug} seed never names: {invented_supplied}"


# ---------------------------------------------------------------- evidence anchors


@pytest.mark.parametrize("slug", SYSTEMS)
def test_every_seed_anchor_is_recorded(slug: str, pipeline: PipelineResult) -> None:
    seed = _seed(slug)
    written = {(a.source, a.path, a.ranges) for a in find_anchors(seed)}
    assert written, f"no evidence anchors found in the {slug} seed"
    missing = sorted(written - _record_anchors(_system(pipeline, slug)), key=str)
    assert missing == [], "anchors written in the seed but in no record:\n" + "\n".join(
        f"  {source} {path}:{','.join(map(str, ranges))}" for source, path, ranges in missing
    )


# ---------------------------------------------------------------- counts


def _counts(system: SystemRecords) -> dict[str, int]:
    by_kind = Counter(kind_of(record.id) for record in system.records)
    counts = {spec.plural: by_kind[spec.code] for spec in registered()}
    counts["limitations"] = len(system.limitations)
    counts["supplied"] = len(system.supplied)
    counts["annotations"] = len(system.annotations)
    return counts


@pytest.mark.parametrize("slug", SYSTEMS)
def test_record_counts_are_pinned(slug: str, pipeline: PipelineResult) -> None:
    assert _counts(_system(pipeline, slug)) == EXPECTED_COUNTS[slug]


def test_kbgen_check_prints_the_pinned_counts(kbgen, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(REPO_ROOT)
    payload = kbgen("check", "records", "--format", "json").json()
    # A system's further runs are listed with their run folder; the seeds are the systems' own.
    counts = {system["slug"]: system["counts"] for system in payload["systems"] if "run_folder" not in system}
    # records/ also holds systems that are not seeds (the imported reference report).
    assert {slug: counts[slug] for slug in EXPECTED_COUNTS} == EXPECTED_COUNTS


def _seed_limitation_rows(seed: str) -> int:
    """Rows of the seed's Limitations table: tab-separated rows plus flattened pipe rows."""
    lines = seed.split("\n")
    start = lines.index("Limitations") + 1
    end = lines.index("Verification and blockers")
    rows = 0
    for line in lines[start:end]:
        if "\t" in line:
            rows += 1
        elif line.startswith("|"):
            rows += line.count("| |") + 1
    return rows - 1  # the header row


@pytest.mark.parametrize("slug", SYSTEMS)
def test_pinned_counts_match_the_seed(slug: str) -> None:
    seed = _seed(slug)
    written = _ids_in(seed) - LENS_LOCAL_TAGS[slug]
    # Decapod's own records carry its MEM- prefix; every other ID it cites is supplied.
    own = {i for i in written if i.startswith("MEM-")} if slug == "decapod" else written
    by_kind = Counter(kind_of(record_id) for record_id in own)
    counts = {spec.plural: by_kind[spec.code] for spec in registered()}
    counts["limitations"] = _seed_limitation_rows(seed) if slug == "oh-my-pi" else 0
    counts["supplied"] = len(written - own)
    counts["annotations"] = len(re.findall(r"^On \S+$", seed, re.MULTILINE))
    assert counts == EXPECTED_COUNTS[slug]


# ---------------------------------------------------------------- sentences reach the site


@pytest.mark.parametrize("slug", SYSTEMS)
def test_every_seed_sentence_reaches_the_site(slug: str, pipeline: PipelineResult) -> None:
    seed = _seed(slug)
    text, headers = _rendered_text(pipeline, slug)
    sentences = seed_sentences(seed, headers)
    assert len(sentences) > 400, "the seed was not split into sentences"
    missing: list[str] = []
    used: set[tuple[str, str]] = set()
    for number, sentence in sentences:
        rendered = KNOWN_RENDERINGS.get((slug, sentence))
        if rendered is not None:
            used.add((slug, sentence))
            if rendered not in text:
                missing.append(f"  line {number}: {sentence}\n    (expected as: {rendered})")
        elif sentence not in text:
            missing.append(f"  line {number}: {sentence}")
    assert missing == [], f"{len(missing)} {slug} seed sentence(s) missing from the rendered pages:\n" + (
        "\n".join(missing)
    )
    stale = sorted(key for key in KNOWN_RENDERINGS if key[0] == slug and key not in used)
    assert stale == [], f"KNOWN_RENDERINGS entries no seed sentence uses: {stale}"


def test_sentence_check_detects_a_changed_sentence(pipeline: PipelineResult) -> None:
    """The comparison is not vacuous: an altered or foreign sentence is reported missing."""
    text, _ = _rendered_text(pipeline, "oh-my-pi")
    assert "The commit was available locally and dated 2026-09-05" in text
    assert "The commit was available locally and dated 2026-09-06" not in text
    decapod_text, _ = _rendered_text(pipeline, "decapod")
    assert "Requested delivery dominates inspected agent memory routes" in decapod_text
    assert "Requested delivery dominates inspected agent memory routes" not in text


def test_markdown_to_text_reads_like_the_page() -> None:
    markdown = (
        "---\ntype: x\n---\n"
        "#### RTE-1 — Label { #rte-1 .kb-record }\n\n"
        '<span class="kb-status-label">implementation conclusion status</span> '
        '[wired](../../glossary.md#w){ .kb-badge title="t" }\n\n'
        "**Owner:** [CMP-1](#cmp-1) \\*a\\_b\\* &lt;b&gt; \\{\\{ x \\}\\} `a\\_b <i>`\n\n"
        "| A | B |\n| --- | ---: |\n| x \\| y | z<br><br>w |\n\n"
        "```text\nlet q = 1;\n```\n"
    )
    assert markdown_to_text(markdown) == (
        "RTE-1 — Label implementation conclusion status: wired "
        "Owner: CMP-1 *a_b* <b> {{ x }} a\\_b <i> A B x | y z w let q = 1;"
    )


def test_seed_sentences_split_cells_quotes_and_inline_records() -> None:
    seed = (
        "Title\n\nType: kb/types/x.md\n\nSection heading\n\n"
        "ID\tName\tNote\nCMP-1\tLoop\tFirst. Second.\n\n"
        "OBJ-20 — Retained messages: raw content. More.\n"
        "RTE-10 memory amendment — OBJ-45 adds names. Done.\n"
        "  • implementation conclusion status: wired\n"
        'let q = format!("%{query}%"); --- src/lib.rs\n'
        "| A | B | | C | D |\n"
    )
    assert [unit for _, unit in seed_sentences(seed, set())] == [
        "CMP-1",
        "Loop",
        "First",
        "Second.",
        "OBJ-20 — Retained messages",
        "raw content",
        "More.",
        "Amendment: memory amendment OBJ-45 adds names",
        "Done.",
        "implementation conclusion status: wired",
        'let q = format!("%{query}%");',
        "src/lib.rs",
        "A",
        "B",
        "C",
        "D",
    ]


# ---------------------------------------------------------------- kbgen check


def test_kbgen_check_records_reports_nothing(kbgen, monkeypatch: pytest.MonkeyPatch) -> None:
    """The seeds' two ranges (RTE-21–RTE-29, RTE-24–RTE-28) span declared routes only, so
    they cite each (no KB205), and the whole KB checks strictly clean."""
    monkeypatch.chdir(REPO_ROOT)
    result = kbgen("check", "records", "--strict", "--format", "json")
    assert result.json()["diagnostics"] == []
    assert result.code == 0
