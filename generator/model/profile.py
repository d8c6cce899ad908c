"""The memory-comparison profile: one classification per axis of a system's memory.

A system declares it under the top-level key ``memory_comparison`` (by convention in
``profile.yaml``), in the shape of the memory report's ``memory-comparison`` front
matter: ``scope`` and ``axes``, each axis with ``assessment``, ``values``,
``evidence`` (one entry per value), ``records`` and ``note``.

The models accept any axis name, value, assessment and basis as text so that each
rule of the profile is reported with its own code (``generator/check/profile.py``);
the editor schema still completes them, since the enumerations below are written
into it (``_axes_schema``). The vocabularies are defined once, here.
"""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import Field

from generator.diagnostics import Rule
from generator.model.base import RecordId, Strict, Text
from generator.model.meta import PROSE, DataPath
from generator.model.vocab import ConclusionStatus, ProfileAssessment

KB703 = Rule(
    "KB703",
    "profile-axis-duplicate",
    "The memory-comparison profile lists an axis twice.",
    doc="the profile lists an axis twice (reported by the loader instead of KB002)",
)

# Every axis, in the spec's order, with its controlled values (sorted as the spec lists them).
AXIS_VALUES: dict[str, tuple[str, ...]] = {
    "storage_substrate": (
        "files",
        "graph",
        "in-memory",
        "kv",
        "model-weights",
        "prompt-registry",
        "rdbms",
        "repo",
        "service-object",
        "sqlite",
        "vector",
    ),
    "representational_form": ("natural-language", "parametric", "symbolic"),
    "lineage": ("authored", "imported", "other-compiled", "trace-extracted"),
    "behavioral_authority": (
        "enforcement",
        "instruction",
        "knowledge",
        "learning",
        "ranking",
        "routing",
        "validation",
    ),
    "write_agency": ("automatic", "manual"),
    "curation_operations": ("consolidate", "decay", "dedup", "evolve", "invalidate", "promote", "synthesize"),
    "read_back_direction": ("pull", "push"),
    "read_back_signal": (
        "coarse",
        "identifier",
        "inferred-embedding",
        "inferred-judgment",
        "inferred-lexical",
    ),
    "trace_learning": ("no", "yes"),
    "trace_source": ("event-streams", "session-logs", "tool-traces", "trajectories"),
    # The four axes results written before the set format add (profile-variants.md): each
    # is optional, and inapplicable where trace learning is known not to occur.
    "learning_scope": ("cross-task", "per-project", "per-task"),
    "learning_timing": ("offline", "online", "staged"),
    "distilled_form": ("natural-language", "parametric", "symbolic"),
    "faithfulness_tested": ("no", "yes"),
}
# The ten axes every profile carries (the memory report's), then the four extra ones.
AXES: tuple[str, ...] = tuple(AXIS_VALUES)[:10]
EXTRA_AXES: tuple[str, ...] = tuple(AXIS_VALUES)[10:]
ALL_AXES: tuple[str, ...] = AXES + EXTRA_AXES


def axes_of(profiles: Any) -> tuple[str, ...]:
    """The axes to show for some profiles: the ten, and the extra ones any of them carries."""
    carried = {name for profile in profiles if profile is not None for name in profile.axes}
    return AXES + tuple(axis for axis in EXTRA_AXES if axis in carried)


# The anchor of the profile on the page that shows it, and of each axis's row there.
PROFILE_ANCHOR = "memory-comparison"


def axis_anchor(axis: str) -> str:
    """``memory-comparison-storage-substrate``: stable, derived from the axis name."""
    return f"{PROFILE_ANCHOR}-{axis.replace('_', '-')}"


# Axis titles for pages and the CSV header: the axis name in words.
AXIS_TITLES: dict[str, str] = {axis: axis.replace("_", " ").capitalize() for axis in AXIS_VALUES}

