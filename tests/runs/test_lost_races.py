"""A file changed on both sides before a pass, and a new file another writer created first.

Anthropic's own sync worker (`anthropic.lib.tools._memories`, SDK 2.10.0) keeps the server copy
when both sides changed before a pass and never sends the local text, so nothing reaches the
console to be kept aside: the text is gone. `memory-sync` sends it, so the console keeps it aside,
and keeps a copy beside the file as `<file>.conflict`. A losing create is kept the same way, and
the folder ends up holding the winner's copy.
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
from .sync_helpers import checkout, once, refused

pytestmark = [pytest.mark.live, pytest.mark.django_db(transaction=True)]

LOCAL_LINE = "The local line: raise the timeout to 20 minutes."
SAVED_FIRST = "# Flaky\nThe QA job times out.\nSaved first by cyd.\n"


def other_agent(world) -> str:
    """Another agent of the pod, who writes first; returns its token."""
    cyd = f.make_agent("cyd", jira_account_id="acc-cyd")
    world.pod.agents.add(cyd)
    return f.agent_token(cyd)


def save_first(url: str, token: str, store, memory) -> None:
    response = requests.post(f"{url}{STORES}/{store.public_id}/memories/{memory.public_id}",
                             json={"content": SAVED_FIRST}, headers={"Authorization": f"Bearer {token}"}, timeout=10)
    assert response.status_code == 200, response.text


def test_both_sides_changed_anthropics_worker_loses_the_local_text(api, world, live_server, tmp_path):
    store = world.project_store
    raced = f.make_memory(store, "/issues/flaky.md", "# Flaky\nThe QA job times out.\n")
    cyd_token = other_agent(world)
    run = started(api, world.agent_token)
    [project] = [a for a in run["stores"] if a["folder"] == "project"]
    mount = tmp_path / "mnt" / "project"
    session = SimpleNamespace(resources=[SimpleNamespace(
        type="memory_store", memory_store_id=project["memory_store_id"], access="read_write",
        mount_path=str(mount), name="project")])

    async def work() -> None:
        client = anthropic.AsyncAnthropic(api_key=run["token"], base_url=f"{live_server.url}/api", max_retries=0)
        stores = SessionMemoryStores(client, workdir=tmp_path / "work", sync_interval=5)
        await stores.download(session)
        # Both sides change before the worker's next pass: the agent's edit, another agent's save.
        (mount / "issues/flaky.md").write_text(f"# Flaky\nThe QA job times out.\n{LOCAL_LINE}\n")
        await asyncio.to_thread(save_first, live_server.url, cyd_token, store, raced)
        await stores.finish()
        await stores.dispose()
        await client.close()

    asyncio.run(work())

    # The server copy won, and the local text is nowhere: not on the server, not kept aside,
    # not in the folder (the worker wrote the server copy over it).
    saved = Memory.objects.get(pk=raced.pk)
    assert saved.content == SAVED_FIRST
    assert not SetAside.objects.filter(memory=raced).exists()
    assert not any(LOCAL_LINE in v.content for v in saved.history.all())
    assert not any(LOCAL_LINE in p.read_text() for p in tmp_path.rglob("*") if p.is_file())


def test_both_sides_changed_memory_sync_keeps_the_local_text(api, world, live_server, tmp_path):
    store = world.project_store
    raced = f.make_memory(store, "/issues/flaky.md", "# Flaky\nThe QA job times out.\n")
    cyd_token = other_agent(world)
    run = started(api, world.agent_token)
    folder = tmp_path / "run"
    checkout(folder, live_server.url, run)
    local = f"# Flaky\nThe QA job times out.\n{LOCAL_LINE}\n"
    (folder / "project/issues/flaky.md").write_text(local)
    save_first(live_server.url, cyd_token, store, raced)

    result = once(folder)
    assert result["refused"] == [{"path": "project/issues/flaky.md", "reason_code": "stale_base"}]
    assert result["pulled"] == 1  # the console's copy came into the folder: counted
    assert (folder / "project/issues/flaky.md").read_text() == SAVED_FIRST  # the winner's copy
    assert (folder / "project/issues/flaky.md.conflict").read_text() == local  # the local text, beside it
    assert "flaky.md.conflict" in refused(folder, "project/issues/flaky.md")[1]
    [aside] = SetAside.objects.filter(memory=raced)
    assert LOCAL_LINE in aside.text  # and kept aside by the console for a person
    # The copy beside the file is never uploaded, and the next pass has nothing to do.
    assert once(folder) == {"pushed": 0, "pulled": 0, "deleted": 0, "refused": [], "failed": [], "ignored": [],
        "complete": True}
    assert not Memory.objects.filter(path__endswith=".conflict").exists()


def test_a_losing_create_keeps_its_text_beside_the_file_and_the_folder_gets_the_winners_copy(
    api, world, live_server, tmp_path
):
    cyd_token = other_agent(world)
    run_a = started(api, world.agent_token, "ACME-1")
    run_b = started(api, cyd_token, "ACME-2")
    a, b = tmp_path / "a", tmp_path / "b"
    checkout(a, live_server.url, run_a)
    checkout(b, live_server.url, run_b)
    winner = "# Merge key\nUse order_id as the unique key. ACME-1\n"
    loser = "# Merge key\nUse (order_id, line_no); order_id alone repeats. ACME-2\n"
    (a / "project/solutions/merge-key.md").write_text(winner)
    (b / "project/solutions/merge-key.md").write_text(loser)
    assert once(a)["pushed"] == 1

    result = once(b)
    assert result["refused"] == [{"path": "project/solutions/merge-key.md", "reason_code": "stale_base"}]
    assert result["pulled"] == 1
    assert (b / "project/solutions/merge-key.md").read_text() == winner
    assert (b / "project/solutions/merge-key.md.conflict").read_text() == loser
    assert "merge-key.md.conflict" in refused(b, "project/solutions/merge-key.md")[1]
    memory = Memory.objects.get(store=world.project_store, path="/solutions/merge-key.md", deleted_at__isnull=True)
    assert memory.content == winner
    asides = SetAside.objects.filter(memory=memory)
    assert [a.text for a in asides] == [loser]  # kept aside once, by the console
    # The folder now tracks the winner's memory: a later edit is an update of it, not a new create.
    assert once(b)["pushed"] == 0
    (b / "project/solutions/merge-key.md").write_text(winner + "Also: line_no repeats on split orders.\n")
    assert once(b)["pushed"] == 1
    assert Memory.objects.get(pk=memory.pk).content.endswith("split orders.\n")
    assert SetAside.objects.filter(memory=memory).count() == 1
    assert (b / "project/solutions/merge-key.md.conflict").read_text() == loser  # kept until the agent folds it in


def test_a_second_lost_race_keeps_both_texts(api, world, live_server, tmp_path):
    store = world.project_store
    raced = f.make_memory(store, "/issues/flaky.md", "# Flaky\nThe QA job times out.\n")
    cyd_token = other_agent(world)
    run = started(api, world.agent_token)
    folder = tmp_path / "run"
    checkout(folder, live_server.url, run)
    target = folder / "project/issues/flaky.md"
    target.write_text("first local text\n")
    save_first(live_server.url, cyd_token, store, raced)
    once(folder)
    target.write_text(SAVED_FIRST + "second local text\n")
    response = requests.post(f"{live_server.url}{STORES}/{store.public_id}/memories/{raced.public_id}",
                             json={"content": SAVED_FIRST + "cyd again\n"},
                             headers={"Authorization": f"Bearer {cyd_token}"}, timeout=10)
    assert response.status_code == 200, response.text
    assert once(folder)["refused"][0]["reason_code"] == "stale_base"
    assert (folder / "project/issues/flaky.md.conflict").read_text() == "first local text\n"
    assert (folder / "project/issues/flaky.md.2.conflict").read_text() == SAVED_FIRST + "second local text\n"
