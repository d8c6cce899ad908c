"""The built-in checks, gathered from the modules that declare them (``@check_rule``), and the
registry in force: ``run_rules`` runs it, ``using_checks`` puts another in force."""

from __future__ import annotations

from contextlib import AbstractContextManager

from generator.check import (
    contract_rules,
    evidence_links,
    import_findings_rules,
    profile_rules,
    rules,
    set_rules,
    site_rules,
)
from generator.check.registry import CheckRegistry, checks_in
from generator.check.rules import build_context
from generator.diagnostics import Diagnostic
from generator.load.records import SystemSource
from generator.model.system import SystemRecords
from generator.util.in_force import InForce

CHECKS = CheckRegistry(
    checks_in(
        rules, contract_rules, site_rules, set_rules, profile_rules, import_findings_rules, evidence_links
    )
)

_IN_FORCE = InForce("checks", CHECKS)


def active_checks() -> CheckRegistry:
    """The checks in force: ``CHECKS``, or the registry ``using_checks`` put in force."""
    return _IN_FORCE.get()


def using_checks(registry: CheckRegistry) -> AbstractContextManager[CheckRegistry]:
    """Put ``registry`` in force for the checks run inside the block."""
    return _IN_FORCE.using(registry)


def run_rules(system: SystemRecords, source: SystemSource) -> list[Diagnostic]:
    """Run every check in force over one system."""
    return active_checks().run(build_context(system, source))
