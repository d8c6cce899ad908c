"""While serving, a page text's front matter is split off once (generator/mkdocs/front_matter.py):
the same Markdown and data as MkDocs' own reading, a fresh copy of the data each time, and
MkDocs' function given back when the serve ends."""

from __future__ import annotations

from mkdocs.utils import meta

from generator.mkdocs.front_matter import FrontMatterMemo

PAGE = "---\ntitle: 'A: b'\nhide:\n- toc\n---\n\n# A: b { #top }\n\nText.\n"
PLAIN = "# No front matter\n\nText.\n"


def test_a_text_is_read_once_and_handed_out_as_mkdocs_reads_it() -> None:
    original = meta.get_data
    memo = FrontMatterMemo()
    memo.install()
    try:
        assert meta.get_data == memo.get_data
        calls: list[str] = []

        def counted(doc: str) -> tuple[str, dict]:
            calls.append(doc)
            return original(doc)

        memo._original = counted
        for doc in (PAGE, PLAIN):
            assert meta.get_data(doc) == original(doc)
            assert meta.get_data(doc) == original(doc)
        assert calls == [PAGE, PLAIN]
        memo.build_done()
        assert meta.get_data(PAGE) == original(PAGE)  # kept from the build before
        assert calls == [PAGE, PLAIN]
        memo._original = original
    finally:
        memo.uninstall()
    assert meta.get_data is original


def test_each_reading_gets_its_own_data() -> None:
    memo = FrontMatterMemo()
    memo.install()
    try:
        _, first = meta.get_data(PAGE)
        first["hide"].append("navigation")
        first["template"] = "other.html"
        _, second = meta.get_data(PAGE)
        assert second == {"title": "A: b", "hide": ["toc"]}
    finally:
        memo.uninstall()


def test_only_what_the_latest_build_read_is_kept() -> None:
    memo = FrontMatterMemo()
    memo.install()
    try:
        meta.get_data(PAGE)
        memo.build_done()
        meta.get_data(PLAIN)  # the next build reads another text only
        memo.build_done()
        assert PAGE not in memo._kept
        assert PLAIN in memo._kept
    finally:
        memo.uninstall()
    assert memo._kept == {}
