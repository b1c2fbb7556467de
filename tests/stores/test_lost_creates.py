"""A create that loses its path keeps its text aside against the memory it lost to, once.

Eight writers race to create the same new path through the live server with the official SDK, on
PostgreSQL, round after round: one wins, every other text is in exactly one set-aside, and the 409
says which (``error.details.set_aside_id``), without inviting the SDK to retry.
"""

from __future__ import annotations

import threading
from datetime import timedelta

import anthropic
import pytest
from django.utils import timezone

from stores.errors import PathConflict
from stores.models import Memory, SetAside
from stores.services.memories import memory_create, memory_update
from tests import factories as f

WRITERS = 8
ROUNDS = 10


@pytest.mark.postgres
@pytest.mark.live
@pytest.mark.django_db(transaction=True)
def test_racing_creates_lose_no_text(live_server, world):
    agents = [world.agent] + [f.make_agent(f"racer-{i}") for i in range(1, WRITERS)]
    world.pod.agents.add(*agents[1:])
    tokens = [f.agent_token(agent) for agent in agents]
    sid = world.project_store.public_id
    url = f"{live_server.url}/api"
    outcomes: list[tuple[int, int, str, dict]] = []
    lock = threading.Lock()

    for round_no in range(ROUNDS):
        path = f"/solutions/race-{round_no}.md"
        barrier = threading.Barrier(WRITERS)

        def create(i: int, path=path, round_no=round_no, barrier=barrier) -> None:
            # Default retries: a 409 must say x-should-retry: false, so the SDK sends it once.
            client = anthropic.Anthropic(api_key=tokens[i], base_url=url)
            text = f"Round {round_no}: writer {i} found the export fails on empty partitions.\n"
            barrier.wait()
            try:
                made = client.beta.memory_stores.memories.create(sid, path=path, content=text)
                result, body = "won", {"id": made.id}
            except anthropic.ConflictError as exc:
                result = exc.type or "conflict"
                body = {**exc.body["error"], "should_retry": exc.response.headers.get("x-should-retry")}
            with lock:
                outcomes.append((round_no, i, result, body))

        threads = [threading.Thread(target=create, args=(i,)) for i in range(WRITERS)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()

    lost = kept = 0
    for round_no in range(ROUNDS):
        path = f"/solutions/race-{round_no}.md"
        results = [(i, r, b) for (n, i, r, b) in outcomes if n == round_no]
        winners = [b["id"] for (_, r, b) in results if r == "won"]
        assert len(winners) == 1, results
        winner = Memory.objects.get(public_id=winners[0])
        losers = [(i, b) for (i, r, b) in results if r != "won"]
        assert len(losers) == WRITERS - 1
        for i, error in losers:
            text = f"Round {round_no}: writer {i} found the export fails on empty partitions.\n"
            assert error["type"] == "memory_path_conflict_error"
            assert error["conflicting_path"] == path and error["conflicting_memory_id"] == winner.public_id
            assert error["should_retry"] == "false"
            copies = SetAside.objects.filter(text=text)
            if copies.count() != 1:
                lost += 1
                continue
            kept += 1
            copy = copies.get()
            assert error["details"]["set_aside_id"] == copy.public_id
            assert copy.memory_id == winner.pk and copy.path == path and copy.writer_key == f"agent:{agents[i].pk}"
            # A lost create has no common ancestor with the winner: a two-way merge, base empty.
            assert copy.base_sha256 == "" and copy.base_version_id == ""
            assert copy.lost_to_version_id == winner.head_version_id
    print(f"\nracing creates: {ROUNDS} rounds x {WRITERS} writers, {kept} losing texts kept aside, {lost} lost")
    assert lost == 0 and kept == ROUNDS * (WRITERS - 1)

    # A resend of a losing create finds the same set-aside: nothing piles up.
    loser = next((i, b) for (n, i, r, b) in outcomes if n == 0 and r != "won")
    i, error = loser
    before = SetAside.objects.count()
    again_text = f"Round 0: writer {i} found the export fails on empty partitions.\n"
    with pytest.raises(anthropic.ConflictError) as exc:
        anthropic.Anthropic(api_key=tokens[i], base_url=url, max_retries=0).beta.memory_stores.memories.create(
            sid, path="/solutions/race-0.md", content=again_text
        )
    assert exc.value.body["error"]["details"]["set_aside_id"] == error["details"]["set_aside_id"]
    assert SetAside.objects.count() == before


@pytest.mark.django_db
def test_a_path_taken_long_before_still_keeps_the_text_once(world):
    store = world.project_store
    old = f.make_memory(store, "/conventions/naming.md", "Tables are snake_case.\n")
    Memory.objects.filter(pk=old.pk).update(created_at=timezone.now() - timedelta(days=200))
    writer = f.agent_writer(world.agent)
    text = "Tables are snake_case; views end in _v.\n"
    ids = []
    for _ in range(3):  # the writer did not look, and resends
        with pytest.raises(PathConflict) as exc:
            memory_create(writer=writer, store=store, path="/conventions/naming.md", content=text)
        ids.append(exc.value.details["set_aside_id"])
        assert exc.value.extra == {"conflicting_path": "/conventions/naming.md", "conflicting_memory_id": old.public_id}
    assert len(set(ids)) == 1
    kept = SetAside.objects.get(public_id=ids[0])
    assert kept.memory_id == old.pk and kept.text == text and kept.base_sha256 == ""
    assert kept.created_by["name"] == world.agent.name


@pytest.mark.django_db
def test_a_resent_create_that_went_through_keeps_nothing(world):
    """The SDK resends a create whose answer was lost: its own text is saved, nothing is lost."""
    store = world.project_store
    writer = f.agent_writer(world.agent)
    memory_create(writer=writer, store=store, path="/issues/late-file.md", content="The file lands late.\n")
    with pytest.raises(PathConflict) as exc:
        memory_create(writer=writer, store=store, path="/issues/late-file.md", content="The file lands late.\n")
    assert "set_aside_id" not in exc.value.details
    assert SetAside.objects.count() == 0


@pytest.mark.django_db
def test_a_create_below_a_file_keeps_its_text_against_that_file(world, api):
    """A file and a folder cannot share a name; the create that loses keeps its text all the same."""
    store = world.project_store
    file = f.make_memory(store, "/data/orders.md", "Orders arrive hourly.\n")
    response = api.as_token(world.agent_token).post(
        f"/api/v1/memory_stores/{store.public_id}/memories",
        {"path": "/data/orders.md/late.md", "content": "Late orders come in a second batch.\n"},
        format="json",
    )
    assert response.status_code == 409 and response["x-should-retry"] == "false"
    error = response.json()["error"]
    assert error["type"] == "memory_path_conflict_error" and error["conflicting_path"] == "/data/orders.md"
    kept = SetAside.objects.get(public_id=error["details"]["set_aside_id"])
    assert kept.memory_id == file.pk and kept.path == "/data/orders.md/late.md"
    assert kept.text == "Late orders come in a second batch.\n"


@pytest.mark.django_db
def test_an_update_renaming_onto_a_taken_path_keeps_its_new_text(world):
    store = world.project_store
    f.make_memory(store, "/solutions/taken.md", "Someone else's note.\n")
    mine = f.make_memory(store, "/solutions/mine.md", "My note.\n")
    with pytest.raises(PathConflict) as exc:
        memory_update(writer=f.agent_writer(world.agent), store=store, memory_id=mine.public_id,
                      content="My note, rewritten.\n", path="/solutions/taken.md")
    kept = SetAside.objects.get(public_id=exc.value.details["set_aside_id"])
    assert kept.memory_id == mine.pk and kept.text == "My note, rewritten.\n" and kept.path == "/solutions/taken.md"
    assert kept.base_sha256 == mine.content_sha256
    assert Memory.objects.get(pk=mine.pk).content == "My note.\n"
    # A rename alone loses no text: nothing kept.
    with pytest.raises(PathConflict) as exc:
        memory_update(writer=f.agent_writer(world.agent), store=store, memory_id=mine.public_id,
                      path="/solutions/taken.md")
    assert "set_aside_id" not in exc.value.details
