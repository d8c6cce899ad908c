"""Record text in page metadata: the frontmatter values a theme prints arrive escaped.

Material (on MkDocs, ProperDocs and Zensical alike) prints ``page.meta.description`` into
``<meta name="description" content="…">`` and ``page.meta.title`` into ``<title>`` and
the header, all unescaped. Each case plants quotes and angle brackets in a member's
description, a title or the system name of the small fixture set (its manifest stamped
anew, so the set still checks), renders it, and prints every frontmatter value the way the
theme does: the printed HTML holds the theme's own elements and attributes only, and each
value reads back as the record wrote it.
"""

from __future__ import annotations

import html
import json
import shutil
from html.parser import HTMLParser
from pathlib import Path

import pytest
import yaml

from generator.model.set_manifest import manifest_text
from generator.pipeline import check_records, run_pipeline

TESTS = Path(__file__).resolve().parents[1]
SET_RECORDS = TESTS / "fixtures" / "check" / "clean-set" / "records"
RUN_RECORDS = TESTS / "fixtures" / "check" / "clean-run" / "records"

SCRIPT = 'x"><script>alert(document.domain)</script>'
IMAGE = 'it\'s "<img src=x onerror=alert(1)>" & more'
TITLE = '</title><script>alert(1)</script>" onmouseover="alert(2)'
SYSTEM = "Demo\"><svg onload=alert(1)>'"


class _Parsed(HTMLParser):
    """Every start tag with its attribute names, and each attribute's decoded value."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, tuple[str, ...]]] = []
        self.values: dict[str, str] = {}
        self.text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, tuple(name for name, _ in attrs)))
        self.values.update({name: value or "" for name, value in attrs})

    def handle_data(self, data: str) -> None:
        self.text.append(data)


def _front(page: str) -> dict[str, object]:
    assert page.startswith("---\n")
    front = yaml.safe_load(page[4 : page.index("\n---\n", 4)])
    assert isinstance(front, dict)
    return front


def _printed_by_the_theme(front: dict[str, object]) -> _Parsed:
    """Material's site_meta and htmltitle blocks, as they print a page's metadata."""
    parsed = _Parsed()
    parsed.feed(f'<meta name="description" content="{front.get("description", "")}">')
    parsed.feed(f"<title>{front.get('title', '')} - KB</title>")
    parsed.close()
    return parsed


def _planted_set(root: Path, replacements: dict[str, tuple[str, str]]) -> dict[str, str]:
    """The fixture set with ``file: (old, new)`` replacements, stamped and rendered."""
    records = root / "records"
    shutil.copytree(SET_RECORDS, records)
    system = records / "demo"
    for name, (old, new) in replacements.items():
        text = (system / name).read_text(encoding="utf-8")
        assert old in text, (name, old)
        (system / name).write_text(text.replace(old, new), encoding="utf-8")
    [checked] = check_records(records, root)
    (system / "ARTIFACT.yaml").write_text(manifest_text(checked.records), encoding="utf-8")
    result = run_pipeline(records, root)
    assert result.errors == []
    return result.pages


def _assert_inert(page: str, shown: str | None = None, key: str = "description") -> None:
    front = _front(page)
    parsed = _printed_by_the_theme(front)
    assert parsed.tags == [("meta", ("name", "content")), ("title", ())], parsed.tags
    if shown is not None and key == "description":
        assert parsed.values["content"] == shown
    if shown is not None and key == "title":
        assert "".join(parsed.text) == f"{shown} - KB"


def test_a_description_ending_its_attribute_is_text_on_the_overview_and_review(tmp_path: Path) -> None:
    pages = _planted_set(
        tmp_path,
        {
            "overview.yaml": (
                "  description: Demo stores notes and reads them back on request.\n",
                f"  description: {json.dumps(SCRIPT)}\n",
            )
        },
    )
    for page in ("systems/demo/overview.md", "systems/demo/review.md"):
        _assert_inert(pages[page], SCRIPT)


def test_a_description_with_an_image_and_quotes_is_text_on_its_member_page(tmp_path: Path) -> None:
    pages = _planted_set(
        tmp_path,
        {
            "runtime.yaml": (
                "  description: Runtime baseline of Demo.\n",
                f"  description: {json.dumps(IMAGE)}\n",
            )
        },
    )
    _assert_inert(pages["systems/demo/runtime.md"], IMAGE)


def test_a_title_closing_the_title_element_and_opening_an_attribute_is_text(tmp_path: Path) -> None:
    pages = _planted_set(
        tmp_path,
        {"epistemic.yaml": ("  title: Demo epistemic report\n", f"  title: {json.dumps(TITLE)}\n")},
    )
    page = pages["systems/demo/epistemic.md"]
    _assert_inert(page, TITLE, key="title")
    # Attribute-safe too: no theme place it lands in can be left by a quote.
    assert not set('<>"') & set(str(_front(page)["title"]))


def test_a_system_name_in_every_title_is_text(tmp_path: Path) -> None:
    pages = _planted_set(tmp_path, {"set.yaml": ("  system: Demo\n", f"  system: {json.dumps(SYSTEM)}\n")})
    for path in ("systems/demo/index.md", "systems/demo/review.md"):
        front = _front(pages[path])
        _assert_inert(pages[path])
        assert html.unescape(str(front["title"])).startswith(SYSTEM)
        assert not set('<>"') & set(str(front["title"]))


@pytest.mark.parametrize("page", ["result.md", "review.md", "index.md"])
def test_a_run_title_and_system_name_are_text_on_a_run_page(tmp_path: Path, page: str) -> None:
    records = tmp_path / "records"
    shutil.copytree(RUN_RECORDS, records)
    run = records / "demo" / "run.yaml"
    run.write_text(
        run.read_text(encoding="utf-8").replace("  system: Demo\n", f"  system: {json.dumps(TITLE)}\n"),
        encoding="utf-8",
    )
    result_file = records / "demo" / "result.yaml"
    result_file.write_text(
        result_file.read_text(encoding="utf-8").replace(
            "  title: Demo analysis\n", f"  title: {json.dumps(TITLE)}\n"
        ),
        encoding="utf-8",
    )
    result = run_pipeline(records, tmp_path)
    assert result.errors == []
    front = _front(result.pages[f"systems/demo/{page}"])
    _assert_inert(result.pages[f"systems/demo/{page}"])
    assert TITLE in html.unescape(str(front["title"]))
    assert not set('<>"') & set(str(front["title"]))
