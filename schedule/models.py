"""The outbox: follow-up Celery tasks recorded with the write that asked for them."""

from __future__ import annotations

import uuid

from django.db import models
from django.utils import timezone


class OutboxMessage(models.Model):
    """A Celery task a committed write asked for, kept until the broker has accepted it.

    The row is written inside the caller's transaction, so it exists exactly when the write does.
    After commit the task is published and the row deleted; when the broker cannot be reached the
    row stays, and the outbox sweep publishes it once the broker answers again.
    """

    task_name = models.CharField(max_length=200)
    kwargs = models.JSONField(default=dict, blank=True)
    task_id = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    created_at = models.DateTimeField(default=timezone.now, db_index=True)
    failures = models.PositiveIntegerField(
        default=0, help_text="Times the task could not be handed to the broker."
    )
    last_error = models.CharField(max_length=255, blank=True, default="")
    last_failed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["id"]
        verbose_name = "outbox message"

    def __str__(self) -> str:
        return f"{self.task_name} ({self.task_id})"
