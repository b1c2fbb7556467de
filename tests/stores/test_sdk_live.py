"""The official `anthropic` SDK (pinned), unchanged, against the console on a live port.

Store calls use a console admin's token; memory calls use an agent's (section 13 of the reference).
"""

from __future__ import annotations

import hashlib

import anthropic
import pytest

from stores.models import Memory, SetAside

pytestmark = [pytest.mark.live, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def sdk(live_server, world):
    def make(token: str, **kw) -> anthropic.Anthropic:
        return anthropic.Anthropic(api_key=token, base_url=f"{live_server.url}/api", max_retries=0, **kw)

    return make


def test_store_crud_and_pagination(sdk, world):
    c = sdk(world.admin_token)
    store = c.beta.memory_stores.create(name="Proj X", description="d", metadata={"k": "v"})
    assert store.id.startswith("memstore_") and store.archived_at is None
    assert c.beta.memory_stores.retrieve(store.id).name == "Proj X"
    updated = c.beta.memory_stores.update(store.id, name="Proj Y", metadata={"k": None, "n": "1"})
    assert updated.metadata == {"kind": "shared", "n": "1"}
    for i in range(3):
        c.beta.memory_stores.create(name=f"S{i}")
    walked = list(c.beta.memory_stores.list(limit=1))
    assert len(walked) == len({s.id for s in walked}) >= 4
    first = c.beta.memory_stores.archive(store.id).archived_at
    assert c.beta.memory_stores.archive(store.id).archived_at == first
    with pytest.raises(anthropic.BadRequestError):
        sdk(world.admin_token).beta.memory_stores.memories.create(store.id, path="/a.md", content="x")
    assert store.id not in [s.id for s in c.beta.memory_stores.list()]
    assert store.id in [s.id for s in c.beta.memory_stores.list(include_archived=True)]
    assert c.beta.memory_stores.delete(store.id).type == "memory_store_deleted"
    with pytest.raises(anthropic.NotFoundError):
        c.beta.memory_stores.retrieve(store.id)
    with pytest.raises(anthropic.AuthenticationError):
        sdk("wrong").beta.memory_stores.list()


def test_memories_versions_and_set_aside(sdk, world):
    c = sdk(world.agent_token)
    sid = world.agent.store.public_id
    m = c.beta.memory_stores.memories.create(sid, path="/notes/a.md", content="héllo\r\n")
    assert m.content is None
    assert m.content_sha256 == hashlib.sha256("héllo\r\n".encode()).hexdigest()
    assert m.content_size_bytes == 8 and m.memory_version_id.startswith("memver_")
    full = c.beta.memory_stores.memories.retrieve(m.id, memory_store_id=sid)
    assert full.content == "héllo\r\n"
    assert c.beta.memory_stores.memories.retrieve(m.id, memory_store_id=sid, view="basic").content is None

    # Path conflicts.
    c.beta.memory_stores.memories.create(sid, path="/x.md/y.md", content="y")
    for path in ("/notes/a.md", "/notes/a.md/x.md", "/x.md"):
        with pytest.raises(anthropic.ConflictError) as exc:
            c.beta.memory_stores.memories.create(sid, path=path, content="z")
        assert exc.value.type == "memory_path_conflict_error"
        assert "conflicting_path" in exc.value.body["error"]

    # Validation.
    for bad in ("notes/a.md", "/a//b.md", "/a/../b.md", "/e\u0301.md", "/" + "/".join("s" * 21) + ".md",
                "/" + "a" * 1030 + ".md"):
        with pytest.raises(anthropic.BadRequestError):
            c.beta.memory_stores.memories.create(sid, path=bad, content="x")
    with pytest.raises(anthropic.BadRequestError):
        c.beta.memory_stores.memories.create(sid, path="/big.md", content="a" * 102_401)
    with pytest.raises(anthropic.NotFoundError):
        c.beta.memory_stores.memories.retrieve("mem_unknown", memory_store_id=sid)

    # Preconditions, retry safety, and the losing text kept aside exactly once.
    old_sha = m.content_sha256
    pre = {"type": "content_sha256", "content_sha256": old_sha}
    v2 = c.beta.memory_stores.memories.update(m.id, memory_store_id=sid, content="v2", precondition=pre)
    assert v2.content_sha256 != old_sha and v2.memory_version_id != m.memory_version_id
    again = c.beta.memory_stores.memories.update(m.id, memory_store_id=sid, content="v2", precondition=pre)
    assert again.memory_version_id == v2.memory_version_id
    retrying = sdk(world.agent_token).with_options(max_retries=2)
    for _ in range(2):
        with pytest.raises(anthropic.ConflictError) as exc:
            retrying.beta.memory_stores.memories.update(m.id, memory_store_id=sid, content="v3", precondition=pre)
        assert exc.value.type == "memory_precondition_failed_error"
        assert exc.value.response.headers["x-should-retry"] == "false"
    raw = c.beta.memory_stores.memories.with_raw_response.retrieve(m.id, memory_store_id=sid)
    assert raw.headers["request-id"].startswith("req_")
    assert SetAside.objects.filter(memory__public_id=m.id, text="v3").count() == 1

    # Rename keeps the id.
    renamed = c.beta.memory_stores.memories.update(m.id, memory_store_id=sid, path="/notes/b.md")
    assert renamed.id == m.id and renamed.path == "/notes/b.md"

    # Listing with depth across pages, and full pages capped at 20.
    c.beta.memory_stores.memories.create(sid, path="/notes/deep/c.md", content="c")
    items = list(c.beta.memory_stores.memories.list(sid, path_prefix="/notes/", depth=1, limit=1))
    assert [(i.type, i.path) for i in items] == [("memory", "/notes/b.md"), ("memory_prefix", "/notes/deep/")]
    for i in range(22):
        c.beta.memory_stores.memories.create(sid, path=f"/bulk/{i:02}.md", content="b")
    first_page = c.beta.memory_stores.memories.list(sid, view="full", limit=100)
    assert len(first_page.data) <= 20

    # Delete with a precondition.
    with pytest.raises(anthropic.ConflictError):
        c.beta.memory_stores.memories.delete(m.id, memory_store_id=sid, expected_content_sha256="0" * 64)
    gone = c.beta.memory_stores.memories.delete(m.id, memory_store_id=sid, expected_content_sha256=v2.content_sha256)
    assert gone.type == "memory_deleted"
    with pytest.raises(anthropic.NotFoundError):
        c.beta.memory_stores.memories.retrieve(m.id, memory_store_id=sid)

    # Version history: who made each change.
    versions = list(c.beta.memory_stores.memory_versions.list(sid, memory_id=m.id))
    assert [v.operation for v in versions] == ["deleted", "modified", "modified", "created"]
    assert all(v.created_by.type == "api_actor" for v in versions)
    created = list(c.beta.memory_stores.memory_versions.list(sid, memory_id=m.id, operation="created"))
    assert len(created) == 1
    vid = created[0].id
    assert c.beta.memory_stores.memory_versions.retrieve(vid, memory_store_id=sid).content == "héllo\r\n"
    admin = sdk(world.admin_token)
    red = admin.beta.memory_stores.memory_versions.redact(vid, memory_store_id=sid)
    assert red.redacted_at is not None
    assert red.content is None and red.path is None and red.content_sha256 is None and red.content_size_bytes is None
    assert admin.beta.memory_stores.memory_versions.retrieve(vid, memory_store_id=sid).redacted_at is not None
    assert Memory.history.filter(version_id=vid, content="héllo\r\n").count() == 0


def test_async_client_lists_memories(sdk, world, live_server):
    import asyncio

    c = sdk(world.agent_token)
    sid = world.agent.store.public_id
    c.beta.memory_stores.memories.create(sid, path="/async/a.md", content="a")

    async def go():
        ac = anthropic.AsyncAnthropic(api_key=world.agent_token, base_url=f"{live_server.url}/api", max_retries=0)
        return [m.path async for m in ac.beta.memory_stores.memories.list(sid)]

    assert asyncio.run(go()) == ["/async/a.md"]
