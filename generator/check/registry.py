"""The cross-record checks: each one a ``CheckRule``, declared by ``@check_rule`` beside its
function with the rules it reports and its place in the run order.

A ``CheckRegistry`` runs its checks in that order over one system; the built-in one is
gathered in ``check/checks.py`` from the modules that declare checks, another is put in
force with ``using_checks``. The report sorts diagnostics by place and code, so the order
only settles which of two otherwise equal diagnostics comes first.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from types import ModuleType

from generator.check.context import Context
from generator.diagnostics import Diagnostic, Rule

CheckFunction = Callable[[Context], Iterator[Diagnostic]]


@dataclass(frozen=True)
class CheckRule:
    """A check over one system's records: its function, the rules it reports, its order."""

    check: CheckFunction
    rules: tuple[Rule, ...]
    order: int

    @property
    def name(self) -> str:
        return self.check.__name__

    def __call__(self, ctx: Context) -> Iterator[Diagnostic]:
        return self.check(ctx)


def check_rule(*rules: Rule, order: int) -> Callable[[CheckFunction], CheckRule]:
    """Declare the decorated function a check reporting ``rules``, run at ``order``."""
    if not rules:
        raise ValueError("a check reports at least one rule")

    def declare(check: CheckFunction) -> CheckRule:
        return CheckRule(check, rules, order)

    return declare


class CheckRegistry:
    """Checks in run order (immutable; ``extended`` gives a new registry)."""

    def __init__(self, checks: Iterable[CheckRule]) -> None:
        self.checks: tuple[CheckRule, ...] = tuple(sorted(dict.fromkeys(checks), key=lambda c: c.order))
        for kind, values in (
            ("order", [str(c.order) for c in self.checks]),
            ("name", [c.name for c in self.checks]),
        ):
            repeated = sorted({value for value in values if values.count(value) > 1})
            if repeated:
                raise ValueError(f"two checks share the {kind} {', '.join(repeated)}")

    def extended(self, *checks: CheckRule) -> CheckRegistry:
        return CheckRegistry((*self.checks, *checks))

    @property
    def rules(self) -> tuple[Rule, ...]:
        """Every rule the checks report, in run order, each once."""
        return tuple(dict.fromkeys(rule for check in self.checks for rule in check.rules))

    def run(self, ctx: Context) -> list[Diagnostic]:
        """Every check over one system, in order."""
        found: list[Diagnostic] = []
        for check in self.checks:
            found.extend(check(ctx))
        return found


def checks_in(*modules: ModuleType) -> list[CheckRule]:
    """The checks the modules declare (their module-level ``CheckRule`` values)."""
    return [value for module in modules for value in vars(module).values() if isinstance(value, CheckRule)]
