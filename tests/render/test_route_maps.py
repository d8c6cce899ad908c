"""Route maps: edges from structured relations only, families drawn whole, nodes labelled
and linked, unrelated routes listed, Mermaid source that record text cannot break.

The fixture is the clean demo system plus ``maps.yaml`` (below): a field of each
structured kind, a component whose label names its routes, an annotation on a route
declared elsewhere, and prose in every free text field naming IDs that must draw nothing.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from hostile_support import make_records
from map_support import maps_of

from generator.pipeline import PipelineResult, run_pipeline
from generator.render import mermaid
from generator.render.route_maps import MAP_NODES

SYSTEM_PAGE = "systems/demo/index.md"
MAPS = """\
components:
  - id: CMP-2
    label: Summarizer, used by RTE-3 and RTE-4
    body: Prose that names RTE-5 draws nothing.
objects:
  - id: OBJ-1
    label: Note
    form: Written by RTE-5, in prose.
routes:
  - id: RTE-3
    label: Write the note
    reads: [OBJ-1]
    writes: [OBJ-1]
    progression: prompt → CMP-1 → OBJ-1 (SRC-1 src/agent.py:1-2)
    body: Prose that names RTE-5 draws nothing.
  - id: RTE-4
    label: Summary branch
    alternative_to: [RTE-3]
    part_of: RTE-3
  - id: RTE-5
    label: Mentioned only
    body: Prose names RTE-3 and OBJ-1.
    remarks: So do the remarks, RTE-4 and CMP-2.
supplied:
  - id: RT-RTE-elsewhere
    declared_in: runtime member
    label: Elsewhere route
annotations:
  - target: RT-RTE-elsewhere
    body: A note on the route declared elsewhere, naming RTE-5 in prose.
