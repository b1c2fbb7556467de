"""Run changes: start, end, lesson prompts and answers, records."""

from __future__ import annotations

from django.db.models import F
from django.utils import timezone

from .models import Run


def run_note_write(run: Run, version_id: str) -> None:
    """Count a version the run wrote; the first one after a lesson prompt answers it."""
    Run.objects.filter(pk=run.pk).update(versions_written=F("versions_written") + 1)
    Run.objects.filter(
        pk=run.pk, lesson_prompted_at__isnull=False, lesson_answered_at__isnull=True,
        lesson_closed_unanswered_at__isnull=True,
    ).update(lesson_answered_at=timezone.now(), lesson_nothing_to_record=False, lesson_memory_version_id=version_id)
