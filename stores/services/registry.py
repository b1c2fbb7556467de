"""The registry: clients, Jira projects, toolsets, hosted agents, people, pods, and tokens for them.

Plain, keyword-only functions that the operator commands (and the admin, and anyone else)
call. Each validates its input, says what was wrong and how to fix it through the domain
errors of ``stores.errors``, and makes everything it makes in one transaction, so bad input
leaves nothing half-made. Stores come with their projects, agents and toolsets (``services.stores``).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import IntegrityError, transaction

from stores.errors import Conflict, InvalidRequest, NotFound
from stores.models import ApiToken, Client, HostedAgent, JiraProject, Pod, Store, StoreKind, Toolset
from stores.services.stores import store_ensure_for_agent, store_ensure_for_project, store_ensure_for_toolset
from stores.services.tokens import token_issue_for_agent, token_issue_for_user

# Jira's own rule for project keys: an upper-case letter, then upper-case letters, digits or _.
PROJECT_KEY_RE = re.compile(r"^[A-Z][A-Z0-9_]{1,31}$")
# Agent names become folder names (/agents/<name>/) matched exactly, so they are lower-case slugs.
AGENT_NAME_RE = re.compile(r"^[a-z0-9][a-z0-9_-]{0,63}$")
TABLE_RE = re.compile(r"^[^.\s]+(\.[^.\s]+){1,2}$")
BARE_NAME_RE = re.compile(r"^[^.\s]+$")


def _clean_text(value: Any, what: str, *, max_length: int) -> str:
    """A trimmed one-line name: no control or format characters, 1..max_length characters."""
    if not isinstance(value, str) or not value.strip():
        raise InvalidRequest(f"The {what} is empty; give a name.")
    text = value.strip()
    if len(text) > max_length:
        raise InvalidRequest(f"The {what} '{text[:40]}...' is {len(text)} characters; at most {max_length} are allowed.")
    if any(unicodedata.category(ch) in ("Cc", "Cf") for ch in text):
        raise InvalidRequest(f"The {what} {text!r} holds a control or format character; remove it.")
    return unicodedata.normalize("NFC", text)


def _unique(values: Iterable[str]) -> list[str]:
    """The values in their first order, each once (compared without case)."""
    seen: set[str] = set()
    result = []
    for value in values:
        if value.casefold() not in seen:
            seen.add(value.casefold())
            result.append(value)
    return result


def _known(names: Iterable[str], limit: int = 10) -> str:
    names = list(names)
    if not names:
        return "none yet"
    shown = ", ".join(names[:limit])
    return shown + (f" and {len(names) - limit} more" if len(names) > limit else "")


# Clients -------------------------------------------------------------------------------------


def _client_names_taken(exclude_pk: int | None = None) -> dict[str, str]:
    """Every client name and alias, folded, mapped to the client that holds it."""
    taken: dict[str, str] = {}
    for client in Client.objects.exclude(pk=exclude_pk).only("name", "aliases"):
        taken[client.name.casefold()] = client.name
        for alias in client.aliases or []:
            taken[alias.casefold()] = client.name
    return taken


@transaction.atomic
def client_add(
    *,
    name: str,
    aliases: Iterable[str] = (),
    repositories: Iterable[str] = (),
    datasets: Iterable[str] = (),
    tables: Iterable[str] = (),
    distinctive_tables: Iterable[str] = (),
    retention_days: int | None = None,
    one_client_at_a_time: bool = False,
) -> Client:
    """Register a client with the names and data that identify it.

    A name or alias may belong to one client only (the client-detail check must know whose it
    is); tables are qualified (``dataset.table``); a distinctive name is the bare name of one of
    the client's tables.
    """
    name = _clean_text(name, "client name", max_length=200)
    aliases = _unique(_clean_text(a, "alias", max_length=200) for a in aliases)
    repositories = _unique(_clean_text(r, "repository", max_length=300) for r in repositories)
    datasets = _unique(_clean_text(d, "dataset", max_length=300) for d in datasets)
    tables = _unique(_clean_text(t, "table", max_length=300) for t in tables)
    distinctive = _unique(_clean_text(t, "distinctive table", max_length=300) for t in distinctive_tables)

    taken = _client_names_taken()
    if name.casefold() in taken:
        raise Conflict(f"A client named '{taken[name.casefold()]}' already exists (as a name or alias); "
                       "choose another name.")
    for alias in aliases:
        if alias.casefold() == name.casefold():
            raise InvalidRequest(f"The alias '{alias}' is the client's own name; leave it out.")
        if alias.casefold() in taken:
            raise Conflict(f"The alias '{alias}' already names the client '{taken[alias.casefold()]}'; "
                           "an alias must point at one client only.")
    for table in tables:
        if not TABLE_RE.match(table):
            raise InvalidRequest(f"The table '{table}' is not qualified: write it as dataset.table.")
    bare_names = {t.rsplit(".", 1)[-1].casefold() for t in tables}
    for bare in distinctive:
        if not BARE_NAME_RE.match(bare):
            raise InvalidRequest(f"The distinctive table '{bare}' must be a bare table name, without its dataset.")
        if bare.casefold() not in bare_names:
            raise InvalidRequest(
                f"The distinctive table '{bare}' is not the bare name of any table given; "
                f"add the table too, e.g. --table <dataset>.{bare}."
            )
    if retention_days is not None and (not isinstance(retention_days, int) or retention_days < 1):
        raise InvalidRequest("Retention is a whole number of days, 1 or more.")
    try:
        with transaction.atomic():
            return Client.objects.create(
                name=name,
                aliases=aliases,
                repositories=repositories,
                datasets=datasets,
                tables=tables,
                distinctive_tables=distinctive,
                retention_days=retention_days,
                one_client_at_a_time=one_client_at_a_time,
            )
    except IntegrityError as exc:  # a concurrent add of the same name
        raise Conflict(f"A client named '{name}' already exists.") from exc


def _named(model, field: str, value: str, missing: str, plural: str):
    """The row whose ``field`` equals ``value`` in any case, or NotFound listing the ones that exist."""
    row = model.objects.filter(**{f"{field}__iexact": (value or "").strip()}).first()
    if row is None:
        raise NotFound(f"{missing} ({plural}: {_known(model.objects.values_list(field, flat=True))}).")
    return row


def client_get(name: str) -> Client:
    """The client of this name (any case), or NotFound saying which clients exist."""
    return _named(
        Client, "name", name, f"No client named '{name}'. Add it first with `manage.py add_client \"{name}\"`",
        "clients",
    )


# Toolsets ------------------------------------------------------------------------------------


@transaction.atomic
def toolset_add(*, name: str) -> Toolset:
    """Register a toolset (dbt, Looker, ...); its read-only toolset store comes with it."""
    name = _clean_text(name, "toolset name", max_length=100)
    existing = Toolset.objects.filter(name__iexact=name).first()
    if existing is not None:
        raise Conflict(f"A toolset named '{existing.name}' already exists.")
    try:
        with transaction.atomic():
            toolset = Toolset.objects.create(name=name)
    except IntegrityError as exc:
        raise Conflict(f"A toolset named '{name}' already exists.") from exc
    store_ensure_for_toolset(toolset)
    return toolset


def toolset_get(name: str) -> Toolset:
    """The toolset of this name (any case), or NotFound saying which toolsets exist."""
    return _named(
        Toolset, "name", name, f"No toolset named '{name}'. Add it first with `manage.py add_toolset {name}`",
        "toolsets",
    )


# Jira projects -------------------------------------------------------------------------------


@transaction.atomic
def project_add(*, key: str, client: str | Client, toolsets: Iterable[str | Toolset] = ()) -> JiraProject:
    """Register a Jira project for a client, with the toolsets it uses; its store comes with it."""
    key = (key or "").strip()
    if not PROJECT_KEY_RE.match(key):
        hint = f" (did you mean {key.upper()}?)" if PROJECT_KEY_RE.match(key.upper()) else ""
        raise InvalidRequest(
            f"'{key}' is not a Jira project key: an upper-case letter, then upper-case letters, digits "
            f"or _, 2 to 32 in all{hint}."
        )
    if JiraProject.objects.filter(key__iexact=key).exists():
        raise Conflict(f"The Jira project {key} is already registered.")
    client_obj = client if isinstance(client, Client) else client_get(client)
    toolset_objs = _unique_objects(t if isinstance(t, Toolset) else toolset_get(t) for t in toolsets)
    try:
        with transaction.atomic():
            project = JiraProject.objects.create(key=key, client=client_obj)
    except IntegrityError as exc:
        raise Conflict(f"The Jira project {key} is already registered.") from exc
    store_ensure_for_project(project)
    project.toolsets.set(toolset_objs)
    return project


def _unique_objects(objs: Iterable[Any]) -> list[Any]:
    result: list[Any] = []
    for obj in objs:
        if obj.pk not in {o.pk for o in result}:
            result.append(obj)
    return result


def project_get(key: str) -> JiraProject:
    """The Jira project with this key (any case), or NotFound saying which projects exist."""
    return _named(
        JiraProject, "key", key,
        f"No Jira project {key}. Add it first with `manage.py add_project {(key or '').upper()} --client NAME`",
        "projects",
    )


# Hosted agents -------------------------------------------------------------------------------


def _clean_agent_name(name: str) -> str:
    name = (name or "").strip()
    if not AGENT_NAME_RE.match(name):
        raise InvalidRequest(
            f"'{name}' is not an agent name: use lower-case letters, digits, - and _ (it names the "
            "agent's folder, /agents/<name>/), starting with a letter or digit, at most 64 characters."
        )
    return name


def _clean_jira_account_id(account_id: str, *, agent: HostedAgent | None = None) -> str:
    account_id = (account_id or "").strip()
    if len(account_id) > 128 or any(unicodedata.category(ch) in ("Cc", "Cf", "Zs") for ch in account_id):
        raise InvalidRequest("A Jira account id is at most 128 characters, without spaces or control characters.")
    if account_id:
        # Two agents on one Jira account would make ticket assignment say nothing about either.
        holder = HostedAgent.objects.filter(jira_account_id=account_id).exclude(pk=agent.pk if agent else None)
        if holder.exists():
            raise Conflict(
                f"The Jira account id {account_id} already belongs to the agent '{holder.first().name}'; "
                "each agent has its own Jira account."
            )
    return account_id


@transaction.atomic
def agent_add(*, name: str, jira_account_id: str = "") -> tuple[HostedAgent, str]:
    """Register a hosted agent and issue its first token. Returns the agent and the token, shown once."""
    name = _clean_agent_name(name)
    if HostedAgent.objects.filter(name__iexact=name).exists():
        raise Conflict(f"An agent named '{name}' already exists. To give it a new token, use the admin.")
    account_id = _clean_jira_account_id(jira_account_id)
    try:
        with transaction.atomic():
            agent = HostedAgent.objects.create(name=name, jira_account_id=account_id)
    except IntegrityError as exc:
        raise Conflict(f"An agent named '{name}' already exists.") from exc
    store_ensure_for_agent(agent)
    _, secret = token_issue_for_agent(agent)
    return agent, secret


def agent_get(name: str) -> HostedAgent:
    """The hosted agent of this name, or NotFound saying which agents exist."""
    return _named(
        HostedAgent, "name", name,
        f"No hosted agent named '{name}'. Add it first with `manage.py add_agent {name}`", "agents",
    )


@transaction.atomic
def agent_set(*, name: str, active: bool | None = None, jira_account_id: str | None = None) -> HostedAgent:
    """Switch an agent on or off and/or change its Jira account id; None leaves a field as it is.

    An inactive agent's changes are all refused by the checks, whichever token it uses.
    """
    agent = HostedAgent.objects.select_for_update().filter(pk=agent_get(name).pk).get()
    fields = []
    if active is not None and agent.active != active:
        agent.active = active
        fields.append("active")
    if jira_account_id is not None:
        account_id = _clean_jira_account_id(jira_account_id, agent=agent)
        if account_id != agent.jira_account_id:
            agent.jira_account_id = account_id
            fields.append("jira_account_id")
    if fields:
        agent.save(update_fields=fields)
    return agent


# People --------------------------------------------------------------------------------------


@transaction.atomic
def person_add(*, username: str, email: str = "", admin: bool = False, password: str | None = None):
    """Add a person who signs in to the console. Admins are superusers and staff.

    Without a password the account cannot sign in with one until an admin sets it; it can
    still be given an API token.
    """
    User = get_user_model()
    username = (username or "").strip()
    field = User._meta.get_field(User.USERNAME_FIELD)
    try:
        field.clean(username, None)
    except ValidationError as exc:
        raise InvalidRequest(f"'{username}' is not a valid username: {' '.join(exc.messages)}") from exc
    if User.objects.filter(**{f"{User.USERNAME_FIELD}__iexact": username}).exists():
        raise Conflict(f"A person with the username '{username}' already exists.")
    email = (email or "").strip()
    if email:
        try:
            validate_email(email)
        except ValidationError as exc:
            raise InvalidRequest(f"'{email}' is not a valid email address.") from exc
    user = User(**{User.USERNAME_FIELD: username}, email=email, is_superuser=admin, is_staff=admin)
    if password is None:
        user.set_unusable_password()
    else:
        try:
            validate_password(password, user)
        except ValidationError as exc:
            raise InvalidRequest(f"The password is not accepted: {' '.join(exc.messages)}") from exc
        user.set_password(password)
    try:
        with transaction.atomic():
            user.save()
    except IntegrityError as exc:
        raise Conflict(f"A person with the username '{username}' already exists.") from exc
    return user


def person_get(username: str):
    """The person with this username, or NotFound."""
    User = get_user_model()
    user = User.objects.filter(**{User.USERNAME_FIELD: (username or "").strip()}).first()
    if user is None:
        raise NotFound(f"No person with the username '{username}'. Add them first with `manage.py add_person {username}`.")
    return user


@transaction.atomic
def person_token_issue(*, username: str) -> tuple[Any, ApiToken, str]:
    """Issue an API token for a person. Returns the person, the token row and the secret, shown once."""
    user = person_get(username)
    if not user.is_active:
        raise InvalidRequest(f"The account '{username}' is not active; activate it before issuing it a token.")
    token, secret = token_issue_for_user(user)
    return user, token, secret


# Pods ----------------------------------------------------------------------------------------


@transaction.atomic
def pod_add(*, name: str, agents: Iterable[str], projects: Iterable[str]) -> Pod:
    """Make a pod of agents covering projects. Every agent and project must exist already."""
    name = _clean_text(name, "pod name", max_length=100)
    agent_names, project_keys = list(agents), list(projects)
    if not agent_names or not project_keys:
        raise InvalidRequest("A pod needs at least one agent (--agent NAME) and one project (--project KEY).")
    if Pod.objects.filter(name__iexact=name).exists():
        raise Conflict(f"A pod named '{name}' already exists.")
    missing_agents = [a for a in agent_names if not HostedAgent.objects.filter(name__iexact=a.strip()).exists()]
    missing_projects = [p for p in project_keys if not JiraProject.objects.filter(key__iexact=p.strip()).exists()]
    if missing_agents or missing_projects:
        parts = []
        if missing_agents:
            parts.append(f"no agent named {', '.join(missing_agents)} (add it with add_agent)")
        if missing_projects:
            parts.append(f"no Jira project {', '.join(missing_projects)} (add it with add_project)")
        raise NotFound("Cannot make the pod: " + "; ".join(parts) + ".")
    try:
        with transaction.atomic():
            pod = Pod.objects.create(name=name)
    except IntegrityError as exc:
        raise Conflict(f"A pod named '{name}' already exists.") from exc
    pod.agents.set(_unique_objects(agent_get(a) for a in agent_names))
    pod.projects.set(_unique_objects(project_get(p) for p in project_keys))
    return pod


# Stores by name ------------------------------------------------------------------------------

STORE_SPEC_HELP = "a memstore_ id, practice, toolset:NAME, project:KEY or agent:NAME"


def store_for_spec(spec: str) -> Store:
    """The store a STORE argument names: a ``memstore_`` id, ``practice``, ``toolset:NAME``,
    ``project:KEY`` or ``agent:NAME``. Raises InvalidRequest for a bad spec, NotFound for none."""
    spec = (spec or "").strip()
    kind, sep, name = spec.partition(":")
    if spec.startswith("memstore_"):
        store = Store.objects.filter(public_id=spec).first()
        if store is None:
            raise NotFound(f"No memory store {spec}.")
        return store
    if spec == "practice":
        return Store.objects.get(kind=StoreKind.PRACTICE)
    if sep and name.strip():
        owner = {"toolset": toolset_get, "project": project_get, "agent": agent_get}.get(kind)
        if owner is not None:
            found = owner(name)
            store = Store.objects.filter(**{kind: found}).first()
            if store is None:
                raise NotFound(f"The {kind} {found} has no memory store.")
            return store
    raise InvalidRequest(f"'{spec}' does not name a store: give {STORE_SPEC_HELP}.")

