"""The architecture as tests: a new kind, a new page and a new rule need no edit elsewhere, the plugin
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
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest
from hostile_support import make_records
from mkdocs.plugins import CombinedEvent
from pydantic import Field

from generator.check.checks import CHECKS, using_checks
from generator.check.context import Context
from generator.check.registry import check_rule
from generator.diagnostics import Diagnostic, Rule, Severity, warning
from generator.mkdocs.plugin import RecordsPlugin
from generator.model import KINDS, KindSpec, RecordBase, using
from generator.model.base import Text
from generator.model.ids import kind_of
from generator.outputs.schema import schema_text
from generator.pipeline import check_records, run_pipeline
from generator.render import PAGES, PageRequest, PageSpec, urls, using_pages
from generator.render.environment import frontmatter
from generator.render.views import RecordPageView

ROOT = Path(__file__).resolve().parents[2]
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


# The modules that define the kinds: the built-in codes and their specs.
KIND_MODULES = frozenset({"generator/model/kinds.py", "generator/model/ids.py"})


def _kind_switches(path: Path, words: frozenset[str]) -> Iterator[str]:
    """``RecordKind.ROUTE``, ``kind_of(x) == "SRC"``, ``list_key in ("components", …)``."""
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if (
            isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name)
            and node.value.id == "RecordKind"
        ):
            yield f"{node.lineno}: RecordKind.{node.attr}"
        elif isinstance(node, ast.Compare):
            for part in (node.left, *node.comparators):
                for sub in ast.walk(part):
                    if isinstance(sub, ast.Constant) and sub.value in words:
                        yield f"{node.lineno}: compares with {sub.value!r}"


def test_no_module_switches_on_a_kind() -> None:
    """What treats some kinds apart reads their specs (a role, a symbol kind, title aliases,
    a record file), never a kind code or list key, so a new kind needs no edit there."""
    words = frozenset(code for spec in KINDS.specs for code in (spec.code, spec.list_key))
    found = [
        f"{path.relative_to(ROOT).as_posix()}:{switch}"
        for path in sorted(GENERATOR.rglob("*.py"))
        if path.relative_to(ROOT).as_posix() not in KIND_MODULES
        for switch in _kind_switches(path, words)
    ]
    assert found == []


def test_the_plugin_is_a_dispatcher() -> None:
    """At most about ten attributes, and every event a few lines handing off."""
    plugin = RecordsPlugin()
    assert len(vars(plugin)) <= 10, sorted(vars(plugin))
    events = [
        (name, member)
        for name, member in inspect.getmembers(RecordsPlugin, inspect.isfunction)
        if name.startswith("on_") or name.startswith("_splice") or name.startswith("_check")
    ]
    # An event of several steps (CombinedEvent): each step is an event's work.
    events += [
        (f"{name}:{step.__name__}", step)
        for name, member in vars(RecordsPlugin).items()
        if name.startswith("on_") and isinstance(member, CombinedEvent)
        for step in member.methods
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
    assert "6 kept, 0 broken" in run.stdout


def test_the_census_counts_without_the_forms_it_measures() -> None:
    """The import's census names nothing of the recognisers or the form registry: what it
    counts is the document's grammar, so a form the importer lacks lowers a figure."""
    tree = ast.parse((GENERATOR / "importer" / "census.py").read_text(encoding="utf-8"))
    imported = {node.module or "" for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)} | {
        alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names
    }
    forbidden = (
        "generator.importer.recognisers",
        "generator.importer.forms",
        "generator.importer.form_registry",
    )
    assert imported and not [name for name in imported if name.startswith(forbidden)]
    contracts = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert 'source_modules = ["generator.importer.census"]' in contracts


# ---------------------------------------------------------------- import forms and document types

FIELD_NOTE = """\
---
type: kb/types/field-analysis-note.md
run-id: AAS-2026-01-01-note-01
system: Note
run-date: '2026-01-01'
result-disposition: complete
target-class: enclosing runtime
boundary-kind: whole-system
reviewed-boundary: 0123456789abcdef0123456789abcdef01234567
analysis-cutoff: '2026-01-02'
evidence-tier: code-grounded
---

# Note agentic-system analysis

## Source register

| Source ID | Kind | Identity/location | Revision |
|---|---|---|---|
| SRC-1 | Git | `https://github.com/e/note` | `0123456789abcdef0123456789abcdef01234567` |

## Records

### Components

Record CMP-1 (Agent loop). Implementation conclusion status: wired. Evidence: SRC-1 `src/loop.py:1-9`.

## Findings

CMP-1 runs the loop.
"""


