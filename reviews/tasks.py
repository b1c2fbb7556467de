"""The reviews app's Celery tasks: thin wrappers over its services, under stable names (the
outbox's rows and django-celery-beat's periodic task name them)."""

from __future__ import annotations

from typing import Any

from celery import shared_task

from .models import Review
from .services.review import review_run
from .services.schedules import review_due_stores


@shared_task(name="reviews.review_store")
def review_store_task(*, review_id: str) -> dict[str, Any]:
    """Run a queued review (Review now); idempotent: a review already run is left as it is."""
    review = Review.objects.select_related("store").filter(public_id=review_id).first()
    if review is None:
        return {"review_id": review_id, "status": "missing"}
    review = review_run(review)
    return {"review_id": review.public_id, "status": review.status, "proposals": review.proposal_count}


@shared_task(name="reviews.review_due_stores")
def review_due_stores_task() -> dict[str, Any]:
    """Review every store whose schedule is on and due (the beat entry "Store reviews")."""
    reviews = review_due_stores()
    return {
        "reviewed": [r.store.public_id for r in reviews],
        "review_ids": [r.public_id for r in reviews],
    }
