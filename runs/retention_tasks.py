"""Celery tasks for retention and engagement close: thin wrappers over ``runs.retention``.

Each purge commits batch by batch, so a task stopped by its time limit or a worker restart has
lost nothing and the next run (or a retry) finishes the job.
"""

from __future__ import annotations

from typing import Any

from celery import shared_task

from stores.models import JiraProject

from .retention import purge_closed_engagements, purge_engagement_records, purge_run_records


@shared_task
def purge_run_records_task() -> dict[str, Any]:
    """Delete the run records past their retention; returns ``{deleted, dry_run, batches, finished}``."""
    return purge_run_records().as_dict()


@shared_task
def engagement_closes_task() -> dict[str, int]:
    """Delete the run records of every project whose engagement has closed; ``{projects, deleted}``."""
    return purge_closed_engagements()


@shared_task
def engagement_purge_task(*, project_id: int) -> dict[str, Any]:
    """Delete one project's run records if its engagement has closed (queued when it is closed)."""
    project = JiraProject.objects.filter(pk=project_id).first()
    if project is None:  # the project itself was deleted, and its records with it
        return {"deleted": 0, "dry_run": False, "batches": 0, "finished": True}
    return purge_engagement_records(project).as_dict()
