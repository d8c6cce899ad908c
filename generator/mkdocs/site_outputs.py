"""What the plugin writes into the built site once MkDocs has written its pages: the
record index (into the search plugin's index file), the marker that lets the next build
replace the folder, and the build manifest with the SHA-256 of each generated page."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError

from generator.load.fingerprint import TextDigests
from generator.mkdocs.site_manifest import write_manifest
from generator.outputs.export import export_memo
from generator.outputs.search import GraphParts, site_index_memo, write_site_index
from generator.pipeline import PerGraph, PipelineResult
from generator.util.output_guard import mark_site


class SiteOutputs:
    """The digests of this build's generated pages as written, and the post-build writes."""

    def __init__(self) -> None:
        self._html_sha256: dict[str, str] = {}  # generated page → SHA-256 of the HTML written
        # A one-shot build's record index and export parts per system, made beside its pages.
        self.index_parts: PerGraph[GraphParts] | None = None
        self.export_parts: PerGraph[bytes] | None = None

    def per_system_parts(self) -> tuple[PerGraph[Any], ...]:
        """New holders of a build's per-system index and export parts, for ``run_pipeline``
        to fill where its workers render the systems (``alongside``)."""
        self.index_parts, self.export_parts = site_index_memo(), export_memo()
        return (self.index_parts, self.export_parts)

    def page_written(self, source: str, sha256: str) -> None:
        self._html_sha256[source] = sha256

    def write(
        self,
        config: MkDocsConfig,
        published: PipelineResult | None,
        index_memo: PerGraph[GraphParts] | None = None,
        digests: TextDigests | None = None,
    ) -> None:
        """Write the index, the marker and the manifest; a review whose pin broke fails the build."""
        site = Path(config.site_dir)
        if published is not None:
            # The search plugin's on_post_build has written its index (it is listed first).
            write_site_index(site, published.graphs, index_memo, published.earlier_runs, published.pages)
        mark_site(site)
        problems = (
            write_manifest(config, published.pages, published.artifacts, self._html_sha256, digests)
            if published is not None
            else []
        )
        self._html_sha256 = {}
        if problems:
            raise PluginError("kb-records: " + "; ".join(problems))

    def reset(self) -> None:
        self._html_sha256 = {}
