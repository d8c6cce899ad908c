"""The publish step's compressed twins: one beside each text file, deterministic, and
invisible to the link check."""

from __future__ import annotations

import gzip
from pathlib import Path

from generator.cli.site_links import html_pages
from generator.site.precompress import main, precompress

PAGE = "<!doctype html><title>t</title>" + "<p>repeated words compress well</p>" * 200


def _site(root: Path) -> Path:
    site = root / "site"
    (site / "a").mkdir(parents=True)
    (site / "a" / "index.html").write_text(PAGE, encoding="utf-8")
    (site / "kb.css").write_text("p { color: red; }\n" * 100, encoding="utf-8")
    (site / "tiny.js").write_text("x", encoding="utf-8")  # no smaller compressed
    (site / "logo.png").write_bytes(b"\x89PNG" + bytes(range(256)) * 10)
    return site


def test_each_text_file_gets_a_gzip_twin_with_its_bytes(tmp_path: Path) -> None:
    site = _site(tmp_path)
    precompress(site)
    twin = site / "a" / "index.html.gz"
    assert gzip.decompress(twin.read_bytes()) == PAGE.encode()
    assert (site / "kb.css.gz").is_file()
    assert not (site / "tiny.js.gz").exists()  # a twin no smaller than its file is not written
    assert not (site / "logo.png.gz").exists()  # not text
    assert not (site / "a" / "index.html.gz.gz").exists()


def test_twins_are_the_same_bytes_build_after_build(tmp_path: Path) -> None:
    first, second = _site(tmp_path / "one"), _site(tmp_path / "two")
    precompress(first)
    precompress(second)
    precompress(second)  # again over its own twins: nothing changes
    names = sorted(p.relative_to(first).as_posix() for p in first.rglob("*"))
    assert names == sorted(p.relative_to(second).as_posix() for p in second.rglob("*"))
    for name in names:
        if (first / name).is_file():
            assert (first / name).read_bytes() == (second / name).read_bytes(), name
    header = (first / "kb.css.gz").read_bytes()[:10]
    assert header[4:8] == b"\0\0\0\0"  # gzip's mtime field: zero


def test_a_twin_that_is_a_symlink_is_replaced_not_followed(tmp_path: Path) -> None:
    site = _site(tmp_path)
    outside = tmp_path / "outside.txt"
    outside.write_text("keep", encoding="utf-8")
    (site / "kb.css.gz").symlink_to(outside)
    precompress(site)
    assert outside.read_text(encoding="utf-8") == "keep"
    assert not (site / "kb.css.gz").is_symlink()


def test_the_link_check_reads_pages_not_twins(tmp_path: Path) -> None:
    site = _site(tmp_path)
    precompress(site)
    assert html_pages(site) == ["a/index.html"]


def test_the_command_wants_a_site_folder(tmp_path: Path) -> None:
    assert main([str(tmp_path / "missing")]) == 2
    assert main([str(_site(tmp_path))]) == 0
