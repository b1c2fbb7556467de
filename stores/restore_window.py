"""The restore window: a deleted memory can be restored for RECENTLY_DELETED_DAYS days, unless redacted.

One rule, read by every door: the memory service refuses a restore past it, the console's
Recently deleted page and the people's API list what is inside it and say until when.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.db.models import QuerySet
from django.utils import timezone

from .models import Memory, Store


def restore_window() -> timedelta:
    """How long after its deletion a memory can be restored (RECENTLY_DELETED_DAYS, read on each call)."""
    return timedelta(days=settings.RECENTLY_DELETED_DAYS)


def restore_cutoff(now: datetime | None = None) -> datetime:
    """Memories deleted at or after this instant are still inside the window."""
    return (now or timezone.now()) - restore_window()


def restorable_until(memory: Memory) -> datetime | None:
    """Until when this deleted memory can be restored; None when it is not deleted or was redacted."""
    if memory.deleted_at is None or memory.redacted_at is not None:
        return None
    return memory.deleted_at + restore_window()


def is_restorable(memory: Memory, now: datetime | None = None) -> bool:
    """True for a deleted, unredacted memory deleted inside the window."""
    return restorable_until(memory) is not None and memory.deleted_at >= restore_cutoff(now)


def recently_deleted(store: Store) -> QuerySet[Memory]:
    """The store's memories deleted inside the window (redacted ones included, which cannot be restored)."""
    return Memory.objects.filter(store=store, deleted_at__gte=restore_cutoff())


def deleted_before_window(store: Store) -> QuerySet[Memory]:
    """The store's memories deleted before the window and not redacted: no longer restorable, still redactable."""
    return Memory.objects.filter(store=store, deleted_at__lt=restore_cutoff(), redacted_at__isnull=True)
