"""Moved to ``generator.model.ids``; kept so old imports work."""

from ..model.ids import resolve_id

__all__ = ["resolve_id"]
