"""Status badges: visible text, a class per value, a link to the value's glossary entry."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from markupsafe import Markup

from generator.model.records import Guarantee
from generator.model.vocab import MEANINGS, VOCABULARY_TITLES, ConclusionStatus
from generator.render import rawhtml
from generator.render.link_markup import html_link, link
from generator.render.markdown import Md, escape
from generator.render.registry import GLOSSARY_PAGE
from generator.render.urls import href, page_path, slugify, url_href


def vocab_anchor(value: StrEnum) -> str:
    return slugify(f"{VOCABULARY_TITLES[type(value)]} {value.value}")


@dataclass(frozen=True)
class Badges:
    """Status badges: visible text, a class per value, a link to the glossary meaning."""

    page: str  # the path of the page the badges are on
    html: bool = False  # for a raw HTML block: HTML-escaped text, final URLs

    def _one_line(self, text: str) -> Markup:
        """Record text inside an HTML span: escaped for where it is printed, on one line."""
        return (rawhtml.escape if self.html else escape)(" ".join(text.split()))

    def vocab_link(self, value: StrEnum) -> Markup:
        meaning = MEANINGS[type(value)][value.value]
        classes = ("kb-badge", f"kb-badge--{slugify(value.value)}")
        if self.html:
            target = url_href(self.page, page_path(GLOSSARY_PAGE), vocab_anchor(value))
            return html_link(value.value, target, classes, meaning)
        target = href(self.page, page_path(GLOSSARY_PAGE), vocab_anchor(value))
        return link(value.value, target, classes, meaning)

    def _safe(self, text: str) -> Markup:
        return rawhtml.Html(text) if self.html else Md(text)

    def status(self, label: str, value: StrEnum | str) -> Markup:
        if isinstance(value, str) and not isinstance(value, StrEnum):
            value = ConclusionStatus(value)
        return self._safe(
            f'<span class="kb-status-label">{self._one_line(label)}</span>: {self.vocab_link(value)}'
        )

    def guarantee(self, guarantee: Guarantee) -> Markup:
        scope = (
            f' <span class="kb-status-label">({self._one_line(guarantee.scope)})</span>'
            if guarantee.scope
            else ""
        )
        status = (
            f', <span class="kb-status-label">guarantee status</span>: {self.vocab_link(guarantee.status)}'
            if guarantee.status
            else ""
        )
        strength = self.vocab_link(guarantee.strength)
        return self._safe(f'<span class="kb-status-label">guarantee</span>: {strength}{scope}{status}')
