"""kbgen render --out DIR: the KB as plain Markdown and a standalone mkdocs.yml, for any engine.

The pages come from the MkDocs plugins themselves: the ``kb-records`` plugin checks the
records and adds the generated pages, the macros plugin expands the hand-authored pages
that opt in, exactly as in ``kbgen build``; only the HTML step is left out. What is
written is therefore the Markdown MkDocs would convert, and ``DIR`` builds with any
engine that reads ``mkdocs.yml`` and needs no plugin (MkDocs, ProperDocs, Zensical):

    DIR/mkdocs.yml   theme material, the Markdown extensions, the expanded nav; plugins: search
    DIR/docs/        every page (generated and hand-authored) and the assets they need

The output is written into a staging folder beside ``DIR`` and swapped in under a lock,
so a failure leaves the previous ``DIR`` whole; it never lands in the sources.
"""

from __future__ import annotations

import html
import re
import shutil
import types
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import yaml
from rich.console import Console

from generator import PACKAGE_DIR
from generator.check.report import print_human
from generator.mkdocs.site_guard import project_sources
from generator.render.urls import raw_html_links
from generator.site.build import load_project, new_staging, project_environment, swap_in
from generator.util.console import say
from generator.util.exit_codes import EXIT_ERRORS, EXIT_OK, EXIT_USAGE
from generator.util.output_guard import Protected, git_paths, overlaps, tracked_paths

if TYPE_CHECKING:
    from mkdocs.config.defaults import MkDocsConfig
    from mkdocs.structure.files import File, Files

    from generator.mkdocs.plugin import RecordsPlugin

# Written into every render output, so the next render knows it may replace the folder.
RENDER_MARKER = ".kbgen-render"
RENDER_MARKER_TEXT = "Rendered by kbgen render; the next render replaces this folder.\n"
DOCS = "docs"
CONFIG_NAME = "mkdocs.yml"
# Settings of the project's mkdocs.yml the standalone site keeps, in this order; everything
# else (plugins, docs_dir, site_dir, hooks, theme.custom_dir) belongs to the plugin build.
KEPT_SETTINGS = (
    "site_name",
    "site_description",
    "site_author",
    "site_url",
    "copyright",
    "repo_url",
    "repo_name",
    "use_directory_urls",
    "extra",
    "extra_css",
    "extra_javascript",
    "validation",
)
# The theme's own search stands in for the record search, which the kb-records plugin writes.
SEARCH_PLUGIN = "search"
PLUGIN_ONLY_META = ("render_macros",)  # front matter for the macros plugin, spent once expanded
MERMAID_SCRIPT = "assets/javascripts/vendor/mermaid-11.17.2.min.js"


@dataclass
class Rendered:
    """What a render writes: pages and assets (docs-relative path → bytes) and the configuration."""

    files: dict[str, bytes] = field(default_factory=dict)
    config_text: str = ""


class _ConfigDumper(yaml.SafeDumper):
    """YAML for the standalone mkdocs.yml: data, and Python callables as ``!!python/name:`` tags
    (the mermaid fence's ``format``), the form MkDocs, ProperDocs and Zensical all read."""


def _python_name(dumper: yaml.SafeDumper, value: Any) -> yaml.Node:
    name = f"{value.__module__}.{value.__qualname__}"
    return dumper.represent_scalar(f"tag:yaml.org,2002:python/name:{name}", "")


for _callable in (types.FunctionType, types.BuiltinFunctionType, type):
    _ConfigDumper.add_representer(_callable, _python_name)


def config_text(settings: dict[str, Any]) -> str:
    """The standalone configuration as YAML, keys in the given order, always ``\\n``."""
    return yaml.dump(settings, Dumper=_ConfigDumper, sort_keys=False, allow_unicode=True, width=1000)


def _front_matter(meta: dict[str, Any]) -> str:
    kept = {key: value for key, value in meta.items() if key not in PLUGIN_ONLY_META}
    if not kept:
        return ""
    return "---\n" + yaml.safe_dump(kept, sort_keys=False, allow_unicode=True, width=1000) + "---\n\n"


def page_markdown(file: File, config: MkDocsConfig, files: Files) -> str:
    """The page as the engine must read it: the source as MkDocs serves it when no plugin
    changes its Markdown (generated pages: the very bytes of the kb-records plugin), else the
    expanded Markdown under its front matter (without the macros plugin's switches)."""
    from mkdocs.structure.pages import Page

    page = file.page if file.page is not None else Page(None, file, config)
    page = config.plugins.on_pre_page(page, config=config, files=files)
    page.read_source(config)
    assert page.markdown is not None
    source_markdown = page.markdown
    expanded = config.plugins.on_page_markdown(source_markdown, page=page, config=config, files=files)
    if expanded == source_markdown:
        return file.content_string
    return _front_matter(dict(page.meta)) + expanded


