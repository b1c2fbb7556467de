"""Functions called with (memory=..., texts=[...]) when a memory is redacted, so every copy goes."""

from collections.abc import Callable

HOOKS: list[Callable[..., None]] = []


def register(hook: Callable[..., None]) -> Callable[..., None]:
    """Register a scrubber; used as a decorator by the apps that hold copies of memory text."""
    HOOKS.append(hook)
    return hook
