"""Who may make the change: hosted agents within their pods, tickets and own stores; people by role."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from stores.access import person_manages_store
from stores.models import StoreKind
from stores.operations import Operation

from . import ports
from .ports import TicketLookup, TicketLookupFailed
from .reasons import Reason
from .request import ChangeRequest, Decision, refuse

PEOPLE_OPERATIONS = {
    Operation.RESTORE, Operation.REDACT, Operation.REVERT, Operation.SET_ASIDE_USE, Operation.SET_ASIDE_DISMISS,
}
# What a person who manages a store (an escalation contact of its project) may do in it.
CONTACT_OPERATIONS = {Operation.CREATE, Operation.UPDATE, Operation.DELETE, *PEOPLE_OPERATIONS}
# Writing notes is a contact's right at the people's own doors: the console's pages, their own
# API token, and adopting an automated review's proposal (in the console). Importing a folder
# (and the Django admin) stays with console admins.
CONTACT_NOTE_OPERATIONS = {Operation.CREATE, Operation.UPDATE, Operation.REVERT}
CONTACT_NOTE_DOORS = {"console", "api", "review"}
CONTACT_ALLOWS = (
    "create, edit, rename, revert, delete, restore and redact memories and use or dismiss set-aside text"
)


def agent_in_pod_for(agent, project) -> bool:
    """True when one of the agent's pods covers the project."""
    return agent.pods.filter(projects=project).exists()


@dataclass(frozen=True)
class NotAllowedToWork:
    """Why an agent may not work on a project: the reason code, what failed, and its detail."""

    code: Reason
    why: Literal["no_ticket", "jira_unavailable", "moved", "not_assigned"]
    detail: str = ""  # the lookup's error, or the project a moved ticket is in now


def pod_or_assigned(agent, project, ticket_key: str | None, lookup: TicketLookup) -> NotAllowedToWork | None:
    """The pod-or-assigned rule: may this agent work on ``project``? None when it may.

    It may when one of its pods covers the project, or when Jira says the ticket ``ticket_key``
    (the run's) is assigned to it and is still in this project: Jira answers an old key with the
    issue as it is now, so a ticket moved to another project no longer counts. Jira is asked only
    when no pod covers the project; when it cannot answer, the answer is ``jira_unavailable``.
    Every door asks this one function: the who-check for a write, the run service for a start.
    """
    if agent_in_pod_for(agent, project):
        return None
    if ticket_key is None:
        return NotAllowedToWork(Reason.NOT_IN_POD_OR_ASSIGNED, "no_ticket")
    try:
        issue = lookup(ticket_key)
    except TicketLookupFailed as exc:
        return NotAllowedToWork(Reason.JIRA_UNAVAILABLE, "jira_unavailable", str(exc))
    if issue is not None and issue.project_key.upper() != project.key.upper():
        return NotAllowedToWork(Reason.NOT_IN_POD_OR_ASSIGNED, "moved", issue.project_key)
    assignee = None if issue is None else issue.assignee_account_id
    if not agent.jira_account_id or assignee != agent.jira_account_id:
        return NotAllowedToWork(Reason.NOT_IN_POD_OR_ASSIGNED, "not_assigned")
    return None


def check_who(req: ChangeRequest, *, ticket_lookup: TicketLookup | None = None) -> Decision | None:
    """Refuse a writer who may not make this change here; None when they may.

    ``ticket_lookup`` answers whether a run's ticket is assigned to the agent; by default, the one
    the Jira link provided at start-up (``ports.provide_ticket_lookup``).
    """
    writer, store = req.writer, req.store
    if writer.is_person:
        return _check_person(req)
    agent = writer.agent
    if agent is None or not agent.active:
        return refuse(Reason.NOT_A_HOSTED_AGENT, "Only active hosted agents may change memory.")
    if req.operation in PEOPLE_OPERATIONS:
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
    run = writer.run
    ticket_key = run.ticket_key if run is not None and run.project_id == project.pk else None
    lookup = ticket_lookup if ticket_lookup is not None else ports.ticket_lookup()
    refusal = pod_or_assigned(agent, project, ticket_key, lookup)
    if refusal is None:
        return None
    if refusal.why == "no_ticket":
        message = (
            f"{agent.name} is in no pod covering {project.key} and is not writing in a run on one of its tickets."
        )
    elif refusal.why == "jira_unavailable":
        message = (
            f"Jira could not confirm that {ticket_key} is assigned to {agent.name} ({refusal.detail}); "
            "the change was not saved. Try again shortly."
        )
    elif refusal.why == "moved":
        message = (
            f"Jira says {ticket_key} is now in {refusal.detail}, not {project.key}, and no pod of "
            f"{agent.name}'s covers {project.key}."
        )
    else:
        message = f"Jira says {ticket_key} is not assigned to {agent.name}, and no pod of its covers {project.key}."
    return refuse(refusal.code, message)


def person_may(user, store, operation: str, door: str) -> bool:
    """True when this person's role allows ``operation`` on ``store`` through ``door``.

    Console admins change every store. A person who manages a store (``person_manages_store``:
    an escalation contact of its project) may do there what CONTACT_OPERATIONS lists, writing
    notes only in the console and through the API.
    """
    if user.is_active and user.is_superuser:
        return True
    if operation not in CONTACT_OPERATIONS or not person_manages_store(user, store):
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
