"""Small keyword factories. Rows with rules are made through the services: a project's, an agent's
and a toolset's store come from the store services, as from every other door; memories from the
memory services; escalation contacts from the contact service (which grants the store)."""

from __future__ import annotations

import itertools

from django.contrib.auth import get_user_model

from stores.console_checks.request import Writer
from stores.models import Client, HostedAgent, JiraProject, Pod, Store, Toolset
from stores.services.escalation_contacts import escalation_contact_add
from stores.services.memories import memory_create
from stores.services.stores import store_ensure_for_agent, store_ensure_for_project, store_ensure_for_toolset
from stores.services.tokens import token_issue_for_agent, token_issue_for_user

_seq = itertools.count(1)


def make_client(name: str | None = None, **fields) -> Client:
    return Client.objects.create(name=name or f"Client {next(_seq)}", **fields)


def make_project(key: str | None = None, client: Client | None = None, **fields) -> JiraProject:
    n = next(_seq)
    project = JiraProject.objects.create(key=key or f"PRJ{n}", client=client or make_client(), **fields)
    store_ensure_for_project(project)
    return project


def make_toolset(name: str | None = None) -> Toolset:
    toolset = Toolset.objects.create(name=name or f"toolset{next(_seq)}")
    store_ensure_for_toolset(toolset)
    return toolset


def make_agent(name: str | None = None, **fields) -> HostedAgent:
    agent = HostedAgent.objects.create(name=name or f"agent-{next(_seq)}", **fields)
    store_ensure_for_agent(agent)
    return agent


def add_contact(project: JiraProject, user) -> None:
    """Name ``user`` an escalation contact of ``project``, through the service (the grant follows)."""
    escalation_contact_add(key=project.key, username=user.get_username())


def make_pod(*, agents=(), projects=(), name: str | None = None) -> Pod:
    pod = Pod.objects.create(name=name or f"pod-{next(_seq)}")
    pod.agents.set(agents)
    pod.projects.set(projects)
    return pod


def make_user(username: str | None = None, *, admin: bool = False, password: str = "pw-for-tests-only"):
    User = get_user_model()
    user = User.objects.create_user(
        username=username or f"user{next(_seq)}", password=password, is_superuser=admin, is_staff=admin
    )
    return user


def agent_token(agent: HostedAgent) -> str:
    return token_issue_for_agent(agent)[1]


def user_token(user) -> str:
    return token_issue_for_user(user)[1]


def agent_writer(agent: HostedAgent, **kw) -> Writer:
    return Writer(agent=agent, **kw)


def person_writer(user, door: str = "console") -> Writer:
    return Writer(user=user, door=door)  # type: ignore[arg-type]


def make_memory(store: Store, path: str, content: str = "A lesson.\n", writer: Writer | None = None):
    if writer is None:
        admin = get_user_model().objects.filter(is_superuser=True).first() or make_user(admin=True)
        writer = person_writer(admin, door="import")
    return memory_create(writer=writer, store=store, path=path, content=content)
