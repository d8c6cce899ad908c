"""Edit links: each segment of a record file's path is percent-encoded where it is set.

Record file names are held to a grammar (KB014), but the folder above the system folders
is not: a records folder named with quotes, angle brackets, ``#``, ``?``, ``%`` or spaces
must not end the edit button's ``href``, cut the URL at a fragment or query, or decode to
another path.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest
from site_support import make_project

from generator.mkdocs.publishing import edit_path

REPO_ROOT = Path(__file__).resolve().parents[2]
KBGEN = [sys.executable, "-m", "generator.cli.main"]


@pytest.mark.parametrize(
    "folder",
    [
        'rec"><img src=x onerror=alert(1)>',
        "rec'onmouseover='alert(1)",
        "rec#fragment?query=1",
        "rec%2e%2e%2f",
        "two words",
    ],
)
def test_every_segment_of_an_edit_path_is_percent_encoded(tmp_path: Path, folder: str) -> None:
    docs = tmp_path / "kb"
    docs.mkdir()
    record = tmp_path / folder / "demo" / "run.yaml"
    record.parent.mkdir(parents=True)
    record.write_text("run: {}\n", encoding="utf-8")
    path = edit_path(record, docs.resolve())
    assert not set("\"'<> #?") & set(path), path
    segments = path.split("/")
    assert segments[0] == ".." and segments[2:] == ["demo", "run.yaml"]
    assert unquote(segments[1]) == folder  # decodes to the folder itself, no further path


class _EditLinks(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.links: list[tuple[str, list[str]]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        if tag == "a" and found.get("rel") == "edit":
            self.links.append((found.get("href") or "", sorted(found)))


EDITABLE = {
    "site_description:": (
        "repo_url: https://git.example.org/team/kb\nedit_uri: edit/main/kb/\nsite_description:"
    ),
    "    - toc.follow\n": "    - toc.follow\n    - content.action.edit\n",
}


@pytest.mark.slow
def test_a_hostile_records_folder_stays_inside_the_edit_links_href(tmp_path: Path) -> None:
    project = make_project(tmp_path, EDITABLE, git=False)
    hostile = project / 'r"><img src=x onerror=alert(1)>#x'
    hostile.mkdir()
    shutil.move(project / "records" / "demo", hostile / "demo")
    done = subprocess.run(
        [*KBGEN, "build", "--records", str(hostile), "--site-dir", str(project / "site")],
        cwd=project,
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "PYTHONPATH": str(REPO_ROOT)},  # this checkout's generator, from any folder
    )
    assert done.returncode == 0, done.stdout + done.stderr
    page = (project / "site" / "systems" / "demo" / "result" / "index.html").read_text(encoding="utf-8")
    parser = _EditLinks()
    parser.feed(page)
    assert len(parser.links) == 1
    href, attributes = parser.links[0]
    assert attributes == ["class", "href", "rel", "title"]
    assert "<img" not in page.split('class="md-content"', 1)[-1].split("</a>", 1)[0]
    parts = urlsplit(href)
    assert (parts.scheme, parts.netloc, parts.query, parts.fragment) == ("https", "git.example.org", "", "")
    assert unquote(parts.path) == '/team/kb/edit/main/r"><img src=x onerror=alert(1)>#x/demo/result.yaml'
