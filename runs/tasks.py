"""Celery tasks for runs: thin wrappers over ``runs.services``."""

from __future__ import annotations

from typing import Any

from celery import shared_task

from .services import lesson_prompts_close


@shared_task
def lesson_prompts_close_task() -> dict[str, Any]:
    """Close lesson prompts left unanswered after LESSON_PROMPT_TIMEOUT_HOURS; returns ``{closed}``.

    Idempotent: each prompt is claimed by a conditional update, so a second delivery closes nothing.
    """
    return {"closed": lesson_prompts_close()}
