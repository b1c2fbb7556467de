"""Runs and their records in the admin: read-only views; the lesson-prompt follow-up as an action."""

from __future__ import annotations

import json

from django.contrib import admin, messages
from django.utils.html import format_html

from .models import Run, RunRecord
from .services import lesson_prompts_close


class ReadOnlyMixin:
    """Runs change only through the run API and its services; the admin shows them."""

    def has_add_permission(self, request, obj=None) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False


class RunRecordInline(ReadOnlyMixin, admin.TabularInline):
    model = RunRecord
    extra = 0
    fields = ("created_at", "size")
    readonly_fields = ("created_at", "size")
    show_change_link = True
    can_delete = False

    @admin.display(description="size")
    def size(self, obj: RunRecord) -> str:
        events = len(obj.events) if isinstance(obj.events, list) else 0
        return f"{len(obj.transcript):,} characters, {events} events"


@admin.register(Run)
class RunAdmin(ReadOnlyMixin, admin.ModelAdmin):
    list_display = ("public_id", "agent", "ticket_key", "project", "started_at", "ended_at", "versions_written",
                    "lesson_state")
    list_filter = ("ended_at", "qa_failed", "needed_ruling", "worked_past_error", "project")
    search_fields = ("public_id", "ticket_key", "agent__name", "project__key")
    readonly_fields = [f.name for f in Run._meta.fields if f.name != "token_hash"]
    exclude = ("token_hash",)
    inlines = [RunRecordInline]
    actions = ["close_unanswered_prompts"]

    @admin.display(description="lesson")
    def lesson_state(self, obj: Run) -> str:
        if obj.lesson_prompted_at is None:
            return "not asked"
        if obj.lesson_answered_at is not None:
            return "nothing to record" if obj.lesson_nothing_to_record else "lesson written"
        if obj.lesson_closed_unanswered_at is not None:
            return "closed unanswered"
        return "asked, open"

    @admin.action(description="Close lesson prompts left unanswered past the timeout (all runs)")
    def close_unanswered_prompts(self, request, queryset) -> None:
        closed = lesson_prompts_close()
        self.message_user(request, f"Closed {closed} lesson prompts left unanswered.", messages.SUCCESS)


@admin.register(RunRecord)
class RunRecordAdmin(ReadOnlyMixin, admin.ModelAdmin):
    list_display = ("run", "project", "created_at")
    list_filter = ("project",)
    search_fields = ("run__public_id", "run__ticket_key")
    fields = ("run", "project", "created_at", "transcript_text", "events_text")
    readonly_fields = fields

    @admin.display(description="transcript (secrets removed)")
    def transcript_text(self, obj: RunRecord) -> str:
        return format_html('<pre style="white-space: pre-wrap">{}</pre>', obj.transcript or "")

    @admin.display(description="events (secrets removed)")
    def events_text(self, obj: RunRecord) -> str:
        if obj.events is None:
            return "-"
        return format_html(
            '<pre style="white-space: pre-wrap">{}</pre>', json.dumps(obj.events, indent=2, ensure_ascii=False)
        )
