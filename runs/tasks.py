"""Every Celery task of runs, in one place: thin wrappers over ``runs.services`` and ``runs.retention``.

Each task keeps the name it was first registered under (``name=``), since django-celery-beat's
periodic-task rows and the outbox's rows name tasks: the retention tasks were once in a module of
their own, ``runs.retention_tasks``, and keep its name. Each purge commits batch by batch, so a
task stopped by its time limit or a worker restart has lost nothing and the next run (or a retry)
finishes the job.
"""

from __future__ import annotations

from typing import Any

from celery import shared_task

from stores.models import JiraProject

from .retention import (
    ENGAGEMENT_PURGE_TASK,
    purge_closed_engagements,
    purge_engagement_records,
    purge_run_records,
)
from .services import lesson_prompts_close


@shared_task(name="runs.tasks.lesson_prompts_close_task")
def lesson_prompts_close_task() -> dict[str, Any]:
    """Close lesson prompts left unanswered after LESSON_PROMPT_TIMEOUT_HOURS; returns ``{closed}``.

    Idempotent: each prompt is claimed by a conditional update, so a second delivery closes nothing.
    """
    return {"closed": lesson_prompts_close()}


# Retention and engagement close.


@shared_task(name="runs.retention_tasks.purge_run_records_task")
def purge_run_records_task() -> dict[str, Any]:
    """Delete the run records past their retention; returns ``{deleted, dry_run, batches, finished}``."""
    return purge_run_records().as_dict()


@shared_task(name="runs.retention_tasks.engagement_closes_task")
def engagement_closes_task() -> dict[str, int]:
    """Delete the run records of every project whose engagement has closed; ``{projects, deleted}``."""
    return purge_closed_engagements()


@shared_task(name=ENGAGEMENT_PURGE_TASK)
def engagement_purge_task(*, project_id: int) -> dict[str, Any]:
    """Delete one project's run records if its engagement has closed (queued when it is closed)."""
    project = JiraProject.objects.filter(pk=project_id).first()
    if project is None:  # the project itself was deleted, and its records with it
        return {"deleted": 0, "dry_run": False, "batches": 0, "finished": True}
    return purge_engagement_records(project).as_dict()
