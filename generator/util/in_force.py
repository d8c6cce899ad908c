"""A registry in force: a built-in default, replaced inside a ``with`` block.

The importer's form and document-type registries are read where the import runs; a test
or an extension puts a registry of its own in force for the imports made inside a block,
and the built-in one stays untouched (a context variable, so threads and tasks each see
their own).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Generic, TypeVar

T = TypeVar("T")


class InForce(Generic[T]):
    """The registry in force, ``default`` unless ``using`` put another in force."""

    def __init__(self, name: str, default: T) -> None:
        self._var: ContextVar[T] = ContextVar(name, default=default)

    def get(self) -> T:
        return self._var.get()

    @contextmanager
    def using(self, registry: T) -> Iterator[T]:
        """Put ``registry`` in force for what runs inside the block."""
        token = self._var.set(registry)
        try:
            yield registry
        finally:
            self._var.reset(token)
