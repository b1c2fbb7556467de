"""Celery tasks of the schedule app: thin wrappers over its services."""

from __future__ import annotations

from celery import shared_task

from .outbox import outbox_sweep


@shared_task
def outbox_sweep_task() -> dict[str, int]:
    """Publish the follow-up tasks a broker outage held back; returns ``{sent, failed, pending}``."""
    return outbox_sweep().as_dict()
