"""Modules a build imports through a plugin but never uses, loaded when first touched.

mkdocs-macros-plugin imports ``requests`` (with urllib3, charset_normalizer, idna and
http.client: 70 to 80 ms, a serial stretch before the records are checked) for one helper
that asks PyPI whether a package exists, which a build never calls. ``defer`` puts a stand-in
in ``sys.modules`` that ``import requests`` binds without running anything; the first
attribute read from it (``requests.get``, or ``__path__`` by ``import requests.exceptions``)
imports the real module, which then takes the stand-in's place, and every later read is
handed to it. (``importlib.util.LazyLoader`` cannot serve: on Python 3.11 the import
statement itself reads the module's ``__spec__``, which loads it.)
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
import types
from typing import Any

# Imported by a plugin the project's sites enable, never used by a build.
UNUSED_BY_BUILDS = ("requests",)


class _Deferred(types.ModuleType):
    """A module's stand-in until one of its attributes is read."""

    def __init__(self, spec: importlib.machinery.ModuleSpec) -> None:
        super().__init__(spec.name)
        self.__spec__ = spec
        self.__loader__ = spec.loader

    def __getattr__(self, attribute: str) -> Any:  # only for what the stand-in lacks
        name = self.__name__
        real = sys.modules.get(name)
        if real is self or real is None:  # None: something took the stand-in out meanwhile
            sys.modules.pop(name, None)
            real = importlib.import_module(name)
        return getattr(real, attribute)


def defer(name: str) -> bool:
    """Import ``name`` when first used; False when it is already imported or not installed."""
    if name in sys.modules:
        return False
    spec = importlib.util.find_spec(name)
    if spec is None:
        return False
    sys.modules[name] = _Deferred(spec)
    return True


def defer_unused_by_builds() -> None:
    for name in UNUSED_BY_BUILDS:
        defer(name)
