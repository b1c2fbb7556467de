"""Anthropic's own sync worker (`anthropic.lib.tools._memories.SessionMemoryStores`, SDK pinned at
2.10.0: it is private API) against the console on a live port, over a run's stores, with the run token.

Its edits, new files and deletions land, attributed to the run; its losing text is kept aside.
"""

from __future__ import annotations

import asyncio
from types import SimpleNamespace

import anthropic
import pytest
import requests
from anthropic.lib.tools._memories import SessionMemoryStores

from stores.models import Memory, SetAside
from tests import factories as f

from .conftest import STORES, started

pytestmark = [pytest.mark.live, pytest.mark.django_db(transaction=True)]


def test_sdk_pin():
    assert anthropic.__version__ == "2.10.0"


def test_the_sdk_sync_worker_writes_as_the_run(api, world, live_server, tmp_path):
    store = world.project_store
    f.make_memory(store, "/conventions/naming.md", "# Naming\nModels are snake_case.\n")
    f.make_memory(store, "/data/old.md", "# Old\nA stale note.\n")
    raced = f.make_memory(store, "/issues/flaky.md", "# Flaky\nThe QA job times out.\n")
    cyd = f.make_agent("cyd")
    world.pod.agents.add(cyd)
    cyd_token = f.agent_token(cyd)
    run = started(api, world.agent_token)
    attachments = {a["folder"]: a for a in run["stores"]}
    mount = tmp_path / "mnt" / "project"
    session = SimpleNamespace(resources=[
        SimpleNamespace(type="memory_store", memory_store_id=attachments["project"]["memory_store_id"],
                        access="read_write", mount_path=str(mount), name="project"),
        SimpleNamespace(type="memory_store", memory_store_id=attachments["practice"]["memory_store_id"],
                        access="read_only", mount_path=str(tmp_path / "mnt" / "practice"), name="practice"),
    ])

    def other_agent_saves_first() -> None:
        """Another agent saves the raced file between the worker's listing and its upload."""
        response = requests.post(
            f"{live_server.url}{STORES}/{store.public_id}/memories/{raced.public_id}",
            json={"content": "# Flaky\nThe QA job times out.\nSaved first by cyd.\n"},
            headers={"Authorization": f"Bearer {cyd_token}"}, timeout=10,
        )
        assert response.status_code == 200, response.text

    async def work() -> None:
        client = anthropic.AsyncAnthropic(api_key=run["token"], base_url=f"{live_server.url}/api", max_retries=0)
        stores = SessionMemoryStores(client, workdir=tmp_path / "work", sync_interval=5)
        await stores.download(session)
        assert (mount / "data/old.md").read_text() == "# Old\nA stale note.\n"

        (mount / "conventions/naming.md").write_text("# Naming\nModels are snake_case.\nStaging is stg_.\n")
        (mount / "solutions").mkdir()
        (mount / "solutions/merge-key.md").write_text("# Merge key\nUse order_id. ACME-1\n")
        (mount / "data/old.md").unlink()
        (mount / "issues/flaky.md").write_text("# Flaky\nThe QA job times out.\nWorker's line: raise the timeout.\n")

        listing = stores._list_memories
        raced_once = []

        async def listing_then_race(memory_store_id, *, view="basic"):
            async for item in listing(memory_store_id, view=view):
                yield item
            if view == "basic" and memory_store_id == store.public_id and not raced_once:
                raced_once.append(True)
                await asyncio.to_thread(other_agent_saves_first)

        stores._list_memories = listing_then_race
        # The final sync skips the 30 s wait before a deletion is sent.
        await stores.finish()
        await stores.dispose()
        await client.close()

    asyncio.run(work())

    def live(path: str) -> Memory | None:
        return Memory.objects.filter(store=store, path=path, deleted_at__isnull=True).first()

    session_actor = {"type": "session_actor", "session_id": run["id"], "name": "ada"}
    naming = live("/conventions/naming.md")
    assert naming.content.endswith("Staging is stg_.\n")
    assert naming.history.order_by("-history_id").first().actor == session_actor
    created = live("/solutions/merge-key.md")
    assert created.history.get().actor == session_actor and created.history.get().operation == "created"
    assert live("/data/old.md") is None
    gone = Memory.objects.get(store=store, path="/data/old.md")
    assert gone.history.order_by("-history_id").first().operation == "deleted"
    assert gone.deleted_by == session_actor and gone.deleted_by_person is False
    # The raced file: the other agent's saved copy wins, the worker's text is kept aside.
    assert live("/issues/flaky.md").content.endswith("Saved first by cyd.\n")
    [aside] = SetAside.objects.filter(memory=raced)
    assert "Worker's line: raise the timeout." in aside.text and aside.created_by == session_actor
    assert Memory.objects.filter(store=world.practice).count() == 0
