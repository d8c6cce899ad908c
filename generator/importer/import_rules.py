"""The importer's rules that several of its modules emit, declared in this leaf module they
all import (a rule one module emits is declared beside it)."""

from __future__ import annotations

from generator.diagnostics import Rule

KB601 = Rule(
    "KB601",
    "import-kept-as-prose",
    "Imported text could not be structured; it is kept as prose.",
    doc=(
        "`kbgen import`, warning: text that reads as a construct but cannot be structured (an amendment of a "
        "record not declared before it, a reconciliation's `Amendment:` paragraph that does not open with "
        "the IDs it amends or an `Unresolved conflict:` paragraph, an authority-route ledger entry with a "
        "label missing, out of order or repeated or a value outside its vocabulary, a list or table after a "
        "ledger entry, a heading under 'Shared records' that names no kind, a table whose columns are not "
        "separated, a frontmatter key no record field holds, a `type` naming no document type it reads, a "
        "limitations table with a column no limitation field holds) is kept as prose; so is a field the "
        "record's model refuses (in the record's remarks) and a record it still refuses (a paragraph where "
        "it was placed)"
    ),
)


KB606 = Rule(
    "KB606",
    "import-quote-path",
    "A quotation has no '--- path' attribution; it is kept as prose.",
    doc="`kbgen import`, warning: a quotation without a `--- path` attribution is kept as prose",
)

KB607 = Rule(
    "KB607",
    "import-supplied",
    "A document cites an ID it does not declare; it becomes a supplied record.",
    doc=(
        "`kbgen import`, warning: an ID the document cites but does not declare becomes a supplied record "
        "(located at its first mention)"
    ),
)


KB610 = Rule(
    "KB610",
    "import-target",
    "The import's target folder exists (no --force) or is not a safe place.",
    doc=(
        "`kbgen import`, usage error (exit 2): the system folder exists (without `--force`), the slug is not "
        "a slug, the target or records folder is a symlink, or `--force` names a folder an import did not "
        "write (no regular `run.yaml` or `set.yaml` with a `run`, or an entry other than record files and "
        "`runs/`); nothing is written"
    ),
)