# Assessments that assert values (and need one evidence entry per value).
VALUED_ASSESSMENTS = frozenset({ProfileAssessment.KNOWN.value, ProfileAssessment.PARTIAL.value})
# The basis of an evidence entry: how far its witness carries the value.
BASIS_VALUES: tuple[str, ...] = tuple(
    status.value
    for status in ConclusionStatus
    if status not in (ConclusionStatus.ABSENT, ConclusionStatus.INAPPLICABLE, ConclusionStatus.UNINSPECTED)
)

# Where the axes mapping sits in a record file: the loader reports a repeated axis
# there with the profile's own rule rather than as a generic duplicate key.
AXES_PATH: DataPath = ("memory_comparison", "axes")
DUPLICATE_KEY_RULES: dict[DataPath, tuple[Rule, str]] = {
    AXES_PATH: (KB703, "axis {key!r} appears twice in the memory-comparison profile"),
}

# A note is prose; it is checked for emptiness by rule KB715 (not by the type), so an
# empty or missing note is reported with the profile's own code.
Note = Annotated[
    str | None,
    PROSE,
    Field(default=None, description="Explanation (required, non-empty).", json_schema_extra={"minLength": 1}),
]


def _require(*names: str) -> Any:
    """Mark fields the spec requires, whose absence a profile rule reports instead."""

    def extra(schema: dict[str, Any]) -> None:
        schema["required"] = sorted({*schema.get("required", []), *names})
        for name in names:
            schema["properties"][name].pop("default", None)
            schema["properties"][name]["type"] = "string"
            schema["properties"][name].pop("anyOf", None)

    return extra


class AxisEvidence(Strict):
    """The strongest supported witness for one value of an axis."""

    model_config = {**Strict.model_config, "json_schema_extra": _require("note")}

    basis: str = Field(
        description="How far the witness carries the value.", json_schema_extra={"enum": list(BASIS_VALUES)}
    )
    records: list[RecordId] = Field(
        description="The routes or objects that warrant the value.",
        json_schema_extra={"minItems": 1, "uniqueItems": True},
    )
    note: Note


class AxisProfile(Strict):
    """One axis: the coverage assessment, the values found and their evidence."""

    model_config = {**Strict.model_config, "json_schema_extra": _require("note")}

    assessment: str = Field(
        description="Coverage of the axis within the scope.",
        json_schema_extra={"enum": [a.value for a in ProfileAssessment]},
    )
    values: list[str] = Field(description="The controlled values found (empty unless known or partial).")
    basis: str | None = Field(
        default=None,
        description="The evidence basis of all the axis's values, where the document states it per "
        "axis (null unless known or partial); otherwise one 'evidence' entry per value.",
        json_schema_extra={"enum": [*BASIS_VALUES, None]},
    )
    evidence: dict[str, AxisEvidence] = Field(
        default_factory=dict,
        description="One entry per value, keyed by the value (unless 'basis' is given for the axis).",
    )
    records: list[RecordId] = Field(description="Records supporting the coverage assessment.")
    note: Note

    def basis_of(self, value: str) -> str | None:
        """The basis of one value: its evidence entry's, else the axis's."""
        evidence = self.evidence.get(value)
        return evidence.basis if evidence is not None else self.basis


def _axes_schema(schema: dict[str, Any]) -> None:
    """Write each axis and its values into the editor schema, so editors complete them."""
    axis_ref = schema.get("additionalProperties", {})
    schema["properties"] = {
        axis: {
            "allOf": [axis_ref],
            "properties": {
                "values": {"items": {"enum": list(values)}, "uniqueItems": True},
                "evidence": {"propertyNames": {"enum": list(values)}},
            },
        }
        for axis, values in AXIS_VALUES.items()
    }
    schema["required"] = list(AXES)  # the four extra axes are optional
    schema["additionalProperties"] = False


class MemoryComparison(Strict):
    """A system's memory-comparison profile: its scope and one entry per axis."""

    scope: Text = Field(description="The memory boundary the profile classifies.")
    axes: dict[str, AxisProfile] = Field(
        description="Each of the ten axes exactly once; a result may add the four extra axes.",
        json_schema_extra=_axes_schema,
    )

    def axis(self, name: str) -> AxisProfile | None:
        """One axis's entry, or None when the profile lacks it."""
        return self.axes.get(name)
