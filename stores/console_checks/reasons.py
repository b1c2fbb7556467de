"""Reason codes. They are API: never rename one; add new ones."""

from django.db import models


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
