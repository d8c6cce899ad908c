"""kbgen render --out DIR: the plugin's pages as plain Markdown with a standalone mkdocs.yml.

The shipped records are rendered once per module; the hostile cases build a throwaway
project (tests/support/site_support.py) and assert what the render must refuse or report.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path
from typing import Any

import pytest
import yaml
from site_support import REPO_ROOT, make_project, tree_hashes

import generator.site.render_out
from generator.cli.main import main
from generator.mkdocs.site_manifest import PIN_KEY, front_matter, sha256
from generator.pipeline import run_pipeline
from generator.site.render_out import MERMAID_SCRIPT, RENDER_MARKER, Rendered, with_mermaid


class _ConfigLoader(yaml.SafeLoader):
    """Reads the rendered mkdocs.yml; a ``!!python/name:`` tag stays the name it gives."""


_ConfigLoader.add_multi_constructor("tag:yaml.org,2002:python/name:", lambda loader, suffix, node: suffix)


def _render(out: Path, *extra: str) -> int:
    return main(["render", "--out", str(out), "-f", str(REPO_ROOT / "mkdocs.yml"), *extra])


@pytest.fixture(scope="module")
def shipped(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The shipped records rendered once for this module."""
    out = tmp_path_factory.mktemp("render") / "out"
    assert _render(out) == 0
    return out


def _config(out: Path) -> dict[str, Any]:
    loaded = yaml.load((out / "mkdocs.yml").read_text(encoding="utf-8"), Loader=_ConfigLoader)
    assert isinstance(loaded, dict)
    return loaded


def _nav_paths(nav: Any) -> set[str]:
    if isinstance(nav, str):
        return {nav}
    if isinstance(nav, dict):
        return set().union(*(_nav_paths(value) for value in nav.values()))
    return set().union(*(_nav_paths(item) for item in nav)) if nav else set()


def test_generated_pages_are_the_bytes_the_plugin_serves(shipped: Path) -> None:
    pages = run_pipeline(REPO_ROOT / "records", REPO_ROOT).pages
    assert pages
    for path, markdown in pages.items():
        assert (shipped / "docs" / path).read_bytes() == markdown.encode("utf-8"), path


def test_render_is_byte_identical_across_two_runs(shipped: Path, tmp_path: Path) -> None:
    again = tmp_path / "again"
    assert _render(again) == 0
    assert tree_hashes(again) == tree_hashes(shipped)


def test_hand_pages_have_their_macros_expanded(shipped: Path) -> None:
    home = (shipped / "docs" / "index.md").read_text(encoding="utf-8")
    assert "{%" not in home and "{{" not in home
    assert "render_macros" not in home
    assert "(systems/oh-my-pi/index.md)" in home
    # A page without macros is copied as written.
    assert (shipped / "docs" / "authoring.md").read_bytes() == (
        REPO_ROOT / "kb" / "authoring.md"
    ).read_bytes()


def test_standalone_config_needs_no_plugin(shipped: Path) -> None:
    config = _config(shipped)
    assert config["plugins"] == [{"search": {"separator": '[\\s,;:!?()\\[\\]"/]+'}}]
    assert config["theme"]["name"] == "material"
    assert "custom_dir" not in config["theme"]
    assert config["docs_dir"] == "docs"
    names = [next(iter(item)) if isinstance(item, dict) else item for item in config["markdown_extensions"]]
    for needed in ("attr_list", "md_in_html", "toc", "tables", "admonition", "pymdownx.superfences"):
        assert needed in names
    fence = config["markdown_extensions"][names.index("pymdownx.superfences")]
    assert (
        fence["pymdownx.superfences"]["custom_fences"][0]["format"]
        == "pymdownx.superfences.fence_code_format"
    )
    docs = shipped / "docs"
    assert {path for path in _nav_paths(config["nav"]) if not (docs / path).is_file()} == set()
    assert "systems/oh-my-pi/result.md" in _nav_paths(config["nav"])
    for asset in [*config["extra_css"], *config["extra_javascript"]]:
        assert (docs / asset).is_file(), asset
    assert (shipped / RENDER_MARKER).is_file()


