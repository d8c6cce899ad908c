"""Analysis KB generator: records → checked graph → Markdown pages → MkDocs site."""

from pathlib import Path

__version__ = "0.1.0"

# The package's own folder: its templates, and a source no output may be written into.
PACKAGE_DIR = Path(__file__).resolve().parent
