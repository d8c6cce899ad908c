"""The navigation's parts a page is not in are rendered once per build and printed again
with their links made relative to each page (generator/mkdocs/nav_memo.py): the site is
the same, byte for byte, as when every page renders the whole navigation."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from jinja2 import DictLoader, Environment, pass_context
from mkdocs.utils import get_relative_url
from site_support import REPO_ROOT, make_project, tree_hashes

from generator.mkdocs import nav_memo
from generator.mkdocs.nav_memo import NavMemo, NavMemoLoader, NavPart

BUILD = """
import sys
import generator.mkdocs.nav_memo as nav_memo
from generator.cli.main import main
if sys.argv[1] == "off":
    nav_memo.install = lambda env: None
sys.exit(main(["build", "--site-dir", sys.argv[2]]))
"""


def _built(project: Path, mode: str, site: Path) -> dict[str, str]:
    proc = subprocess.run(
        [sys.executable, "-c", BUILD, mode, str(site)],
        cwd=project,
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return tree_hashes(site)


@pytest.mark.slow
@pytest.mark.parametrize(
    "features",
    [
        "",  # the shipped theme features
        # Tabs make an item's classes follow its parent's state; expand marks closed toggles.
        "    - navigation.tabs\n    - navigation.expand\n",
    ],
)
def test_a_site_built_with_and_without_the_memo_is_the_same(tmp_path: Path, features: str) -> None:
    project = make_project(
        tmp_path, {"    - navigation.sections\n": "    - navigation.sections\n" + features}, git=False
    )
    shutil.rmtree(project / "records")
    shutil.copytree(REPO_ROOT / "records", project / "records")  # several systems, one of several runs
    with_memo = _built(project, "on", tmp_path / "site-on")
    without = _built(project, "off", tmp_path / "site-off")
    assert with_memo == without
    page = (tmp_path / "site-on" / "systems" / "oh-my-pi" / "index.html").read_text(encoding="utf-8")
    assert page.count('class="md-nav__link"') > 10  # the navigation is there to compare


@pytest.mark.parametrize(
    "page_url",
    [
        "",
        "systems/",
        "systems/a/",
        "systems/a/result/",
        "systems/b/review/",
        "404.html",
        "systems/a/page.html",
    ],
)
def test_a_part_read_on_one_page_is_printed_on_another_as_its_links_would_be(page_url: str) -> None:
    targets = ["", "systems/", "systems/a/", "systems/a/result/", "systems/c/memory-report/", "glossary/"]
    html = "".join(
        f'<li><a href="{get_relative_url(target or ".", page_url)}" class="md-nav__link">{n}</a></li>'
        for n, target in enumerate(targets)
    )
    html += '<a href="https://example.org/x">web</a><a href="#top">top</a>'
    part = NavPart.read(html, page_url)
    assert part is not None
    assert part.on(page_url) == html
    for other in ("", "systems/b/", "systems/a/result/", "glossary/", "404.html"):
        expected = "".join(
            f'<li><a href="{get_relative_url(target or ".", other)}" class="md-nav__link">{n}</a></li>'
            for n, target in enumerate(targets)
        )
        assert part.on(other) == expected + '<a href="https://example.org/x">web</a><a href="#top">top</a>'


def test_a_link_that_does_not_read_back_keeps_its_part_from_the_memo() -> None:
    assert NavPart.read('<a href="../../../../x/">x</a>', "systems/a/") is None  # above the site
    assert NavPart.read('<a href="./x/./">x</a>', "systems/a/") is None  # not as MkDocs writes it


class _Item:
    def __init__(self, title: str, url: str, active: bool = False) -> None:
        self.title, self.url, self.active = title, url, active


class _Page:
    def __init__(self, url: str) -> None:
        self.url = url


THEME = {
    "partials/nav.html": (
        '{% import "partials/nav-item.html" as item with context %}'
        "{% for nav_item in nav %}{{ item.render(nav_item, path, 1) }}{% endfor %}"
    ),
    "partials/nav-item.html": (
        '{% macro render(nav_item, path, level) %}<a href="{{ nav_item.url | url }}">{{ nav_item.title }}'
        "</a>{% endmacro %}"
    ),
    "page.html": '{% set path = "__nav" %}{% include "partials/nav.html" %}',
}


def _environment() -> Environment:
    env = Environment(loader=DictLoader(THEME))
    env.filters["url"] = lambda value: value  # stands in for MkDocs' filter below
    return env


def test_the_theme_s_item_calls_are_routed_through_the_memo() -> None:
    env = _environment()
    nav_memo.install(env)
    assert isinstance(env.loader, NavMemoLoader)
    source = env.loader.get_source(env, "partials/nav.html")[0]
    assert "kb_nav_item(item.render, nav_item, path, 1)" in source
    assert env.loader.get_source(env, "page.html")[0] == THEME["page.html"]


def test_a_theme_without_the_calls_as_written_is_rendered_as_it_is() -> None:
    changed = {**THEME, "partials/nav.html": THEME["partials/nav.html"].replace("path, 1", "path, 1, none")}
    env = Environment(loader=DictLoader(changed))
    nav_memo.install(env)
    assert env.loader is not None
    assert env.loader.get_source(env, "partials/nav.html")[0] == changed["partials/nav.html"]


def test_the_page_s_own_items_are_rendered_every_time_and_the_others_once() -> None:
    env = _environment()
    memo = nav_memo.install(env)
    assert isinstance(memo, NavMemo)
    calls: list[str] = []

    # The url filter as MkDocs writes it: relative to the page in the context.
    @pass_context
    def url(context, value):  # type: ignore[no-untyped-def]
        calls.append(value)
        return get_relative_url(value or ".", context["page"].url)

    env.filters["url"] = url
    # B's title holds what reads like a link as text (titles are printed unescaped quotes and
    # all); it must print as written on every page.
    items = [_Item("Home", ""), _Item("A", "systems/a/"), _Item('B href="systems/x/" b', "systems/b/")]
    template = env.get_template("page.html")
    shown = {}
    for item in items:
        item.active = True
        shown[item.url] = template.render(nav=items, page=_Page(item.url))
        item.active = False
    # The page's own item is rendered every time; another item on the first page it is not
    # the page's (Home on the second page, A and B on the first), then printed from the memo.
    assert calls == ["", "systems/a/", "systems/b/", "", "systems/a/", "systems/b/"]
    fresh = _environment()
    fresh.filters["url"] = url
    for item in items:
        item.active = True
        assert fresh.get_template("page.html").render(nav=items, page=_Page(item.url)) == shown[item.url]
        assert 'B href="systems/x/" b' in shown[item.url]
        item.active = False
