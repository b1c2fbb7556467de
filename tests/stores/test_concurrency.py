"""Many writers updating one memory with preconditions at the same moment, on PostgreSQL."""

from __future__ import annotations

import threading

import pytest
from django.db import connection

from stores.console_checks.request import Writer
from stores.errors import Refused
from stores.models import Memory, SetAside
from stores.services.memories import memory_create, memory_update
from tests import factories as f

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

WRITERS = 12
ROUNDS = 3


def test_one_winner_per_base_version_and_nothing_lost():
    agents = [f.make_agent(f"racer-{i}") for i in range(WRITERS)]
    owner = agents[0]
    store = owner.store
    memory = memory_create(writer=Writer(agent=owner), store=store, path="/race.md", content="base\n")
    outcomes: list[tuple[int, int, str]] = []
    lock = threading.Lock()

    for round_no in range(ROUNDS):
        base = Memory.objects.get(pk=memory.pk).content_sha256
        barrier = threading.Barrier(WRITERS)

        def write(i: int, base=base, round_no=round_no, barrier=barrier) -> None:
            writer = Writer(agent=owner, api_key_id=f"apikey_racer{i}")
            text = f"round {round_no} writer {i}\n"
            barrier.wait()
            try:
                memory_update(writer=writer, store=store, memory_id=memory.public_id, content=text, base_sha256=base)
                result = "won"
            except Refused as exc:
                result = exc.code or "refused"
            finally:
                connection.close()
            with lock:
                outcomes.append((round_no, i, result))

        threads = [threading.Thread(target=write, args=(i,)) for i in range(WRITERS)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()

    for round_no in range(ROUNDS):
        results = [r for (n, _, r) in outcomes if n == round_no]
        assert results.count("won") == 1, results
        assert results.count("stale_base") == WRITERS - 1, results
    # Every loser's text is kept aside; no version lost: 1 create + one version per round.
    assert SetAside.objects.filter(memory=memory).count() == ROUNDS * (WRITERS - 1)
    versions = Memory.history.filter(public_id=memory.public_id)
    assert versions.count() == 1 + ROUNDS
    kept = set(SetAside.objects.values_list("text", flat=True)) | set(versions.values_list("content", flat=True))
    for round_no in range(ROUNDS):
        for i in range(WRITERS):
            assert f"round {round_no} writer {i}\n" in kept
