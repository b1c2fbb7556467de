"""The people's API: Recently deleted, Restore and Redact all versions with a person's token,
which does what the console lets that person do."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from stores.models import Memory
from stores.services.memories import memory_delete
from tests import factories as f

pytestmark = pytest.mark.django_db

BASE = "/api/v1/memory_stores"


def token_for(world, role: str) -> str | None:
    return {
        "admin": world.admin_token,
        "contact": world.contact_token,
        "other_contact": f.user_token(world.other_contact),
        "staff": f.user_token(world.staff),
        "agent": world.agent_token,
        "anonymous": None,
    }[role]


def error_code(response) -> str | None:
    return response.json()["error"].get("details", {}).get("error_code")


# (role, expected status) for a store of project ACME, whose contact is carol.
EXPECTED = {"admin": 200, "contact": 200, "other_contact": 404, "staff": 404, "agent": 403, "anonymous": 401}


@pytest.mark.parametrize("role", list(EXPECTED))
def test_list_deleted_memories_by_role(api, world, scene, role):
    response = api.as_token(token_for(world, role)).get(f"{BASE}/{scene.store.public_id}/deleted_memories")
    assert response.status_code == EXPECTED[role], response.content
    if role == "agent":
        assert error_code(response) == "people_only"
    if response.status_code == 200:
        body = response.json()
        assert body["next_page"] is None
        [item] = body["data"]
        assert item["type"] == "deleted_memory"
        assert item["id"] == scene.deleted.public_id
        assert item["path"] == "/data/orders-feed.md"
        assert item["content"] is None
        assert item["deleted_by"]["name"] == "root-admin"
        assert item["delete_reason"] == "wrong time"
        assert item["restorable_until"] is not None and item["redacted_at"] is None


@pytest.mark.parametrize("role", list(EXPECTED))
def test_restore_by_role(api, world, scene, role):
    response = api.as_token(token_for(world, role)).post(
        f"{BASE}/{scene.store.public_id}/deleted_memories/{scene.deleted.public_id}/restore", format="json"
    )
    assert response.status_code == EXPECTED[role], response.content
    memory = Memory.objects.get(pk=scene.deleted.pk)
    assert (memory.deleted_at is None) == (EXPECTED[role] == 200)
    if role == "agent":
        assert error_code(response) == "people_only"
    if response.status_code == 200:
        body = response.json()
        assert body["type"] == "memory" and body["id"] == scene.deleted.public_id
        version = memory.history.order_by("-history_id").first()
        assert version.operation == "created"
        assert version.actor["type"] == "api_actor"


@pytest.mark.parametrize("role", list(EXPECTED))
def test_redact_by_role(api, world, scene, role):
    response = api.as_token(token_for(world, role)).post(
        f"{BASE}/{scene.store.public_id}/deleted_memories/{scene.deleted.public_id}/redact", format="json"
    )
    assert response.status_code == EXPECTED[role], response.content
    memory = Memory.objects.get(pk=scene.deleted.pk)
    assert (memory.redacted_at is not None) == (EXPECTED[role] == 200)
    if response.status_code == 200:
        body = response.json()
        assert body["type"] == "deleted_memory"
        assert body["path"] is None and body["content_sha256"] is None and body["restorable_until"] is None
        assert body["redacted_at"] is not None and body["redacted_by"]["type"] == "api_actor"
        # Redacting again is a no-op that answers the same.
        again = api.post(f"{BASE}/{scene.store.public_id}/deleted_memories/{scene.deleted.public_id}/redact")
        assert again.status_code == 200 and again.json()["redacted_at"] == body["redacted_at"]


def test_restore_with_a_reason_records_it(api, world, scene):
    api.as_token(world.contact_token)
    response = api.post(
        f"{BASE}/{scene.store.public_id}/deleted_memories/{scene.deleted.public_id}/restore",
        {"reason": "It was right after all."},
        format="json",
    )
    assert response.status_code == 200
    version = Memory.objects.get(pk=scene.deleted.pk).history.order_by("-history_id").first()
    assert version.history_change_reason == "It was right after all."


def test_restore_refused_when_the_path_is_taken(api, world, scene):
    newcomer = f.make_memory(scene.store, scene.deleted.path, "The feed now arrives at 07:00 UTC.\n")
    api.as_token(world.contact_token)
    response = api.post(f"{BASE}/{scene.store.public_id}/deleted_memories/{scene.deleted.public_id}/restore")
    assert response.status_code == 409
    error = response.json()["error"]
    assert newcomer.public_id in error["message"]
    assert error["conflicting_memory_id"] == newcomer.public_id
    assert Memory.objects.get(pk=scene.deleted.pk).deleted_at is not None


def test_redact_a_live_memory_is_refused(api, world, scene):
    api.as_token(world.contact_token)
    response = api.post(f"{BASE}/{scene.store.public_id}/deleted_memories/{scene.live.public_id}/redact")
    assert response.status_code == 400
    assert error_code(response) == "memory_not_deleted"
    assert Memory.objects.get(pk=scene.live.pk).redacted_at is None


def test_deleted_list_pages_and_leaves_out_older_than_30_days(api, world, scene):
    store = scene.store
    for n in range(3):
        memory = f.make_memory(store, f"/issues/gone-{n}.md", f"Issue {n}.\n")
        memory_delete(writer=f.person_writer(world.admin), store=store, memory_id=memory.public_id)
    old = Memory.objects.get(path="/issues/gone-0.md")
    Memory.objects.filter(pk=old.pk).update(deleted_at=timezone.now() - timedelta(days=31))
    api.as_token(world.contact_token)
    first = api.get(f"{BASE}/{store.public_id}/deleted_memories", {"limit": 2}).json()
    assert len(first["data"]) == 2 and first["next_page"]
    second = api.get(f"{BASE}/{store.public_id}/deleted_memories", {"limit": 2, "page": first["next_page"]}).json()
    assert second["next_page"] is None
    ids = [m["id"] for m in first["data"] + second["data"]]
    assert len(ids) == len(set(ids)) == 3
    assert old.public_id not in ids
    full = api.get(f"{BASE}/{store.public_id}/deleted_memories", {"view": "full"}).json()
    assert {m["content"] for m in full["data"]} >= {"Issue 1.\n", "Issue 2.\n"}


def test_contact_token_cannot_reach_other_kinds_of_store(api, world):
    api.as_token(world.contact_token)
    for store in (world.agent.store, world.practice, world.toolset.store, world.other_project.store):
        assert api.get(f"{BASE}/{store.public_id}/deleted_memories").status_code == 404
