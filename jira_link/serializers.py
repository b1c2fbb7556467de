"""The Jira webhook's body: an issue event, as Jira Cloud posts it (only what the console reads)."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from .client import normalize_issue_key

NO_ISSUE = "The body has no issue."
NO_VALID_KEY = "The issue has no valid key."
_NO_ISSUE_ERRORS = {"required": NO_ISSUE, "null": NO_ISSUE, "invalid": NO_ISSUE}
_NO_KEY_ERRORS = {"required": NO_VALID_KEY, "null": NO_VALID_KEY, "invalid": NO_VALID_KEY, "blank": NO_VALID_KEY}


class IssueIn(serializers.Serializer):
    """The issue: its key, and the fields the console keeps (project, assignee, status) if sent."""

    key = serializers.CharField(trim_whitespace=False, error_messages=_NO_KEY_ERRORS,
                                help_text="The issue's key, such as ABC-12 (any case).")
    fields = serializers.JSONField(
        required=False,
        help_text="Jira's issue fields; `project.key`, `assignee.accountId` and `status.name` are read. "
        "No `assignee` member means the assignee did not change; `assignee: null` means unassigned.",
    )

    def validate_key(self, value: str) -> str:
        if normalize_issue_key(value) is None:
            raise serializers.ValidationError(NO_VALID_KEY)
        return value


class IssueEventIn(serializers.Serializer):
    """A ``jira:issue_*`` event (created, updated, deleted); other events are acknowledged and ignored."""

    webhookEvent = serializers.CharField(help_text="jira:issue_created, jira:issue_updated or jira:issue_deleted.")
    issue = IssueIn(error_messages=_NO_ISSUE_ERRORS)

    def payload(self) -> dict[str, Any]:
        """The validated event in the shape ``apply_issue_update`` reads (Jira's own)."""
        data = self.validated_data
        issue: dict[str, Any] = {"key": data["issue"]["key"]}
        if "fields" in data["issue"]:
            issue["fields"] = data["issue"]["fields"]
        return {"webhookEvent": data["webhookEvent"], "issue": issue}

    def first_error(self) -> str:
        """The first validation error's message (the webhook answers one)."""
        errors = self.errors
        issue_errors = errors.get("issue")
        if isinstance(issue_errors, dict):
            return str(next(iter(issue_errors.values()))[0])
        if issue_errors:
            return str(issue_errors[0])
        return str(next(iter(errors.values()))[0])
