"""Analysis KB generator: records → checked graph → Markdown pages → MkDocs site."""

__version__ = "0.1.0"
