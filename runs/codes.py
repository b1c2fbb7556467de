"""Reason codes of the run API. They are API: never rename one; add new ones.

The memory checks' own codes (``not_in_pod_or_assigned``, ``jira_unavailable``, ...) live in
``stores.console_checks.reasons``; the run API reuses those where the meaning is the same.
"""

from django.db import models


class RunCode(models.TextChoices):
    UNKNOWN_TICKET = "unknown_ticket", "Neither Jira nor the console knows the ticket"
    ENGAGEMENT_CLOSED = "engagement_closed", "The project's engagement has closed"
    CLIENT_BUSY = "client_busy", "An active run for another client works one client at a time"
    AGENT_TOKEN_REQUIRED = "agent_token_required", "Only the agent's own token starts a run"
    ALREADY_ANSWERED = "already_answered", "The lesson prompt was answered already"
    NO_LESSON_PROMPT = "no_lesson_prompt", "The run was not asked for a lesson"
    LESSON_PROMPT_CLOSED = "lesson_prompt_closed", "The lesson prompt was closed unanswered"
    RUN_NOT_ENDED = "run_not_ended", "The run has not ended"
    RECORD_TOO_LARGE = "record_too_large", "The run record is larger than RUN_RECORD_MAX_BYTES"
