"""Status badges: visible text, a class per value, a link to the value's glossary entry."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from ..model.records import Guarantee
from ..model.vocab import MEANINGS, VOCABULARY_TITLES, ConclusionStatus
from .links import link
from .markdown import Md, escape
from .registry import GLOSSARY_PAGE
from .urls import href, page_path, slugify


def _one_line(text: str) -> Md:
    """Record text inside an inline HTML span: escaped as Markdown, on one line."""
    return escape(" ".join(text.split()))


def vocab_anchor(value: StrEnum) -> str:
    return slugify(f"{VOCABULARY_TITLES[type(value)]} {value.value}")


@dataclass(frozen=True)
class Badges:
    """Status badges: visible text, a class per value, a link to the glossary meaning."""

    page: str  # the path of the page the badges are on

    def vocab_link(self, value: StrEnum) -> Md:
        meaning = MEANINGS[type(value)][value.value]
        target = href(self.page, page_path(GLOSSARY_PAGE), vocab_anchor(value))
        return link(value.value, target, ("kb-badge", f"kb-badge--{slugify(value.value)}"), meaning)

    def status(self, label: str, value: StrEnum | str) -> Md:
        if isinstance(value, str) and not isinstance(value, StrEnum):
            value = ConclusionStatus(value)
        return Md(f'<span class="kb-status-label">{_one_line(label)}</span> {self.vocab_link(value)}')

    def guarantee(self, guarantee: Guarantee) -> Md:
        scope = (
            f' <span class="kb-status-label">({_one_line(guarantee.scope)})</span>' if guarantee.scope else ""
        )
        status = (
            f' <span class="kb-status-label">guarantee status</span> {self.vocab_link(guarantee.status)}'
            if guarantee.status
            else ""
        )
        strength = self.vocab_link(guarantee.strength)
        return Md(f'<span class="kb-status-label">guarantee</span> {strength}{scope}{status}')