"""
# A node statement and an edge statement: nothing else may be a line of a map's source.
_TEXT = r'[^"<>&#%\[\]{}|`*\\~\n]*'
NODE_LINE = re.compile(
    rf'  n\d+(?:\(\["|>"|\["){_TEXT}(?:<br>{_TEXT})*(?:"\]\)|"\]):::kb-(?:route|record|elsewhere|note)'
)
EDGE_LINE = re.compile(r"  n\d+ (?:-->|-\.->)(?:\|[a-z ,-]+\|)? n\d+")


def _pipeline(tmp_path: Path, files: dict[str, str | bytes | None]) -> PipelineResult:
    records = make_records(tmp_path, files)
    result = run_pipeline(records, tmp_path)
    assert result.errors == []
    return result


@pytest.fixture
def demo(tmp_path: Path) -> PipelineResult:
    return _pipeline(tmp_path, {"maps.yaml": MAPS})


def _statements(source: str) -> list[str]:
    lines = source.rstrip("\n").split("\n")
    assert lines[0] == "flowchart LR"
    return lines[1:]


def test_every_structured_relation_is_an_edge_and_prose_draws_none(demo: PipelineResult) -> None:
    (drawn,) = maps_of(demo.pages[SYSTEM_PAGE])
    assert sorted(drawn.edges) == [
        ("On RT-RTE-elsewhere", "", "RT-RTE-elsewhere", True),
        ("RTE-1", "owner, progression", "CMP-1", False),
        ("RTE-3", "progression", "CMP-1", False),
        ("RTE-3", "reads, writes, progression", "OBJ-1", False),  # not SRC-1: evidence
        ("RTE-3", "uses", "CMP-2", False),
        ("RTE-4", "part of, alternative to", "RTE-3", False),
        ("RTE-4", "uses", "CMP-2", False),
    ]


def test_routes_without_a_relation_are_listed_beside_the_maps(demo: PipelineResult) -> None:
    page = demo.pages[SYSTEM_PAGE]
    aside = page[page.index('<aside class="kb-route-maps__unrelated">') : page.index("</aside>")]
    assert '<a href="result/#rte-2">RTE-2</a> — Read-back' in aside
    assert '<a href="result/#rte-5">RTE-5</a> — Mentioned only' in aside
    assert aside.count("<li>") == 2
    (drawn,) = maps_of(page)
    assert "RTE-5" not in {text.split(" — ")[0] for _, text in drawn.nodes.values()}


def test_each_node_shows_its_label_and_links_to_its_record(demo: PipelineResult) -> None:
    (drawn,) = maps_of(demo.pages[SYSTEM_PAGE])
    assert sorted(drawn.nodes.values()) == [
        # Without a memory report, annotations are on the system page.
        ("#on-rt-rte-elsewhere", "On RT-RTE-elsewhere — annotation in the system page"),
        ("#rt-rte-elsewhere", "RT-RTE-elsewhere — Elsewhere route"),
        ("result/#cmp-1", "CMP-1 — Agent loop"),
        ("result/#cmp-2", "CMP-2 — Summarizer, used by RTE-3 and RTE-4"),
        ("result/#obj-1", "OBJ-1 — Note"),
        ("result/#rte-1", "RTE-1 — Prompt to answer"),
        ("result/#rte-3", "RTE-3 — Write the note"),
        ("result/#rte-4", "RTE-4 — Summary branch"),
    ]
    assert '  n1["CMP-1<br>Agent loop"]:::kb-record' in _statements(drawn.source)
    # The source holds no link: kb-maps.js wraps each drawn node in the list's link.
    assert "click" not in drawn.source and "href" not in drawn.source


def test_a_family_is_drawn_whole_and_small_families_share_a_map(tmp_path: Path) -> None:
    # Ten routes, each with an owner of its own: ten families of two nodes.
    components = "".join(f"  - id: CMP-{n}\n    label: Owner {n}\n" for n in range(10, 20))
    routes = "".join(f"  - id: RTE-{n}\n    label: Route {n}\n    owner: CMP-{n}\n" for n in range(10, 20))
    # Fourteen routes owned by one component: a family larger than a map's share.
    routes += "".join(f"  - id: RTE-{n}\n    label: Shared {n}\n    owner: CMP-9\n" for n in range(30, 44))
    components += "  - id: CMP-9\n    label: Shared owner\n"
    result = _pipeline(tmp_path, {"maps.yaml": f"components:\n{components}routes:\n{routes}"})
    drawn = maps_of(result.pages[SYSTEM_PAGE])
    sizes = [len(m.nodes) for m in drawn]
    # RTE-1's family and five more, the other five, then the big family whole.
    assert sizes == [MAP_NODES, 10, 15]
    assert sum(len(m.edges) for m in drawn) == 1 + 10 + 14
    # Every owner edge of the big family is in one map.
    assert {edge[2] for edge in drawn[-1].edges} == {"CMP-9"}


HANDOFFS = """\
routes:
  - id: RTE-3
    label: Hand-off
    fields:
      immediate_return: the result goes to RTE-4.
      later_read_back: RTE-5 reads it on the next turn.
      delegated_visibility: inapplicable — RTE-5 delegates nothing.
      selection_predicate: every turn.
      invalidation_or_expiry: uninspected — not traced.
      activation_or_effect: uninspected — no run observed.
      evidence_limits: RTE-4 and RTE-5 were read statically.
    body: 'Prose: RTE-6 reads it back too.'
  - id: RTE-4
    label: Caller
  - id: RTE-5
    label: Next turn
  - id: RTE-6
    label: Named in prose only
