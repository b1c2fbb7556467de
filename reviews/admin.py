"""Reviews in the admin: read-only (proposals are decided in the console, where adopting goes
through the checks), and each store's review schedule, which people switch on and off here."""

from __future__ import annotations

import json

from django.contrib import admin
from django.utils.html import format_html

from .models import Review, ReviewProposal, ReviewSchedule


class ReadOnlyMixin:
    def has_add_permission(self, request, obj=None) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False


class ReviewProposalInline(ReadOnlyMixin, admin.TabularInline):
    model = ReviewProposal
    extra = 0
    can_delete = False
    fields = ("public_id", "kind", "paths", "summary", "status", "decided_by", "decided_at", "refusal_code")
    readonly_fields = fields

    @admin.display(description="evidence")
    def summary(self, obj: ReviewProposal) -> str:
        return str((obj.evidence or {}).get("summary", ""))


@admin.register(Review)
class ReviewAdmin(ReadOnlyMixin, admin.ModelAdmin):
    list_display = ("public_id", "store", "trigger", "started_by", "status", "started_at", "finished_at",
                    "memory_count", "proposal_count", "refused_count")
    list_filter = ("status", "trigger", "store__kind")
    search_fields = ("public_id", "store__name", "store__public_id")
    readonly_fields = ("public_id", "store", "trigger", "started_by", "status", "started_at", "finished_at",
                       "memory_count", "proposal_count", "refused_count", "model", "error_message")
    inlines = [ReviewProposalInline]


@admin.register(ReviewProposal)
class ReviewProposalAdmin(ReadOnlyMixin, admin.ModelAdmin):
    list_display = ("public_id", "review", "kind", "status", "decided_by", "decided_at")
    list_filter = ("kind", "status")
    search_fields = ("public_id", "review__public_id")
    readonly_fields = ("public_id", "review", "position", "kind", "memory_ids", "paths", "evidence_shown",
                       "proposed_text", "base", "status", "decided_by", "decided_at", "refusal_code",
                       "refusal_message", "version_ids")
    exclude = ("evidence",)

    @admin.display(description="evidence")
    def evidence_shown(self, obj: ReviewProposal) -> str:
        return format_html("<pre>{}</pre>", json.dumps(obj.evidence, indent=2, ensure_ascii=False))


@admin.register(ReviewSchedule)
class ReviewScheduleAdmin(admin.ModelAdmin):
    list_display = ("store", "enabled", "every_hours", "last_started_at")
    list_filter = ("enabled",)
    list_editable = ("enabled", "every_hours")
    search_fields = ("store__name", "store__public_id")
    readonly_fields = ("last_started_at",)
    autocomplete_fields = ()
    fields = ("store", "enabled", "every_hours", "last_started_at")

    def get_readonly_fields(self, request, obj=None):
        # A schedule belongs to one store for good: pick it when adding, not later.
        return ("store", "last_started_at") if obj is not None else ("last_started_at",)
