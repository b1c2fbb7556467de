"""The Django admin for the stores app. Memories, versions, set-asides and refusals are read-only:
an edit or a history revert there would skip the console's checks."""

from __future__ import annotations

from django import forms
from django.conf import settings
from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils import timezone
from simple_history.admin import SimpleHistoryAdmin

from runs.retention import close_engagement

from .errors import InvalidRequest
from .models import (
    ApiToken,
    Client,
    HostedAgent,
    JiraProject,
    Memory,
    Pod,
    Promotion,
    PromotionDecision,
    Refusal,
    SetAside,
    StandingDecision,
    Store,
    Toolset,
)
from .services.governance import promotion_rule
from .services.grants import escalation_contacts_sync
from .services.stores import store_ensure_for_agent, store_ensure_for_project, store_ensure_for_toolset
from .services.tokens import token_issue_for_agent


class ReadOnlyAdmin(admin.ModelAdmin):
    def has_add_permission(self, request, obj=None) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False


@admin.register(Client)
class ClientAdmin(SimpleHistoryAdmin):
    list_display = ("name", "retention_days", "one_client_at_a_time")
    search_fields = ("name",)
    fieldsets = (
        (None, {"fields": ("name", "aliases", "one_client_at_a_time")}),
        ("Client detail kept out of agent stores", {"fields": ("repositories", "datasets", "tables", "distinctive_tables")}),
        (
            "Run records",
            {
                "fields": ("retention_days",),
                "description": "Run records are kept for the default retention (RUN_RECORD_RETENTION_DAYS) "
                "or for these days when fewer. A longer value here never extends the default.",
            },
        ),
    )

    def save_model(self, request, obj, form, change) -> None:
        """Save; when the days entered are more than the default, say plainly that they change nothing."""
        super().save_model(request, obj, form, change)
        default = settings.RUN_RECORD_RETENTION_DAYS
        if obj.retention_days is not None and obj.retention_days > default:
            self.message_user(
                request,
                f"{obj.name}: {obj.retention_days} days is longer than the default retention of {default} days, "
                f"which a client's days never extend; its run records are kept for {default} days.",
                messages.WARNING,
            )


@admin.register(Toolset)
class ToolsetAdmin(admin.ModelAdmin):
    list_display = ("name", "created_at")

    def save_model(self, request, obj, form, change) -> None:
        """Save; a new toolset gets its store, as from the command."""
        super().save_model(request, obj, form, change)
        store_ensure_for_toolset(obj)


class StandingDecisionInline(admin.StackedInline):
    model = StandingDecision
    extra = 0
    fields = ("title", "text")


@admin.action(description="Close engagement today (deletes every run record of the project)")
def close_engagement_today(modeladmin: admin.ModelAdmin, request: HttpRequest, queryset: QuerySet[JiraProject]) -> None:
    """Close each selected project's engagement today; a task deletes its run records after commit."""
    today = timezone.localdate()
    closed = []
    for project in queryset.order_by("key"):
        # An engagement that closed earlier keeps its date (its records are purged again all the same).
        on = project.engagement_closed_on if project.engagement_closed_on and project.engagement_closed_on <= today else today
        result = close_engagement(project, on=on, purge="task")
        closed.append(f"{result.key} (closed on {result.closed_on.isoformat()})")
    modeladmin.message_user(
        request, f"Closed {', '.join(closed)}; their run records are being deleted.", messages.SUCCESS
    )


class JiraProjectForm(forms.ModelForm):
    """The project form; a governance template whose promotion block is malformed is refused, naming the line."""

    class Meta:
        model = JiraProject
        fields = "__all__"

    def clean_governance_template(self) -> str:
        text = (self.cleaned_data.get("governance_template") or "").strip()
        try:
            promotion_rule(text)
        except InvalidRequest as exc:
            raise forms.ValidationError(exc.message, code="governance_template_invalid") from exc
        return text


