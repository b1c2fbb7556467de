"""Clients, Jira projects, toolsets, agents, pods, stores, memories, versions, set-aside texts,
refusals and standing decisions."""

from __future__ import annotations

import hashlib

from django.conf import settings
from django.contrib.auth.base_user import AbstractBaseUser
from django.db import models
from django.db.models import Q
from simple_history.models import HistoricalRecords

from .ids import (
    new_api_key_id,
    new_memory_id,
    new_promotion_id,
    new_set_aside_id,
    new_store_id,
    new_version_id,
)


class Client(models.Model):
    """A client of Rittman Analytics: the names and data that must never reach another client's work."""

    name = models.CharField(max_length=200, unique=True)
    aliases = models.JSONField(default=list, blank=True, help_text="Other names the client goes by.")
    repositories = models.JSONField(default=list, blank=True)
    datasets = models.JSONField(default=list, blank=True)
    tables = models.JSONField(default=list, blank=True, help_text="Qualified tables, dataset.table.")
    distinctive_tables = models.JSONField(
        default=list, blank=True, help_text="Bare table names distinctive enough to identify the client."
    )
    retention_days = models.PositiveIntegerField(
        null=True,
        blank=True,
        help_text="Days to keep run records when the contract asks for less than the default. "
        "A value longer than the default never extends it.",
    )
    one_client_at_a_time = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    history = HistoricalRecords()

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name


class Toolset(models.Model):
    """A toolset (dbt, Looker, ...) whose lessons hold for every client."""

    name = models.CharField(max_length=100, unique=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name


class JiraProject(models.Model):
    """A Jira project worked for one client; it has one project store."""

    key = models.CharField(max_length=32, unique=True)
    client = models.ForeignKey(Client, on_delete=models.PROTECT, related_name="projects")
    toolsets = models.ManyToManyField(Toolset, blank=True, related_name="projects")
    escalation_contacts = models.ManyToManyField(
        settings.AUTH_USER_MODEL, blank=True, related_name="escalation_projects"
    )
    governance_template = models.TextField(blank=True, default="")
    engagement_closed_on = models.DateField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["key"]
        verbose_name = "Jira project"

    def __str__(self) -> str:
        return self.key


class RegistryVersion(models.Model):
    """One row whose number goes up on every change to the client registry (clients and Jira projects).

    Database triggers (migration 0004) bump it on every insert, delete and update of a client's
    names or detail or of a project's key or client, from any door and any process, even an
    ``update()`` that bypasses ``save()``. The client-detail check reads this one number per
    check and rebuilds its matcher when it moved, so a key renamed in the admin reaches every
    process of a multi-instance deployment on its next check.
    """

    id = models.PositiveSmallIntegerField(primary_key=True, default=1, editable=False)
    version = models.BigIntegerField(default=0)

    class Meta:
        constraints = [models.CheckConstraint(condition=Q(id=1), name="registry_version_one_row")]

    def __str__(self) -> str:
        return f"registry version {self.version}"


class StandingDecision(models.Model):
    """A person's ruling on a project. It binds the agents; memory never overrides it."""

    project = models.ForeignKey(JiraProject, on_delete=models.CASCADE, related_name="standing_decisions")
    title = models.CharField(max_length=255)
    text = models.TextField()
    created_at = models.DateTimeField(auto_now_add=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        ordering = ["project", "created_at"]

    def __str__(self) -> str:
        return f"{self.project.key}: {self.title}"


class HostedAgent(models.Model):
    """A hosted agent run by Rittman Analytics. Only these may propose memory changes."""

    name = models.SlugField(max_length=64, unique=True)
    jira_account_id = models.CharField(max_length=128, blank=True, default="")
    active = models.BooleanField(default=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]
        verbose_name = "hosted agent"

    def __str__(self) -> str:
        return self.name


class Pod(models.Model):
    """A group of agents covering some projects."""

    name = models.CharField(max_length=100, unique=True)
    agents = models.ManyToManyField(HostedAgent, related_name="pods", blank=True)
    projects = models.ManyToManyField(JiraProject, related_name="pods", blank=True)

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name


def hash_token(secret: str) -> str:
    """Tokens are stored as their SHA-256: they are long and random, so a slow hash buys nothing."""
    return hashlib.sha256(secret.encode("utf-8")).hexdigest()


class ApiToken(models.Model):
    """An API key for an agent or a person. Only its hash is kept; the secret is shown once."""

    key_id = models.CharField(max_length=40, unique=True, default=new_api_key_id, editable=False)
    token_hash = models.CharField(max_length=64, unique=True, editable=False)
    agent = models.ForeignKey(HostedAgent, null=True, blank=True, on_delete=models.CASCADE, related_name="tokens")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE, related_name="api_tokens"
    )
    enabled = models.BooleanField(default=True)
    expires_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    last_used_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=(Q(agent__isnull=False, user__isnull=True) | Q(agent__isnull=True, user__isnull=False)),
                name="apitoken_one_owner",
            )
        ]

    def __str__(self) -> str:
        owner = self.agent.name if self.agent_id else self.user.get_username()
        return f"{self.key_id} ({owner})"


