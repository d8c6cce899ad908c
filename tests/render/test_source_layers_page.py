"""A source stated per evidence layer (one register row per layer, the ID repeated) is one
source with several layers, and its page shows each layer with its own scope, citation
anchors and access gaps, as the document's rows give them."""

from __future__ import annotations

from pathlib import Path

from generator.importer import import_document
from generator.pipeline import run_pipeline

DOCUMENT = (
    Path(__file__).resolve().parents[1] / "fixtures" / "import" / "forms-register-layers" / "document.md"
)


def test_each_layer_of_a_source_is_shown_with_its_anchors_and_gaps(tmp_path: Path) -> None:
    records = tmp_path / "records"
    import_document(DOCUMENT, "tiny", records)
    result = run_pipeline(records, tmp_path)
    assert result.errors == []
    page = result.pages["systems/tiny/result.md"]
    source = page[page.index("### SRC-1") : page.index("### SRC-2")]
    for layer, scope, anchors, gaps in (
        ("implementation", "src/", "Full paths on records", "No run observed"),
        ("doctrine/design", "README.md", "README anchors", "Docs do not establish execution"),
    ):
        assert layer in source and scope in source, layer
        assert anchors in source and gaps in source, layer
    # The second row's own kind is kept beside the source's.
    assert "Same repository, separate evidence layer" in source
