"""List items: ``- item``, ``* item``, ``• item`` and numbered ``1. item`` / ``1) item``."""

from __future__ import annotations

import re
from dataclasses import dataclass

_ITEM = re.compile(
    r"^(?P<indent>[ \t]*)(?:(?P<bullet>[-*+•])|(?P<number>[0-9]{1,3})[.)])[ \t]+(?P<text>\S.*)\Z"
)


@dataclass(frozen=True)
class ListItem:
    text: str
    ordered: bool
    col: int  # where the item's text starts (1-based)


def list_item(line: str) -> ListItem | None:
    """The list item a line starts, or None.

    A numbered line only counts as an item when indented or followed by text that is not a
    heading-like title: ``1. Source-and-claim boundary`` alone on a line is a heading, which
    the caller decides; here any marker followed by text is an item.
    """
    match = _ITEM.match(line)
    if not match:
        return None
    if match.group("bullet") == "*" and match.group("text").startswith("*"):
        return None  # "** bold" is emphasis, not a list
    return ListItem(match.group("text").strip(), match.group("number") is not None, match.start("text") + 1)
