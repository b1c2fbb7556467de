"""A person's console edit racing agents' saves on the same version, on PostgreSQL: one wins, and
every losing text, the person's included, is kept aside; nothing is lost."""

from __future__ import annotations

import threading

import pytest
from django.db import connection

from stores.errors import Refused
from stores.models import Memory, SetAside
from stores.services.editing import memory_edit
from stores.services.memories import memory_update
from tests import factories as f

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

AGENT_WRITERS = 5


def test_a_person_and_agents_saving_on_one_version_lose_nothing(world):
    memory = f.make_memory(world.project_store, "/conventions/race.md", "base\n")
    opened = memory.head_version_id
    base = memory.content_sha256
    barrier = threading.Barrier(AGENT_WRITERS + 1)
    outcomes: dict[str, str] = {}
    lock = threading.Lock()

    def agent(i: int) -> None:
        writer = f.agent_writer(world.agent, api_key_id=f"apikey_race{i}")
        barrier.wait()
        try:
            memory_update(writer=writer, store=memory.store, memory_id=memory.public_id,
                          content=f"agent {i}\n", base_sha256=base)
            result = "won"
        except Refused as exc:
            result = exc.code or "refused"
        finally:
            connection.close()
        with lock:
            outcomes[f"agent {i}"] = result

    def person() -> None:
        barrier.wait()
        try:
            edit = memory_edit(writer=f.person_writer(world.contact), store=memory.store, memory_id=memory.public_id,
                               opened_version_id=opened, content="person\n", reason="race")
            result = "lost" if edit.lost else "won"
        finally:
            connection.close()
        with lock:
            outcomes["person"] = result

    threads = [threading.Thread(target=agent, args=(i,)) for i in range(AGENT_WRITERS)]
    threads.append(threading.Thread(target=person))
    for t in threads:
        t.start()
    for t in threads:
        t.join()

    assert list(outcomes.values()).count("won") == 1, outcomes
    assert set(outcomes.values()) <= {"won", "stale_base", "lost"}, outcomes
    saved = Memory.objects.get(pk=memory.pk).content
    kept = set(SetAside.objects.filter(memory=memory).values_list("text", flat=True))
    assert len(kept) == AGENT_WRITERS  # every loser once
    assert kept | {saved} == {"person\n"} | {f"agent {i}\n" for i in range(AGENT_WRITERS)}
    if outcomes["person"] == "lost":
        assert SetAside.objects.get(memory=memory, text="person\n").created_by["name"] == "carol"
