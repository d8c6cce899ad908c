"""The build manifest: each generated page with its SHA-256 and the run ID it carries.

``kb-manifest.json`` at the site's root lists, for every page rendered from the records,
its Markdown path, the HTML file it became, the SHA-256 of both and the ``run-id`` of its
front matter (``null`` for cross-system pages). A review page also records the digest it
pins (``result-sha256``): the build fails when that is not the digest of the result page
published beside it, and ``kbgen linkcheck`` verifies the pins and the HTML digests of a
built site again. No clock time or absolute path is written, so two builds of one commit
give the same bytes.
"""

from __future__ import annotations

import functools
import hashlib
import json
from pathlib import Path, PurePosixPath
from typing import Any

import yaml
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.files import File

from generator.load.fingerprint import TextDigests

MANIFEST_NAME = "kb-manifest.json"
PIN_KEY = "result-sha256"
PINNED_FROM_KEY = "projected-from"


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def front_matter(markdown: str) -> dict[str, Any]:
    """The YAML front matter of a generated page ({} when it has none)."""
    if not markdown.startswith("---\n"):
        return {}
    end = markdown.find("\n---\n", 4)
    if end < 0:
        return {}
    return dict(_parsed_front_matter(markdown[4:end]))


@functools.lru_cache(maxsize=4096)
def _parsed_front_matter(text: str) -> tuple[tuple[str, Any], ...]:
    """One parse per front matter text: ``kbgen serve`` writes the manifest on every rebuild,
    and most pages' front matter is unchanged (items: immutable, shared across calls)."""
    # libyaml's safe loader where present.
    found = yaml.load(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    return tuple(found.items()) if isinstance(found, dict) else ()


def _entry(
    path: str, markdown: str, html_path: str, site: Path, html_sha256: str | None, markdown_sha256: str
) -> dict[str, Any]:
    meta = front_matter(markdown)
    entry: dict[str, Any] = {
        "page": path,
        "html": html_path,
        "sha256": html_sha256 or sha256((site / html_path).read_bytes()),
        "markdown_sha256": markdown_sha256,
        "run_id": meta.get("run-id"),
    }
    if PIN_KEY in meta:
        # The page it was projected from, beside it; without one the pin names no page.
        source = meta.get(PINNED_FROM_KEY)
        pinned_from = (PurePosixPath(path).parent / str(source)).as_posix() if source else None
        entry["pins"] = {"page": pinned_from, "sha256": str(meta[PIN_KEY])}
    return entry


def pin_problems(entries: list[dict[str, Any]]) -> list[str]:
    """Every review whose pinned digest is not that of the result page listed beside it."""
    digests = {entry["page"]: entry["markdown_sha256"] for entry in entries}
    problems = []
    for entry in entries:
        pin = entry.get("pins")
        if pin is not None and digests.get(pin["page"]) != pin["sha256"]:
            problems.append(
                f"{entry['page']} pins {pin['page']} at SHA-256 {pin['sha256']}, "
                f"but the page published has {digests.get(pin['page'], 'no digest (missing)')}"
            )
    return problems


def build_manifest(
    config: MkDocsConfig,
    pages: dict[str, str],
    artifacts: dict[str, str] | None = None,
    html_sha256: dict[str, str] | None = None,
    digests: TextDigests | None = None,
) -> dict[str, Any]:
    """The manifest of the generated pages of a build whose HTML is already written, and
    of the analysis sets' manifests (``ARTIFACT.yaml``: the SHA-256 a set review pins).

    ``html_sha256`` gives the digests of the HTML the build wrote, by page, as the plugin
    hashed it on its way to the file; a page without one is read back from the site.
    ``digests`` remembers the Markdown's digests between the builds of ``kbgen serve``."""
    site = Path(config.site_dir)
    known = html_sha256 or {}
    markdown_digests = digests or TextDigests()
    entries = []
    for path, markdown in sorted(pages.items()):
        html_path = File(path, config.docs_dir, config.site_dir, config.use_directory_urls).dest_uri
        markdown_sha256 = markdown_digests.of(path, markdown)
        entries.append(_entry(path, markdown, html_path, site, known.get(path), markdown_sha256))
    manifest: dict[str, Any] = {"pages": entries}
    if artifacts:
        manifest["artifacts"] = [
            {"path": path, "sha256": sha256(text.encode("utf-8"))} for path, text in sorted(artifacts.items())
        ]
    return manifest


def manifest_text(manifest: dict[str, Any]) -> str:
    return json.dumps(manifest, indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def write_manifest(
    config: MkDocsConfig,
    pages: dict[str, str],
    artifacts: dict[str, str] | None = None,
    html_sha256: dict[str, str] | None = None,
    digests: TextDigests | None = None,
) -> list[str]:
    """Write ``kb-manifest.json`` into the site; the pin problems found (the build fails on any)."""
    manifest = build_manifest(config, pages, artifacts, html_sha256, digests)
    target = Path(config.site_dir) / MANIFEST_NAME
    target.write_text(manifest_text(manifest), encoding="utf-8", newline="\n")
    return pin_problems(manifest["pages"])


def verify_manifest(site: Path) -> list[str]:
    """Problems of a built site's manifest: an HTML file changed or missing, a review's pin broken."""
    path = site / MANIFEST_NAME
    try:
        manifest = json.loads(path.read_text(encoding="utf-8"))
        entries = list(manifest["pages"])
    except (OSError, ValueError, KeyError, TypeError) as exc:
        return [f"{path.as_posix()}: not a readable manifest: {exc}"]
    problems = []
    for entry in entries:
        if not isinstance(entry, dict) or not {"html", "sha256", "page", "markdown_sha256"} <= entry.keys():
            return [f"{path.as_posix()}: not a readable manifest: an entry lacks its page or digests"]
        html = site / str(entry["html"])
        if not html.is_file():
            problems.append(f"{path.as_posix()}: {entry['html']} is listed but not in the site")
        elif sha256(html.read_bytes()) != entry["sha256"]:
            problems.append(f"{path.as_posix()}: {entry['html']} differs from its SHA-256 in the manifest")
    return problems + [f"{path.as_posix()}: {problem}" for problem in pin_problems(entries)]