class StoreKind(models.TextChoices):
    PROJECT = "project", "Project"
    AGENT = "agent", "Agent"
    PRACTICE = "practice", "Practice"
    TOOLSET = "toolset", "Toolset"
    SHARED = "shared", "Shared"


class Store(models.Model):
    """A memory store. The four kinds are made by the console; people may add shared ones."""

    public_id = models.CharField(max_length=40, unique=True, default=new_store_id, editable=False)
    kind = models.CharField(max_length=16, choices=StoreKind.choices)
    name = models.CharField(max_length=255)
    description = models.CharField(max_length=1024, blank=True, default="")
    metadata = models.JSONField(default=dict, blank=True, help_text="People's metadata; the console adds its own keys.")
    project = models.OneToOneField(
        JiraProject, null=True, blank=True, on_delete=models.CASCADE, related_name="store"
    )
    agent = models.OneToOneField(HostedAgent, null=True, blank=True, on_delete=models.CASCADE, related_name="store")
    toolset = models.OneToOneField(Toolset, null=True, blank=True, on_delete=models.CASCADE, related_name="store")
    # Every memory write takes the next number under the store's row lock, so a change cursor
    # by this number never skips a write that commits late.
    change_seq = models.BigIntegerField(default=0, editable=False)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now_add=True)
    archived_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["kind", "name"]
        constraints = [
            models.UniqueConstraint(fields=["kind"], condition=Q(kind="practice"), name="one_practice_store"),
        ]
        permissions = [
            ("manage_store_memories", "Delete, restore and redact memories in the store"),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.kind})"

    @property
    def console_metadata(self) -> dict[str, str]:
        """The reserved metadata keys the console keeps for each kind."""
        meta = {"kind": self.kind}
        if self.project_id:
            meta["project_key"] = self.project.key
        if self.agent_id:
            meta["agent"] = self.agent.name
        if self.toolset_id:
            meta["toolset"] = self.toolset.name
        return meta

    @property
    def full_metadata(self) -> dict[str, str]:
        return {**(self.metadata or {}), **self.console_metadata}


def history_user_of(instance, request=None, **kwargs):
    """The person behind a version, if any: agents are recorded in the version's actor, not here."""
    user = getattr(instance, "_history_user", None)
    if user is None and request is not None:
        user = getattr(request, "user", None)
    return user if isinstance(user, AbstractBaseUser) and user.is_authenticated else None


class VersionFields(models.Model):
    """Columns every memory version carries beside simple-history's own."""

    version_id = models.CharField(max_length=40, default=new_version_id, db_index=True)
    operation = models.CharField(max_length=16, default="modified")
    actor = models.JSONField(null=True, blank=True)
    run_public_id = models.CharField(max_length=40, blank=True, default="", db_index=True)
    api_key_id = models.CharField(max_length=40, blank=True, default="", db_index=True)
    version_redacted_at = models.DateTimeField(null=True, blank=True)
    version_redacted_by = models.JSONField(null=True, blank=True)
    # Where a version's text came from when it did not start here (a promotion): ids only.
    provenance = models.JSONField(null=True, blank=True)

    class Meta:
        abstract = True


