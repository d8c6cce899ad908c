"""Site builds with MkDocs: reproducible, strict-clean, atomic on failure, record text stays data.

Every build runs in a subprocess (MkDocs reads its build date from the process
environment, which must not leak into other tests). The shipped site is built once per
module and reused.
"""

from __future__ import annotations

import hashlib
import html
import json
import mimetypes
import os
import re
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from site_support import make_project

REPO_ROOT = Path(__file__).resolve().parents[2]
KBGEN = [sys.executable, "-m", "generator.cli.main"]
MKDOCS = [sys.executable, "-m", "mkdocs"]


def _run(args: list[str], cwd: Path = REPO_ROOT) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("KBGEN_RECORDS", "SOURCE_DATE_EPOCH")}
    env["NO_MKDOCS_2_WARNING"] = "1"
    return subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True, timeout=180, check=False)


def _tree(folder: Path) -> dict[str, bytes]:
    """Every file under a folder (relative POSIX path → bytes)."""
    files = sorted(p for p in folder.rglob("*") if p.is_file())
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in files}


def _hashes(folder: Path) -> dict[str, str]:
    return {path: hashlib.sha256(data).hexdigest() for path, data in _tree(folder).items()}


def _listing(folder: Path) -> list[str]:
    return sorted(p.relative_to(folder).as_posix() + ("/" if p.is_dir() else "") for p in folder.rglob("*"))


def _differing(a: dict[str, bytes], b: dict[str, bytes]) -> list[str]:
    return sorted(path for path in a.keys() | b.keys() if a.get(path) != b.get(path))


def _output(proc: subprocess.CompletedProcess[str]) -> str:
    return proc.stdout + proc.stderr


def _build(site: Path, *extra: str, cwd: Path = REPO_ROOT) -> subprocess.CompletedProcess[str]:
    return _run([*KBGEN, "build", *extra, "--site-dir", str(site)], cwd=cwd)


class ShippedBuild:
    def __init__(self, site: Path, kb_before: list[str], kb_hashes: dict[str, str], records: dict[str, str]):
        self.site = site
        self.kb_before = kb_before
        self.kb_hashes_before = kb_hashes
        self.records_before = records


@pytest.fixture(scope="module")
def shipped(tmp_path_factory: pytest.TempPathFactory) -> ShippedBuild:
    """The shipped records built once from the repo root, with kb/ and records/ captured before."""
    kb_before = _listing(REPO_ROOT / "kb")
    kb_hashes = _hashes(REPO_ROOT / "kb")
    records_before = _hashes(REPO_ROOT / "records")
    site = tmp_path_factory.mktemp("shipped") / "A"
    proc = _build(site)
    assert proc.returncode == 0, _output(proc)
    return ShippedBuild(site, kb_before, kb_hashes, records_before)


@pytest.fixture
def previous_site(shipped: ShippedBuild, tmp_path: Path) -> tuple[Path, dict[str, bytes]]:
    """A copy of a good build, and its bytes, to build over."""
    site = tmp_path / "site"
    shutil.copytree(shipped.site, site)
    return site, _tree(site)


# ---------------------------------------------------------------- reproducible and clean


@pytest.mark.slow
def test_two_builds_are_byte_identical(shipped: ShippedBuild, tmp_path: Path) -> None:
    second = tmp_path / "B"
    proc = _build(second)
    assert proc.returncode == 0, _output(proc)
    first_tree, second_tree = _tree(shipped.site), _tree(second)
    assert "systems/oh-my-pi/result/index.html" in first_tree
    assert "systems/decapod/memory-report/index.html" in first_tree
    assert _differing(first_tree, second_tree) == []


@pytest.mark.slow
def test_mkdocs_build_strict_has_no_warnings(tmp_path: Path) -> None:
    proc = _run([*MKDOCS, "build", "--strict", "-d", str(tmp_path / "site")])
    assert proc.returncode == 0, _output(proc)
    warnings = [line for line in _output(proc).splitlines() if "WARNING" in line]
    assert warnings == []
    assert (tmp_path / "site" / "systems" / "oh-my-pi" / "review" / "index.html").is_file()


