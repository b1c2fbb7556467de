"""Two console instances on one PostgreSQL and one Redis behave as one console (issue 13 s.4).

A change through one instance reaches a `memory-sync` folder synced through the other; registry
changes, a Jira cache drop from the webhook and a deactivation made on one are in force on the
other on the very next request; twelve writers racing across both instances lose no text.
"""

from __future__ import annotations

import itertools
import secrets
import threading
from concurrent.futures import ThreadPoolExecutor

import pytest
import requests

from jira_link.services import forget_ticket
from stores.models import ApiToken, Memory, SetAside, Store
from tests import factories as f
from tests.runs.sync_helpers import checkout, once

from .conftest import AdminSession, Instance, Instances, issue_event

pytestmark = [pytest.mark.postgres, pytest.mark.redis, pytest.mark.live, pytest.mark.django_db(transaction=True)]

WRITERS = 12
ROUNDS = 5
_paths = itertools.count(1)


def memories(store) -> str:
    return f"/api/v1/memory_stores/{store.public_id}/memories"


def error_of(response: requests.Response) -> dict:
    return response.json()["error"]


def error_code(response: requests.Response) -> str | None:
    return error_of(response).get("details", {}).get("error_code")


def start_run(instance: Instance, token: str, ticket: str) -> dict:
    response = instance.call("POST", "/api/v1/runs", token, json={"ticket_key": ticket, "host": "vm-multi"})
    assert response.status_code == 200, response.text
    return response.json()


def note(instance: Instance, token: str, store, text: str, folder: str = "/notes") -> requests.Response:
    """Create a note at a fresh path through ``instance``."""
    return instance.call("POST", memories(store), token, json={"path": f"{folder}/n{next(_paths)}.md", "content": text})


@pytest.fixture
def agent_store(world) -> Store:
    return Store.objects.get(agent=world.agent)


@pytest.fixture
def admin_on_a(instances: Instances, world):
    """The world's console admin, logged into A's Django admin (a password made at run time)."""
    login = secrets.token_urlsafe(16)
    world.admin.set_password(login)
    world.admin.save()
    session = AdminSession(instances.a, world.admin.username, login)
    yield session
    session.close()


def test_a_change_through_one_instance_reaches_a_folder_synced_through_the_other(instances, world, tmp_path):
    a, b = instances.a, instances.b
    instances.jira.set_issue("ACME-1", "ACME", "acc-ada")
    naming = f.make_memory(world.project_store, "/conventions/naming.md", "# Naming\nModels are snake_case.\n")
    flaky = f.make_memory(world.project_store, "/issues/flaky.md", "# Flaky test\nThe QA job times out.\n")
    cyd = f.make_agent("cyd", jira_account_id="acc-cyd")
    world.pod.agents.add(cyd)
    cyd_token = f.agent_token(cyd)
    folder = tmp_path / "run"
    checkout(folder, b.url, start_run(b, world.agent_token, "ACME-1"))  # the folder syncs through B only
    assert (folder / "project/conventions/naming.md").read_text() == naming.content

    # cyd writes through A: a new note and an edit.
    merge_key = "# Merge key\nUse order_id as the unique key.\n"
    created = a.call("POST", memories(world.project_store), cyd_token,
                     json={"path": "/solutions/merge-key.md", "content": merge_key})
    assert created.status_code == 200, created.text
    edited = naming.content + "Staging models start with stg_.\n"
    response = a.call("POST", f"{memories(world.project_store)}/{naming.public_id}", cyd_token, json={"content": edited})
    assert response.status_code == 200, response.text
    result = once(folder)
    assert (result["pulled"], result["pushed"], result["refused"]) == (2, 0, [])
    assert (folder / "project/solutions/merge-key.md").read_text() == merge_key
    assert (folder / "project/conventions/naming.md").read_text() == edited

    # A deletion through A leaves the folder.
    response = a.call("DELETE", f"{memories(world.project_store)}/{created.json()['id']}", cyd_token)
    assert response.status_code == 200, response.text
    assert once(folder)["deleted"] == 1
    assert not (folder / "project/solutions/merge-key.md").exists()

    # And the folder's own change, pushed through B, is what A serves at once.
    local = flaky.content + "Raise the timeout to 20 minutes.\n"
    (folder / "project/issues/flaky.md").write_text(local)
    assert once(folder)["pushed"] == 1
    served = a.call("GET", f"{memories(world.project_store)}/{flaky.public_id}", cyd_token)
    assert served.status_code == 200 and served.json()["content"] == local
    assert once(folder) == {"pushed": 0, "pulled": 0, "deleted": 0, "refused": [], "failed": [], "ignored": [],
        "complete": True}
    instances.alive()


