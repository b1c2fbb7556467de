"""Celery tasks for the Jira link: thin wrappers over ``jira_link.services``."""

from __future__ import annotations

from typing import Any

from celery import shared_task

from .services import JiraUnavailable, sync_jira


# Jira being briefly down is the common failure; retry a few times with backoff, and leave the
# rest to the next scheduled run (the sync writes nothing when Jira fails, so a retry is safe).
@shared_task(
    autoretry_for=(JiraUnavailable,),
    retry_backoff=30,
    retry_backoff_max=600,
    retry_kwargs={"max_retries": 3},
)
def sync_jira_task(*, dry_run: bool = False) -> dict[str, Any]:
    """Sync Jira projects and open tickets; returns the counts ``{projects, tickets, removed, dry_run}``."""
    return sync_jira(dry_run=dry_run).as_dict()
