"""Jira tickets in the admin: read-only, since the sync job and the webhook own these rows."""

from django.contrib import admin
from django.http import HttpRequest

from .models import JiraTicket


@admin.register(JiraTicket)
class JiraTicketAdmin(admin.ModelAdmin):
    """What the console last heard from Jira; never used to authorize anything."""

    list_display = ("key", "project_key", "assignee_account_id", "status", "synced_at")
    list_filter = ("project_key", "status")
    search_fields = ("key", "assignee_account_id")
    readonly_fields = ("key", "project_key", "assignee_account_id", "status", "synced_at")
    ordering = ("key",)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: JiraTicket | None = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: JiraTicket | None = None) -> bool:
        return False
