"""CSV cells a spreadsheet reads as text, never as a formula.

Record text reaches the comparison CSV, and a spreadsheet runs a cell that begins with a
formula trigger (``=``, ``+``, ``-``, ``@``, a tab or a carriage return) as a formula: a
``HYPERLINK`` that sends data away, a DDE ``cmd|…`` that starts a program. A spreadsheet
whose locale separates cells with another character (``;``, ``|``, a tab) splits the file's
cells there too, quotes or not, so a trigger right after such a character begins a cell of
its own: ``Notes;=cmd|' /C calc'!A0``.

So a ``'`` (the spreadsheets' mark for text, which they do not show) is written wherever a
cell could begin with a trigger: at the cell's start, or after a character a locale may
split on (``;``, ``,``, ``|``, a tab, a line break), white space and double quotes between
them and the trigger skipped; a tab or carriage return at the cell's start counts as a
trigger. Full-width and other compatibility forms (``＝``, ``；``, ``﹢``) count as the
characters they stand for (their NFKC form). The scan is linear in the cell.
"""

from __future__ import annotations

import re

TRIGGERS = "=+-@"
SPLITTERS = ";,|"  # and a tab or a line break, which are white space too
WHITE_SPLITTERS = "\t\r\n"

# Every character whose NFKC form begins with a trigger or a splitter, folded to it (a
# test derives the list from the Unicode tables), so positions in the folded text are
# positions in the cell.
COMPATIBILITY_FORMS = {
    "=": "\u207c\u208c\u2a75\u2a76\ufe66\uff1d",
    "+": "\u207a\u208a\ufb29\ufe62\uff0b",
    "-": "\ufe63\uff0d",
    "@": "\ufe6b\uff20",
    ";": "\u037e\ufe14\ufe54\uff1b",
    ",": "\ufe10\ufe50\uff0c",
    "|": "\uff5c",
}
_FOLD = str.maketrans({form: ascii for ascii, forms in COMPATIBILITY_FORMS.items() for form in forms})

# A trigger with the run of white space and quotes before it; the run starts the match
# (never a character inside it), so each run is scanned once.
_TRIGGER_AFTER_RUN = re.compile(r'(?<![\s"])[\s"]*[' + re.escape(TRIGGERS) + "]")


def formula_starts(cell: str) -> list[int]:
    """Where in ``cell`` a spreadsheet could begin a cell that is a formula, ascending."""
    folded = cell.translate(_FOLD)
    starts = [0] if folded.startswith(("\t", "\r")) else []
    for match in _TRIGGER_AFTER_RUN.finditer(folded):
        run = match.group(0)[:-1]
        last_break = max(run.rfind(white) for white in WHITE_SPLITTERS)
        if last_break >= 0:
            start = match.start() + last_break + 1
        elif match.start() == 0 or folded[match.start() - 1] in SPLITTERS:
            start = match.start()
        else:
            continue
        if not starts or starts[-1] != start:
            starts.append(start)
    return starts


def inert_cell(cell: str) -> str:
    """``cell`` with a ``'`` where a spreadsheet could begin a formula: text it never evaluates."""
    starts = formula_starts(cell)
    if not starts:
        return cell
    pieces = [cell[begin:end] for begin, end in zip([0, *starts], [*starts, len(cell)], strict=True)]
    return "'".join(pieces)
