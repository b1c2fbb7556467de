"""Runs, their records and their lesson prompts."""

from __future__ import annotations

from django.db import models

from stores.ids import new_id
from stores.models import HostedAgent, JiraProject
from stores.scrubbing import ScrubbedCharField, ScrubbedJSONField, ScrubbedTextField

# The longest lesson answer kept ("nothing to record, because ..."); longer ones are cut, after scrubbing.
WHY_MAX_CHARS = 4000


def new_run_id() -> str:
    return new_id("run_")


class Run(models.Model):
    """One agent working one Jira ticket, with the stores checked out for it."""

    public_id = models.CharField(max_length=40, unique=True, default=new_run_id, editable=False)
    agent = models.ForeignKey(HostedAgent, on_delete=models.CASCADE, related_name="runs")
    project = models.ForeignKey(JiraProject, on_delete=models.CASCADE, related_name="runs")
    ticket_key = models.CharField(max_length=64, db_index=True)
    host = ScrubbedCharField(max_length=255, blank=True, default="")
    token_hash = models.CharField(max_length=64, unique=True, editable=False)
    started_at = models.DateTimeField(auto_now_add=True)
    ended_at = models.DateTimeField(null=True, blank=True)
    qa_failed = models.BooleanField(default=False)
    needed_ruling = models.BooleanField(default=False)
    worked_past_error = models.BooleanField(default=False)
    attempts = models.PositiveIntegerField(default=1)
    versions_written = models.PositiveIntegerField(default=0)
    lesson_prompt = models.TextField(blank=True, default="")
    lesson_prompted_at = models.DateTimeField(null=True, blank=True)
    lesson_answered_at = models.DateTimeField(null=True, blank=True)
    lesson_nothing_to_record = models.BooleanField(null=True, blank=True)
    lesson_why = ScrubbedTextField(blank=True, default="", max_length=WHY_MAX_CHARS)
    lesson_memory_version_id = models.CharField(max_length=40, blank=True, default="")
    lesson_closed_unanswered_at = models.DateTimeField(null=True, blank=True)
    # The stores attached when the run started ({memory_store_id, kind, name, access, folder}),
    # kept so the run's folders, change feed and access stay as they were checked out.
    attachments = models.JSONField(default=list, blank=True)

    class Meta:
        ordering = ["-started_at", "-id"]
        indexes = [models.Index(fields=["agent", "ended_at"], name="run_agent_active")]

    def __str__(self) -> str:
        return f"{self.public_id} {self.ticket_key}"

    @property
    def is_active(self) -> bool:
        return self.ended_at is None


class RunRecord(models.Model):
    """The full record of a run, secrets removed. No history and no delete signals: purged in bulk."""

    run = models.ForeignKey(Run, on_delete=models.CASCADE, related_name="records")
    project = models.ForeignKey(JiraProject, on_delete=models.CASCADE, related_name="run_records")
    created_at = models.DateTimeField(db_index=True)
    transcript = ScrubbedTextField(blank=True, default="")
    events = ScrubbedJSONField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["project", "created_at"], name="runrecord_project_created")]

    def __str__(self) -> str:
        return f"record of {self.run.public_id}"
