"""Who may make the change: hosted agents within their pods, tickets and own stores; people by role."""

from __future__ import annotations

from stores.models import StoreKind

from .reasons import Reason
from .request import ChangeRequest, Decision, refuse

PEOPLE_OPERATIONS = {"restore", "redact", "revert"}
# What an escalation contact may do in the stores of the projects they are a contact of.
CONTACT_OPERATIONS = {
    "create", "update", "revert", "delete", "restore", "redact", "set_aside_use", "set_aside_dismiss",
}
# Writing notes is a contact's right at the people's own doors: the console's pages and their own
# API token. Importing a folder (and the Django admin) stays with console admins.
CONTACT_NOTE_OPERATIONS = {"create", "update", "revert"}
CONTACT_NOTE_DOORS = {"console", "api"}
CONTACT_ALLOWS = (
    "create, edit, rename, revert, delete, restore and redact memories and use or dismiss set-aside text"
)


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


def person_may(user, store, operation: str, door: str) -> bool:
    """True when this person's role allows ``operation`` on ``store`` through ``door``.

    Console admins change every store. Escalation contacts change their projects' stores:
    everything a contact may do (CONTACT_OPERATIONS), writing notes only in the console and
    through the API.
    """
    if not user.is_active:
        return False
    if user.is_superuser:
        return True
    if operation not in CONTACT_OPERATIONS or not is_escalation_contact(user, store.project):
        return False
    return operation not in CONTACT_NOTE_OPERATIONS or door in CONTACT_NOTE_DOORS


def person_role_allows(user, store=None) -> str:
    """A sentence naming what this person's role allows, for a refusal to quote."""
    name = user.get_username()
    if user.is_superuser:
        return f"{name} is a console admin and may change memory in every store, in the console and through the API."
    keys = sorted(user.escalation_projects.values_list("key", flat=True))
    if not keys:
        return (
            f"{name} is neither a console admin nor an escalation contact of any project, so their role "
            "allows no change to memory; a console admin can name them a project's escalation contact."
        )
    projects = ", ".join(keys)
    here = store is not None and store.project_id is not None and store.project.key in keys
    where = "this project's store" if here else f"the project stores of {projects} only"
    return (
        f"{name} is an escalation contact of {projects}: in {where} they may {CONTACT_ALLOWS}, "
        "in the console and with their own API token. Anything else is for console admins."
    )


def person_not_permitted(user, store, asked: str) -> Decision:
    """The refusal for a person whose role does not allow what they asked, naming what it allows."""
    return refuse(
        Reason.PERSON_NOT_PERMITTED,
        f"Not permitted: {asked}. {person_role_allows(user, store)}",
    )


def _check_person(req: ChangeRequest) -> Decision | None:
    writer = req.writer
    if not writer.user.is_active:
        return refuse(Reason.NOT_A_HOSTED_AGENT, "This account is not active.")
    if person_may(writer.user, req.store, req.operation, writer.door):
        return None
    asked = f"{req.operation.replace('_', ' ')} in the {req.store.kind} store '{req.store.name}'"
    if req.operation in CONTACT_NOTE_OPERATIONS and writer.door not in CONTACT_NOTE_DOORS:
        asked += f" through the {writer.door} door"
    return person_not_permitted(writer.user, req.store, asked)
