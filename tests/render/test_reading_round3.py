"""A result page a reader finishes: what the analysis found first, the run's bookkeeping
folded, quotations as their source wrote them, no raw Markdown, each thing said once.

Each test builds the clean demo system with one change planted (``make_records``) and reads
the page Markdown the pipeline renders; the HTML the site shows is Python-Markdown's
reading of it with the site's extensions.
"""

from __future__ import annotations

import re
from pathlib import Path

import markdown
from hostile_support import make_records

from generator.pipeline import run_pipeline

RESULT = "systems/demo/result.md"
SYSTEM = "systems/demo/index.md"
EXTENSIONS = ["attr_list", "md_in_html", "admonition", "tables", "toc", "pymdownx.superfences"]

CLAIM_QUOTING = """
claims:
  - id: CLM-1
    label: Reported results
    conclusion_status: claimed
    body: {body}
    quotes:
{quotes}
"""


def _pages(tmp_path: Path, changes: dict[str, str]) -> dict[str, str]:
    records = make_records(tmp_path, changes)
    result = run_pipeline(records, tmp_path)
    assert result.errors == []
    return result.pages


def _html(page: str) -> str:
    body = page.split("\n---\n", 1)[1] if page.startswith("---\n") else page
    return markdown.markdown(body, extensions=EXTENSIONS)


def _claim(tmp_path: Path, quotes: str, body: str = "'The README reports it.'") -> str:
    extra = CLAIM_QUOTING.format(body=body, quotes=quotes)
    return _pages(tmp_path, {"claims.yaml": extra})[RESULT]


def _record_part(page: str, record_anchor: str) -> str:
    start = page.index(f"{{ #{record_anchor} ")
    following = re.search(r"\n#{1,6} ", page[start:])
    return page[start : start + following.start()] if following else page[start:]


def _outside_code(html: str) -> str:
    """The page's visible text outside code blocks and code spans."""
    html = re.sub(r"<pre>.*?</pre>|<code>.*?</code>", "", html, flags=re.S)
    return re.sub(r"<[^>]+>", "", html)


# ---------------------------------------------------------------- quotations


README_QUOTE = """      - path: README.md
        source: SRC-1
        text: |-
          ## Key Decisions
          **pi + napkin (Sonnet, 100 questions each):**

          | Dataset | Score |
          |---|---:|
          | Oracle | **92.0%** |

          - Keep: decisions and their *why*
          - Drop: pleasantries
"""


def test_a_markdown_quotation_is_read_as_markdown(tmp_path: Path) -> None:
    html = _html(_claim(tmp_path, README_QUOTE))
    quote = html[html.index('<blockquote class="kb-quote__markdown">') :]
    quote = quote[: quote.index('<p><span class="kb-quote__source">')]
    assert '<p class="kb-quote__heading"><strong>Key Decisions</strong></p>' in quote
    assert (
        "<th>Dataset</th>" in quote and '<td style="text-align: right;"><strong>92.0%</strong></td>' in quote
    )
    assert "<li>Keep: decisions and their <em>why</em></li>" in quote
    visible = _outside_code(quote)
    for marker in ("**", "| ", "## ", "- Keep", "|---"):
        assert marker not in visible, marker


def test_rows_cut_from_a_markdown_table_are_a_table(tmp_path: Path) -> None:
    quotes = """      - path: bench/README.md
        source: SRC-1
        text: |-
          | S | **91.0%** | 86% |
          | M | **83.0%** | 72% |
"""
    html = _html(_claim(tmp_path, quotes))
    assert "<tr><td>S</td><td><strong>91.0%</strong></td><td>86%</td></tr>" in html
    assert "| S |" not in _outside_code(html)


def test_a_prose_quotation_that_is_not_markdown_keeps_its_lines(tmp_path: Path) -> None:
    quotes = """      - path: notes/capture.txt
        source: SRC-1
        text: |-
          first line
          second line
"""
    html = _html(_claim(tmp_path, quotes))
    assert "<blockquote>\n<p>first line<br>second line</p>\n</blockquote>" in html


def test_a_code_quotation_is_highlighted_by_its_files_language(tmp_path: Path) -> None:
    quotes = """      - path: src/loop.ts
        source: SRC-1
        text: |-
          const order = [
            "remote",

            "soft",
          ];
"""
    page = _claim(tmp_path, quotes)
    block = page[page.index('<div class="highlight language-typescript">') :]
    block = block[: block.index("</pre></div>") + len("</pre></div>")]
    assert '<span class="kd">const</span>' in block
    # The lines as written, the empty one kept without a blank line in the raw HTML block.
    assert "\n\n" not in block
    text = re.sub(r"<[^>]+>", "", block).replace("&#10;", "\n").replace("&quot;", '"')
    assert text == 'const order = [\n  "remote",\n\n  "soft",\n];\n'
    assert '<span class="s2">&quot;remote&quot;</span>' in _html(page)


