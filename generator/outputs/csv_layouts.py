"""The comparison CSV's column layouts, named apart from the code that writes them so the
command line offers them without loading the exporter: this project's (``default``:
``export.csv_header``) and the corpus's comparison's (``corpus``: ``corpus_comparison``)."""

from __future__ import annotations

from typing import Literal, get_args

CsvLayout = Literal["default", "corpus"]
CSV_LAYOUTS: tuple[str, ...] = get_args(CsvLayout)