def _record_form(block, state):
    """``Record CMP-1 (Label). Body``: a declaration form of this test's own."""
    import re

    from generator.importer.columns import list_key_of_id
    from generator.importer.declare import declare

    match = re.match(r"^Record (?P<id>[A-Z]+-[0-9]+) \((?P<label>[^)]+)\)\.\s*(?P<rest>.*)$", block.text)
    if match is None:
        return None
    walker = state.walker
    record_id = match.group("id")
    draft = declare(
        walker.gathered, record_id, list_key_of_id(record_id), block.line, 8, match.group("label")
    )
    if draft is None:
        return None
    walker.gathered.cite(block.text, block.line, block.col)
    walker.line_into(draft, match.group("rest"), block.line, block.col)
    return [{"records": [record_id]}]


def test_a_new_import_form_and_document_type_are_one_declaration_each(tmp_path: Path) -> None:
    from generator.importer import import_document
    from generator.importer.doc_types import TYPES, DocumentType, using_types
    from generator.importer.form_registry import FORMS, using_forms
    from generator.importer.forms import FormSpec

    form = FormSpec(
        "record-lead-in", "kind-section", frozenset({"paragraph"}), 45, _record_form, markers=("Record",)
    )
    note = DocumentType(
        "field-note",
        "result",
        ("field-analysis-note",),
        file_name="result.yaml",
        section_synonyms={"Records": "shared_records", "Findings": "bounded_synthesis"},
        walkers={"shared_records": "shared"},
        member_identity=False,
    )
    document = tmp_path / "note.md"
    document.write_text(FIELD_NOTE, encoding="utf-8")
    forms_before, types_before = FORMS.forms, TYPES.types
    with using_forms(FORMS.with_forms(form)), using_types(TYPES.with_types(note)):
        outcome = import_document(document, "note", tmp_path / "records")
    assert outcome.folder is not None
    assert not [d.as_text() for d in outcome.diagnostics if d.code in ("KB601", "KB608", "KB612", "KB614")]
    components = json.loads(json.dumps(_yaml(outcome.folder / "components.yaml")))["components"]
    assert components == [
        {
            "id": "CMP-1",
            "label": "Agent loop",
            "body": "Implementation conclusion status: wired. Evidence: SRC-1 `src/loop.py:1-9`.",
            "statuses": {"implementation conclusion status": "wired"},
            "evidence": ["SRC-1 src/loop.py:1-9"],
        }
    ]
    result = _yaml(outcome.folder / "result.yaml")["result"]
    assert result["bounded_synthesis"] == {"blocks": ["CMP-1 runs the loop."]}
    (checked,) = check_records(outcome.folder, tmp_path)
    assert checked.errors == []
    # The built-in registries are untouched: without them the form is prose, the type unknown.
    assert (FORMS.forms, TYPES.types) == (forms_before, types_before)
    plain = import_document(document, "plain", tmp_path / "records")
    assert plain.folder is not None and not (plain.folder / "components.yaml").exists()
    assert {d.code for d in plain.diagnostics} >= {"KB601", "KB608"}


def _yaml(path: Path) -> Any:
    import yaml

    return yaml.safe_load(path.read_text(encoding="utf-8"))


# ---------------------------------------------------------------- a new rule

KB990 = Rule(
    "KB990",
    "label-case",
    "A record's label starts with a lower-case letter.",
    doc="warning: a record's label starts with a lower-case letter (it becomes a heading)",
)


@check_rule(KB990, order=1_000)
def rule_label_case(ctx: Context) -> Iterator[Diagnostic]:
    """A check of this test's own."""
    for record in ctx.system.records:
        if (record.label or "")[:1].islower():
            where = ctx.at(ctx.system.origin(record), ("label",))
            yield warning(KB990, f"{record.id}'s label starts in lower case", *where, hint="Capitalise it.")


def test_a_new_rule_is_one_declaration_in_a_registry_of_its_own(tmp_path: Path) -> None:
    """A rule and its check, declared together: with no other change the check runs, its
    diagnostic names the rule in every format; the built-in checks are untouched."""
    records = make_records(tmp_path)
    data = records / "demo" / "records.yaml"
    data.write_text(data.read_text(encoding="utf-8").replace("Agent loop", "agent loop"), encoding="utf-8")
    checks_before = CHECKS.checks
    with using_checks(CHECKS.extended(rule_label_case)):
        (checked,) = check_records(records, tmp_path)
    (found,) = checked.diagnostics
    assert found.rule is KB990 and found.code == "KB990" and found.severity is Severity.WARNING
    assert (
        found.as_text()
        == "records/demo/records.yaml:3:12: warning KB990 label-case: CMP-1's label starts in lower case"
    )
    assert found.as_dict()["docs"] == "docs/rules.md#kb990"
    assert found.full_hint == "Capitalise it. — see docs/rules.md#kb990"
    assert CHECKS.checks == checks_before and KB990 not in CHECKS.rules
    (plain,) = check_records(records, tmp_path)
    assert plain.diagnostics == []
