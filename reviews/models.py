"""Automated reviews of a store: a review, the changes it proposes, and each store's review schedule.

A review only reads the store; its proposals change memory when a person adopts them (through the
memory services, door ``review``). Each proposal keeps the base it was computed on (each memory's
version id and text hash, a set-aside's id), so a write made after the review is noticed.
"""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.db import models

from stores.ids import new_id
from stores.models import Store


def new_review_id() -> str:
    return new_id("review_")


def new_proposal_id() -> str:
    return new_id("proposal_")


class ReviewTrigger(models.TextChoices):
    """What started a review."""

    PERSON = "person", "A person (Review now)"
    SCHEDULE = "schedule", "The store's review schedule"
    COMMAND = "command", "The review_store command"


class ReviewStatus(models.TextChoices):
    QUEUED = "queued", "Queued"
    RUNNING = "running", "Running"
    FINISHED = "finished", "Finished"
    FAILED = "failed", "Failed"


class ProposalKind(models.TextChoices):
    MERGE_SET_ASIDE = "merge_set_aside", "Fold a set-aside text in"
    DUPLICATES = "duplicates", "Fold near-duplicate notes into one"
    STALE = "stale", "Names what the registry removed"
    DECISION = "decision", "Close to a standing decision or the governance template"
    REWRITE = "rewrite", "Rewrite (or merge) proposed by the model"


class ProposalStatus(models.TextChoices):
    PENDING = "pending", "Pending"
    ADOPTED = "adopted", "Adopted"
    DISMISSED = "dismissed", "Dismissed"
    REFUSED = "refused", "Refused"


class Review(models.Model):
    """One review of one store: what it read, what it proposed, and how it ended."""

    public_id = models.CharField(max_length=40, unique=True, default=new_review_id, editable=False)
    store = models.ForeignKey(Store, on_delete=models.CASCADE, related_name="reviews")
    trigger = models.CharField(max_length=16, choices=ReviewTrigger.choices)
    started_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    status = models.CharField(max_length=16, choices=ReviewStatus.choices, default=ReviewStatus.QUEUED)
    started_at = models.DateTimeField()
    finished_at = models.DateTimeField(null=True, blank=True)
    memory_count = models.PositiveIntegerField(default=0, help_text="Live memories the review read.")
    proposal_count = models.PositiveIntegerField(default=0, help_text="Proposals offered.")
    refused_count = models.PositiveIntegerField(
        default=0, help_text="Texts the model proposed that the console's checks refused (not offered)."
    )
    model = models.CharField(max_length=200, blank=True, default="", help_text="The model asked, if any.")
    # What went wrong, or a notice from the model pass (its answer was not valid JSON). Written by the
    # review itself, never quoting memory text.
    error_message = models.TextField(blank=True, default="")

    class Meta:
        ordering = ["-started_at", "-id"]
        indexes = [models.Index(fields=["store", "started_at"], name="review_store_started")]

    def __str__(self) -> str:
        return f"{self.public_id} of {self.store.name}"


class ReviewProposal(models.Model):
    """One proposed change and its evidence; memory changes only when a person adopts it."""

    public_id = models.CharField(max_length=40, unique=True, default=new_proposal_id, editable=False)
    review = models.ForeignKey(Review, on_delete=models.CASCADE, related_name="proposals")
    position = models.PositiveIntegerField(default=0)
    kind = models.CharField(max_length=24, choices=ProposalKind.choices)
    # The memories it concerns (public ids) and their paths, in order: for a fold, the first is kept.
    memory_ids = models.JSONField(default=list)
    paths = models.JSONField(default=list)
    # Structured and readable: {"summary": "...", ...kind's own keys}; see reviews.services.
    evidence = models.JSONField(default=dict)
    proposed_text = models.TextField(null=True, blank=True)
    # What it was computed on: {"memories": {memory_id: {"version_id", "sha256"}}, "set_aside_id"?}.
    base = models.JSONField(default=dict)
    status = models.CharField(max_length=16, choices=ProposalStatus.choices, default=ProposalStatus.PENDING)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    decided_at = models.DateTimeField(null=True, blank=True)
    # Why an adopt was refused (a Reason code and its message); empty otherwise.
    refusal_code = models.CharField(max_length=40, blank=True, default="")
    refusal_message = models.TextField(blank=True, default="")
    # The versions an adopt wrote (ids only).
    version_ids = models.JSONField(default=list, blank=True)

    class Meta:
        ordering = ["review", "position", "id"]

    def __str__(self) -> str:
        return f"{self.public_id} {self.kind}"


class ReviewSchedule(models.Model):
    """A store's review schedule: off unless a person turns it on (in the admin)."""

    store = models.OneToOneField(Store, on_delete=models.CASCADE, related_name="review_schedule")
    enabled = models.BooleanField(default=False)
    every_hours = models.PositiveIntegerField(
        default=24 * 7, help_text="Hours between scheduled reviews (the beat task looks every hour)."
    )
    last_started_at = models.DateTimeField(null=True, blank=True, editable=False)

    class Meta:
        ordering = ["store"]

    def __str__(self) -> str:
        state = f"every {self.every_hours} h" if self.enabled else "off"
        return f"review of {self.store.name}: {state}"

    def due_at(self):
        """When the next scheduled review is due (now, if it never ran)."""
        if self.last_started_at is None:
            return None
        return self.last_started_at + timedelta(hours=max(1, self.every_hours))
