"""The one hook from the memory services to the apps built on them: "a version was written".

The stores app knows nothing of runs (runs import stores, never the reverse), yet a run must count
the versions it writes and a lesson prompt is answered by the first one. So the memory service calls
``version_written`` inside the write's transaction, right after the version row is saved, and each
app that cares registers a listener once, in its ``AppConfig.ready()``. A listener that must act
only once the write commits (a notice to waiting readers, say) wraps its work in
``transaction.on_commit``; one that raises rolls the write back with it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from stores.console_checks.request import Writer
    from stores.models import Memory, Store


@dataclass(frozen=True)
class VersionWritten:
    """One version just saved: the memory as saved, its locked store, who wrote it and how."""

    memory: Memory
    store: Store
    writer: Writer
    operation: str  # the version's operation (a VersionOperation: created, modified or deleted)
    version_id: str


Listener = Callable[[VersionWritten], None]

_listeners: list[Listener] = []


def on_version_written(listener: Listener) -> Listener:
    """Register ``listener`` to be called for every version written; registering it again changes nothing."""
    if listener not in _listeners:
        _listeners.append(listener)
    return listener


def version_written(event: VersionWritten) -> None:
    """Tell every registered listener, in the order they registered, inside the write's transaction."""
    for listener in tuple(_listeners):
        listener(event)
