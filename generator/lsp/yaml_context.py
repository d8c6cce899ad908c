"""Where the cursor is in a record file: the key path above it, read from indentation.

Completion is asked for while a line is half written, when the file is seldom valid
YAML, so the path is read from the lines' indentation the way block YAML nests: a key
whose column is left of the current mapping's is its parent, and a line opening with
``- `` makes the mapping a list item. Flow collections and multi-line scalars above the
cursor are read as the text they are; a wrong guess only costs a completion list.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

LIST_ITEM = "-"  # a path step into a list's items

_LINE = re.compile(r"^(?P<indent> *)(?P<dashes>(?:- +)*)(?P<rest>.*)\Z")
# A key runs to the line's first ':' or '#' (greedy, so a long line is read once; a lazy
# key followed by optional spaces backtracked quadratically over a line of spaces).
_KEY = re.compile(r"^(?P<key>[^\s#'\"\[\]{}:,&*!|>%@`-][^:#]*|'[^']*'|\"[^\"]*\"):(?:\s+|\Z)(?P<value>.*)\Z")
# The characters of the word a completion replaces; a longer run is no word to complete.
WORD_CHARACTERS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_/.-")
MAX_WORD_CHARS = 200


def _last_word(text: str) -> str:
    """The run of word characters that ends ``text`` ('' when it is over ``MAX_WORD_CHARS``)."""
    start = len(text)
    while start > 0 and text[start - 1] in WORD_CHARACTERS:
        start -= 1
        if len(text) - start > MAX_WORD_CHARS:
            return ""
    return text[start:]


@dataclass(frozen=True)
class Context:
    """The keys from the top of the file to the cursor's mapping, and what is being typed."""

    path: tuple[str, ...]  # keys, with LIST_ITEM for each list level
    key: str | None  # the key whose value the cursor is in; None when a key is being typed
    prefix: str  # the word before the cursor
    value: str  # the value written so far before the cursor (when in a value)


def _unquote(key: str) -> str:
    return key[1:-1] if len(key) >= 2 and key[0] == key[-1] and key[0] in "'\"" else key.strip()


def _split(line: str) -> tuple[int, int | None, str]:
    """(column of the line's key or content, column of its first dash or None, the content)."""
    match = _LINE.match(line)
    assert match is not None  # the pattern matches every line
    indent, dashes, rest = len(match.group("indent")), match.group("dashes"), match.group("rest")
    return indent + len(dashes), (indent if dashes else None), rest


def context_at(text: str, line: int, column: int) -> Context:
    """The context of the cursor at 0-based ``line`` and character ``column``."""
    lines = text.split("\n")
    current = lines[line][:column] if 0 <= line < len(lines) else ""
    key_col, dash_col, rest = _split(current)
    prefix = _last_word(current)
    found = _KEY.match(rest)
    key = _unquote(found.group("key")) if found else None
    value = found.group("value") if found else ""
    steps: list[str] = []
    level = key_col
    if dash_col is not None:
        steps.append(LIST_ITEM)
        level = dash_col
    for above in reversed(lines[: max(line, 0)]):
        stripped = above.strip()
        if not stripped or stripped.startswith("#"):
            continue
        above_key_col, above_dash, above_rest = _split(above)
        parent = _KEY.match(above_rest)
        if above_key_col == level and above_dash is not None and above_dash < level:
            # The first key of the list item the cursor's mapping belongs to.
            steps.append(LIST_ITEM)
            level = above_dash
        elif parent is not None and (
            above_key_col < level or (above_key_col == level and steps and steps[-1] == LIST_ITEM)
        ):
            if parent.group("value").strip() and not parent.group("value").strip().startswith(
                ("|", ">", "&")
            ):
                continue  # a key with its value on its line is a sibling's, not a parent
            steps.append(_unquote(parent.group("key")))
            level = above_key_col
            if above_dash is not None:
                steps.append(LIST_ITEM)
                level = above_dash
        if level == 0 and steps and steps[-1] != LIST_ITEM:
            break
    return Context(tuple(reversed(steps)), key, prefix, value)
