"""Hostile documents against the import's census: a form the importer does not read lowers
a figure and is listed at its line (it never disappears), a paragraph cannot hand its
structure to a record it does not name alone, evidence pinned at a commit never invents a
source, and counting stays linear in the document."""

from __future__ import annotations

import pytest

from generator.importer import render_measured
from generator.importer.census import census, counts

COMMIT = "0123456789abcdef0123456789abcdef01234567"
OTHER = "fedcba9876543210fedcba9876543210fedcba98"
HEAD = (
    "---\ntype: kb/types/agentic-system-analysis-result.md\nrun-id: AAS-2026-01-01-x-01\nsystem: X\n"
    f"run-date: '2026-01-01'\nreviewed-boundary: {COMMIT}\n---\n\n# X agentic-system analysis\n\n"
    "## Source register\n\n| Source ID | Kind | Identity/location | Revision |\n|---|---|---|---|\n"
    f"| SRC-1 | Git | `https://github.com/e/x` | `{COMMIT}` |\n\n## Shared records\n\n### Routes\n\n"
)


def _losses(body: str) -> list[tuple[int, str, str, str]]:
    measured = render_measured(HEAD + body, "doc.md", "x")
    return [(loss.line, loss.figure, loss.record_id, loss.stated) for loss in measured.structure.losses]


def _line(body: str, needle: str) -> int:
    return (HEAD + body).splitlines().index(next(x for x in (HEAD + body).splitlines() if needle in x)) + 1


# ---------------------------------------------------------------- an unread form lowers a figure


@pytest.mark.parametrize(
    ("body", "needle", "figure", "stated"),
    [
        # A status clause the importer reads nowhere: a status after 'Status —' in a list item.
        (
            "#### RTE-1 — Save\n- Status — wired; nothing observed.\n- Status: implementation wired.\n"
            "- Notes: the implementation conclusion status: observed, by the way\n",
            "Notes:",
            "statuses",
            "the implementation conclusion status: observed",
        ),
        # A backticked path with lines that no source names (no lead-in, no source ID).
        (
            "#### RTE-1 — Save\nThe write is in `src/save.py:3-9`.\n",
            "src/save.py",
            "anchors",
            "src/save.py:3-9",
        ),
        # A quotation whose attribution the importer cannot place in the record.
        (
            "RTE-1 — Save\n\n- Evidence: `src/save.py` @ `" + OTHER + "`.\n",
            "src/save.py",
            "anchors",
            "src/save.py",
        ),
    ],
)
def test_a_construct_no_form_keeps_is_counted_and_listed_at_its_line(
    body: str, needle: str, figure: str, stated: str
) -> None:
    losses = _losses(body)
    assert (_line(body, needle), figure, "RTE-1", stated) in losses


# ---------------------------------------------------------------- follow-ups name one record


@pytest.mark.parametrize(
    "follow",
    [
        "For RTE-1, RTE-2 and RTE-3, operation conclusion status: observed.",
        "For RTE-1, the write is local; RTE-2 is the read. Operation conclusion status: observed.",
        "For RTE-9, a record nobody declares. Operation conclusion status: observed.",
        "For SRC-1, the source. Operation conclusion status: observed.",
    ],
)
def test_a_follow_up_gives_nothing_to_a_record_it_does_not_name_alone(follow: str) -> None:
    body = "RTE-1 — Save. The loop saves.\n\nRTE-2 — Read. The loop reads.\n\n" + follow + "\n"
    measured = render_measured(HEAD + body, "doc.md", "x")
    routes = measured.files["routes.yaml"]
    assert "observed" not in routes.split("routes:", 1)[1].split("- id: RTE-2")[0].replace("observed.", "")
    assert "operation conclusion status: observed" not in routes
    # No record of the census holds it silently: either no one's (not counted) or lost at its line.
    assert all(loss.record_id not in ("RTE-1", "RTE-2") for loss in measured.structure.losses)


# ---------------------------------------------------------------- a pin never invents a source


@pytest.mark.parametrize(
    "evidence",
    [
        f"- Evidence: `src/a.rs` @ `{OTHER}`.",  # no source at that commit
        f"- Evidence: `src/a.rs` @ `{COMMIT[:12]}`.",  # an abbreviated commit pins nothing
        f"- Evidence: `src/a.rs` @ `{COMMIT}` (`SRC-7`).",  # a pin wins; SRC-7 is never made up
        "- Evidence: `src/a.rs` (`SRC-7`).",  # a source the document does not declare
    ],
)
def test_evidence_pinned_where_no_declared_source_is_gets_no_source(evidence: str) -> None:
    body = "#### RTE-1 — Save\n" + evidence + "\n"
    measured = render_measured(HEAD + body, "doc.md", "x")
    routes = measured.files["routes.yaml"]
    assert "SRC-1 src/a.rs" not in routes or evidence.endswith(f"`{COMMIT}` (`SRC-7`).")
    assert "SRC-7 src/a.rs" not in routes or "SRC-7" in evidence


def test_two_sources_at_one_commit_leave_a_pinned_path_unassigned() -> None:
    register = f"| SRC-2 | Git | `https://github.com/e/x` | `{COMMIT}` |\n"
    head = HEAD.replace(f"`{COMMIT}` |\n\n", f"`{COMMIT}` |\n{register}\n", 1)
    body = f"#### RTE-1 — Save\n- Evidence: `src/a.rs` @ `{COMMIT}`.\n"
    measured = render_measured(head + body, "doc.md", "x")
    assert "src/a.rs\n" not in measured.files["routes.yaml"].split("evidence:", 1)[-1]
    assert any(loss.stated == "src/a.rs" for loss in measured.structure.losses)


# ---------------------------------------------------------------- linear


@pytest.mark.parametrize(
    "unit",
    [
        "For RTE-1, " + "x " * 40 + "\n\n",
        "- Status: implementation wired; " + "y " * 30 + "\n",
        "- Evidence: " + "`a.rs`, " * 30 + f"@ `{COMMIT}`\n",
        "RTE-1 — Label\n\n",
    ],
)
def test_counting_grows_with_the_document_alone(unit: str) -> None:
    # Ten times the units, ten times the constructs: each unit is counted on its own, never
    # against the others (the time it takes, 10 KB against 1 MB, is benchmarks/linear.py's).
    def counted(copies: int) -> dict[str, int]:
        return counts(census(HEAD + "#### RTE-1 — Save\n" + unit * copies))

    base = counted(0)
    small, large = counted(200), counted(2000)
    assert {k: large[k] - base[k] for k in large} == {k: 10 * (small[k] - base[k]) for k in small}


# ---------------------------------------------------------------- outside any record


def test_what_a_sections_own_prose_states_is_counted_apart() -> None:
    # A synthesis quoting a file and citing lines is no record's structure: the summary
    # says how much of it there is, beside the records' figures, never inside them.
    synthesis = (
        "## Bounded synthesis\n\n"
        "The loop is wired (`src/a.rs:1-9`); implementation conclusion status: wired.\n\n"
        f"> let x = 1;\n> --- `src/a.rs:3-4` @ `{COMMIT}`\n"
    )
    measured = render_measured(HEAD + "#### RTE-1 — Save\n\n" + synthesis, "doc.md", "x")
    structure = measured.structure
    assert dict(structure.outside) == {"quotations": 1, "anchors": 1, "statuses": 1}
    assert structure.stated["quotations"] == 0 and structure.losses == []
    assert structure.summary().endswith(
        "(outside any record, kept as section text: quotations 1, anchors 1, statuses 1)"
    )
    assert counts(census(HEAD + synthesis)) == counts(census(HEAD))
