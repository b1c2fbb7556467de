"""A person's token writes with the person's console rights (issue 11): escalation contacts create,
edit, rename and revert in their projects' stores; anything else a person may not do answers 403
`person_not_permitted`, naming what their role allows."""

from __future__ import annotations

import pytest
from guardian.shortcuts import assign_perm

from stores.models import Memory, SetAside, Store
from stores.services.content import sha256_hex
from tests import factories as f

pytestmark = pytest.mark.django_db

BASE = "/api/v1/memory_stores"


def error_code(response) -> str | None:
    return response.json()["error"].get("details", {}).get("error_code")


def create(api, token, store, path, content):
    return api.as_token(token).post(f"{BASE}/{store.public_id}/memories", {"path": path, "content": content},
                                    format="json")


def update(api, token, store, memory_id, **body):
    return api.as_token(token).post(f"{BASE}/{store.public_id}/memories/{memory_id}", body, format="json")


def test_a_contact_creates_edits_renames_and_reverts_in_their_project(api, world):
    store = world.project_store
    token = world.contact_token
    r = create(api, token, store, "/conventions/dates.md", "Dates are stored in UTC.\n")
    assert r.status_code == 200, r.json()
    memory_id = r.json()["id"]
    first = Memory.objects.get(public_id=memory_id).head_version_id
    assert update(api, token, store, memory_id, content="Dates are stored in UTC, always.\n").status_code == 200
    assert update(api, token, store, memory_id, path="/conventions/time.md").status_code == 200
    # A revert through the API is an update with the older version's text.
    old = api.as_token(token).get(f"{BASE}/{store.public_id}/memory_versions/{first}").json()["content"]
    assert update(api, token, store, memory_id, content=old).status_code == 200
    memory = Memory.objects.get(public_id=memory_id)
    assert (memory.path, memory.content) == ("/conventions/time.md", "Dates are stored in UTC.\n")
    versions = list(memory.history.order_by("history_id"))
    assert len(versions) == 4
    assert all(v.actor["type"] == "api_actor" and v.actor["name"] == "carol" for v in versions)
    assert all(v.history_user_id == world.contact.pk for v in versions)


def test_a_contacts_stale_update_loses_and_is_kept_aside(api, world):
    store = world.project_store
    memory = f.make_memory(store, "/conventions/a.md", "One.\n")
    r = update(api, world.agent_token, store, memory.public_id, content="Two.\n")
    assert r.status_code == 200
    r = update(api, world.contact_token, store, memory.public_id, content="Mine.\n",
               precondition={"type": "content_sha256", "content_sha256": sha256_hex("One.\n")})
    assert r.status_code == 409 and error_code(r) == "stale_base"
    assert SetAside.objects.get(memory=memory, writer_key=f"user:{world.contact.pk}").text == "Mine.\n"
    assert Memory.objects.get(pk=memory.pk).content == "Two.\n"


def test_another_projects_store_is_404_for_a_contact(api, world):
    other = world.other_project.store
    theirs = f.make_memory(other, "/conventions/theirs.md", "Theirs.\n")
    assert create(api, world.contact_token, other, "/conventions/x.md", "x\n").status_code == 404
    assert update(api, world.contact_token, other, theirs.public_id, content="Mine.\n").status_code == 404
    assert Memory.objects.get(pk=theirs.pk).content == "Theirs.\n"


def test_what_a_contact_may_not_do_in_a_store_they_see_is_person_not_permitted(api, world):
    store = world.project_store
    memory = f.make_memory(store, "/conventions/a.md", "One.\n")
    api.as_token(world.contact_token)
    calls = [
        api.post(f"{BASE}/{store.public_id}", {"name": "Renamed"}, format="json"),
        api.post(f"{BASE}/{store.public_id}/archive", {}, format="json"),
        api.delete(f"{BASE}/{store.public_id}"),
        api.post(f"{BASE}/{store.public_id}/memory_versions/{memory.head_version_id}/redact", {}, format="json"),
        api.post(BASE, {"name": "Mine"}, format="json"),
    ]
    for r in calls:
        assert r.status_code == 403, r.json()
        assert error_code(r) == "person_not_permitted"
        assert "escalation contact of ACME" in r.json()["error"]["message"]
    kept = Store.objects.get(pk=store.pk)
    assert kept.name == store.name and kept.archived_at is None
    assert Memory.history.get(version_id=memory.head_version_id).version_redacted_at is None


def test_a_person_granted_a_store_by_hand_writes_in_it_but_manages_no_store(api, world):
    """A grant on the practice store (made in the admin) shows it and lets its holder write there, the
    one access rule; changing the store itself is still for console admins, and the refusal says why."""
    assign_perm("stores.manage_store_memories", world.staff, world.practice)
    token = f.user_token(world.staff)
    assert create(api, token, world.practice, "/lessons/x.md", "A lesson.\n").status_code == 200
    r = api.as_token(token).post(f"{BASE}/{world.practice.public_id}", {"name": "Mine"}, format="json")
    assert r.status_code == 403 and error_code(r) == "person_not_permitted"
    assert "neither a console admin nor an escalation contact" in r.json()["error"]["message"]
    assert Store.objects.get(pk=world.practice.pk).name == world.practice.name


def test_an_agent_token_keeps_its_own_codes(api, world):
    r = create(api, world.agent_token, world.practice, "/lessons/x.md", "A lesson.\n")
    assert r.status_code == 403 and error_code(r) == "read_only_store"


def test_the_admin_writes_anywhere_through_the_api(api, world):
    for store in (world.practice, world.toolset.store, world.project_store, world.agent.store):
        path = "/conventions/x.md" if store.kind == "project" else "/lessons/x.md"
        assert create(api, world.admin_token, store, path, "A lesson.\n").status_code == 200


@pytest.mark.live
@pytest.mark.django_db(transaction=True)
def test_the_official_sdk_with_a_contacts_token(live_server, world):
    import anthropic

    c = anthropic.Anthropic(api_key=world.contact_token, base_url=f"{live_server.url}/api", max_retries=0)
    sid = world.project_store.public_id
    m = c.beta.memory_stores.memories.create(sid, path="/conventions/dates.md", content="Dates are in UTC.\n")
    updated = c.beta.memory_stores.memories.update(m.id, memory_store_id=sid, content="Dates are in UTC, always.\n")
    assert updated.memory_version_id != m.memory_version_id
    [latest, *_] = c.beta.memory_stores.memory_versions.list(sid, memory_id=m.id).data
    assert latest.created_by.type == "api_actor"
    with pytest.raises(anthropic.NotFoundError):
        c.beta.memory_stores.memories.create(world.other_project.store.public_id, path="/conventions/x.md", content="x\n")
    with pytest.raises(anthropic.PermissionDeniedError) as refused:
        c.beta.memory_stores.update(sid, name="Mine")
    assert refused.value.body["error"]["details"]["error_code"] == "person_not_permitted"
