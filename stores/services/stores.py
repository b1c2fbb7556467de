"""Stores: the four kinds the console makes itself, with what owns them, and shared stores that
console admins create, change, archive and delete through the API.

A project, an agent and a toolset each get their store when they are made, from every door
(the registry's services the commands call, the admin, the demo seed): each door calls the
``store_ensure_for_*`` service here, which makes the store once.
"""

from __future__ import annotations

import unicodedata
from typing import Any

from django.db import transaction
from django.utils import timezone

from stores.console_checks.reasons import Reason, refusal_error
from stores.console_checks.request import Writer
from stores.console_checks.who import person_not_permitted
from stores.errors import InvalidRequest
from stores.models import HostedAgent, JiraProject, Store, StoreKind, Toolset


def practice_store_ensure() -> Store:
    """The one practice store; made by a migration and again after every flush."""
    store = Store.objects.filter(kind=StoreKind.PRACTICE).first()
    if store is None:
        store = Store.objects.create(
            kind=StoreKind.PRACTICE,
            name="Practice",
            description="Rittman Analytics patterns and house conventions. Read-only to agents.",
        )
    return store


def _store_ensure(kind: StoreKind, owner_field: str, owner: Any, name: str, description: str) -> Store:
    """The store ``owner`` owns, made now (of ``kind``, named and described so) if it has none yet."""
    return Store.objects.get_or_create(
        **{owner_field: owner}, defaults={"kind": kind, "name": name, "description": description}
    )[0]


def store_ensure_for_project(project: JiraProject) -> Store:
    """The project's store, made now if it has none yet (read-write to the agents of its pods)."""
    return _store_ensure(
        StoreKind.PROJECT, "project", project, f"Project {project.key}",
        f"What agents have learned on the Jira project {project.key}.",
    )


def store_ensure_for_agent(agent: HostedAgent) -> Store:
    """The agent's own store, made now if it has none yet."""
    return _store_ensure(
        StoreKind.AGENT, "agent", agent, f"Agent {agent.name}",
        f"{agent.name}'s own lessons on tools, Wire commands and its role. No client detail.",
    )


def store_ensure_for_toolset(toolset: Toolset) -> Store:
    """The toolset's store (read-only to agents), made now if it has none yet."""
    return _store_ensure(
        StoreKind.TOOLSET, "toolset", toolset, f"Toolset {toolset.name}",
        f"Lessons true for every client on {toolset.name}. Read-only to agents.",
    )


RESERVED_METADATA_KEYS = frozenset({"kind", "project_key", "agent", "toolset"})
MAX_METADATA_PAIRS = 16


def require_console_admin(writer: Writer, message: str, store: Store | None = None) -> None:
    """Refuse (403) a change only console admins make: managing stores, redacting one version.

    A person who is not an admin hears what their role allows (``person_not_permitted``); an agent
    gets ``people_only``: agents never manage stores, whichever store it is.
    """
    if writer.is_admin:
        return
    if writer.is_person:
        refusal = person_not_permitted(writer.user, store, message.rstrip("."))
        raise refusal_error(refusal.message, code=refusal.code)
    raise refusal_error(message, code=Reason.PEOPLE_ONLY)


def require_store_admin(writer: Writer, store: Store | None = None) -> None:
    """Refuse (403) anyone but a console admin: only they create, change, archive or delete stores.

    The API asks this before it reads the body, so a caller who may not manage stores hears that
    first, whatever the body holds. A person hears what their role allows instead.
    """
    require_console_admin(writer, "Only console admins create, change, archive or delete stores.", store)


def _require_storable(value: str, field: str) -> None:
    """Refuse text no database can hold: NUL (PostgreSQL text) and lone surrogates (not UTF-8)."""
    if "\x00" in value:
        raise InvalidRequest(f"{field} holds a NUL character (U+0000); remove it.")
    if any(0xD800 <= ord(ch) <= 0xDFFF for ch in value):
        raise InvalidRequest(f"{field} is not valid Unicode text (it holds a lone surrogate).")