def test_registry_changes_made_in_one_instance_are_in_force_on_the_other_at_once(
    instances, world, agent_store, admin_on_a
):
    a, b = instances.a, instances.b
    token = world.agent_token
    # Both instances have checked notes against the registry as it stands (their matchers are built).
    for instance in (a, b):
        assert note(instance, token, agent_store, "Globex asked for the nightly export.\n").status_code == 200
        assert note(instance, token, agent_store, "Ticket ZEPH-4 was about exports.\n").status_code == 200

    # A new client, added by a person in A's admin, is refused on B by the very next write.
    admin_on_a.save("/admin/stores/client/add/", {"name": "Globex Corporation", "aliases": '["Globex"]'})
    for instance in (b, a):
        refused = note(instance, token, agent_store, "Globex asked for the nightly export.\n")
        assert refused.status_code == 400, refused.text
        assert error_code(refused) == "client_detail"
        assert "Globex" in error_of(refused)["message"]

    # A project key renamed in A's admin: the new key is refused on B at once, the old one no longer is.
    other = world.other_project
    admin_on_a.save(f"/admin/stores/jiraproject/{other.pk}/change/", {"key": "ZEPH"})
    other.refresh_from_db()
    assert other.key == "ZEPH"
    for instance in (b, a):
        refused = note(instance, token, agent_store, "Ticket ZEPH-4 was about exports.\n")
        assert refused.status_code == 400 and error_code(refused) == "client_detail", refused.text
        assert note(instance, token, agent_store, "Ticket OTHR-4 was about exports.\n").status_code == 200
    instances.alive()


def test_a_jira_cache_drop_from_the_webhook_on_one_instance_is_seen_by_the_other(instances, world):
    a, b = instances.a, instances.b
    jira = instances.jira
    # eve is in no pod covering ACME: she may write its store only while Jira says her ticket is hers.
    eve = f.make_agent("eve", jira_account_id="acc-eve")
    forget_ticket("ACME-77")  # an answer cached by an earlier run of this test is not this one's
    jira.set_issue("ACME-77", "ACME", "acc-eve")
    run = start_run(b, f.agent_token(eve), "ACME-77")
    asked = jira.requests_count(jira.issue_path("ACME-77"))
    assert note(b, run["token"], world.project_store, "# Exports\nThey run at 02:00.\n", "/data").status_code == 200

    # Jira reassigns the ticket. Until the console hears of it, both instances answer from the one
    # shared cache (Redis) without asking Jira again.
    jira.set_issue("ACME-77", "ACME", "acc-someone-else")
    assert note(a, run["token"], world.project_store, "# Exports\nAnd at 14:00.\n", "/data").status_code == 200
    assert jira.requests_count(jira.issue_path("ACME-77")) == asked

    # The webhook reaches A; B's very next write asks Jira again and is refused.
    body = issue_event("ACME-77", "acc-someone-else", "ACME")
    hook = a.session.post(f"{a.url}/jira/webhook", data=body, timeout=30,
                          headers={"Content-Type": "application/json", "X-Hub-Signature": instances.sign(body)})
    assert hook.status_code == 200 and hook.json() == {"ok": True}
    refused = note(b, run["token"], world.project_store, "# Exports\nAnd at 20:00.\n", "/data")
    assert refused.status_code == 403, refused.text
    assert error_code(refused) == "not_in_pod_or_assigned"
    assert jira.requests_count(jira.issue_path("ACME-77")) == asked + 1
    instances.alive()


def test_a_deactivation_made_in_one_instance_is_refused_by_both_at_once(instances, world, agent_store, admin_on_a):
    a, b = instances.a, instances.b
    instances.jira.set_issue("ACME-1", "ACME", "acc-ada")
    run = start_run(a, world.agent_token, "ACME-1")
    ada = {"own token": world.agent_token, "run token": run["token"]}
    reads = [memories(world.project_store), f"/api/v1/runs/{run['id']}/snapshot"]
    for instance in (a, b):
        for token in ada.values():
            for path in reads:
                assert instance.call("GET", path, token).status_code == 200, (instance.name, path)

    # ada switched off in A's admin: B refuses both her tokens on the very next request, reads included.
    admin_on_a.save(f"/admin/stores/hostedagent/{world.agent.pk}/change/", {"active": None})
    for instance in (b, a):
        for which, token in ada.items():
            for response in [instance.call("GET", path, token) for path in reads] + [
                note(instance, token, world.project_store, "# Late\nA late note.\n", "/issues")
            ]:
                assert response.status_code == 401, (instance.name, which, response.request.url, response.text)
                assert error_of(response)["type"] == "authentication_error"

    # One token disabled in A's admin (bob's): refused on B at once; another agent's token still works.
    bob_row = ApiToken.objects.get(agent=world.outsider)
    other_store = world.other_project.store
    assert b.call("GET", memories(other_store), world.outsider_token).status_code == 200
    admin_on_a.save(f"/admin/stores/apitoken/{bob_row.pk}/change/", {"enabled": None})
    for instance in (b, a):
        response = instance.call("GET", memories(other_store), world.outsider_token)
        assert response.status_code == 401 and error_of(response)["type"] == "authentication_error"
        assert instance.call("GET", memories(world.project_store), world.contact_token).status_code == 200
    instances.alive()


