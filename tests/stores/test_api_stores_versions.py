"""Stores and versions through DRF's test client."""

from __future__ import annotations

import pytest

from stores.models import Store

pytestmark = pytest.mark.django_db

BASE = "/api/v1/memory_stores"


def code(r):
    return r.json()["error"].get("details", {}).get("error_code")


def test_admin_creates_updates_archives_and_deletes_a_shared_store(api, world):
    api.as_token(world.admin_token)
    r = api.post(BASE, {"name": "Proj X", "description": "d", "metadata": {"k": "v"}}, format="json")
    assert r.status_code == 200
    s = r.json()
    assert s["type"] == "memory_store" and s["id"].startswith("memstore_")
    assert s["archived_at"] is None
    assert s["metadata"] == {"k": "v", "kind": "shared"}
    r = api.post(f"{BASE}/{s['id']}", {"name": "Proj Y", "metadata": {"k": None, "n": "1"}}, format="json")
    assert r.json()["metadata"] == {"kind": "shared", "n": "1"}
    assert r.json()["name"] == "Proj Y"
    assert r.json()["description"] == "d"
    a1 = api.post(f"{BASE}/{s['id']}/archive").json()["archived_at"]
    a2 = api.post(f"{BASE}/{s['id']}/archive").json()["archived_at"]
    assert a1 == a2 and a1 is not None
    assert api.post(f"{BASE}/{s['id']}", {"name": "Z"}, format="json").status_code == 400
    r = api.post(f"{BASE}/{s['id']}/memories", {"path": "/a.md", "content": "x"}, format="json")
    assert r.status_code == 400
    ids = [d["id"] for d in api.get(BASE + "?limit=100").json()["data"]]
    assert s["id"] not in ids
    ids = [d["id"] for d in api.get(BASE + "?limit=100&include_archived=true").json()["data"]]
    assert s["id"] in ids
    assert api.delete(f"{BASE}/{s['id']}").json() == {"type": "memory_store_deleted", "id": s["id"]}
    assert api.get(f"{BASE}/{s['id']}").status_code == 404


@pytest.mark.parametrize("meta", [{"kind": "project"}, {"project_key": "X"}, {"agent": None}, {"toolset": "t"}])
def test_reserved_metadata_keys_are_400(api, world, meta):
    api.as_token(world.admin_token)
    assert api.post(BASE, {"name": "S", "metadata": meta}, format="json").status_code == 400
    sid = world.project_store.public_id
    assert api.post(f"{BASE}/{sid}", {"metadata": meta}, format="json").status_code == 400


def test_store_limits(api, world):
    api.as_token(world.admin_token)
    assert api.post(BASE, {"name": ""}, format="json").status_code == 400
    assert api.post(BASE, {"name": "x" * 256}, format="json").status_code == 400
    assert api.post(BASE, {"name": "ok", "description": "d" * 1025}, format="json").status_code == 400
    many = {f"k{i}": "v" for i in range(16)}
    assert api.post(BASE, {"name": "ok", "metadata": many}, format="json").status_code == 400
    assert api.post(BASE, {"name": "ok", "metadata": {"k": "v" * 513}}, format="json").status_code == 400


def test_only_admins_manage_stores(api, world):
    for token in (world.agent_token, world.contact_token):
        api.as_token(token)
        assert api.post(BASE, {"name": "S"}, format="json").status_code == 403
    api.as_token(world.agent_token)
    own = world.agent.store.public_id
    assert api.post(f"{BASE}/{own}", {"name": "mine"}, format="json").status_code == 403
    assert api.post(f"{BASE}/{own}/archive").status_code == 403
    assert api.delete(f"{BASE}/{own}").status_code == 403


def test_agent_sees_exactly_its_readable_stores(api, world):
    api.as_token(world.agent_token)
    ids = {d["id"] for d in api.get(BASE + "?limit=100").json()["data"]}
    expected = {
        world.agent.store.public_id,
        world.project_store.public_id,
        world.practice.public_id,
        world.toolset.store.public_id,
    }
    assert ids == expected
    for data in api.get(BASE + "?limit=100").json()["data"]:
        if data["id"] == world.project_store.public_id:
            assert data["metadata"] == {"kind": "project", "project_key": "ACME"}


def test_contact_sees_only_their_projects(api, world):
    api.as_token(world.contact_token)
    ids = {d["id"] for d in api.get(BASE + "?limit=100").json()["data"]}
    assert ids == {world.project_store.public_id}