def _clean_name(name: Any) -> str:
    if not isinstance(name, str) or not 1 <= len(name) <= 255:
        raise InvalidRequest("`name` must be a string of 1 to 255 characters.")
    if any(unicodedata.category(ch) == "Cc" for ch in name):
        raise InvalidRequest("`name` must not hold control characters.")
    _require_storable(name, "`name`")
    return name


def _clean_description(description: Any) -> str:
    if not isinstance(description, str) or len(description) > 1024:
        raise InvalidRequest("`description` must be a string of at most 1,024 characters.")
    _require_storable(description, "`description`")
    return description


def _patch_metadata(current: dict[str, str], patch: Any) -> dict[str, str]:
    if not isinstance(patch, dict):
        raise InvalidRequest("`metadata` must be an object of string keys and string values.")
    result = dict(current)
    for key, value in patch.items():
        if key in RESERVED_METADATA_KEYS:
            raise InvalidRequest(
                f"The metadata key '{key}' is the console's own ({', '.join(sorted(RESERVED_METADATA_KEYS))}); "
                "it cannot be set or removed."
            )
        if not isinstance(key, str) or not 1 <= len(key) <= 64:
            raise InvalidRequest("Metadata keys must be 1 to 64 characters.")
        _require_storable(key, "A metadata key")
        if value is None:
            result.pop(key, None)
        elif not isinstance(value, str) or len(value) > 512:
            raise InvalidRequest(f"The metadata value for '{key}' must be a string of at most 512 characters.")
        else:
            _require_storable(value, f"The metadata value for '{key}'")
            result[key] = value
    if len(result) + 1 > MAX_METADATA_PAIRS:  # the console's `kind` key counts too
        raise InvalidRequest(f"A store holds at most {MAX_METADATA_PAIRS} metadata pairs, the console's included.")
    return result


def store_create(*, writer: Writer, name: Any, description: Any = "", metadata: Any = None) -> Store:
    """Create a shared store (read-only to agents)."""
    require_store_admin(writer)
    store = Store(
        kind=StoreKind.SHARED,
        name=_clean_name(name),
        description=_clean_description(description if description is not None else ""),
        metadata=_patch_metadata({}, metadata if metadata is not None else {}),
    )
    store.save()
    # auto_now_add reads the clock once per field; a new store was updated when it was created.
    Store.objects.filter(pk=store.pk).update(updated_at=store.created_at)
    store.updated_at = store.created_at
    return store


def store_update(*, writer: Writer, store: Store, data: dict[str, Any]) -> Store:
    """Patch a store's name, description and metadata (a null field means unchanged)."""
    require_store_admin(writer, store)
    with transaction.atomic():
        store = Store.objects.select_for_update(no_key=True).get(pk=store.pk)
        if store.archived_at is not None:
            raise InvalidRequest("The store is archived; an archived store cannot be changed.", code=Reason.STORE_ARCHIVED)
        changed = False
        if data.get("name") is not None:
            name = _clean_name(data["name"])
            changed |= name != store.name
            store.name = name
        if data.get("description") is not None:
            description = _clean_description(data["description"])
            changed |= description != store.description
            store.description = description
        if data.get("metadata") is not None:
            metadata = _patch_metadata(store.metadata or {}, data["metadata"])
            changed |= metadata != store.metadata
            store.metadata = metadata
        if changed:
            store.updated_at = timezone.now()
            store.save()
        return store


def store_archive(*, writer: Writer, store: Store) -> Store:
    """Archive a store, once: archiving again returns it unchanged."""
    require_store_admin(writer, store)
    with transaction.atomic():
        store = Store.objects.select_for_update(no_key=True).get(pk=store.pk)
        if store.archived_at is None:
            store.archived_at = timezone.now()
            store.updated_at = store.archived_at
            store.save(update_fields=["archived_at", "updated_at"])
        return store


def store_delete(*, writer: Writer, store: Store) -> str:
    """Delete a store with every memory and version, for good. Returns its public id."""
    require_store_admin(writer, store)
    if store.kind != StoreKind.SHARED:
        raise InvalidRequest(
            f"The {store.kind} store is kept by the console; archive it instead of deleting it.",
            code=Reason.STORE_KEPT_BY_CONSOLE,
        )
    public_id = store.public_id
    store.delete()
    return public_id
