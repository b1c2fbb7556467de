"""Every reason code the console answers with, in one enum. They are API: never rename one; add new ones.

A code travels in ``error.details.error_code``. The checks' codes (who, where, what, when) come
first; then the codes the memory and store services refuse with outside the pipeline; then the
run API's; last, the codes an import's report gives an error that carries none of its own.
"""

from typing import Any

from django.db import models

from stores.errors import ConsoleError, error_for_status


class Reason(models.TextChoices):
    # who (403)
    NOT_A_HOSTED_AGENT = "not_a_hosted_agent", "Not a hosted agent"
    NOT_IN_POD_OR_ASSIGNED = "not_in_pod_or_assigned", "Not in a pod covering the project, nor assigned the ticket"
    JIRA_UNAVAILABLE = "jira_unavailable", "Jira could not be asked"
    NOT_STORE_OWNER = "not_store_owner", "Not the owner of the agent store"
    READ_ONLY_STORE = "read_only_store", "The store is read-only to agents"
    PEOPLE_ONLY = "people_only", "Only people may do this"
    PERSON_NOT_PERMITTED = "person_not_permitted", "The person's role does not allow this here"
    # where (400)
    PATH_INVALID = "path_invalid", "The path breaks the path rules"
    PATH_OUTSIDE_FOLDERS = "path_outside_folders", "Outside the project store's fixed folders"
    NOT_OWN_AGENT_FOLDER = "not_own_agent_folder", "Another agent's notes folder"
    # what (400)
    CONTENT_INVALID = "content_invalid", "The content is not acceptable text"
    SECRET_DETECTED = "secret_detected", "The text holds a secret"  # pragma: allowlist secret
    INSTRUCTIONS_DETECTED = "instructions_detected", "The text reads as instructions to an agent"
    CLIENT_DETAIL = "client_detail", "Client detail in an agent store"
    # when
    DELETED_BY_PERSON = "deleted_by_person", "A person deleted this memory after the run started"
    STALE_BASE = "stale_base", "Based on an old copy"

    # The memory and store services, outside the pipeline (each error class carries its status).
    STORE_ARCHIVED = "store_archived", "The store is archived"
    STORE_FULL = "store_full", "The store holds as many memories as it may"
    STORE_KEPT_BY_CONSOLE = "store_kept_by_console", "The console keeps this store; archive it instead"
    MEMORY_REDACTED = "memory_redacted", "The memory was redacted"
    MEMORY_NOT_DELETED = "memory_not_deleted", "Only a deleted memory's versions are redacted"
    MEMORY_DELETED = "memory_deleted", "The memory was deleted"
    RESTORE_WINDOW_PASSED = "restore_window_passed", "Deleted longer ago than memories can be restored"
    PATH_TAKEN = "path_taken", "Another memory holds the path"
    SET_ASIDE_RESOLVED = "set_aside_resolved", "The set-aside text was used or dismissed already"
    UNKNOWN_VERSION = "unknown_version", "Not a version of this memory"
    VERSION_REDACTED = "version_redacted", "The version was redacted"
    VERSION_IS_LIVE = "version_is_live", "The version is the live text of a memory not deleted"
    SAVED_COPY_CHANGED = "saved_copy_changed", "The memory was saved again after the merge was made"
    MERGE_UNRESOLVED = "merge_unresolved", "The merged text still holds conflict markers"
    PROPOSAL_DECIDED = "proposal_decided", "The review's proposal was adopted, dismissed or refused already"
    GOVERNANCE_TEMPLATE_INVALID = (
        "governance_template_invalid", "The governance template's front matter is malformed"
    )
    PROMOTION_DECIDED = "promotion_decided", "The promotion was decided already"
    ALREADY_APPROVED = "already_approved", "This person approved the promotion already"

    # The run API.
    UNKNOWN_TICKET = "unknown_ticket", "Neither Jira nor the console knows the ticket (or its project)"
    ENGAGEMENT_CLOSED = "engagement_closed", "The project's engagement has closed"
    CLIENT_BUSY = "client_busy", "An active run for another client works one client at a time"
    AGENT_TOKEN_REQUIRED = "agent_token_required", "Only the agent's own token starts a run"
    ALREADY_ANSWERED = "already_answered", "The lesson prompt was answered already"
    NO_LESSON_PROMPT = "no_lesson_prompt", "The run was not asked for a lesson"
    LESSON_PROMPT_CLOSED = "lesson_prompt_closed", "The lesson prompt was closed unanswered"
    RUN_NOT_ENDED = "run_not_ended", "The run has not ended"
    RECORD_TOO_LARGE = "record_too_large", "The run record is larger than RUN_RECORD_MAX_BYTES"

    # An import's or export's report: a file it could not take or write, and an error without a
    # code of its own (named after its kind).
    NOT_A_REGULAR_FILE = "not_a_regular_file", "Not a regular file (a link, a device)"
    WRITE_FAILED = "write_failed", "The file could not be written"
    PATH_CONFLICT = "path_conflict", "A memory or folder is in the way of the path"
    PRECONDITION_FAILED = "precondition_failed", "A precondition did not hold"
    NOT_FOUND = "not_found", "Not found"
    CONFLICT = "conflict", "A conflict with what is saved"
    INVALID_REQUEST = "invalid_request", "The request is not valid"
    ERROR = "error", "An error"


# The status a refusal by the checks answers with; 400 unless listed. The services' and the run
# API's codes travel on error classes that carry their own status (stores.errors).
STATUS_FOR_REASON: dict[str, int] = {
    Reason.NOT_A_HOSTED_AGENT: 403,
    Reason.NOT_IN_POD_OR_ASSIGNED: 403,
    Reason.JIRA_UNAVAILABLE: 403,
    Reason.NOT_STORE_OWNER: 403,
    Reason.READ_ONLY_STORE: 403,
    Reason.PEOPLE_ONLY: 403,
    Reason.PERSON_NOT_PERMITTED: 403,
    Reason.STALE_BASE: 409,
}


def status_for(code: str) -> int:
    """The HTTP status a refusal with this code answers with (400 unless listed)."""
    return STATUS_FOR_REASON.get(code, 400)


def refusal_error(message: str, *, code: str, **kwargs: Any) -> ConsoleError:
    """The domain error for a refusal with a check's code outside the pipeline (a run start refused
    as a write would be): its status read from STATUS_FOR_REASON, never chosen again by the caller."""
    return error_for_status(status_for(code))(message, code=code, **kwargs)