def test_store_pagination_walks_one_per_page(api, world):
    api.as_token(world.admin_token)
    total = Store.objects.filter(archived_at__isnull=True).count()
    seen, page = [], None
    while True:
        body = api.get(BASE + "?limit=1" + (f"&page={page}" if page else "")).json()
        seen += [d["id"] for d in body["data"]]
        page = body["next_page"]
        if not page:
            break
    assert len(seen) == total == len(set(seen))


def test_versions_list_filter_retrieve_and_redact(api, world):
    api.as_token(world.agent_token)
    sid = world.agent.store.public_id
    m = api.post(f"{BASE}/{sid}/memories", {"path": "/a.md", "content": "one"}, format="json").json()
    url = f"{BASE}/{sid}/memories/{m['id']}"
    api.post(url, {"content": "two"}, format="json")
    api.post(url, {"path": "/b.md"}, format="json")
    api.delete(url)
    versions = api.get(f"{BASE}/{sid}/memory_versions?memory_id={m['id']}").json()["data"]
    assert [v["operation"] for v in versions] == ["deleted", "modified", "modified", "created"]
    assert all(v["created_by"]["type"] == "api_actor" for v in versions)
    assert all(v["created_by"]["api_key_id"].startswith("apikey_") for v in versions)
    assert versions[0]["path"] == "/b.md" and versions[0]["content"] is None
    created = api.get(f"{BASE}/{sid}/memory_versions?memory_id={m['id']}&operation=created").json()["data"]
    assert len(created) == 1
    vid = created[0]["id"]
    full = api.get(f"{BASE}/{sid}/memory_versions/{vid}").json()
    assert full["content"] == "one"
    assert api.get(f"{BASE}/{sid}/memory_versions/memver_nope").status_code == 404
    # Agents cannot redact; admins can, and a second redaction changes nothing.
    assert api.post(f"{BASE}/{sid}/memory_versions/{vid}/redact").status_code == 403
    api.as_token(world.admin_token)
    r = api.post(f"{BASE}/{sid}/memory_versions/{vid}/redact")
    assert r.status_code == 200
    red = r.json()
    assert red["redacted_at"] and red["redacted_by"]["type"] == "api_actor"
    assert red["content"] is None and red["path"] is None
    assert red["content_sha256"] is None and red["content_size_bytes"] is None
    again = api.post(f"{BASE}/{sid}/memory_versions/{vid}/redact").json()
    assert again["redacted_at"] == red["redacted_at"]
    assert api.get(f"{BASE}/{sid}/memory_versions/{vid}").status_code == 200


def test_versions_pagination_newest_first(api, world):
    api.as_token(world.agent_token)
    sid = world.agent.store.public_id
    for i in range(5):
        api.post(f"{BASE}/{sid}/memories", {"path": f"/{i}.md", "content": "x"}, format="json")
    seen, page = [], None
    while True:
        body = api.get(f"{BASE}/{sid}/memory_versions?limit=2" + (f"&page={page}" if page else "")).json()
        seen += body["data"]
        page = body["next_page"]
        if not page:
            break
    assert [v["path"] for v in seen] == ["/4.md", "/3.md", "/2.md", "/1.md", "/0.md"]


def test_the_head_version_of_a_live_memory_is_not_redacted(api, world):
    """Redacting the live text's version alone would leave the text readable: refused, unchanged."""
    api.as_token(world.agent_token)
    sid = world.agent.store.public_id
    m = api.post(f"{BASE}/{sid}/memories", {"path": "/a.md", "content": "one"}, format="json").json()
    url = f"{BASE}/{sid}/memories/{m['id']}"
    head = api.post(url, {"content": "two"}, format="json").json()["memory_version_id"]
    older = api.get(f"{BASE}/{sid}/memory_versions?memory_id={m['id']}&operation=created").json()["data"][0]["id"]
    api.as_token(world.admin_token)
    r = api.post(f"{BASE}/{sid}/memory_versions/{head}/redact")
    assert r.status_code == 409, r.json()
    assert code(r) == "version_is_live"
    assert "Delete the memory first" in r.json()["error"]["message"] and m["id"] in r.json()["error"]["message"]
    assert api.get(f"{BASE}/{sid}/memory_versions/{head}").json()["content"] == "two"
    assert api.get(url).json()["content"] == "two"
    # An older version of the live memory is redacted; once deleted, the former head is too.
    assert api.post(f"{BASE}/{sid}/memory_versions/{older}/redact").status_code == 200
    api.delete(url)
    r = api.post(f"{BASE}/{sid}/memory_versions/{head}/redact")
    assert r.status_code == 200 and r.json()["content"] is None
