"""Mermaid flowchart source built from record text that cannot break out of its label.

Mermaid reads a quoted label up to the next double quote, then treats what follows as
syntax (``click``, ``%%`` comments, ``style``); inside the label it renders HTML and
Markdown, and it rewrites ``#name;`` codes (which the vendored 11.17 does not turn back
on this path); it draws ``fa:fa-spin`` (and ``fab:``, ``fas:``, ``far:``, ``fal:``) as a
Font Awesome ``<i>`` and ``$$…$$`` as KaTeX ``<math>``. Rather than rely on decoding, a
label keeps a safe subset: letters, digits, spaces and punctuation that means nothing to
Mermaid, HTML or Markdown; every other ASCII sign (``:`` and ``$`` too) becomes a
look-alike that means nothing either, and control and formatting characters become
spaces. ``tests/browser/test_map_label_grammar.py`` draws every kept pair through the
vendored Mermaid. A label is drawn whole, broken into short lines by the renderer's own
``<br>`` (``label_lines``), so a node never cuts its text off; the node's link carries
the same label, escaped as HTML. Node IDs
and edge labels are the renderer's own. Every function is linear in its input.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence

__all__ = ["KEPT", "LOOKALIKES", "edge", "flowchart", "label_lines", "node", "safe_label"]

# ASCII signs kept as they are: none opens Mermaid, HTML or Markdown syntax inside a
# quoted label (``;`` needs a ``#`` to start a style, and ``#`` is replaced).
KEPT = frozenset(" -.,;/()'+=?!@^")
# The other ASCII signs, each as a look-alike.
LOOKALIKES = {
    '"': "'",
    "<": "‹",
    ">": "›",
    "&": "＆",
    "#": "＃",
    "%": "％",
    "[": "(",
    "]": ")",
    "{": "(",
    "}": ")",
    "|": "¦",
    "*": "∗",
    "_": "＿",
    "`": "'",
    "\\": "∖",
    "~": "∼",
    # Mermaid's icon forms (``fa:fa-spin``, ``fab:fa-github``) need a colon, its math
    # (``$$x^2$$``, KaTeX) a dollar sign.
    ":": "∶",
    "$": "＄",
    # Mermaid's placeholders for ``#…;`` codes start with this ligature and end with
    # ``¶ß``, which it turns back into ``;``.
    "ﬂ": "fl",
    "¶": "⁋",
}
_LINE_CHARS = 28  # a line of a drawn node's label, at most (a label wraps onto more lines)


def _safe_char(char: str) -> str:
    if char.isascii():
        if char.isalnum() or char in KEPT:
            return char
        return LOOKALIKES.get(char, " ")
    if char in LOOKALIKES:
        return LOOKALIKES[char]
    # Control, format (bidirectional overrides, zero widths) and separator characters.
    return " " if unicodedata.category(char)[0] in "CZ" else char


def safe_label(text: str) -> str:
    """Text for inside a quoted Mermaid label: the safe subset, spaces collapsed."""
    return " ".join("".join(_safe_char(char) for char in text).split())


def label_lines(text: str, width: int = _LINE_CHARS) -> list[str]:
    """A label's whole text as lines of at most ``width`` characters, broken between words
    (a word longer than a line is broken inside it): the drawn node shows every word, on
    as many lines as it takes, so nothing is cut off and no label runs wide. Linear in the
    text (each word is sliced once)."""
    lines: list[str] = []
    line = ""
    for word in text.split():
        pieces = [word[at : at + width] for at in range(0, len(word), width)]
        for piece in pieces:
            if line and len(line) + 1 + len(piece) <= width:
                line = f"{line} {piece}"
            else:
                if line:
                    lines.append(line)
                line = piece
    if line:
        lines.append(line)
    return lines


# Node shapes by role: a route is a stadium, a note an asymmetric flag, a record a box.
_SHAPES = {"route": ('(["', '"])'), "note": ('>"', '"]'), "record": ('["', '"]')}


def node(key: str, lines: Sequence[str], shape: str, css_class: str) -> str:
    """A node statement: ``key`` and ``css_class`` are the renderer's own names; each line
    of text is made safe and the lines are joined by a line break."""
    opening, closing = _SHAPES[shape]
    text = "<br>".join(safe_label(line) for line in lines if line)
    return f"  {key}{opening}{text}{closing}:::{css_class}"


def edge(source: str, target: str, label: str | None, dotted: bool = False) -> str:
    """An edge statement between two node keys, with the renderer's own label (or none)."""
    arrow = "-.->" if dotted else "-->"
    shown = f"|{safe_label(label)}|" if label else ""
    return f"  {source} {arrow}{shown} {target}"


def flowchart(direction: str, statements: Sequence[str]) -> str:
    """The whole flowchart source, one statement a line, ``\\n`` line endings."""
    return "\n".join([f"flowchart {direction}", *statements]) + "\n"