class Memory(models.Model):
    """One Markdown note in a store. Deleted memories stay as rows for restore, until redacted."""

    public_id = models.CharField(max_length=40, unique=True, default=new_memory_id, editable=False)
    store = models.ForeignKey(Store, on_delete=models.CASCADE, related_name="memories")
    path = models.CharField(max_length=1024)
    content = models.TextField(blank=True, default="")
    content_sha256 = models.CharField(max_length=64)
    size_bytes = models.PositiveIntegerField(default=0)
    first_line = models.CharField(max_length=300, blank=True, default="")
    head_version_id = models.CharField(max_length=40, blank=True, default="")
    change_seq = models.BigIntegerField(default=0)
    created_at = models.DateTimeField()
    updated_at = models.DateTimeField()
    deleted_at = models.DateTimeField(null=True, blank=True)
    deleted_by = models.JSONField(null=True, blank=True, help_text="The actor who deleted it.")
    deleted_by_person = models.BooleanField(default=False)
    delete_reason = models.TextField(blank=True, default="")
    redacted_at = models.DateTimeField(null=True, blank=True)
    redacted_by = models.JSONField(null=True, blank=True)

    history = HistoricalRecords(bases=[VersionFields], cascade_delete_history=True, get_user=history_user_of)

    class Meta:
        verbose_name_plural = "memories"
        constraints = [
            models.UniqueConstraint(
                fields=["store", "path"], condition=Q(deleted_at__isnull=True), name="one_live_memory_per_path"
            )
        ]
        indexes = [
            models.Index(fields=["store", "change_seq"], name="memory_store_seq"),
            models.Index(fields=["store", "deleted_at"], name="memory_store_deleted"),
        ]

    def __str__(self) -> str:
        return f"{self.store.name}:{self.path}"

    @property
    def is_deleted(self) -> bool:
        return self.deleted_at is not None


class SetAsideStatus(models.TextChoices):
    OPEN = "open", "Open"
    USED = "used", "Used"
    DISMISSED = "dismissed", "Dismissed"


class SetAside(models.Model):
    """The losing text of a concurrent change, kept for a person or a later merge."""

    public_id = models.CharField(max_length=40, unique=True, default=new_set_aside_id, editable=False)
    store = models.ForeignKey(Store, on_delete=models.CASCADE, related_name="set_asides")
    memory = models.ForeignKey(Memory, on_delete=models.CASCADE, related_name="set_asides")
    path = models.CharField(max_length=1024)
    text = models.TextField(blank=True, default="")
    # SHA-256 of the text and of the copy it was written on ("" for a lost create: no common
    # ancestor). A redaction replaces both with keyed fingerprints (services.redaction).
    text_sha256 = models.CharField(max_length=64)
    base_sha256 = models.CharField(max_length=64, blank=True)
    base_version_id = models.CharField(max_length=40, blank=True, default="")
    lost_to_version_id = models.CharField(max_length=40, blank=True, default="")
    created_by = models.JSONField(null=True, blank=True)
    writer_key = models.CharField(max_length=120)
    created_at = models.DateTimeField(auto_now_add=True)
    status = models.CharField(max_length=16, choices=SetAsideStatus.choices, default=SetAsideStatus.OPEN)
    resolved_by = models.JSONField(null=True, blank=True)
    resolved_at = models.DateTimeField(null=True, blank=True)
    resolved_version_id = models.CharField(max_length=40, blank=True, default="")

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            # Clients resend: one row per writer, memory, base and text.
            models.UniqueConstraint(
                fields=["memory", "writer_key", "base_sha256", "text_sha256"], name="set_aside_once"
            )
        ]

    def __str__(self) -> str:
        return f"{self.public_id} {self.path}"


class Refusal(models.Model):
    """A change the console's checks refused. Never holds the refused text."""

    store = models.ForeignKey(Store, on_delete=models.CASCADE, related_name="refusals")
    writer_key = models.CharField(max_length=120)
    writer = models.JSONField(null=True, blank=True, help_text="The actor who asked.")
    run_public_id = models.CharField(max_length=40, blank=True, default="")
    operation = models.CharField(max_length=24)
    door = models.CharField(max_length=16, default="api")
    path = models.CharField(max_length=1100, blank=True, default="")
    content_fingerprint = models.CharField(
        max_length=64, blank=True, default="",
        help_text="A keyed fingerprint of the refused text, to count resends; never the text or its plain hash.",
    )
    code = models.CharField(max_length=40)
    message = models.TextField()
    created_at = models.DateTimeField(auto_now_add=True)
    last_seen_at = models.DateTimeField(auto_now=True)
    times = models.PositiveIntegerField(default=1)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.UniqueConstraint(
                fields=["store", "writer_key", "path", "content_fingerprint", "code"], name="refusal_once"
            )
        ]

    def __str__(self) -> str:
        return f"{self.code} {self.path}"


