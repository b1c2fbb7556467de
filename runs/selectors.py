"""Reads about runs."""

from __future__ import annotations

from django.db.models import Q

from .models import Run


def run_for_token_hash(digest: str) -> Run | None:
    """The run whose token this is, while the token still works.

    A run token works until the run ends or, where a lesson prompt is open, until it is
    answered (or closed unanswered).
    """
    return (
        Run.objects.select_related("agent", "project")
        .filter(token_hash=digest)
        .filter(
            Q(ended_at__isnull=True)
            | Q(lesson_prompted_at__isnull=False, lesson_answered_at__isnull=True,
                lesson_closed_unanswered_at__isnull=True)
        )
        .first()
    )