def test_no_page_loads_mermaid_unless_it_draws_a_map_or_a_diagram(shipped: Path) -> None:
    """Mermaid (3.6 MB) is in no page's scripts as a whole, as in a build: a page with a route
    map has kb-maps.js fetch it from beside itself when a map nears the viewport, and no
    shipped page has a mermaid fence, so no page names it."""
    config = _config(shipped)
    assert MERMAID_SCRIPT not in config["extra_javascript"]
    assert "assets/javascripts/kb-maps.js" in config["extra_javascript"]
    docs = shipped / "docs"
    assert (docs / MERMAID_SCRIPT).is_file()  # still shipped, for the pages that fetch it
    pages = {
        path.relative_to(docs).as_posix(): path.read_text(encoding="utf-8") for path in docs.rglob("*.md")
    }
    assert [path for path, text in pages.items() if "mermaid-" in text and "<script" in text] == []
    with_maps = [path for path, text in pages.items() if 'class="kb-map"' in text]
    assert "systems/oh-my-pi/index.md" in with_maps
    # kb-maps.js names the file the render ships, relative to its own folder.
    maps_js = (docs / "assets" / "javascripts" / "kb-maps.js").read_text(encoding="utf-8")
    beside = MERMAID_SCRIPT.removeprefix("assets/javascripts/")
    assert f'var MERMAID = "{beside}";' in maps_js
    main_html = (REPO_ROOT / "overrides" / "main.html").read_text(encoding="utf-8")
    assert f"'{MERMAID_SCRIPT}'" in main_html


@pytest.mark.parametrize(
    ("url", "address"),
    [
        ("", MERMAID_SCRIPT),
        ("guide/", f"../{MERMAID_SCRIPT}"),
        ("notes/diagrams/", f"../../{MERMAID_SCRIPT}"),
    ],
)
def test_a_page_with_a_mermaid_fence_loads_mermaid_itself(url: str, address: str) -> None:
    page = "# Flow\n\n```mermaid\nflowchart LR\n  A --> B\n```\n"
    assert with_mermaid(page, url) == f'{page.rstrip()}\n\n<script src="{address}"></script>\n'
    tilde = "Text\n\n~~~~ mermaid\nflowchart LR\n~~~~\n"
    assert with_mermaid(tilde, url).endswith(f'<script src="{address}"></script>\n')


@pytest.mark.parametrize(
    "page",
    [
        "# Plain\n\nNo diagram.\n",
        "```python\nmermaid = 1\n```\n",
        "Mermaid draws the maps: ```mermaid``` in a sentence is no fence.\n",
        "```mermaidx\n```\n",
    ],
    ids=["plain", "other-fence", "inline", "other-name"],
)
def test_a_page_without_a_mermaid_fence_is_left_as_it_is(page: str) -> None:
    assert with_mermaid(page, "guide/") == page


def test_a_hand_page_with_a_mermaid_fence_loads_mermaid_in_the_render(project: Path, kbgen: Any) -> None:
    (project / "kb" / "flows.md").write_text("# Flows\n\n```mermaid\nflowchart LR\n  A --> B\n```\n")
    assert kbgen("render", "--out", "out").code == 0
    docs = project / "out" / "docs"
    page = (docs / "flows.md").read_text(encoding="utf-8")
    assert page.endswith(f'<script src="../{MERMAID_SCRIPT}"></script>\n')
    assert (docs / MERMAID_SCRIPT).is_file()
    assert "mermaid-" not in (docs / "authoring.md").read_text(encoding="utf-8")


