"""Who may make the change: hosted agents within their pods, tickets and own stores; people by role."""

from __future__ import annotations

from stores.models import StoreKind

from .reasons import Reason
from .request import ChangeRequest, Decision, refuse

PEOPLE_OPERATIONS = {"restore", "redact"}
CONTACT_OPERATIONS = {"delete", "restore", "redact", "set_aside_use", "set_aside_dismiss"}


def agent_in_pod_for(agent, project) -> bool:
    """True when one of the agent's pods covers the project."""
    return agent.pods.filter(projects=project).exists()


def is_escalation_contact(user, project) -> bool:
    return project is not None and project.escalation_contacts.filter(pk=user.pk).exists()


def check_who(req: ChangeRequest) -> Decision | None:
    writer, store = req.writer, req.store
    if writer.is_person:
        return _check_person(req)
    agent = writer.agent
    if agent is None or not agent.active:
        return refuse(Reason.NOT_A_HOSTED_AGENT, "Only active hosted agents may change memory.")
    if req.operation in PEOPLE_OPERATIONS or req.operation.startswith("set_aside"):
        return refuse(Reason.PEOPLE_ONLY, f"Only people may {req.operation.replace('_', ' ')} memories, in the console.")
    if store.kind in (StoreKind.PRACTICE, StoreKind.TOOLSET, StoreKind.SHARED):
        return refuse(
            Reason.READ_ONLY_STORE,
            f"The {store.kind} store '{store.name}' is read-only to agents; people keep it in the console.",
        )
    if store.kind == StoreKind.AGENT:
        if store.agent_id != agent.pk:
            return refuse(Reason.NOT_STORE_OWNER, f"The agent store '{store.name}' belongs to another agent.")
        return None
    # A project store: a pod covering the project, or the run's ticket assigned to this agent in Jira.
    project = store.project
    if agent_in_pod_for(agent, project):
        return None
    run = writer.run
    if run is None or run.project_id != project.pk:
        return refuse(
            Reason.NOT_IN_POD_OR_ASSIGNED,
            f"{agent.name} is in no pod covering {project.key} and is not writing in a run on one of its tickets.",
        )
    from jira_link.services import JiraUnavailable, ticket_lookup

    try:
        issue = ticket_lookup(run.ticket_key)
    except JiraUnavailable as exc:
        return refuse(
            Reason.JIRA_UNAVAILABLE,
            f"Jira could not confirm that {run.ticket_key} is assigned to {agent.name} ({exc}); "
            "the change was not saved. Try again shortly.",
        )
    if issue is not None and issue.project_key.upper() != project.key.upper():
        # Jira answers an old key with the issue as it is now: moved, it is no longer this project's ticket.
        return refuse(
            Reason.NOT_IN_POD_OR_ASSIGNED,
            f"Jira says {run.ticket_key} is now in {issue.project_key}, not {project.key}, and no pod of "
            f"{agent.name}'s covers {project.key}.",
        )
    assignee = None if issue is None else issue.assignee_account_id
    if not agent.jira_account_id or assignee != agent.jira_account_id:
        return refuse(
            Reason.NOT_IN_POD_OR_ASSIGNED,
            f"Jira says {run.ticket_key} is not assigned to {agent.name}, and no pod of its covers {project.key}.",
        )
    return None


def _check_person(req: ChangeRequest) -> Decision | None:
    writer = req.writer
    if not writer.user.is_active:
        return refuse(Reason.NOT_A_HOSTED_AGENT, "This account is not active.")
    if writer.is_admin:
        return None
    if req.operation in CONTACT_OPERATIONS and is_escalation_contact(writer.user, req.store.project):
        return None
    return refuse(
        Reason.NOT_A_HOSTED_AGENT,
        "People change memory only by deleting, restoring or redacting it in the console "
        "(escalation contacts of the project and console admins); writing notes is for hosted agents.",
    )