# A mermaid fence's opening line (superfences draws it as <pre class="mermaid">).
_MERMAID_FENCE = re.compile(r"^[ \t]*(?:`{3,}|~{3,})[ \t]*(?:\{[^}\n]*\.)?mermaid\b", re.MULTILINE)


def with_mermaid(markdown: str, url: str) -> str:
    """A page with a mermaid fence, loading Mermaid before the theme draws it (the build's
    theme override does so for such a page alone); other pages as they are. ``url``: the
    page's own, which the script's address is relative to."""
    if not _MERMAID_FENCE.search(markdown):
        return markdown
    from mkdocs.utils import get_relative_url

    address = get_relative_url(MERMAID_SCRIPT, url)
    return f'{markdown.rstrip()}\n\n<script src="{html.escape(address)}"></script>\n'


def _custom_dir_assets(config: MkDocsConfig) -> Iterator[tuple[str, Path]]:
    """The theme overrides' static files (not its templates): stylesheets, scripts, vendored code."""
    custom_dir = config.theme.custom_dir
    if not custom_dir:
        return
    root = Path(custom_dir)
    for path in sorted(root.rglob("*")):
        relative = path.relative_to(root).as_posix()
        static = path.suffix != ".html" and not relative.startswith(".")
        if static and path.is_file() and not path.is_symlink():
            yield relative, path


def collect_files(config: MkDocsConfig) -> dict[str, bytes]:
    """Every page and asset of the site, docs-relative, through the plugins' own events."""
    from mkdocs.structure.files import get_files
    from mkdocs.structure.nav import get_navigation

    files = get_files(config)
    files = config.plugins.on_files(files, config=config)
    nav = get_navigation(files, config)
    config.plugins.on_nav(nav, config=config, files=files)
    found = {relative: path.read_bytes() for relative, path in _custom_dir_assets(config)}
    for file in sorted(files, key=lambda f: f.src_uri):
        if file.is_documentation_page():
            found[file.src_uri] = with_mermaid(page_markdown(file, config, files), file.url).encode("utf-8")
        elif file.abs_src_path is not None and Path(file.abs_src_path).is_relative_to(config.docs_dir):
            found[file.src_uri] = Path(file.abs_src_path).read_bytes()
        elif file.generated_by is not None and file.abs_src_path is None:
            # Downloads the plugin generates (set manifests, exports): linked from pages.
            found[file.src_uri] = file.content_bytes
    return dict(sorted(found.items()))


def _theme(raw: Any) -> dict[str, Any]:
    theme = dict(raw) if isinstance(raw, dict) else {"name": raw or "material"}
    theme.pop("custom_dir", None)  # its templates need the plugin; its assets are copied to docs/
    return theme


def _search_plugin(raw_plugins: Any) -> list[Any]:
    """The theme's search plugin with the project's options (e.g. its separator), nothing else."""
    for entry in raw_plugins or []:
        if entry == SEARCH_PLUGIN:
            return [SEARCH_PLUGIN]
        if isinstance(entry, dict) and SEARCH_PLUGIN in entry:
            return [{SEARCH_PLUGIN: entry[SEARCH_PLUGIN]}]
    return [SEARCH_PLUGIN]


def _raw_settings(config: MkDocsConfig) -> dict[str, Any]:
    """The configuration file as written (``!ENV`` resolved, ``INHERIT`` merged), read the way
    MkDocs reads it: the loaded configuration holds plugin objects and normalized options."""
    from mkdocs.utils.yaml import get_yaml_loader, yaml_load

    with open(config.config_file_path, "rb") as source:
        return yaml_load(source, get_yaml_loader(config=config))


def markdown_extensions(config: MkDocsConfig) -> list[Any]:
    """The extensions MkDocs loads for the project (its built-ins too), with their options."""
    options = config.mdx_configs
    return [{name: options[name]} if options.get(name) else name for name in config.markdown_extensions]


def standalone_settings(config: MkDocsConfig) -> dict[str, Any]:
    """The project's settings for a plugin-free build of DIR: same theme, extensions and nav."""
    raw = _raw_settings(config)
    settings: dict[str, Any] = {key: raw[key] for key in KEPT_SETTINGS[:8] if key in raw}
    settings["docs_dir"] = DOCS
    settings["site_dir"] = "site"
    if "repo_url" in raw:
        settings["edit_uri"] = ""  # the pages are generated: there is no source file to edit
    settings["theme"] = _theme(raw.get("theme"))
    settings.update({key: raw[key] for key in KEPT_SETTINGS[8:] if key in raw})
    # Mermaid (3.6 MB) is loaded by no page as a whole, as in a build: a page with a route map
    # has kb-maps.js fetch it (from beside itself: no theme override names it here), a page
    # with a mermaid fence names it itself (``with_mermaid``).
    scripts = list(settings.get("extra_javascript") or [])
    settings["extra_javascript"] = [s for s in scripts if s != MERMAID_SCRIPT]
    settings["markdown_extensions"] = markdown_extensions(config)
    settings["plugins"] = _search_plugin(raw.get("plugins"))
    if config.nav is not None:  # without one, every engine lists the pages itself
        settings["nav"] = config.nav
    return settings


