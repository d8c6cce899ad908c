"""The rules catalogue, found from the declarations: every module of ``generator`` is
imported and each module-level ``Rule`` collected. A rule is declared once, named by its
code (``KB201 = Rule("KB201", …)``); other modules import that one object.

``rules_table`` is the table of ``docs/rules.md``, generated from the catalogue
(``tests/project/test_docs.py`` compares it, ``pytest --update-goldens`` rewrites it).
"""

from __future__ import annotations

import importlib
import pkgutil
from functools import cache

import generator
from generator.diagnostics import Rule


@cache
def declared_rules() -> dict[str, Rule]:
    """Code → rule, for every rule any module of ``generator`` declares, in code order.

    Raises when two declarations share a code or a rule is bound to another name than its
    code."""
    found: dict[str, Rule] = {}
    for module_info in pkgutil.walk_packages(generator.__path__, "generator."):
        module = importlib.import_module(module_info.name)
        for name, value in vars(module).items():
            if not isinstance(value, Rule):
                continue
            if name != value.code:
                raise AssertionError(f"{module_info.name}.{name} holds {value.code}: name a rule by its code")
            if found.setdefault(value.code, value) is not value:
                raise AssertionError(f"{value.code} is declared twice (one is in {module_info.name})")
    return dict(sorted(found.items()))


TABLE_START = "<!-- The table is generated from the rules' declarations: do not edit it here. -->"
TABLE_END = "<!-- End of the generated table. -->"


def rules_table(rules: dict[str, Rule]) -> str:
    """The catalogue as a Markdown table, one row per rule, each with its stable anchor."""
    rows = [
        f'| <a id="{code.lower()}"></a>{code} | `{rule.name}` | {rule.doc} |' for code, rule in rules.items()
    ]
    table = "\n".join(["| code | name | rule |", "| --- | --- | --- |", *rows])
    return f"{TABLE_START}\n\n{table}\n\n{TABLE_END}"
