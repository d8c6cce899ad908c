"""The checks declare the rules they report: over every check fixture, each check reports
only the rules its ``@check_rule`` names, and the built-in registry holds every check the
package declares, in its declared order."""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Iterator
from pathlib import Path

import pytest

import generator
from generator.check.checks import CHECKS, active_checks, using_checks
from generator.check.context import Context
from generator.check.registry import CheckRegistry, CheckRule, check_rule
from generator.diagnostics import Diagnostic
from generator.pipeline import check_records

CASES_DIR = Path(__file__).resolve().parents[1] / "fixtures" / "check"


def _declared_only(check: CheckRule) -> CheckRule:
    """``check``, failing when it reports a rule it does not declare."""

    def run(ctx: Context) -> Iterator[Diagnostic]:
        for diagnostic in check(ctx):
            assert diagnostic.rule in check.rules, f"{check.name} reports {diagnostic.code}, undeclared"
            yield diagnostic

    run.__name__ = check.name
    return CheckRule(run, check.rules, check.order)


def test_each_check_reports_only_the_rules_it_declares() -> None:
    strict = CheckRegistry(_declared_only(check) for check in CHECKS.checks)
    reported: set[str] = set()
    with using_checks(strict):
        for case in sorted(CASES_DIR.iterdir()):
            if (case / "records").is_dir():
                reported |= {d.code for s in check_records(case / "records", case) for d in s.diagnostics}
    assert active_checks() is CHECKS
    assert {rule.code for rule in CHECKS.rules} <= reported  # each declared rule has a case


def test_the_built_in_checks_are_every_declared_check_in_order() -> None:
    """Each ``@check_rule`` of the package is in ``CHECKS`` (a new check module must be
    gathered in ``check/checks.py``), run by its declared order."""
    declared = set()
    for module_info in pkgutil.walk_packages(generator.__path__, "generator."):
        module = importlib.import_module(module_info.name)
        declared |= {value for value in vars(module).values() if isinstance(value, CheckRule)}
    assert declared == set(CHECKS.checks)
    orders = [check.order for check in CHECKS.checks]
    assert orders == sorted(orders) and len(set(orders)) == len(orders)


def test_a_registry_refuses_two_checks_at_one_order() -> None:
    first = CHECKS.checks[0]
    twin = check_rule(*first.rules, order=first.order)(lambda ctx: iter(()))
    with pytest.raises(ValueError, match="share the order"):
        CHECKS.extended(twin)