def render_files(config: MkDocsConfig, plugin: RecordsPlugin) -> Rendered:
    """Run the plugins' events up to the Markdown of every page; raises what a build raises."""
    plugin.splicer.enabled = False  # the engine converts the whole page
    config.plugins.on_startup(command="build", dirty=False)
    try:
        config = config.plugins.on_config(config)
        config.plugins.on_pre_build(config=config)
        files = collect_files(config)
        return Rendered(files=files, config_text=config_text(standalone_settings(config)))
    finally:
        config.plugins.on_shutdown()


def output_protected(config: MkDocsConfig, plugin: RecordsPlugin) -> list[Protected]:
    """Every source an output folder must not be, contain or lie inside."""
    project = Path(config.config_file_path or ".").resolve().parent
    package = PACKAGE_DIR
    return [
        *project_sources(config, plugin.records_folder(config)),
        Protected("the generator package", package),
        *git_paths(package),
        *(guard for guard in tracked_paths(project) if guard.path.is_dir()),
    ]


def output_refusal(out: Path, protected: list[Protected]) -> str | None:
    """Why ``out`` must not receive a render, or None when it may be (re)placed."""
    out = out.resolve()
    problem = next(overlaps(out, protected), None)
    if problem is not None:
        return f"refusing output folder {out}: {problem}; nothing was changed"
    replaceable = not out.exists() or (
        out.is_dir() and ((out / RENDER_MARKER).is_file() or not any(out.iterdir()))
    )
    if not replaceable:
        return (
            f"refusing output folder {out}: it exists and is not a render output "
            f"(no {RENDER_MARKER}); remove it or choose another folder"
        )
    return None


def write_rendered(rendered: Rendered, staging: Path) -> None:
    """Lay the render out in ``staging``: mkdocs.yml, the marker and docs/."""
    (staging / CONFIG_NAME).write_text(rendered.config_text, encoding="utf-8", newline="\n")
    (staging / RENDER_MARKER).write_text(RENDER_MARKER_TEXT, encoding="utf-8", newline="\n")
    for relative, content in rendered.files.items():
        target = staging / DOCS / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(content)


def _render_into(
    config: MkDocsConfig, plugin: RecordsPlugin, out: Path, protected: list[Protected], err: Console
) -> int:
    from mkdocs.exceptions import Abort, ConfigurationError, PluginError

    staging = new_staging(out)
    try:
        config.site_dir = str(staging / "site")  # never built: the plugin's site guard sees a new folder
        try:
            rendered = render_files(config, plugin)
        except (Abort, ConfigurationError, PluginError) as exc:
            if plugin.result is not None and plugin.result.errors:
                print_human(plugin.result.systems, err)
                say(err, "kbgen: the records have errors; nothing was rendered", "red")
            else:
                say(err, f"kbgen render: {exc}; nothing was rendered", "red")
            return EXIT_ERRORS
        if plugin.result is not None:
            print_human(plugin.result.systems, err)  # warnings and counts: the single check
        write_rendered(rendered, staging)
        problem = swap_in(staging, out, lambda: output_refusal(out, protected), "render")
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    if problem is not None:
        say(err, f"kbgen render: {problem}", "red")
        return EXIT_ERRORS
    return EXIT_OK


def render_site(
    config_file: Path, records: str | None, out_dir: str, out: Console, err: Console, engine: str = "mkdocs"
) -> int:
    """Check the records, then write the KB as Markdown with a standalone mkdocs.yml into ``out_dir``.

    ``engine`` picks the form of links inside raw HTML blocks (``urls.raw_html_links``)."""
    if not config_file.is_file():
        say(err, f"kbgen: {config_file}: no such MkDocs configuration")
        return EXIT_USAGE
    with project_environment(config_file, err):
        loaded = load_project(config_file, records, "render", err)
        if isinstance(loaded, int):
            return loaded
        config, plugin = loaded
        if not plugin.records_folder(config).is_dir():
            say(err, f"kbgen render: {plugin.records_folder(config)}: no such records folder")
            return EXIT_USAGE
        target = Path(out_dir).resolve()
        protected = output_protected(config, plugin)
        refusal = output_refusal(target, protected)
        if refusal is not None:
            say(err, f"kbgen render: {refusal}", "red")
            return EXIT_USAGE
        with raw_html_links("file" if engine == "zensical" else "url"):
            code = _render_into(config, plugin, target, protected, err)
    if code == EXIT_OK:
        builder = "zensical build" if engine == "zensical" else "properdocs build (or mkdocs build)"
        say(out, f"rendered {target} (build it with: {builder}, in that folder)")
    return code