def test_a_render_replaces_the_previous_one(shipped: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    assert _render(out) == 0
    (out / "docs" / "stale.md").write_text("old\n", encoding="utf-8")
    assert _render(out) == 0
    assert not (out / "docs" / "stale.md").exists()
    assert tree_hashes(out) == tree_hashes(shipped)


# --- hostile cases: a render never lands in the sources, never publishes records with errors


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A throwaway project (demo records, kb/, overrides/, a git work tree) as the working folder."""
    folder = make_project(tmp_path)
    (folder / "scripts").mkdir()
    (folder / "scripts" / "tool.sh").write_text("echo\n", encoding="utf-8")
    subprocess.run(["git", "add", "scripts/tool.sh"], cwd=folder, check=True, capture_output=True)
    (tmp_path / "home").mkdir()
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.delenv("KBGEN_RECORDS", raising=False)
    monkeypatch.chdir(folder)
    return folder


REFUSED = {
    "records-folder": ("records", "it is the records folder"),
    "inside-records": ("records/demo/out", "it is inside the records folder"),
    "docs-folder": ("kb", "it is the docs folder"),
    "inside-docs": ("kb/rendered", "it is inside the docs folder"),
    "overrides-folder": ("overrides", "it is the theme overrides folder"),
    "project-folder": (".", "it is the project folder"),
    "git-folder": (".git/out", "it is inside the git folder"),
    "tracked-source-folder": ("scripts/out", "it is inside the source folder scripts/"),
    "encloses-project": ("..", "it contains the project folder"),
    "not-a-render-output": ("notes.txt", "it exists and is not a render output"),
}


@pytest.mark.parametrize("target, words", REFUSED.values(), ids=REFUSED.keys())
def test_render_out_into_the_sources(project: Path, kbgen: Any, target: str, words: str) -> None:
    before = tree_hashes(project)
    result = kbgen("render", "--out", target)
    assert result.code == 2, result.err
    assert f"kbgen render: refusing output folder {(project / target).resolve()}: {words}" in result.err
    assert "Traceback" not in result.err + result.out
    assert tree_hashes(project) == before


def test_render_out_through_a_symlink_into_records(project: Path, kbgen: Any) -> None:
    (project.parent / "outlink").symlink_to(project / "records")
    before = tree_hashes(project)
    result = kbgen("render", "--out", str(project.parent / "outlink" / "out"))
    assert result.code == 2
    assert "it is inside the records folder" in result.err
    assert tree_hashes(project) == before


def test_render_over_a_folder_of_other_files(project: Path, kbgen: Any) -> None:
    folder = project.parent / "papers"
    folder.mkdir()
    (folder / "thesis.md").write_text("mine\n", encoding="utf-8")
    result = kbgen("render", "--out", str(folder))
    assert result.code == 2
    assert "it exists and is not a render output" in result.err
    assert (folder / "thesis.md").read_text(encoding="utf-8") == "mine\n"


def _replace(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new), encoding="utf-8")


LOCATED = re.compile(r"^(?P<file>\S+?):(?P<line>\d+):(?P<col>\d+): error (?P<code>KB\d{3}) ", re.MULTILINE)


def test_render_records_with_errors(project: Path, kbgen: Any) -> None:
    out = project.parent / "out"
    assert kbgen("render", "--out", str(out)).code == 0
    before = tree_hashes(out)
    _replace(project / "records" / "demo" / "records.yaml", "owner: CMP-1", "owner: CMP-9")
    result = kbgen("render", "--out", str(out))
    assert result.code == 1
    found = {(m["code"], m["file"], int(m["line"]), int(m["col"])) for m in LOCATED.finditer(result.err)}
    assert found == {("KB202", "records/demo/records.yaml", 14, 12)}
    assert "nothing was rendered" in result.err
    assert "Traceback" not in result.err
    assert tree_hashes(out) == before
    assert not list(project.parent.glob(".out.building-*"))


def test_render_macro_syntax_in_record_text(project: Path, kbgen: Any) -> None:
    run = project / "records" / "demo" / "run.yaml"
    run.write_text(
        run.read_text(encoding="utf-8").replace("system: Demo", "system: Demo {{ 7 * 7 }}"), "utf-8"
    )
    records = project / "records" / "demo" / "records.yaml"
    text = records.read_text(encoding="utf-8").replace(
        "label: Agent loop", "label: Loop {% raw %}{{ config }}"
    )
    records.write_text(text, "utf-8")
    out = project.parent / "out"
    result = kbgen("render", "--out", str(out))
    assert result.code == 0, result.err
    # Record text keeps its braces (as character references, the one escaping path): no
    # engine that reads the rendered Markdown can expand them, with or without macros.
    home = (out / "docs" / "index.md").read_text(encoding="utf-8")
    assert "[Demo &#123;&#123; 7 \\* 7 &#125;&#125;](systems/demo/index.md)" in home
    assert "49" not in home
    result_page = (out / "docs" / "systems" / "demo" / "result.md").read_text(encoding="utf-8")
    assert "Loop &#123;% raw %&#125;&#123;&#123; config &#125;&#125;" in result_page


def test_review_pins_hold_in_the_render(shipped: Path) -> None:
    """kb-manifest.json needs the plugin; the pins it verifies still hold on the rendered Markdown."""
    review = (shipped / "docs" / "systems" / "oh-my-pi" / "review.md").read_text(encoding="utf-8")
    pin = front_matter(review)[PIN_KEY]
    assert sha256((shipped / "docs" / "systems" / "oh-my-pi" / "result.md").read_bytes()) == pin


def test_render_system_name_with_html_in_the_nav(project: Path, kbgen: Any) -> None:
    """Themes print nav titles unescaped: the rendered nav carries the plugin's escaped name."""
    name = 'system: "A & B <img src=x onerror=alert(1)>"'
    _replace(project / "records" / "demo" / "run.yaml", "system: Demo", name)
    out = project.parent / "out"
    assert kbgen("render", "--out", str(out)).code == 0
    titles = {next(iter(entry)) for entry in _config(out)["nav"][1]["Systems"] if isinstance(entry, dict)}
    assert "A &amp; B &lt;img src=x onerror=alert(1)&gt;" in titles
    assert "<img" not in (out / "mkdocs.yml").read_text(encoding="utf-8")


def test_render_a_records_folder_that_does_not_exist(project: Path, kbgen: Any) -> None:
    result = kbgen("render", "--records", "nowhere", "--out", str(project.parent / "out"))
    assert result.code == 2
    assert f"kbgen render: {project / 'nowhere'}: no such records folder" in result.err
    assert not (project.parent / "out").exists()


def test_render_failing_midway_keeps_the_previous_output(
    project: Path, kbgen: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = project.parent / "out"
    assert kbgen("render", "--out", str(out)).code == 0
    before = tree_hashes(out)

    def half_written(rendered: Rendered, staging: Path) -> None:
        (staging / "mkdocs.yml").write_text("site_name: half\n", encoding="utf-8")
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(generator.site.render_out, "write_rendered", half_written)
    result = kbgen("render", "--out", str(out))
    assert result.code == 1
    assert "No space left on device" in result.err
    assert tree_hashes(out) == before
    assert not list(project.parent.glob(".out.building-*"))


def test_zensical_render_writes_file_links_inside_raw_html(shipped: Path, tmp_path: Path) -> None:
    # Zensical rewrites links inside raw HTML as file links; MkDocs and ProperDocs do not.
    assert _render(tmp_path / "zensical", "--engine", "zensical") == 0
    page = "docs/systems/oh-my-pi/result.md"
    for_mkdocs = (shipped / page).read_text(encoding="utf-8")
    for_zensical = (tmp_path / "zensical" / page).read_text(encoding="utf-8")
    assert 'href="../../../glossary/#' in for_mkdocs and 'href="../../glossary.md#' not in for_mkdocs
    assert 'href="../../glossary.md#' in for_zensical and "/glossary/#" not in for_zensical
    # Only the links differ: the same page otherwise.
    strip = re.compile(r'href="[^"]*"')
    assert strip.sub("", for_mkdocs) == strip.sub("", for_zensical)
