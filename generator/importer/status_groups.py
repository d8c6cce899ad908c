"""Statuses stated once for a group of records: ``All runtime routes below have implementation
conclusion status wired …; Operation/activation/benefit conclusion status is uninspected``."""

from __future__ import annotations

import re

from generator.importer.recognisers.fields import STATUS_VALUES

_VALUE = "|".join(re.escape(v) for v in STATUS_VALUES)
_GROUP = re.compile(r"\b(?:below|following|unless stated otherwise)\b", re.I)
_STATUS = re.compile(
    rf"\b(?P<layer>[A-Za-z]+)(?:/[A-Za-z]+)* conclusion status (?:is )?(?P<value>{_VALUE})\b", re.I
)


def group_statuses(text: str) -> dict[str, str]:
    """The statuses a paragraph gives every record after it ('… below have …'), else empty."""
    if not _GROUP.search(text):
        return {}
    return {
        f"{match.group('layer').lower()} conclusion status": match.group("value").lower()
        for match in _STATUS.finditer(text)
    }