@pytest.fixture
def writers(world) -> list[str]:
    """Twelve agents in ACME's pod, each with its own token."""
    agents = [f.make_agent(f"writer-{i:02d}", jira_account_id=f"acc-w{i}") for i in range(WRITERS)]
    world.pod.agents.add(*agents)
    return [f.agent_token(agent) for agent in agents]


def race(calls: list[tuple[Instance, str, str, str, dict]]) -> list[requests.Response]:
    """Send every call at once (each from its own thread, released together), answers in order."""
    gate = threading.Barrier(len(calls))

    def send(call):
        instance, method, path, token, body = call
        session = requests.Session()  # one connection per writer, as separate agents would have
        try:
            gate.wait(timeout=30)
            return session.request(method, f"{instance.url}{path}", json=body, timeout=60,
                                   headers={"Authorization": f"Bearer {token}"})
        finally:
            session.close()

    with ThreadPoolExecutor(max_workers=len(calls)) as pool:
        return list(pool.map(send, calls))


def split(instances: Instances, i: int) -> Instance:
    return instances.a if i % 2 == 0 else instances.b


def test_racing_updates_split_across_both_instances_lose_nothing(instances, world, writers):
    memory = f.make_memory(world.project_store, "/issues/contended.md", "# Contended\nRound 0.\n")
    path = f"{memories(world.project_store)}/{memory.public_id}"
    for round_no in range(1, ROUNDS + 1):
        base = Memory.objects.get(pk=memory.pk).content_sha256
        texts = [f"# Contended\nRound {round_no}, writer {i}.\n" for i in range(WRITERS)]
        precondition = {"type": "content_sha256", "content_sha256": base}
        answers = race([(split(instances, i), "POST", path, token, {"content": texts[i], "precondition": precondition})
                        for i, token in enumerate(writers)])
        won = [i for i, r in enumerate(answers) if r.status_code == 200]
        lost = [i for i, r in enumerate(answers) if r.status_code == 409]
        assert len(won) == 1 and len(lost) == WRITERS - 1, [(r.status_code, r.text[:200]) for r in answers]
        assert {error_of(answers[i])["type"] for i in lost} == {"memory_precondition_failed_error"}
        assert Memory.objects.get(pk=memory.pk).content == texts[won[0]]
        for i in lost:
            assert SetAside.objects.filter(memory=memory, text=texts[i]).count() == 1, (round_no, i)
        assert not SetAside.objects.filter(text=texts[won[0]]).exists()
    assert SetAside.objects.filter(memory=memory).count() == ROUNDS * (WRITERS - 1)
    instances.alive()


def test_racing_creates_split_across_both_instances_keep_every_losing_text_aside(instances, world, writers):
    for round_no in range(1, ROUNDS + 1):
        path = f"/solutions/new-lesson-{round_no}.md"
        texts = [f"# New lesson\nRound {round_no}, writer {i}'s first text.\n" for i in range(WRITERS)]
        answers = race([(split(instances, i), "POST", memories(world.project_store), token,
                         {"path": path, "content": texts[i]}) for i, token in enumerate(writers)])
        won = [i for i, r in enumerate(answers) if r.status_code == 200]
        lost = [i for i, r in enumerate(answers) if r.status_code == 409]
        assert len(won) == 1 and len(lost) == WRITERS - 1, [(r.status_code, r.text[:200]) for r in answers]
        winner = Memory.objects.get(store=world.project_store, path=path, deleted_at__isnull=True)
        assert winner.content == texts[won[0]]
        for i in lost:
            error = error_of(answers[i])
            assert error["type"] == "memory_path_conflict_error"
            kept = SetAside.objects.filter(memory=winner, text=texts[i])
            assert kept.count() == 1, (round_no, i, error)
            assert error["details"]["set_aside_id"] == kept.get().public_id
        assert not SetAside.objects.filter(text=texts[won[0]]).exists()
    instances.alive()
