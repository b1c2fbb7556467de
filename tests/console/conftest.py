"""Fixtures for the console's pages and people's API: a scene with a live memory, a deleted one
and a set-aside text in project ACME's store, and clients signed in as each kind of person."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from stores.errors import Refused
from stores.models import Memory, SetAside
from stores.services.memories import memory_delete, memory_update
from tests import factories as f

# Who may act on ACME's store (the console's admins and ACME's contacts), and who may not.
ROLES = ["admin", "contact", "other_contact", "staff", "anonymous"]
ALLOWED_ROLES = {"admin", "contact"}

LIVE_TEXT = "# Naming\n\nStaging models in ACME are named stg_<source>__<table>.\n\nEvidence: ACME-12.\n"
DELETED_TEXT = "# Old fact\n\nThe orders feed arrived at 06:00 UTC.\n"


def user_for(world, role: str):
    return {
        "admin": world.admin,
        "contact": world.contact,
        "other_contact": world.other_contact,
        "staff": world.staff,
        "anonymous": None,
    }[role]


@pytest.fixture
def signed_in(client, world):
    """``signed_in(role)`` returns Django's test client signed in as that role (or anonymous)."""

    def sign_in(role: str):
        user = user_for(world, role)
        if user is not None:
            client.force_login(user)
        return client

    return sign_in


def make_set_aside(world, memory: Memory, text: str) -> SetAside:
    """A set-aside text made the way it happens: an agent's change based on an old copy loses."""
    writer = f.agent_writer(world.agent)
    base = memory.content_sha256
    memory_update(
        writer=writer,
        store=memory.store,
        memory_id=memory.public_id,
        content=memory.content + "\nSeen again on ACME-13.\n",
        base_sha256=base,
    )
    with pytest.raises(Refused):
        memory_update(writer=writer, store=memory.store, memory_id=memory.public_id, content=text, base_sha256=base)
    return SetAside.objects.get(memory=memory, status="open")


@dataclass
class Scene:
    store: object
    live: Memory
    deleted: Memory
    set_aside: SetAside


@pytest.fixture
def scene(world) -> Scene:
    store = world.project_store
    live = f.make_memory(store, "/conventions/naming.md", LIVE_TEXT)
    gone = f.make_memory(store, "/data/orders-feed.md", DELETED_TEXT)
    memory_delete(writer=f.person_writer(world.admin), store=store, memory_id=gone.public_id, reason="wrong time")
    set_aside = make_set_aside(world, live, LIVE_TEXT + "\nAlso true for snapshots (ACME-14).\n")
    live.refresh_from_db()
    gone.refresh_from_db()
    return Scene(store=store, live=live, deleted=gone, set_aside=set_aside)