def test_build_leaves_docs_dir_and_records_untouched(shipped: ShippedBuild) -> None:
    """Generated pages are virtual files: nothing lands in kb/, nothing under records/ changes."""
    assert _listing(REPO_ROOT / "kb") == shipped.kb_before
    assert _hashes(REPO_ROOT / "kb") == shipped.kb_hashes_before
    assert not (REPO_ROOT / "kb" / "systems").exists()
    assert not (REPO_ROOT / "kb" / "glossary.md").exists()
    assert _hashes(REPO_ROOT / "records") == shipped.records_before
    assert (shipped.site / "glossary" / "index.html").is_file()


# ---------------------------------------------------------------- failed builds change nothing

RUN_YAML = """\
run:
  system: Tiny
  run_id: AAS-2024-05-01-tiny-01
  run_date: 2024-05-01
  disposition: complete
  target_class: enclosing runtime
  boundary_kind: whole-system
  reviewed_boundary:
    source: SRC-1
    revision: 0123456789abcdef
  analysis_cutoff: 2024-05-01
  evidence_tier: code-grounded
sources:
  - id: SRC-1
    source_kind: Git
    identity: https://github.com/example/tiny
    location: https://github.com/example/tiny
    revision: 0123456789abcdef
"""


RESULT_YAML = """\
result:
  title: Tiny analysis
  type: kb/types/agentic-system-analysis-result.md
  run_identity: {}
  boundary_and_evidence: {}
  runtime_account: {}
  lens_scoping: {}
  lens_outputs: {}
  reconciliation: {}
  bounded_synthesis: {}
  verification: {}
"""


def _records(root: Path, components: str) -> Path:
    """A one-system records tree (run, source, result) with the given components."""
    system = root / "records" / "tiny"
    system.mkdir(parents=True)
    (system / "run.yaml").write_text(RUN_YAML, encoding="utf-8")
    (system / "result.yaml").write_text(RESULT_YAML, encoding="utf-8")
    (system / "records.yaml").write_text(textwrap.dedent(components), encoding="utf-8")
    return root / "records"


BAD_COMPONENTS = """\
components:
  - id: CMP-1
    label: Loop
    body: Calls CMP-9, which nobody declares.
"""


def test_build_over_records_with_errors_keeps_the_previous_site(
    previous_site: tuple[Path, dict[str, bytes]], tmp_path: Path
) -> None:
    site, before = previous_site
    _records(tmp_path, BAD_COMPONENTS)
    proc = _build(site, "--records", "records", "-f", str(REPO_ROOT / "mkdocs.yml"), cwd=tmp_path)
    output = _output(proc)
    assert proc.returncode == 1, output
    assert re.search(r"^records/tiny/records\.yaml:4:17: error KB202 ", output, re.MULTILINE), output
    assert "CMP-9 in prose resolves to no record" in output
    assert "nothing was built" in output
    assert "Traceback" not in output
    assert _differing(before, _tree(site)) == []
    assert sorted(p.name for p in site.parent.iterdir()) == ["records", "site"]


