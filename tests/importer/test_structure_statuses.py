"""The structure measure counts each status a document states against the record's, under
the label's current name (a record written with ``learning`` holds ``Learning conclusion
status``) and with its qualifier after the value."""

from __future__ import annotations

from generator.importer.structure import measure

DOCUMENT = """### Routes

RTE-1 — Distill. Learning conclusion status: uninspected, no capacity comparison. Evidence: SRC-1 `a.md:1-2`.

RTE-2 — Sync. Conclusion status: wired; default off. Evidence: SRC-1 `b.md:1-2`.

BAP-1 — Skill body → later context; procedure; discovery conclusion status: wired, actual uptake
conclusion status: uninspected.
"""


def _figures(files: list[dict]) -> tuple[dict[str, dict[str, int]], list[str]]:
    structure = measure(DOCUMENT, files)
    return structure.as_dict(), [loss.what for loss in structure.losses]


def test_renamed_labels_qualifiers_and_a_status_clause_after_a_label_are_held() -> None:
    routes = [
        {
            "id": "RTE-1",
            "label": "Distill",
            "statuses": {"learning": "uninspected, no capacity comparison"},
            "evidence": ["SRC-1 a.md:1-2"],
        },
        {
            "id": "RTE-2",
            "label": "Sync",
            "statuses": {"conclusion status": "wired; default off"},
            "evidence": ["SRC-1 b.md:1-2"],
        },
    ]
    authority = [
        {
            "id": "BAP-1",
            "label": "Skill body → later context; procedure",
            "statuses": {
                "discovery conclusion status": "wired",
                "actual uptake conclusion status": "uninspected",
            },
        }
    ]
    figures, losses = _figures([{"routes": routes, "authority_paths": authority}])
    assert losses == []
    assert figures["statuses"] == {"stated": 4, "kept": 4}
    assert figures["labels"] == {"stated": 3, "kept": 3}


def test_a_status_the_record_does_not_hold_is_a_loss() -> None:
    routes = [{"id": "RTE-1", "label": "Distill"}, {"id": "RTE-2", "label": "Sync"}]
    authority = [
        {"id": "BAP-1", "label": "Skill body → later context; procedure; discovery conclusion status"}
    ]
    figures, losses = _figures([{"routes": routes, "authority_paths": authority}])
    assert figures["statuses"] == {"stated": 4, "kept": 0}
    assert "learning conclusion status: uninspected" in losses
    assert "label 'Skill body → later context; procedure' is not the record's label" in losses