"""


def test_labelled_fields_draw_edges_labelled_by_their_field(tmp_path: Path) -> None:
    page = _pipeline(tmp_path, {"maps.yaml": HANDOFFS}).pages[SYSTEM_PAGE]
    (drawn,) = maps_of(page)  # two small families share the map
    assert sorted(drawn.edges) == [
        ("RTE-1", "owner, progression", "CMP-1", False),
        ("RTE-3", "immediate return", "RTE-4", False),
        ("RTE-3", "later read-back", "RTE-5", False),
    ]
    assert "|later read-back|" in drawn.source  # an edge's label is its field's
    assert all(EDGE_LINE.fullmatch(line) or NODE_LINE.fullmatch(line) for line in _statements(drawn.source))
    aside = page[page.index('<aside class="kb-route-maps__unrelated">') : page.index("</aside>")]
    assert "RTE-6</a>" in aside  # named in prose only: listed, not drawn


def _chain(first: int, count: int) -> str:
    """Routes each handing its result to the next (their seven labelled fields stated)."""
    rest = (
        "      later_read_back: inapplicable — nothing kept.\n"
        "      delegated_visibility: inapplicable — no workers.\n"
        "      selection_predicate: every turn.\n"
        "      invalidation_or_expiry: uninspected — not traced.\n"
        "      activation_or_effect: uninspected — no run observed.\n"
        "      evidence_limits: static reading only.\n"
    )
    return (
        "".join(
            f"  - id: RTE-{n}\n    label: Step {n}\n    fields:\n"
            f"      immediate_return: the result goes to RTE-{n + 1}.\n{rest}"
            for n in range(first, first + count - 1)
        )
        + f"  - id: RTE-{first + count - 1}\n    label: Last step\n"
    )


def test_a_map_of_routes_alone_runs_top_to_bottom(tmp_path: Path) -> None:
    # A chain of twelve routes: a family too large to share RTE-1's map.
    page = _pipeline(tmp_path, {"maps.yaml": "routes:\n" + _chain(10, MAP_NODES)}).pages[SYSTEM_PAGE]
    with_records, routes_only = maps_of(page)
    # A route and the records it relates: routes on the left, the records on the right.
    assert with_records.source.startswith("flowchart LR\n")
    # Route to route hand-offs form a chain: drawn down the page, it keeps the article's width.
    assert routes_only.source.startswith("flowchart TB\n")
    assert len(routes_only.edges) == MAP_NODES - 1
    assert {label for _, label, _, _ in routes_only.edges} == {""}  # one kind: said in the caption
    assert "(every arrow from a route: immediate return)" in page


def test_maps_are_deterministic(tmp_path: Path, demo: PipelineResult) -> None:
    again = _pipeline(tmp_path / "again", {"maps.yaml": MAPS})
    assert again.pages[SYSTEM_PAGE] == demo.pages[SYSTEM_PAGE]


def test_a_system_without_routes_has_no_maps(tmp_path: Path) -> None:
    clean = Path(make_records(tmp_path)) / "demo"
    text = (clean / "records.yaml").read_text(encoding="utf-8")
    (clean / "records.yaml").write_text(text[: text.index("routes:")], encoding="utf-8")
    result_yaml = (clean / "result.yaml").read_text(encoding="utf-8")
    result_yaml = result_yaml.replace("    routes:\n      blocks:\n        - records: [RTE-1]\n", "")
    result_yaml = result_yaml.replace("A prompt moves through RTE-1.", "A prompt moves through the loop.")
    (clean / "result.yaml").write_text(result_yaml, encoding="utf-8")
    result = run_pipeline(clean.parent, tmp_path)
    assert result.errors == []
    assert "## Route maps" not in result.pages[SYSTEM_PAGE]
    assert 'class="kb-map"' not in result.pages[SYSTEM_PAGE]


# ---------------------------------------------------------------- the Mermaid source


HOSTILE_LABELS = [
    'x"]) click n0 href "javascript:alert(1)" %%',
    "<img src=x onerror=alert(1)> & <script>alert(1)</script>",
    "#quot; #60;script#62; #35;",
    "ﬂ°°60¶ßscriptﬂ°°62¶ß",
    '%%{init: {"securityLevel": "loose"}}%%',
    "a\nclick n0 call alert()\nb",
    "line\r\nstyle n0 fill:#f00;",
    "[x] {y} |z| `code` **bold** _em_ ~strike~ back\\slash",
    "bidi \u202eevil\u202c zero\u200bwidth \x00nul\x07bell",
    "end",
    "fa:fa-spin fab:fa-github fas:fa-user far:fa-bell fal:fa-cog",
    "$$x^2$$ $$\\frac{1}{2}$$",
    '"`**markdown string**`"',
    "ﬂ°°35¶ß",
]


@pytest.mark.parametrize("label", HOSTILE_LABELS)
def test_a_label_keeps_to_the_safe_subset(label: str) -> None:
    safe = mermaid.safe_label(label)
    assert not set(safe) & set('"<>&#%[]{}|`*_~\\\n\r\x00\x07\u202e\u202c\u200bﬂ:$¶')
    assert safe == safe.strip() and "  " not in safe
    statement = mermaid.node("n0", ["RTE-1", safe], "route", "kb-route")
    assert NODE_LINE.fullmatch(statement), statement


def test_safe_labels_keep_ordinary_text() -> None:
    assert mermaid.safe_label("Prompt → provider, tool/result (loop); ok? “quoted” café") == (
        "Prompt → provider, tool/result (loop); ok? “quoted” café"
    )
    assert mermaid.safe_label('say "hi" <b>') == "say 'hi' ‹b›"


def test_map_labels_wrap_whole_onto_short_lines() -> None:
    assert mermaid.label_lines("Short label") == ["Short label"]
    assert mermaid.label_lines("Local memory extraction and consolidation model roles") == [
        "Local memory extraction and",
        "consolidation model roles",
    ]
    assert mermaid.label_lines("x" * 60) == ["x" * 28, "x" * 28, "x" * 4]
    assert mermaid.label_lines("  ") == []


def test_hostile_record_labels_cannot_add_a_statement(tmp_path: Path) -> None:
    # Records refuse control characters (KB012) and labels of several lines (KB109): the
    # rest reaches the renderer.
    labels = [" ".join(label.replace("\x00", "").replace("\x07", "").split()) for label in HOSTILE_LABELS]
    components = "".join(
        f"  - id: CMP-{n}\n    label: {_yaml_string(label + ', used by RTE-1')}\n"
        for n, label in enumerate(labels, start=10)
    )
    routes = "".join(
        f"  - id: RTE-{n}\n    label: {_yaml_string(label)}\n    owner: CMP-1\n"
        for n, label in enumerate(labels, start=10)
    )
    result = _pipeline(tmp_path, {"maps.yaml": f"components:\n{components}routes:\n{routes}"})
    drawn = maps_of(result.pages[SYSTEM_PAGE])
    statements = [line for m in drawn for line in _statements(m.source)]
    assert all(NODE_LINE.fullmatch(line) or EDGE_LINE.fullmatch(line) for line in statements), statements
    node_count = sum(1 for line in statements if NODE_LINE.fullmatch(line))
    assert node_count == 1 + 1 + 2 * len(HOSTILE_LABELS)  # RTE-1, CMP-1, the hostile routes and parts
    page = result.pages[SYSTEM_PAGE]
    # The full labels reach the page only as escaped HTML text of the node links.
    assert "<img" not in page and "<script" not in page
    assert "&lt;img src=x onerror=alert(1)&gt; &amp; &lt;script&gt;" in page


def _yaml_string(text: str) -> str:
    """A YAML double-quoted scalar (JSON is one) holding ``text`` exactly."""
    return json.dumps(text)


def test_a_map_of_routes_declared_elsewhere_is_titled_by_them(tmp_path: Path) -> None:
    # Twelve related records fill the first map; the annotation on a route declared
    # elsewhere is a family of its own, on a second map with no route of the system.
    routes = "".join(f"  - id: RTE-{n}\n    label: Route {n}\n    owner: CMP-1\n" for n in range(10, 20))
    notes = (
        "supplied:\n  - id: RT-RTE-far\n    declared_in: runtime member\n"
        "annotations:\n  - target: RT-RTE-far\n    body: A note.\n"
    )
    result = _pipeline(tmp_path, {"maps.yaml": f"routes:\n{routes}{notes}"})
    page = result.pages[SYSTEM_PAGE]
    assert "<figcaption>Map 2: RT-RTE-far</figcaption>" in page
    assert [len(m.nodes) for m in maps_of(page)] == [MAP_NODES, 2]


def test_mermaid_s_icon_and_math_forms_become_look_alike_text() -> None:
    """``fa:fa-spin`` draws a Font Awesome icon and ``$$…$$`` KaTeX math: their colon and
    dollar signs become look-alikes (tests/browser/test_map_label_grammar.py draws every
    kept pair through Mermaid)."""
    assert mermaid.safe_label("fa:fa-spin $$x^2$$") == "fa∶fa-spin ＄＄x^2＄＄"
    assert ":" not in mermaid.KEPT and "$" not in mermaid.KEPT