def _broken_docs_config(tmp_path: Path) -> Path:
    """A copy of mkdocs.yml whose hand-authored docs hold a link to a missing page."""
    docs = tmp_path / "docs"
    shutil.copytree(REPO_ROOT / "kb", docs)
    with (docs / "authoring.md").open("a", encoding="utf-8") as page:
        page.write("\nSee the [missing page](missing.md).\n")
    text = (REPO_ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    replacements = {
        "docs_dir: kb": f"docs_dir: {docs}",
        "custom_dir: overrides": f"custom_dir: {REPO_ROOT / 'overrides'}",
        "records_dir: !ENV [KBGEN_RECORDS, records]": f"records_dir: {REPO_ROOT / 'records'}",
    }
    for old, new in replacements.items():
        assert old in text, f"mkdocs.yml no longer has {old!r}"
        text = text.replace(old, new)
    config = tmp_path / "mkdocs.yml"
    config.write_text(text, encoding="utf-8")
    return config


def test_build_failing_inside_mkdocs_keeps_the_previous_site(
    previous_site: tuple[Path, dict[str, bytes]], tmp_path: Path
) -> None:
    site, before = previous_site
    config = _broken_docs_config(tmp_path)
    proc = _build(site, "-f", str(config), cwd=tmp_path)
    output = _output(proc)
    assert proc.returncode == 1, output
    assert "missing.md" in output
    assert "previous site is" in output
    assert "Traceback" not in output
    assert _differing(before, _tree(site)) == []
    assert [p.name for p in tmp_path.iterdir() if ".building-" in p.name] == []


# ---------------------------------------------------------------- record text is data

PAYLOAD_COMPONENTS = """\
components:
  - id: CMP-1
    label: Loop
    body: "Payload <script>alert(1)</script> then {{ 7*7 }} then [x](javascript:alert(1)) end."
"""


def test_record_text_is_data_in_the_built_html(tmp_path: Path) -> None:
    _records(tmp_path, PAYLOAD_COMPONENTS)
    site = tmp_path / "site"
    proc = _build(site, "--records", "records", "-f", str(REPO_ROOT / "mkdocs.yml"), cwd=tmp_path)
    assert proc.returncode == 0, _output(proc)
    page = (site / "systems" / "tiny" / "result" / "index.html").read_text(encoding="utf-8")
    (paragraph,) = re.findall(r"<p>Payload .*? end\.</p>", page)
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in paragraph
    # Braces are written as entities, so neither Jinja nor attribute lists see them;
    # the reader sees the text as written, and no macro turned it into 49.
    assert "{{ 7*7 }}" in html.unescape(paragraph)
    assert "49" not in paragraph
    # A link whose target is no web URL nor a record is its text, then its target as code.
    assert "x (<code>javascript:alert(1)</code>)" in paragraph
    for path, data in _tree(site).items():
        if path.endswith(".html"):
            text = data.decode("utf-8")
            assert 'href="javascript:' not in text, path
            assert "<script>alert(1)" not in text, path


def test_system_name_is_data_on_the_home_page(tmp_path: Path) -> None:
    records = _records(tmp_path, "components:\n  - id: CMP-1\n    label: Loop\n")
    run = records / "tiny" / "run.yaml"
    payload = 'system: "Tiny <img src=x onerror=alert(1)>"'
    run.write_text(run.read_text(encoding="utf-8").replace("system: Tiny", payload), encoding="utf-8")
    site = tmp_path / "site"
    proc = _build(site, "--records", "records", "-f", str(REPO_ROOT / "mkdocs.yml"), cwd=tmp_path)
    assert proc.returncode == 0, _output(proc)
    for path, data in _tree(site).items():
        if path.endswith(".html"):
            assert "<img src=x onerror" not in data.decode("utf-8"), path


# ---------------------------------------------------------------- the plugin's configuration


def test_config_without_md_in_html_fails_naming_it(tmp_path: Path) -> None:
    project = make_project(tmp_path, {"  - md_in_html\n": ""}, git=False)
    proc = _build(project / "site", cwd=project)
    output = _output(proc)
    assert proc.returncode == 1, output
    assert "the generated pages need the Markdown extension md_in_html" in output
    assert "Traceback" not in output
    assert not (project / "site").exists()


EDITABLE = {
    "site_description:": (
        "repo_url: https://git.example.org/team/kb\nedit_uri: edit/main/kb/\nsite_description:"
    ),
    "    - toc.follow\n": "    - toc.follow\n    - content.action.edit\n",
}
EDIT = "https://git.example.org/team/kb/edit/main/"


def _edit_links(page: Path) -> list[str]:
    return re.findall(r'<a href="([^"]*)"[^>]*rel="edit"', page.read_text(encoding="utf-8"))


def test_generated_pages_link_to_their_record_file_for_editing(tmp_path: Path) -> None:
    project = make_project(tmp_path, EDITABLE, git=False)
    site = project / "site"
    proc = _build(site, cwd=project)
    assert proc.returncode == 0, _output(proc)
    system = site / "systems" / "demo"
    assert _edit_links(system / "result" / "index.html") == [f"{EDIT}records/demo/result.yaml"]
    assert _edit_links(system / "review" / "index.html") == [f"{EDIT}records/demo/result.yaml"]
    assert _edit_links(system / "index.html") == [f"{EDIT}records/demo/run.yaml"]
    # Cross-system pages have no record file, and are not docs_dir files either.
    for page in ("glossary", "systems", "systems/status-matrix"):
        assert _edit_links(site / page / "index.html") == [], page
    assert _edit_links(site / "authoring" / "index.html") == [f"{EDIT}kb/authoring.md"]


def test_serve_refuses_records_option_it_cannot_pass_on(tmp_path: Path) -> None:
    """serve reloads mkdocs.yml on every rebuild: --records travels through !ENV only."""
    project = make_project(tmp_path, {"!ENV [KBGEN_RECORDS, records]": "records"}, git=False)
    shutil.copytree(project / "records", tmp_path / "elsewhere")
    proc = _run([*KBGEN, "serve", "--records", str(tmp_path / "elsewhere")], cwd=project)
    assert proc.returncode == 2, _output(proc)
    assert "--records needs 'records_dir: !ENV [KBGEN_RECORDS, records]'" in _output(proc)


def test_hand_written_links_to_record_anchors_are_checked(tmp_path):
    """Generated pages convert without their raw blocks (generator/splice.py); MkDocs'
    strict anchor check of hand-written links still knows every anchor of the page."""
    project = make_project(tmp_path, git=False)
    page = project / "kb" / "links.md"
    page.write_text("# Links\n\n[The route](systems/demo/result.md#rte-1)\n", encoding="utf-8")
    proc = _build(project / "site", cwd=project)
    assert proc.returncode == 0, _output(proc)
    page.write_text("# Links\n\n[Nowhere](systems/demo/result.md#rte-404)\n", encoding="utf-8")
    proc = _build(project / "site", cwd=project)
    assert proc.returncode == 1, _output(proc)
    assert "rte-404" in _output(proc)
    assert "Traceback" not in _output(proc)


def _sitemap_locations(site: Path) -> list[str]:
    return re.findall(r"<loc>([^<]*)</loc>", (site / "sitemap.xml").read_text(encoding="utf-8"))


def test_without_a_site_url_the_sitemap_lists_no_page(shipped: ShippedBuild) -> None:
    """MkDocs lists a page under the site's address only: without one, an empty list."""
    assert _sitemap_locations(shipped.site) == []


def test_with_a_site_url_the_sitemap_lists_every_page(tmp_path: Path) -> None:
    site = tmp_path / "site"
    proc = _build(site, "--site-url", "https://example.org/kb")
    assert proc.returncode == 0, _output(proc)
    listed = _sitemap_locations(site)
    manifest = json.loads((site / "kb-manifest.json").read_text(encoding="utf-8"))
    generated = [page["html"] for page in manifest["pages"]]
    assert len(generated) > 15
    pages = sorted(p.relative_to(site).as_posix() for p in site.rglob("index.html"))
    # Every page, hand-written or generated from the records (virtual files), once.
    expected = sorted(
        "https://example.org/kb/" + page.removesuffix("index.html")
        for page in pages
        if page != "search/index.html"
    )
    assert sorted(listed) == expected
    assert {"https://example.org/kb/" + path.removesuffix("index.html") for path in generated} <= set(listed)
    assert "https://example.org/kb/authoring/" in listed


def test_the_set_manifest_opens_as_text(shipped: ShippedBuild) -> None:
    """A browser downloads a .yaml file (no server sends it as text): the review links to
    a copy of the manifest that every server, ``kbgen serve``'s too, sends as text/plain."""
    folder = shipped.site / "systems" / "instinctual-memory"
    copy = folder / "ARTIFACT.yaml.txt"
    assert copy.read_bytes() == (folder / "ARTIFACT.yaml").read_bytes()
    review = (folder / "review" / "index.html").read_text(encoding="utf-8")
    assert '<a href="../ARTIFACT.yaml.txt">ARTIFACT.yaml</a>' in review
    assert mimetypes.guess_type(copy.name)[0] == "text/plain"
