"""Reads of reviews, scoped to who asks: a person sees the reviews of the stores they may edit."""

from __future__ import annotations

from django.db.models import QuerySet

from stores.errors import NotFound
from stores.models import Store

from .access import may_review
from .models import Review, ReviewProposal


def reviews_of_store(store: Store) -> QuerySet[Review]:
    """The store's reviews, newest first."""
    return Review.objects.filter(store=store).select_related("store", "started_by").order_by("-started_at", "-id")


def review_for_person(user, review_id: str) -> Review:
    """The review, or 404 when it does not exist or the person may not edit its store (the same answer)."""
    review = Review.objects.select_related("store", "started_by").filter(public_id=review_id).first()
    if review is None or not may_review(user, review.store):
        raise NotFound(f"No review {review_id}.")
    return review


def proposals_of(review: Review) -> QuerySet[ReviewProposal]:
    """The review's proposals in the order they were made."""
    return review.proposals.select_related("decided_by").order_by("position", "id")


def proposal_of(review: Review, proposal_id: str) -> ReviewProposal:
    """One proposal of the review, or 404."""
    proposal = review.proposals.select_related("review__store").filter(public_id=proposal_id).first()
    if proposal is None:
        raise NotFound(f"No proposal {proposal_id} in review {review.public_id}.")
    return proposal
