"""What the cross-record rules share: one system's records, its files and its declared IDs."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from generator.check.route_contract import run_contract
from generator.load.records import DataPath, LoadedFile
from generator.model.ids import resolve_id
from generator.model.system import Origin, SystemRecords
from generator.model.walk import Contents


@dataclass
class Context:
    """What the rules share: the records, their files and the declared IDs."""

    system: SystemRecords
    files: dict[str, LoadedFile]
    declared: frozenset[str]
    supplied: frozenset[str]
    sources: frozenset[str]
    owners: list[tuple[Any, Origin | None, Contents]]
    folder: str  # the system folder as diagnostics show paths
    manifest: LoadedFile | None = None  # the committed set manifest, when there is one
    _resolved: dict[str, str | None] = field(default_factory=dict, repr=False)

    @cached_property
    def today_contract(self) -> bool:
        """Whether the run is checked under today's contract (it names none or today's, or
        its claim of an earlier one is refused)."""
        return run_contract(self.system).is_today

    def resolve(self, token: str) -> str | None:
        """The declared ID a prose token names; memoised, as floods repeat one token."""
        if token not in self._resolved:
            self._resolved[token] = resolve_id(token, self.declared)
        return self._resolved[token]

    def at(self, origin: Origin | None, path: DataPath = ()) -> tuple[str, int, int]:
        if origin is None:
            return (self.system.slug, 1, 1)
        file = self.files.get(origin.file)
        if file is None:
            return (origin.file, 1, 1)
        spot = file.spot((*origin.path, *path))
        return (origin.file, spot.line, spot.col)

    def key_at(self, origin: Origin | None, path: DataPath = ()) -> tuple[str, int, int]:
        if origin is None or origin.file not in self.files:
            return self.at(origin, path)
        spot = self.files[origin.file].spot((*origin.path, *path))
        return (origin.file, spot.key_line, spot.key_col)

    def dropped(self, origin: Origin | None, path: DataPath) -> bool:
        """Whether the value at ``path`` failed validation and was left out of a partial
        record: it is reported already, so it is not reported again as missing."""
        return origin is not None and (origin.file, (*origin.path, *path)) in self.system.invalid_paths

    def in_text(self, origin: Origin | None, path: DataPath, offset: int) -> tuple[str, int, int]:
        if origin is None or origin.file not in self.files:
            return self.at(origin, path)
        line, col = self.files[origin.file].text_position((*origin.path, *path), offset)
        return (origin.file, line, col)

    def text_locator(self, origin: Origin | None, path: DataPath) -> Callable[[int], tuple[str, int, int]]:
        """``in_text`` for one string, with the per-string work done once."""
        if origin is None or origin.file not in self.files:
            where = self.at(origin, path)
            return lambda offset: where
        locate = self.files[origin.file].locator((*origin.path, *path))
        file = origin.file
        return lambda offset: (file, *locate(offset))
