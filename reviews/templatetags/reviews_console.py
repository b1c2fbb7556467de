"""``{% store_review_links store as reviews %}``: what the store page shows of its reviews (Review
now, the link to its reviews), without the stores console importing the reviews app. The store's
template loads this library by name, so the import contracts (stores never imports reviews) hold."""

from __future__ import annotations

from typing import Any

from django import template

from ..access import may_review
from ..models import Review

register = template.Library()


@register.simple_tag(takes_context=True)
def store_review_links(context: template.Context, store) -> dict[str, Any]:
    """For the signed-in person and ``store``: may they review it, may a review start now (not
    archived), how many reviews it has, and the latest one (or None)."""
    request = context.get("request")
    user = getattr(request, "user", None)
    allowed = may_review(user, store) if user is not None and user.is_authenticated else False
    if not allowed:
        return {"may_review": False, "may_start": False, "count": 0, "latest": None}
    reviews = Review.objects.filter(store=store).order_by("-started_at", "-id")
    return {
        "may_review": True,
        "may_start": store.archived_at is None,
        "count": reviews.count(),
        "latest": reviews.first(),
    }
