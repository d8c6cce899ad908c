"""The Jinja2 environment of the page templates.

Strict about undefined names and autoescaping: every plain string a template prints
is escaped as Markdown, only already-safe Markdown (``Md``) and HTML (``Html``) pass
through. Inside a raw HTML block a template prints only ``Html`` (from the HTML linker
``html_linker``, the HTML badges ``html_badges`` and the ``html_*`` helpers) and plain
values through the ``html`` filter, which escapes them as HTML and refuses a Markdown
value.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from enum import StrEnum
from pathlib import Path
from typing import Any

import yaml
from jinja2 import ChoiceLoader, Environment, FunctionLoader, PackageLoader, StrictUndefined
from markupsafe import Markup

from generator.model.fields import record_badges, record_fields
from generator.model.ids import anchor_of
from generator.model.kinds import shared_kind_titles
from generator.model.records import Source
from generator.model.url_policy import unlinked_reason
from generator.render import rawhtml
from generator.render.inline_form import html_label, label
from generator.render.link_markup import link
from generator.render.markdown import Md, block_quote, code_block, code_span, escape
from generator.render.registry import registered_pages
from generator.render.urls import slugify
from generator.util.template_cache import use_template_cache


def printed(value: Any) -> str:
    """Everything a template prints is escaped unless it is already-safe Markdown."""
    if isinstance(value, Markup):
        return value
    if isinstance(value, StrEnum):
        return escape(value.value)
    if isinstance(value, str):
        return escape(value)
    if isinstance(value, bool | int | float):
        return str(value)
    if value is None:
        raise ValueError("a template printed None; guard optional values with 'if'")
    raise TypeError(f"a template printed a {type(value).__name__}; render it explicitly")


def _registered_template(name: str) -> tuple[str, None, Callable[[], bool]] | None:
    """The text of a template a page spec carries itself (``PageSpec.template_source``)."""
    for spec in registered_pages():
        if spec.template == name and spec.template_source is not None:
            # Never cached as fresh: another registry in force may carry another text.
            return spec.template_source, None, lambda: False
    return None


def _environment() -> Environment:
    env = Environment(
        loader=ChoiceLoader(
            [FunctionLoader(_registered_template), PackageLoader("generator", "templates/pages")]
        ),
        undefined=StrictUndefined,
        autoescape=True,
        finalize=printed,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )
    env.globals.update(
        slugify=slugify,
        anchor_of=anchor_of,
        code=code_span,
        label=label,
        html_label=html_label,
        link=link,
        code_block=code_block,
        block_quote=block_quote,
        record_fields=record_fields,
        record_badges=record_badges,
        record_texts=record_texts,
        unlinked_evidence=unlinked_evidence,
        shared_kind_titles=shared_kind_titles,  # called: the kinds in force when the page renders
        indent=lambda text: Md(str(text).replace("\n", "\n    ")),
        hashes=lambda level: Md("#" * level),
        html_code=rawhtml.code_span,
        html_table=rawhtml.table,
    )
    env.filters["html"] = rawhtml.html_value
    env.filters["one_html_block"] = rawhtml.one_block
    # Made at import, before any project is known: a relative cache folder is refused here,
    # one inside the project only once a build names it (``cache_templates_outside``).
    use_template_cache(env)
    return env


def record_texts(record: Any) -> list[str]:
    """The prose of a record's own fields (not its body or remarks), where it may cite
    evidence."""
    return [
        item.value
        for after_body in (False, True)
        for item in record_fields(record, after_body)
        if item.rendering in ("text", "flow") and isinstance(item.value, str)
    ]


def unlinked_evidence(record: Any) -> str | None:
    """Why a source record's evidence anchors are shown as text, or None (not a source, or
    its anchors link)."""
    if not isinstance(record, Source):
        return None
    location = str(record.location) if record.location is not None else None
    return unlinked_reason(record.links, location, record.revision, record.link_template)


_ENV = _environment()


def cache_templates_outside(untrusted: Sequence[Path]) -> None:
    """Give the page templates the machine's cache again, refused if it is inside one of
    ``untrusted`` (the project's checkout, its records: their contents arrive from others)."""
    _ENV.bytecode_cache = None
    use_template_cache(_ENV, untrusted)


def frontmatter(values: dict[str, Any]) -> Md:
    clean = {key: value for key, value in values.items() if value is not None}
    text = yaml.safe_dump(clean, sort_keys=False, allow_unicode=True, default_flow_style=False, width=1000)
    return Md(f"---\n{text}---\n")


# Led by literal line breaks, which the pattern engine looks for at C speed; a pattern led
# by a repeat is tried at every position (28 ms against 3 ms over the 2.5 MB status matrix).
_BLANK_LINES = re.compile(r"\n\n\n+")


def _tidy(markdown: str) -> str:
    """Collapse runs of blank lines left by template logic; end with one newline."""
    lines = markdown.replace("\r\n", "\n").split("\n")
    if "```" not in markdown:  # no fence: every line trimmed, then runs of blank lines made one
        return _BLANK_LINES.sub("\n\n", "\n".join([line.rstrip() for line in lines])).strip("\n") + "\n"
    out: list[str] = []
    blank = 0
    fence: str | None = None
    for line in lines:
        stripped = line.strip()
        if fence is None and stripped.startswith("```"):
            fence = stripped[: len(stripped) - len(stripped.lstrip("`"))]
        elif fence is not None and stripped == fence:
            fence = None
        if fence is None and not stripped:
            blank += 1
            if blank > 1:
                continue
            out.append("")
            continue
        blank = 0
        out.append(line.rstrip() if fence is None else line)
    return "\n".join(out).strip("\n") + "\n"


def render(template: str, context: Mapping[str, Any], **values: Any) -> str:
    """A template rendered with a context (and more values), tidied."""
    return _tidy(_ENV.get_template(template).render(**context, **values))
