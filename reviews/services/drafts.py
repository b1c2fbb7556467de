"""What the finders hand the review: a note as read, and a proposal not yet saved."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from .similarity import shingles


@dataclass
class Note:
    """One live memory as the review read it. ``shingles`` are computed once and shared."""

    pk: int
    memory_id: str
    path: str
    content: str
    sha256: str
    version_id: str
    updated_at: datetime
    _shingles: set[str] | None = None

    @property
    def shingles(self) -> set[str]:
        if self._shingles is None:
            self._shingles = shingles(self.content)
        return self._shingles

    @property
    def base(self) -> dict[str, str]:
        return {"version_id": self.version_id, "sha256": self.sha256}


@dataclass
class Draft:
    """A proposal the review may offer: kind, memories (the kept one first), evidence, text, base."""

    kind: str
    memory_ids: list[str]
    paths: list[str]
    evidence: dict[str, Any]
    proposed_text: str | None = None
    base: dict[str, Any] = field(default_factory=dict)


def base_of(notes: list[Note], **extra: Any) -> dict[str, Any]:
    """The base a proposal is computed on: each memory's version id and text hash (and ``extra``)."""
    return {"memories": {n.memory_id: n.base for n in notes}, **extra}
