"""The admin for the schedule: the outbox (read-only).

The periodic tasks themselves are django-celery-beat's own admin pages (Periodic tasks); the
"Close engagement today" action is on the Jira projects' page (``stores/admin.py``).
"""

from __future__ import annotations

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest

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