class SearchEntry(models.Model):
    """One document in the full-text index: for now a memory's current path and text.

    ``source`` names what the document is (``memory``; a later run record search adds its own),
    ``source_id`` its row. The memory services keep these rows in step through
    stores.services.search; the database's own index sits beside them: on PostgreSQL a generated
    ``search_vector`` tsvector column with a GIN index, on SQLite the FTS5 table
    ``stores_search_fts`` (rowid = this row's id). Both are made by migration 0006 for their
    database only, so the model does not declare them.
    """

    source = models.CharField(max_length=32)
    source_id = models.BigIntegerField()
    store = models.ForeignKey(Store, null=True, blank=True, on_delete=models.CASCADE, related_name="+")
    path = models.CharField(max_length=1024, blank=True, default="")
    body = models.TextField(blank=True, default="")
    writer_name = models.CharField(max_length=150, blank=True, default="")
    run_public_id = models.CharField(max_length=40, blank=True, default="")
    changed_at = models.DateTimeField()
    deleted_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name_plural = "search entries"
        constraints = [models.UniqueConstraint(fields=["source", "source_id"], name="search_entry_once")]
        indexes = [models.Index(fields=["source", "store", "deleted_at"], name="search_entry_scope")]

    def __str__(self) -> str:
        return f"{self.source}:{self.source_id}"


class PromotionStatus(models.TextChoices):
    PENDING = "pending", "Pending"
    APPROVED = "approved", "Approved"
    REFUSED = "refused", "Refused"
    FAILED = "failed", "Failed to land"


class Promotion(models.Model):
    """A project note proposed for the practice store or one of the project's toolset stores.

    It keeps the text to land (editable by the proposer when proposing), the rule of the project's
    governance template it was opened under, and, once approved, the memory and version it landed as.
    """

    public_id = models.CharField(max_length=40, unique=True, default=new_promotion_id, editable=False)
    source_store = models.ForeignKey(Store, on_delete=models.CASCADE, related_name="promotions_out")
    source_memory = models.ForeignKey(Memory, on_delete=models.CASCADE, related_name="promotions_out")
    source_version_id = models.CharField(max_length=40)
    source_path = models.CharField(max_length=1024)
    proposed_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    target_store = models.ForeignKey(Store, on_delete=models.CASCADE, related_name="promotions_in")
    path = models.CharField(max_length=1024)
    text = models.TextField(blank=True, default="")
    reason = models.TextField(blank=True, default="")
    status = models.CharField(max_length=16, choices=PromotionStatus.choices, default=PromotionStatus.PENDING)
    rule = models.JSONField(help_text="The approval rule it was opened under (a snapshot).")
    created_at = models.DateTimeField(auto_now_add=True)
    decided_at = models.DateTimeField(null=True, blank=True)
    landed_memory = models.ForeignKey(
        Memory, null=True, blank=True, on_delete=models.SET_NULL, related_name="promotions_in"
    )
    landed_version_id = models.CharField(max_length=40, blank=True, default="")
    failure_code = models.CharField(max_length=40, blank=True, default="")
    failure_message = models.TextField(blank=True, default="")

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["status", "created_at"], name="promotion_status_created")]

    def __str__(self) -> str:
        return f"{self.public_id} {self.path}"


class PromotionDecisionKind(models.TextChoices):
    APPROVE = "approve", "Approved"
    REFUSE = "refuse", "Refused"


class PromotionDecision(models.Model):
    """One person's approval or refusal of a promotion: who, when, why, and as whom they counted."""

    promotion = models.ForeignKey(Promotion, on_delete=models.CASCADE, related_name="decisions")
    kind = models.CharField(max_length=16, choices=PromotionDecisionKind.choices)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    as_console_admin = models.BooleanField(default=False)
    reason = models.TextField(blank=True, default="")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["created_at", "id"]
        constraints = [
            models.UniqueConstraint(fields=["promotion", "user", "kind"], name="promotion_decision_once"),
        ]

    def __str__(self) -> str:
        return f"{self.promotion.public_id} {self.kind} by {self.user_id}"
