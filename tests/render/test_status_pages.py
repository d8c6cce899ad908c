"""Each status fixture's page: every status as its badge with its qualifier as text after it,
none for a claim without one, one status-matrix row for a label renamed between contract
versions. The check fixtures (``tests/fixtures/check/clean-statuses-*``) and the records the
import fixtures write (``tests/fixtures/import/statuses-*/expected``) are rendered."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from generator.model.vocab import ConclusionStatus
from generator.pipeline import PipelineResult, run_pipeline

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"


def _checked(name: str) -> PipelineResult:
    case = FIXTURES / "check" / name
    result = run_pipeline(case / "records", case)
    assert [d.as_text() for d in result.diagnostics] == []
    return result


def _imported(name: str, tmp_path: Path) -> PipelineResult:
    system = tmp_path / "records" / "tiny"
    shutil.copytree(FIXTURES / "import" / name / "expected", system)
    result = run_pipeline(tmp_path / "records", tmp_path)
    assert [d.as_text() for d in result.diagnostics] == []
    return result


def _statuses(page: str, record_id: str) -> list[tuple[str, str, str | None]]:
    """(label, value, qualifier) of each status badge of one record's section of a page."""
    start = page.index(f"{{ #{record_id.lower()} ")
    following = re.search(r"\n#{2,6} ", page[start:])
    section = page[start : start + following.start()] if following else page[start:]
    found = []
    for match in re.finditer(
        r'<span class="kb-status-label">([^<]*)</span>: <a class="kb-badge kb-badge--[\w-]+"[^>]*>([^<]*)</a>'
        r'(?:(?:; |, | )<span class="kb-status-qualifier">([^<]*)</span>)?',
        section,
    ):
        if match.group(2) in {status.value for status in ConclusionStatus}:
            found.append((match.group(1), match.group(2), match.group(3)))
    return found


def _home(result: PipelineResult, slug: str, record_id: str = "") -> str:
    """The system's page that declares ``record_id`` (its home page when none is named)."""
    pages = [text for path, text in sorted(result.pages.items()) if path.startswith(f"systems/{slug}/")]
    anchor = f"{{ #{record_id.lower()} "
    return next(
        (text for text in pages if record_id and anchor in text), result.pages[f"systems/{slug}/index.md"]
    )


def test_a_claim_with_no_status_shows_none() -> None:
    page = _home(_checked("clean-statuses-none"), "demo")
    assert _statuses(page, "CLM-1") == []
    assert "CLM-1 — Notes help later work" in page


def test_a_claim_with_two_statuses_shows_both() -> None:
    page = _home(_checked("clean-statuses-two"), "demo")
    assert _statuses(page, "CLM-1") == [
        ("design conclusion status", "claimed", None),
        ("external implementation conclusion status", "uninspected", None),
    ]


def test_a_qualifier_after_a_semicolon_is_shown_after_its_badge() -> None:
    page = _home(_checked("clean-statuses-semicolon-qualifier"), "demo")
    assert _statuses(page, "CLM-1") == [("conclusion status", "claimed", "default off")]
    assert _statuses(page, "RTE-1") == [
        ("implementation conclusion status", "wired", "default off"),
        ("operation conclusion status", "uninspected", "no run observed"),
    ]


def _status_line_text(page: str, record_id: str) -> str:
    """The text a reader copies (or a screen reader reads) of one record's status line."""
    start = page.index(f"{{ #{record_id.lower()} ")
    line = re.search(r'<div class="kb-statuses">\n<p>(.*?)</p>', page[start:])
    assert line is not None
    return re.sub(r"<[^>]+>", "", line.group(1))


def test_a_status_line_separates_each_status_its_value_and_its_qualifier() -> None:
    page = _home(_checked("clean-statuses-semicolon-qualifier"), "demo")
    # Each status reads as its document wrote it, the qualifier after its separator
    # ('wired; default off', 'uninspected, no run observed'); statuses apart by '; '.
    assert _status_line_text(page, "RTE-1") == (
        "implementation conclusion status: wired; default off; "
        "operation conclusion status: uninspected, no run observed; guarantee: best effort"
    )
    assert _status_line_text(page, "CLM-1") == "conclusion status: claimed; default off"


def test_a_renamed_label_is_one_field_on_the_page_and_in_the_status_matrix() -> None:
    result = _checked("clean-statuses-renamed-label")
    page = _home(result, "demo")
    assert _statuses(page, "RTE-1")[1] == (
        "learning conclusion status",
        "uninspected",
        "no capacity comparison",
    )
    assert _statuses(page, "RTE-2")[1] == ("learning conclusion status", "uninspected", None)
    matrix = result.pages["systems/status-matrix.md"]
    rows = [
        re.findall(r"<td[^>]*>(.*?)</td>", row)
        for row in re.findall(r"<tr>(.*?)</tr>", matrix, flags=re.S)
        if "<td>learning" in row
    ]
    assert rows == [
        [
            '<a href="../demo/">Demo</a>',
            "learning conclusion status",
            "0",
            "0",
            '<a href="#status-demo-field-learning-conclusion-status-uninspected">2</a>',
            *["0"] * 5,
        ]
    ]


@pytest.mark.parametrize(
    ("name", "record_id", "statuses"),
    [
        pytest.param("statuses-none", "CLM-1", [], id="none"),
        pytest.param(
            "statuses-two",
            "CLM-1",
            [
                ("design conclusion status", "claimed", None),
                ("external implementation conclusion status", "uninspected", None),
            ],
            id="two",
        ),
        pytest.param(
            "statuses-semicolon-qualifier",
            "CLM-1",
            [("conclusion status", "claimed", "default off")],
            id="claim",
        ),
        pytest.param(
            "statuses-semicolon-qualifier",
            "CMP-1",
            [("conclusion status", "wired", "for the push path; the pull path is uninspected")],
            id="qualifier-after-the-value",
        ),
        pytest.param(
            "statuses-semicolon-qualifier",
            "CMP-2",
            [("implementation conclusion status", "wired", "default off")],
            id="status-line",
        ),
        pytest.param(
            "statuses-renamed-label",
            "CMP-1",
            [
                ("implementation conclusion status", "wired", None),
                ("learning conclusion status", "uninspected", "no capacity comparison"),
            ],
            id="renamed-label",
        ),
    ],
)
def test_an_imported_status_fixture_s_page(
    name: str, record_id: str, statuses: list[tuple[str, str, str | None]], tmp_path: Path
) -> None:
    assert _statuses(_home(_imported(name, tmp_path), "tiny", record_id), record_id) == statuses