# ---------------------------------------------------------------- links in record text


def test_a_relative_link_of_the_source_document_is_its_text_with_a_tooltip(tmp_path: Path) -> None:
    body = "'The [theory-builder definition](../../notes/theory-builder.md) supplies the conditions.'"
    html = _html(_claim(tmp_path, "      []", body=body))
    assert (
        '<span class="kb-unpublished-link" title="../../notes/theory-builder.md">'
        "theory-builder definition</span> supplies" in html
    )
    assert "<code>../../notes/theory-builder.md</code>" not in html


def test_a_web_address_written_as_code_is_a_link(tmp_path: Path) -> None:
    body = "'The repository is `https://github.com/example/demo` at its pinned revision.'"
    html = _html(_claim(tmp_path, "      []", body=body))
    assert (
        '<a href="https://github.com/example/demo"><code>https://github.com/example/demo</code></a>' in html
    )


# ---------------------------------------------------------------- said once


def test_a_body_that_opens_with_its_status_line_does_not_repeat_it(tmp_path: Path) -> None:
    body = "'Conclusion status: claimed. The README reports it.'"
    page = _claim(tmp_path, "      []", body=body)
    record = _record_part(page, "clm-1")
    assert "The README reports it." in record
    assert "Conclusion status: claimed." not in record
    # A body that only says something else keeps every sentence.
    other = _claim(tmp_path / "other", "      []", body="'Conclusion status: wired. It differs.'")
    assert "Conclusion status: wired. It differs." in _record_part(other, "clm-1")


def test_a_list_of_ids_names_each_once_and_shortens_a_run(tmp_path: Path) -> None:
    extra = """
routes:
  - id: RTE-3
    label: Three
  - id: RTE-4
    label: Four
claims:
  - id: CLM-1
    label: Listed
    conclusion_status: claimed
    remarks: 'RTE-1, RTE-1, RTE-2, RTE-3, RTE-3, RTE-4'
"""
    record = _record_part(_pages(tmp_path, {"claims.yaml": extra})[RESULT], "clm-1")
    assert (
        '<span class="kb-id-range" title="RTE-1, RTE-2, RTE-3, RTE-4">'
        '<a href="#rte-1">RTE-1</a>–<a href="#rte-4">RTE-4</a></span>' in record
    )
    assert record.count('href="#rte-1"') == 1


def test_a_glossary_term_is_shown_once(tmp_path: Path) -> None:
    page = _pages(tmp_path, {})["glossary.md"]
    # The term is its heading, drawn as its badge (the colours' legend), and said once.
    entry = page[page.index('### <span class="kb-badge kb-badge--wired">wired</span> ') :]
    entry = entry[: entry.index("\n### ")]
    assert entry.count(">wired<") == 1
    assert entry.count("wired") == 2 + entry.count("{ #conclusion-status-wired }")  # its class, its text


# ---------------------------------------------------------------- the system and result pages


def test_the_system_pages_route_contract_row_is_a_row_of_its_table(tmp_path: Path) -> None:
    run = (Path(__file__).resolve().parents[1] / "fixtures/check/clean-run/records/demo/run.yaml").read_text()
    earlier = run.replace("run:\n", "run:\n  contract: six-fields-free-wording\n", 1)
    earlier = earlier.replace("2024-05-01", "2026-09-26")
    html = _html(_pages(tmp_path, {"run.yaml": earlier})[SYSTEM])
    assert "<td>Route contract</td>" in html
    assert "| Route contract" not in html


def test_the_result_page_opens_with_what_the_analysis_found(tmp_path: Path) -> None:
    page = _pages(tmp_path, {})[RESULT]
    synthesis = page.index("## Bounded synthesis { #bounded-synthesis }")
    assert synthesis < page.index("## Run identity")
    assert synthesis < page.index("## Shared records")
    line = page[page.index('<p class="kb-run-line">') : synthesis]
    assert "Demo" in line and "AAS-2024-05-01-demo-01" in line and "2024-05-01" in line
    # The run's bookkeeping is folded, closed until opened, under its own summary.
    about = page[page.index('<details class="kb-about-run">') :]
    about = about[: about.index("</details>")]
    assert "<summary>About this run" in about and "<td>Run ID</td>" in about
    assert "\n\n" not in about
    html = _html(page)
    assert re.search(r'<details class="kb-about-run">\s*<summary>', html)
    # An outline of the sections, for a screen without the table of contents' sidebar.
    outline = html[html.index('<details class="kb-outline">') :]
    assert '<a href="#bounded-synthesis">Bounded synthesis</a>' in outline
    assert '<a href="#verification-and-blockers">Verification and blockers</a>' in outline
