"""A small KB with quote and angle-bracket payloads in every frontmatter value the records
control, built by each engine beside the same KB clean.

The KB is the shipped KB (every system of ``records/``, with its further runs), the
fixture set (``tests/fixtures/check/clean-set``, as ``demo``: overview, member and review
pages) and the fixture run (``clean-run``, as ``plain``: result, review and system pages).
The hostile copy plants a payload into every title, every description and every system
name of them all (the values a theme prints; the generator's other frontmatter keys are
its own constants, grammars, digests or data no theme prints), stamps each set's
manifest anew, and lives in a records folder whose own name (which no grammar covers)
would end an edit link's ``href``. MkDocs builds with the
documented edit links on; ProperDocs and Zensical build ``kbgen render``'s output.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from collections import Counter
from html.parser import HTMLParser
from pathlib import Path

from site_support import make_project

from generator.model.set_manifest import manifest_text
from generator.pipeline import check_records

TESTS = Path(__file__).resolve().parents[1]
REPO_ROOT = TESTS.parent
SHIPPED = REPO_ROOT / "records"
SET_SYSTEM = TESTS / "fixtures" / "check" / "clean-set" / "records" / "demo"
RUN_SYSTEM = TESTS / "fixtures" / "check" / "clean-run" / "records" / "demo"
ENGINES = ("mkdocs", "properdocs", "zensical")
TIMEOUT = 600  # seconds, per engine step on a loaded machine

EDITABLE = {
    "site_description:": (
        "repo_url: https://git.example.org/team/kb\nedit_uri: edit/main/kb/\nsite_description:"
    ),
    "    - toc.follow\n": "    - toc.follow\n    - content.action.edit\n",
}
EDIT_PREFIX = "https://git.example.org/team/kb/edit/main/"
CLEAN_FOLDER = "records"
HOSTILE_FOLDER = 'r"><img src=x onerror=alert(1)>'

PAYLOADS = {
    "attribute": 'x"><script>alert(document.domain)</script>',
    "single": "x'><img src=x onerror=alert(1)>",
    "element": "</title><svg onload=alert(1)>",
    "entity": "&quot;&gt;<b>&amp;",
}
# (file, line as written, the value's payload); each line occurs once in its file.
PLANTED = [
    ("demo/overview.yaml", "  title: Demo agentic-system analysis\n", "attribute"),
    ("demo/overview.yaml", "  description: Demo stores notes and reads them back on request.\n", "attribute"),
    ("demo/runtime.yaml", "  description: Runtime baseline of Demo.\n", "single"),
    ("demo/runtime.yaml", "  title: Demo runtime report\n", "element"),
    ("demo/epistemic.yaml", "  description: Epistemic routes of Demo.\n", "entity"),
    ("demo/epistemic.yaml", "  title: Demo epistemic report\n", "single"),
    ("demo/memory.yaml", "  description: Memory routes of Demo.\n", "element"),
    ("demo/memory.yaml", "  title: Demo memory report\n", "entity"),
    ("demo/reconciliation.yaml", "  title: Demo reconciliation\n", "element"),
    ("demo/set.yaml", "  system: Demo\n", "attribute"),
    ("plain/run.yaml", "  system: Demo\n", "element"),
    ("plain/result.yaml", "  title: Demo analysis\n", "attribute"),
]


# A shipped record file's one-line title, description or system name (a block scalar's
# opening line is left alone: its value is on the lines below).
_PLANTABLE = re.compile(r"^  (title|description|system): (?![>|'\"]).+$", re.M)


def _plant_shipped(records: Path) -> None:
    """A payload in every one-line title, description and system name of the shipped
    systems' files. The payload is chosen by the file's name and the key, so each run of a
    system gets the same one and its changes page compares like with like."""
    names = sorted(PAYLOADS)
    planted = 0
    for file in sorted(records.rglob("*.yaml")):
        if file.relative_to(records).parts[0] in ("demo", "plain"):
            continue
        text = file.read_text(encoding="utf-8")

        def payload(match: re.Match[str], name: str = file.name) -> str:
            nonlocal planted
            planted += 1
            chosen = names[sum(map(ord, f"{name}:{match.group(1)}")) % len(names)]
            return f"  {match.group(1)}: {json.dumps(PAYLOADS[chosen])}"

        file.write_text(_PLANTABLE.sub(payload, text), encoding="utf-8")
    assert planted > 20, planted  # every shipped system names itself and titles its pages


def _records(root: Path, folder: str, hostile: bool) -> Path:
    records = root / folder
    shutil.copytree(SHIPPED, records)
    shutil.copytree(SET_SYSTEM, records / "demo")
    shutil.copytree(RUN_SYSTEM, records / "plain")
    for file in (records / "plain").glob("*.yaml"):
        file.write_text(file.read_text(encoding="utf-8").replace("-demo-01", "-plain-01"), encoding="utf-8")
    if hostile:
        for relative, line, payload in PLANTED:
            file = records / relative
            text = file.read_text(encoding="utf-8")
            key = line.split(":", 1)[0]
            assert text.count(line) == 1, (relative, line)
            file.write_text(text.replace(line, f"{key}: {json.dumps(PAYLOADS[payload])}\n"), encoding="utf-8")
        _plant_shipped(records)
    # Each set's manifest pins its records' digests: stamped anew after the planting.
    for checked in check_records(records, root):
        if checked.records.analysis_set is not None:
            manifest = checked.source.folder / "ARTIFACT.yaml"
            manifest.write_text(manifest_text(checked.records), encoding="utf-8")
    return records


def _run(command: list[str], cwd: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("KBGEN_RECORDS", "SOURCE_DATE_EPOCH")}
    env["PYTHONPATH"] = str(REPO_ROOT)  # this checkout's generator, from the project folder
    env["NO_MKDOCS_2_WARNING"] = "1"
    done = subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True, timeout=TIMEOUT)
    assert done.returncode == 0, f"{command}: {done.stdout}\n{done.stderr}"


def build_sites(root: Path, hostile: bool) -> dict[str, Path]:
    """engine → the built site of the small KB, clean or hostile."""
    project = make_project(root, EDITABLE, git=False)
    shutil.rmtree(project / "records")
    records = _records(project, HOSTILE_FOLDER if hostile else CLEAN_FOLDER, hostile)
    kbgen = [sys.executable, "-m", "generator.cli.main"]
    sites = {"mkdocs": project / "site"}
    _run([*kbgen, "build", "--records", str(records), "--site-dir", str(sites["mkdocs"])], project)
    for engine in ENGINES[1:]:
        render = root / f"render-{engine}"
        _run([*kbgen, "render", "--records", str(records), "--out", str(render), "--engine", engine], project)
        if engine == "properdocs":
            _run([sys.executable, "-m", "properdocs", "build", "--strict", "-f", "mkdocs.yml"], render)
        else:
            _run([sys.executable, "-m", "zensical", "build", "--strict"], render)
        sites[engine] = render / "site"
    return sites


class PageShape(HTMLParser):
    """What a page is made of: how many elements of each tag with each set of attribute
    names, and every link target."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.elements: Counter[tuple[str, tuple[str, ...]]] = Counter()  # a planted <script> counts
        self.targets: set[str] = set()
        self.description: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.elements[(tag, tuple(sorted(name for name, _ in attrs)))] += 1
        found = dict(attrs)
        for name in ("href", "src", "action", "formaction", "data", "srcset"):
            if found.get(name):
                self.targets.add(str(found[name]))
        if tag == "meta" and found.get("name") == "description":
            self.description = found.get("content")


def page_shape(page: Path) -> PageShape:
    shape = PageShape()
    shape.feed(page.read_text(encoding="utf-8"))
    shape.close()
    return shape


def site_pages(site: Path) -> list[str]:
    return sorted(path.relative_to(site).as_posix() for path in site.rglob("*.html"))