@admin.register(JiraProject)
class JiraProjectAdmin(admin.ModelAdmin):
    form = JiraProjectForm
    list_display = ("key", "client", "engagement_closed_on")
    search_fields = ("key",)
    filter_horizontal = ("toolsets", "escalation_contacts")
    inlines = [StandingDecisionInline]
    actions = [close_engagement_today]

    def get_form(self, request, obj=None, change=False, **kwargs):
        """The engagement date's help says what setting it does (the model field has no help text)."""
        help_texts = {
            "engagement_closed_on": "Once this date is reached (at once when it is today or past, otherwise on "
            "that day) every run record of the project is deleted and new runs on its tickets are refused.",
            "governance_template": "Given to every run. YAML front matter at its top says who approves a "
            "promotion: ---, promotion: {approvals: 2, approvers: [console_admins, escalation_contacts]}, ---. "
            "Without it, one console admin approves; one approval is always a console admin's.",
        }
        return super().get_form(request, obj, change=change, help_texts=help_texts, **kwargs)

    def save_model(self, request, obj, form, change) -> None:
        """Save; a new project gets its store, as from the command. A newly set engagement-closed
        date goes through the same service as the command,
        so a date today or past purges the run records at once (through a task) rather than at the
        next hourly sweep."""
        super().save_model(request, obj, form, change)
        store_ensure_for_project(obj)
        if "engagement_closed_on" in form.changed_data and obj.engagement_closed_on is not None:
            close_engagement(obj, on=obj.engagement_closed_on, purge="task")

    def save_related(self, request, form, formsets, change) -> None:
        """Save the contacts, toolsets and decisions; then grant the project store to exactly the
        contacts named, through the same service as the commands."""
        super().save_related(request, form, formsets, change)
        escalation_contacts_sync(form.instance)


@admin.register(HostedAgent)
class HostedAgentAdmin(admin.ModelAdmin):
    list_display = ("name", "jira_account_id", "active")
    list_filter = ("active",)
    search_fields = ("name",)
    actions = ["issue_token"]

    def save_model(self, request, obj, form, change) -> None:
        """Save; a new agent gets its own store, as from the command."""
        super().save_model(request, obj, form, change)
        store_ensure_for_agent(obj)

    @admin.action(description="Issue a new API token (shown once)")
    def issue_token(self, request, queryset) -> None:
        for agent in queryset:
            row, secret = token_issue_for_agent(agent)
            self.message_user(
                request,
                f"Token for {agent.name} ({row.key_id}), shown once: {secret}",
                level=messages.WARNING,
            )


@admin.register(ApiToken)
class ApiTokenAdmin(admin.ModelAdmin):
    """Tokens are issued by operators' commands (shown once); here they can be disabled or expired."""

    list_display = ("key_id", "agent", "user", "enabled", "expires_at", "created_at", "last_used_at")
    list_filter = ("enabled",)
    readonly_fields = ("key_id", "agent", "user", "created_at", "last_used_at")
    fields = ("key_id", "agent", "user", "enabled", "expires_at", "created_at", "last_used_at")

    def has_add_permission(self, request, obj=None) -> bool:
        return False


@admin.register(Pod)
class PodAdmin(admin.ModelAdmin):
    list_display = ("name",)
    filter_horizontal = ("agents", "projects")


@admin.register(Store)
class StoreAdmin(admin.ModelAdmin):
    list_display = ("name", "kind", "public_id", "archived_at")
    list_filter = ("kind",)
    search_fields = ("name", "public_id")
    readonly_fields = ("public_id", "kind", "project", "agent", "toolset", "created_at", "updated_at", "archived_at")

    def has_add_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False


@admin.register(Memory)
class MemoryAdmin(ReadOnlyAdmin, SimpleHistoryAdmin):
    list_display = ("path", "store", "updated_at", "deleted_at", "redacted_at")
    list_filter = ("store__kind", "store")
    search_fields = ("path", "public_id")


@admin.register(Memory.history.model)
class MemoryVersionAdmin(ReadOnlyAdmin):
    list_display = ("version_id", "public_id", "operation", "path", "history_date", "run_public_id")
    list_filter = ("operation",)
    search_fields = ("version_id", "public_id", "path")


@admin.register(SetAside)
class SetAsideAdmin(ReadOnlyAdmin):
    list_display = ("public_id", "path", "status", "created_at")
    list_filter = ("status",)


@admin.register(Refusal)
class RefusalAdmin(ReadOnlyAdmin):
    list_display = ("code", "path", "writer_key", "door", "times", "created_at")
    list_filter = ("code", "door")
    search_fields = ("path",)


class PromotionDecisionInline(admin.TabularInline):
    model = PromotionDecision
    extra = 0
    fields = ("kind", "user", "as_console_admin", "reason", "created_at")
    readonly_fields = fields
    can_delete = False

    def has_add_permission(self, request, obj=None) -> bool:
        return False


@admin.register(Promotion)
class PromotionAdmin(ReadOnlyAdmin):
    """Promotions are read here; they are proposed, approved and refused in the console, where the
    rule and the checks apply."""

    list_display = ("public_id", "status", "source_store", "target_store", "path", "proposed_by", "created_at")
    list_filter = ("status", "target_store__kind")
    search_fields = ("public_id", "path")
    inlines = [PromotionDecisionInline]

    def has_view_permission(self, request, obj=None) -> bool:
        return bool(request.user.is_active and request.user.is_superuser)
