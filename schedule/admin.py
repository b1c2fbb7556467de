"""The admin for the schedule: the outbox (read-only) and the "Close engagement today" action.

The periodic tasks themselves are django-celery-beat's own admin pages (Periodic tasks).
"""

from __future__ import annotations

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils import timezone

from runs.retention import close_engagement
from stores.models import JiraProject

from .models import OutboxMessage
from .outbox import outbox_sweep


@admin.register(OutboxMessage)
class OutboxMessageAdmin(admin.ModelAdmin):
    """Follow-up tasks waiting for the broker. Rows are written and removed by the outbox only."""

    list_display = ("task_name", "task_id", "created_at", "failures", "last_failed_at", "last_error")
    list_filter = ("task_name",)
    readonly_fields = ("task_name", "kwargs", "task_id", "created_at", "failures", "last_error", "last_failed_at")
    actions = ["send_waiting_now"]

    def has_add_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False

    @admin.action(description="Send the waiting tasks now (every waiting row, oldest first)")
    def send_waiting_now(self, request: HttpRequest, queryset: QuerySet[OutboxMessage]) -> None:
        result = outbox_sweep()
        level = messages.SUCCESS if not result.failed else messages.WARNING
        self.message_user(
            request, f"Sent {result.sent}; {result.pending} still waiting"
            + (" (the broker is still unreachable)." if result.failed else "."), level,
        )


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


# The Jira project admin lives in stores/admin.py; the action is added here, beside the service it calls.
_project_admin = admin.site.get_model_admin(JiraProject)
if close_engagement_today not in _project_admin.actions:
    _project_admin.actions = [*(_project_admin.actions or ()), close_engagement_today]
