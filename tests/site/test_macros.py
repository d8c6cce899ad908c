"""Macros on hand-authored pages: record_link, comparison_table, status_matrix.

Each case builds the site (``kbgen build``) from a copy of ``mkdocs.yml`` and ``kb/``
with one extra page that uses the macros, over the profile fixture KB. A reference to
a system, record or axis that does not exist fails the build with the page and line,
no traceback and a non-zero exit.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parents[2]
RECORDS = REPO_ROOT / "tests" / "fixtures" / "profile" / "records"

FRONT = "---\nrender_macros: true\n---\n\n# Macro demo\n\n"


def _project(tmp_path: Path, page: str) -> Path:
    """A copy of mkdocs.yml and kb/ with ``kb/macro-demo.md`` holding ``page``."""
    docs = tmp_path / "docs"
    shutil.copytree(REPO_ROOT / "kb", docs)
    (docs / "macro-demo.md").write_text(page, encoding="utf-8")
    text = (REPO_ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    replacements = {
        "docs_dir: kb": f"docs_dir: {docs}",
        "custom_dir: overrides": f"custom_dir: {REPO_ROOT / 'overrides'}",
        "records_dir: !ENV [KBGEN_RECORDS, records]": f"records_dir: {RECORDS}",
    }
    for old, new in replacements.items():
        assert old in text, f"mkdocs.yml no longer has {old!r}"
        text = text.replace(old, new)
    text = text.replace(
        "  - Authoring: authoring.md\n", "  - Authoring: authoring.md\n  - Macro demo: macro-demo.md\n"
    )
    config = tmp_path / "mkdocs.yml"
    config.write_text(text, encoding="utf-8")
    return config


def _build(tmp_path: Path, kbgen, page: str):
    config = _project(tmp_path, page)
    return kbgen("build", "-f", str(config), "--site-dir", str(tmp_path / "site"))


def _html(tmp_path: Path) -> str:
    return (tmp_path / "site" / "macro-demo" / "index.html").read_text(encoding="utf-8")


def test_record_link_renders_the_linked_id_and_label(tmp_path: Path, kbgen) -> None:
    result = _build(tmp_path, kbgen, FRONT + 'See {{ record_link("beta", "OBJ-1") }}.\n')
    assert result.code == 0, result.out + result.err
    html = _html(tmp_path)
    assert re.search(r'<a href="\.\./systems/beta/#obj-1">OBJ-1 — Notes file</a>', html), html


def test_comparison_table_embeds_the_chosen_axes(tmp_path: Path, kbgen) -> None:
    page = FRONT + '{{ comparison_table(axes=["trace_learning", "write_agency"]) }}\n'
    result = _build(tmp_path, kbgen, page)
    assert result.code == 0, result.out + result.err
    html = _html(tmp_path)
    headers = re.findall(r'<th scope="col"[^>]*>(.*?)</th>', html)
    assert headers == ["System", "Trace learning", "Write agency"]  # the comparison page's matrix
    assert "Storage substrate" not in html
    assert 'href="../systems/alpha/result/#mem-rte-knowledge"' in html  # a value's evidence record
    assert 'data-kb-value="automatic"' in html and 'class="kb-facets"' not in html


def test_status_matrix_embeds_the_per_system_table(tmp_path: Path, kbgen) -> None:
    result = _build(tmp_path, kbgen, FRONT + "{{ status_matrix() }}\n")
    assert result.code == 0, result.out + result.err
    html = _html(tmp_path)
    assert '<a href="../systems/gamma/">Gamma loop</a>' in html
    assert re.search(r"<th[^>]*>wired</th>", html)


@pytest.mark.parametrize(
    ("call", "message"),
    [
        ('{{ record_link("nope", "RTE-1") }}', "record_link: no system 'nope' in the records"),
        ('{{ record_link("beta", "RTE-99") }}', "record_link: system 'beta' publishes no record 'RTE-99'"),
        ('{{ comparison_table(axes=["storage"]) }}', "comparison_table: 'storage' is not an axis"),
    ],
)
def test_a_reference_to_nothing_fails_the_build_with_page_and_line(
    tmp_path: Path, kbgen, call: str, message: str
) -> None:
    page = FRONT + "Some text.\n\n" + call + "\n"
    result = _build(tmp_path, kbgen, page)
    output = result.out + result.err
    assert result.code == 1, output
    assert f"kb/macro-demo.md:9: {message}" in output
    assert "Traceback" not in output
    assert not (tmp_path / "site").exists()
