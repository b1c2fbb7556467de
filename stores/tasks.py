"""Celery tasks of the stores app: thin wrappers over its services."""

from __future__ import annotations

from celery import shared_task

from stores.services.redaction import vacuum_tables


@shared_task
def vacuum_after_redaction_task(tables: list[str]) -> list[str]:
    """VACUUM the tables a redaction touched (queued through the outbox once it has committed)."""
    return vacuum_tables(tables)
