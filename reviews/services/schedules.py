"""Each store's review schedule (off unless a person turns it on) and the beat task's pass over them."""

from __future__ import annotations

import logging
from datetime import datetime, timedelta

from django.utils import timezone

from stores.errors import InvalidRequest
from stores.models import Store

from ..models import Review, ReviewSchedule, ReviewTrigger
from .review import start_review

logger = logging.getLogger(__name__)


def schedule_of(store: Store) -> ReviewSchedule:
    """The store's schedule as it stands; an unsaved, switched-off one when none was ever set."""
    return ReviewSchedule.objects.filter(store=store).first() or ReviewSchedule(store=store)


def schedule_set(*, store: Store, enabled: bool, every_hours: int | None = None) -> ReviewSchedule:
    """Turn a store's scheduled reviews on or off, every ``every_hours`` hours (at least 1)."""
    if every_hours is not None and (not isinstance(every_hours, int) or every_hours < 1):
        raise InvalidRequest("every_hours must be a whole number of hours, at least 1.")
    schedule = schedule_of(store)
    schedule.enabled = bool(enabled)
    if every_hours is not None:
        schedule.every_hours = every_hours
    schedule.save()
    return schedule


def due_schedules(now: datetime | None = None):
    """The schedules switched on whose store is due a review (never reviewed by it, or not within
    its hours), archived stores left out."""
    now = now or timezone.now()
    schedules = ReviewSchedule.objects.filter(enabled=True, store__archived_at__isnull=True).select_related("store")
    return [s for s in schedules if s.last_started_at is None or s.last_started_at + timedelta(hours=max(1, s.every_hours)) <= now]


def review_due_stores(now: datetime | None = None) -> list[Review]:
    """Start a review of every store whose schedule is on and due; returns the reviews.

    Each schedule is claimed by a conditional update first, so two beats (or a task delivered
    twice) never review a store twice for one turn.
    """
    now = now or timezone.now()
    reviews = []
    for schedule in due_schedules(now):
        last = schedule.last_started_at
        claim = ReviewSchedule.objects.filter(pk=schedule.pk)
        claim = claim.filter(last_started_at__isnull=True) if last is None else claim.filter(last_started_at=last)
        if not claim.update(last_started_at=now):
            continue
        try:
            reviews.append(start_review(store=schedule.store, trigger=ReviewTrigger.SCHEDULE))
        except Exception:  # one store's failure (recorded on its review) does not stop the others
            logger.exception("scheduled review of store %s failed", schedule.store.public_id)
    return reviews
