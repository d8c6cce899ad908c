"""The check of what an import could not keep (``import-findings.yaml``).

An open entry is a warning, so ``kbgen check --strict`` and ``kbgen build --strict`` fail
on it alike; an entry accepted without a reason is an error. Each is located at its entry
in the findings file, where the analyst resolves or accepts it.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from generator.check.registry import check_rule
from generator.diagnostics import Diagnostic, Rule, error, warning
from generator.model.import_findings import IMPORT_FINDINGS_FILE, Resolution

if TYPE_CHECKING:
    from generator.check.context import Context

KB616 = Rule(
    "KB616",
    "import-finding-open",
    "Something the import could not keep is still open in the run's import findings.",
    doc=(
        f"warning (an error under `--strict`, in `kbgen check` and `kbgen build` alike): an entry of a run's "
        f"`{IMPORT_FINDINGS_FILE}` (a construct `kbgen import` could not keep: its rule, document line, kind "
        "and text) is still `resolution: open` (located at the entry)"
    ),
)

KB617 = Rule(
    "KB617",
    "import-finding-reason",
    "An import finding is accepted without a reason.",
    doc=(
        f"an entry of a run's `{IMPORT_FINDINGS_FILE}` is `resolution: accepted` without a non-empty "
        "`reason` (located at the entry's `resolution`)"
    ),
)

_RESOLVE = (
    "Fix the records so they keep it and delete the entry, or accept the loss: "
    "'resolution: accepted' with a 'reason:'."
)


@check_rule(KB616, KB617, order=290)
def rule_import_findings(ctx: Context) -> Iterator[Diagnostic]:
    """KB616: an open import finding; KB617: one accepted without a reason."""
    for finding in ctx.system.import_findings:
        origin = ctx.system.origin(finding)
        stated = f"{finding.document}:{finding.line}:{finding.col}"
        what = f"{finding.rule} {finding.kind}" + (f" of {finding.record}" if finding.record else "")
        if finding.resolution is Resolution.OPEN:
            yield warning(
                KB616,
                f"open import finding: {what} at {stated} was not kept: {_excerpt(finding.text)!r}",
                *ctx.at(origin),
                hint=_RESOLVE,
            )
        elif not (finding.reason or "").strip():
            yield error(
                KB617,
                f"the import finding {what} at {stated} is accepted without a reason",
                *ctx.key_at(origin, ("resolution",)),
                hint="Say why the loss is accepted in 'reason:', or leave the entry open.",
            )


def _excerpt(text: str, limit: int = 80) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"
