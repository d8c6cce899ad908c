"""The architecture as tests: a new kind and a new page need no edit elsewhere, the plugin
is a dispatcher, the package root holds a handful of modules.

The layers and the absence of import cycles are import-linter's contracts
(``pyproject.toml``), run by ``scripts/test.sh``; the test below runs them too, so a
plain ``pytest`` run meets a broken contract as well.
"""

from __future__ import annotations

import ast
import inspect
import json
import subprocess
import textwrap
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest
from hostile_support import make_records
from pydantic import Field

from generator.mkdocs.plugin import RecordsPlugin
from generator.model import KINDS, KindSpec, RecordBase, using
from generator.model.base import Text
from generator.model.ids import kind_of
from generator.outputs.schema import schema_text
from generator.pipeline import check_records, run_pipeline
from generator.render import PAGES, PageRequest, PageSpec, urls, using_pages
from generator.render.environment import frontmatter
from generator.render.views import RecordPageView

ROOT = Path(__file__).resolve().parent.parent
GENERATOR = ROOT / "generator"


class Experiment(RecordBase):
    """An experiment the analysis ran (a kind of this test's own)."""

    setup: Text = Field(title="Setup")


EXPERIMENTS = KindSpec("EXP", "experiments", Experiment, "experiment", "experiments", "Experiments")

EXPERIMENTS_TEMPLATE = """\
{{ frontmatter }}
# Experiments of {{ name }} { #top }

{% for item in experiments %}
- {{ item }}
{% endfor %}
"""


def experiments_view(request: PageRequest) -> Mapping[str, Any]:
    graph = request.graph
    view = RecordPageView(graph, request.spec.key)
    found = sorted(r.id for r in graph.system.records if kind_of(r.id) == "EXP")
    return {
        "name": graph.slug,
        "experiments": [view.linker.ref(record_id) for record_id in found],
        "frontmatter": frontmatter({"type": request.spec.type_name, "render_macros": False}),
    }


EXPERIMENTS_PAGE = PageSpec(
    key="experiments",
    path="systems/{slug}/experiments.md",
    title="Experiments",
    label="experiments",
    template="test-experiments.md.j2",
    template_source=EXPERIMENTS_TEMPLATE,
    view=experiments_view,
    type_name="kb/types/experiments.md",
    artifact_note="the experiments the analysis ran",
)

EXPERIMENTS_YAML = """\
experiments:
  - id: EXP-1
    label: Replay the loop
    setup: Ran CMP-1 twice on the same input.
"""


def test_a_new_kind_and_a_new_page_in_registries_of_their_own(tmp_path: Path) -> None:
    """One kind spec and its model, one page spec and its template: with no other change
    the kind is validated, in the schema and rendered on the new page, which is linked from
    the system page; the built-in registries are untouched before and after."""
    records = make_records(tmp_path, {"experiments.yaml": EXPERIMENTS_YAML})
    with using(KINDS.extended(EXPERIMENTS)), using_pages(PAGES.extended(EXPERIMENTS_PAGE)):
        (checked,) = check_records(records, tmp_path)
        assert checked.errors == []
        schema = json.loads(schema_text())
        assert "experiments" in schema["properties"]
        result = run_pipeline(records, tmp_path)
        assert result.errors == []
        page = result.pages[urls.page_path("experiments", "demo")]
        assert "- [EXP-1](result.md#exp-1)" in page
        assert "[Experiments](experiments.md)" in result.pages["systems/demo/index.md"]
        assert "#### EXP-1 — Replay the loop" in result.pages["systems/demo/result.md"]
    (unknown,) = check_records(records, tmp_path)
    assert {d.code for d in unknown.errors} == {"KB103"}  # 'experiments' is no key of the built-in kinds
    assert "experiments" not in json.loads(schema_text())["properties"]


def test_the_plugin_is_a_dispatcher() -> None:
    """At most about ten attributes, and every event a few lines handing off."""
    plugin = RecordsPlugin()
    assert len(vars(plugin)) <= 10, sorted(vars(plugin))
    events = [
        (name, member)
        for name, member in inspect.getmembers(RecordsPlugin, inspect.isfunction)
        if name.startswith("on_") or name.startswith("_splice") or name.startswith("_check")
    ]
    assert len(events) >= 12
    for name, method in events:
        body = ast.parse(textwrap.dedent(inspect.getsource(method))).body[0]
        assert isinstance(body, ast.FunctionDef)
        statements = sum(isinstance(node, ast.stmt) for node in ast.walk(body)) - 1
        assert statements <= 14, f"{name} has {statements} statements: hand the work to a collaborator"


def test_the_package_root_holds_a_handful_of_modules() -> None:
    modules = sorted(path.name for path in GENERATOR.glob("*.py"))
    assert modules == ["__init__.py", "diagnostics.py", "pipeline.py"]


@pytest.mark.skipif(not (ROOT / "pyproject.toml").is_file(), reason="needs the project's pyproject.toml")
def test_the_import_contracts_hold() -> None:
    """The layers, MkDocs in its layer, the importer beside the core, no import cycle."""
    run = subprocess.run(["lint-imports"], cwd=ROOT, capture_output=True, text=True, timeout=300, check=False)
    assert run.returncode == 0, run.stdout[-3000:]
    assert "5 kept, 0 broken" in run.stdout
