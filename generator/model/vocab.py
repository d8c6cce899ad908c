"""Controlled vocabularies: the exact values an analyst may write, and what each means.

The meanings feed the glossary page; the enumerations feed validation and the JSON
Schema, so a value is defined once.
"""

from __future__ import annotations

from enum import StrEnum


class ConclusionStatus(StrEnum):
    """How far the evidence carries a conclusion about one layer of a record."""

    ABSENT = "absent"
    INAPPLICABLE = "inapplicable"
    UNINSPECTED = "uninspected"
    CLAIMED = "claimed"
    AFFORDED = "afforded"
    WIRED = "wired"
    OBSERVED = "observed"
    CAUSALLY_SUPPORTED = "causally supported"


class GuaranteeStrength(StrEnum):
    """What kind of guarantee a route's behaviour rests on."""

    INVARIANT = "invariant"
    PROTOCOL = "protocol"
    POLICY = "policy"
    BEST_EFFORT = "best effort"
    DEPLOYMENT_GUARANTEE = "deployment guarantee"
    NO_CLAIMED_GUARANTEE = "no claimed guarantee"


class EvidenceLayer(StrEnum):
    """The kind of evidence a source contributes."""

    IMPLEMENTATION = "implementation"
    DOCTRINE_DESIGN = "doctrine/design"
    REPORTED_OPERATION = "reported operation"
    OBSERVED_RUN = "observed run"
    CAUSAL_EXPERIMENT = "causal experiment"


class EpistemicStatus(StrEnum):
    """Epistemic architectural status: its own vocabulary, never a conclusion status."""

    IMPLEMENTED = "implemented"
    OBSERVED_IMPLEMENTATION_UNINSPECTED = "observed, implementation uninspected"
    DOCTRINE_ONLY = "doctrine only"
    NO_ROUTE_FOUND = "no route found within boundary"
    NOT_DETERMINABLE = "not determinable"


class Disposition(StrEnum):
    """The outcome of an analysis run."""

    COMPLETE = "complete"
    BLOCKED = "blocked"
    OUT_OF_SCOPE = "out-of-scope"


class BoundaryKind(StrEnum):
    """How much of the target system the reviewed boundary covers."""

    WHOLE_SYSTEM = "whole-system"
    SUBSYSTEM_ONLY = "subsystem-only"
    COMPLETE_ARTIFACT_PARTIAL_LOOP = "complete artifact, partial loop"


class EvidenceTier(StrEnum):
    """Whether conclusions rest on code or only on documentation."""

    CODE_GROUNDED = "code-grounded"
    DOC_GROUNDED = "doc-grounded"


class RunReferenceRole(StrEnum):
    """What a file a result names for its run is to the run: the roles the method's specs
    give the run's companion files (the run state, the generated review, the set's manifest,
    the retained result, the memory analyst's report)."""

    RUN_STATE = "run state"
    GENERATED_REVIEW = "generated review"
    ARTIFACT_MANIFEST = "artifact manifest"
    RETAINED_RESULT = "retained result"
    MEMORY_ANALYSIS_REPORT = "memory analysis report"


class Member(StrEnum):
    """A member of an analysis set, in the set's reading order."""

    OVERVIEW = "overview"
    RUNTIME = "runtime"
    MEMORY = "memory"
    EPISTEMIC = "epistemic"
    RECONCILIATION = "reconciliation"


class ProfileAssessment(StrEnum):
    """Coverage of one memory-comparison axis, separate from evidence strength."""

    KNOWN = "known"
    PARTIAL = "partial"
    ABSENT = "absent"
    INAPPLICABLE = "inapplicable"
    UNINSPECTED = "uninspected"
    NOT_DETERMINABLE = "not-determinable"


MEANINGS: dict[type[StrEnum], dict[str, str]] = {
    ConclusionStatus: {
        "absent": "A bounded search at a pinned revision found no such mechanism.",
        "inapplicable": "The field does not apply to this record; the reason is stated.",
        "uninspected": "The evidence needed was not inspected; no conclusion either way.",
        "claimed": "Only the system's own documentation or promotion asserts it.",
        "afforded": "The implementation offers the capability, but no shipped path was shown to use it.",
        "wired": "Implementation code connects the path end to end; operation is not shown.",
        "observed": "A run or trace shows the path operating.",
        "causally supported": "A controlled intervention shows the path causes the effect.",
    },
    GuaranteeStrength: {
        "invariant": "Holds by construction on every path within the boundary.",
        "protocol": "Enforced by code for callers that follow the protocol.",
        "policy": "Stated as an instruction or rule; compliance is not enforced.",
        "best effort": "Attempted without an enforced outcome.",
        "deployment guarantee": "Depends on how the system is deployed and configured.",
        "no claimed guarantee": "Neither the source nor the analysis claims a guarantee.",
    },
    EvidenceLayer: {
        "implementation": "Source code at a pinned revision.",
        "doctrine/design": "Shipped documentation, design notes, prompts and claims.",
        "reported operation": "Reports of the system operating, not observed by the analyst.",
        "observed run": "A run the analyst observed or captured.",
        "causal experiment": "A controlled intervention with comparison.",
    },
    EpistemicStatus: {
        "implemented": "The architecture implements the phase or function.",
        "observed, implementation uninspected": "Seen operating, but its implementation was not inspected.",
        "doctrine only": "Only documentation describes it.",
        "no route found within boundary": "A bounded search found no route for it.",
        "not determinable": "The available evidence cannot settle it.",
    },
    Disposition: {
        "complete": "The analysis reached its conclusions within the stated boundary.",
        "blocked": "The analysis could not proceed; blockers are recorded.",
        "out-of-scope": "The target falls outside what this method analyses.",
    },
    BoundaryKind: {
        "whole-system": "The boundary covers the whole enclosing runtime.",
        "subsystem-only": "Only a named subsystem is analysed.",
        "complete artifact, partial loop": "A whole artifact is analysed, but only part of its loop.",
    },
    EvidenceTier: {
        "code-grounded": "Conclusions rest on inspected implementation.",
        "doc-grounded": "Conclusions rest on documentation only.",
    },
    ProfileAssessment: {
        "known": "The value set is complete for this axis within the profile's scope.",
        "partial": "Supported values are kept; the note names the unresolved parts and what they prevent.",
        "absent": "An evidenced-absence record establishes the bounded absence.",
        "inapplicable": "The axis does not apply within the scope; the note says why.",
        "uninspected": "The evidence needed for the axis was not inspected.",
        "not-determinable": "Inspected evidence cannot establish any controlled classification.",
    },
}

VOCABULARY_TITLES: dict[type[StrEnum], str] = {
    ConclusionStatus: "Conclusion status",
    GuaranteeStrength: "Guarantee strength",
    EvidenceLayer: "Evidence layer",
    EpistemicStatus: "Epistemic architectural status",
    Disposition: "Result disposition",
    BoundaryKind: "Boundary kind",
    EvidenceTier: "Evidence tier",
    ProfileAssessment: "Memory-comparison assessment",
}
