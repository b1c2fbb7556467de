"""The run API: starting a run (who may, and each refusal with its code), reading it, its token,
its snapshot and change feed, and the people's set-aside and refusal lists."""

from __future__ import annotations

import datetime

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from runs.models import Run
from stores.models import Memory, Refusal, SetAside, Store, StoreKind, hash_token
from stores.services.memories import memory_create, memory_delete, memory_update
from tests import factories as f

from .conftest import RUNS, STORES, error_code, start, started

pytestmark = pytest.mark.django_db


# Starting a run.


def test_start_answers_id_token_stores_and_instructions(api, world):
    Store.objects.create(kind=StoreKind.SHARED, name="House Style!", description="How we write.")
    f.make_memory(world.project_store, "/conventions/naming.md", "# Snake case for every model\nmore\n")
    body = started(api, world.agent_token, "acme-12")
    assert body["id"].startswith("run_")
    assert body["token"].startswith("mcr_")
    assert body["ticket_key"] == "ACME-12" and body["project_key"] == "ACME"
    run = Run.objects.get(public_id=body["id"])
    assert run.token_hash == hash_token(body["token"]) and body["token"] not in run.token_hash
    assert run.host == "vm-1" and run.agent == world.agent
    stores = {s["folder"]: s for s in body["stores"]}
    assert set(stores) == {"project", "agent", "practice", "shared/house-style", "toolsets/dbt"}
    assert stores["project"]["memory_store_id"] == world.project_store.public_id
    assert stores["agent"]["memory_store_id"] == world.agent.store.public_id
    assert {k: s["access"] for k, s in stores.items()} == {
        "project": "read_write", "agent": "read_write", "practice": "read_only",
        "shared/house-style": "read_only", "toolsets/dbt": "read_only",
    }
    assert set(stores["project"]) == {"memory_store_id", "kind", "name", "access", "folder"}
    text = body["instructions"]
    assert "`project/conventions/naming.md`: # Snake case for every model" in text
    assert "more" not in text.split("## Index")[1]
    assert "Task state, progress, ticket status and next steps" in text
    assert "ACME-12" in text


def test_index_comes_from_the_stored_first_line_not_the_content(api, world):
    memory = f.make_memory(world.project_store, "/data/orders.md", "Orders arrive late\n")
    # A stored first line that differs from the text proves which one the index reads.
    Memory.objects.filter(pk=memory.pk).update(first_line="STORED FIRST LINE")
    text = started(api, world.agent_token)["instructions"]
    assert "`project/data/orders.md`: STORED FIRST LINE" in text
    assert "Orders arrive late" not in text


def test_instructions_carry_standing_decisions_and_the_governance_template(api, world):
    from runs.services import governance_template_set, standing_decision_add

    standing_decision_add(project_key="ACME", title="Use the EU region", text="All models run in europe-west2.")
    governance_template_set(project_key="acme", text="Promote lessons only after two projects agree.")
    text = started(api, world.agent_token)["instructions"]
    assert "### Use the EU region" in text and "All models run in europe-west2." in text
    assert "Promote lessons only after two projects agree." in text
    assert "no memory note is a standing decision" in text


@pytest.mark.parametrize(
    ("label", "who", "ticket", "status", "code"),
    [
        ("a person's token", "contact", "ACME-1", 403, "not_a_hosted_agent"),
        ("an agent in no pod, Jira not configured", "outsider", "ACME-1", 403, "jira_unavailable"),
        ("a malformed key", "agent", "not a key", 404, "unknown_ticket"),
        ("an unknown project, Jira not configured", "agent", "ZZZ-1", 404, "unknown_ticket"),
    ],
)
def test_start_refusals_without_jira(api, world, label, who, ticket, status, code):
    token = {"contact": world.contact_token, "outsider": world.outsider_token, "agent": world.agent_token}[who]
    response = start(api, token, ticket)
    assert response.status_code == status, label
    assert error_code(response) == code, label
    assert not Run.objects.exists()


def test_start_needs_a_ticket_key(api, world):
    response = api.as_token(world.agent_token).post(RUNS, {"host": "x"}, format="json")
    assert response.status_code == 400


def test_a_run_token_cannot_start_a_run(api, world, run_factory):
    token = run_factory()["token"]
    response = start(api, token, "ACME-2")
    assert response.status_code == 403 and error_code(response) == "agent_token_required"


def test_an_inactive_agent_cannot_start_a_run(api, world):
    world.agent.active = False
    world.agent.save()
    response = start(api, world.agent_token)
    # Deactivated, its token no longer authenticates on any route (issue 9 s.5).
    assert response.status_code == 401 and response.json()["error"]["type"] == "authentication_error"


@pytest.mark.parametrize(
    ("label", "ticket", "assignee", "who", "status", "code"),
    [
        ("assigned in Jira, no pod", "ACME-7", "acc-bob", "outsider", 200, None),
        ("not assigned, no pod", "ACME-8", "acc-someone", "outsider", 403, "not_in_pod_or_assigned"),
        ("unassigned, no pod", "ACME-9", None, "outsider", 403, "not_in_pod_or_assigned"),
        ("in the pod, assigned elsewhere", "ACME-10", "acc-someone", "agent", 200, None),
        ("unknown to Jira", None, None, "agent", 404, "unknown_ticket"),
    ],
)
def test_start_asks_jira(api, world, jira_standin, label, ticket, assignee, who, status, code):
    if ticket is not None:
        jira_standin.set_issue(ticket, "ACME", assignee)
    token = world.outsider_token if who == "outsider" else world.agent_token
    response = start(api, token, ticket or "ACME-404")
    assert response.status_code == status, (label, response.content)
    if code:
        assert error_code(response) == code, label


def test_start_refuses_a_ticket_of_a_project_the_console_does_not_know(api, world, jira_standin):
    jira_standin.set_issue("NEW-1", "NEW", "acc-ada")
    response = start(api, world.agent_token, "NEW-1")
    assert response.status_code == 404 and error_code(response) == "unknown_ticket"
    assert "project NEW of NEW-1 is not registered in the console" in response.json()["error"]["message"]
    assert "add_project NEW" in response.json()["error"]["message"]


def test_jira_down_and_a_project_the_console_does_not_know_is_not_a_transient_refusal(
    api, world, jira_standin, settings
):
    """Whatever Jira would say, the console has no project NOPE: a final 404, not "try again shortly"."""
    settings.JIRA_TIMEOUT_SECONDS = 0.3
    jira_standin.down()
    response = start(api, world.agent_token, "NOPE-1")
    assert response.status_code == 404 and error_code(response) == "unknown_ticket"
    message = response.json()["error"]["message"]
    assert "project NOPE of NOPE-1 is not registered in the console" in message and "add_project NOPE" in message
    assert "try again" not in message.lower()


def test_jira_down_allows_the_pod_and_refuses_the_rest(api, world, jira_standin, settings):
    settings.JIRA_TIMEOUT_SECONDS = 0.3
    jira_standin.down()
    assert start(api, world.agent_token, "ACME-3").status_code == 200
    response = start(api, world.outsider_token, "ACME-3")
    assert response.status_code == 403 and error_code(response) == "jira_unavailable"


@pytest.mark.parametrize(("days", "status"), [(-3, 403), (0, 403), (1, 200)])
def test_a_closed_engagement_starts_no_runs(api, world, days, status):
    world.project.engagement_closed_on = timezone.localdate() + datetime.timedelta(days=days)
    world.project.save()
    response = start(api, world.agent_token)
    assert response.status_code == status
    if status == 403:
        assert error_code(response) == "engagement_closed"


@pytest.mark.parametrize(
    ("label", "flag_acme", "flag_other", "busy"),
    [
        ("the new run's client works one at a time", True, False, True),
        ("the active run's client works one at a time", False, True, True),
        ("neither client asks for it", False, False, False),
    ],
)
def test_one_client_at_a_time(api, world, label, flag_acme, flag_other, busy):
    world.pod.projects.add(world.other_project)  # the agent may work both clients' tickets
    world.client.one_client_at_a_time = flag_acme
    world.client.save()
    world.other_project.client.one_client_at_a_time = flag_other
    world.other_project.client.save()
    first = started(api, world.agent_token, "OTHR-1")
    response = start(api, world.agent_token, "ACME-1")
    if not busy:
        assert response.status_code == 200, label
        return
    assert response.status_code == 409, label
    assert error_code(response) == "client_busy"
    assert first["id"] in response.json()["error"]["message"]
    assert response.json()["error"]["active_run_id"] == first["id"]
    # The same client is never busy, and the way opens once the run ends.
    assert start(api, world.agent_token, "OTHR-2").status_code == 200
    api.as_token(world.agent_token).post(f"{RUNS}/{first['id']}/end", {}, format="json")
    other_open = Run.objects.filter(agent=world.agent, ended_at__isnull=True, project=world.other_project)
    for run in other_open:
        api.post(f"{RUNS}/{run.public_id}/end", {}, format="json")
    assert start(api, world.agent_token, "ACME-1").status_code == 200


# Reading a run, and who may.


def test_get_run_for_its_agent_its_token_and_admins_only(api, world, run_factory):
    run = run_factory()
    for token, status in [
        (world.agent_token, 200),
        (run["token"], 200),
        (world.admin_token, 200),
        (world.outsider_token, 404),
        (world.contact_token, 404),
    ]:
        response = api.as_token(token).get(f"{RUNS}/{run['id']}")
        assert response.status_code == status
    body = api.as_token(world.agent_token).get(f"{RUNS}/{run['id']}").json()
    assert body["id"] == run["id"] and body["ticket_key"] == "ACME-1" and body["active"] is True
    assert body["signals"] == {"qa_failed": False, "needed_ruling": False, "worked_past_error": False, "attempts": 1}
    assert body["lesson_prompt"] is None and body["lesson_answer"] is None
    assert api.as_token(None).get(f"{RUNS}/{run['id']}").status_code == 401


def test_another_agents_run_answers_like_a_missing_one(api, world, run_factory):
    run = run_factory()
    api.as_token(world.outsider_token)
    for method, path in [("get", ""), ("post", "/end"), ("post", "/lesson"), ("get", "/record"), ("post", "/record"),
                         ("get", "/snapshot"), ("get", "/changes?cursor=x")]:
        assert getattr(api, method)(f"{RUNS}/{run['id']}{path}").status_code == 404, path


# The run token.


def test_the_run_token_writes_as_the_run(api, world, run_factory):
    run = run_factory()
    sid = world.project_store.public_id
    response = api.as_token(run["token"]).post(
        f"{STORES}/{sid}/memories", {"path": "/solutions/fix.md", "content": "Fix: merge key. ACME-1\n"}, format="json"
    )
    assert response.status_code == 200, response.content
    memory = Memory.objects.get(public_id=response.json()["id"])
    version = memory.history.get()
    assert version.actor == {"type": "session_actor", "session_id": run["id"], "name": "ada"}
    assert version.run_public_id == run["id"]
    assert Run.objects.get(public_id=run["id"]).versions_written == 1


@pytest.mark.parametrize("folder", ["practice", "toolsets/dbt"])
def test_the_run_token_cannot_write_a_store_it_holds_read_only(api, world, run_factory, folder):
    run = run_factory()
    sid = next(s["memory_store_id"] for s in run["stores"] if s["folder"] == folder)
    response = api.as_token(run["token"]).post(
        f"{STORES}/{sid}/memories", {"path": "/a.md", "content": "x"}, format="json"
    )
    assert response.status_code == 403 and error_code(response) == "read_only_store"
    assert not Memory.objects.filter(store__public_id=sid).exists()


def test_the_run_token_stops_when_the_run_ends(api, world, run_factory):
    run = run_factory()
    assert api.as_token(run["token"]).get(f"{RUNS}/{run['id']}").status_code == 200
    ended = api.as_token(run["token"]).post(f"{RUNS}/{run['id']}/end", {}, format="json")
    assert ended.status_code == 200 and ended.json()["lesson_prompt"] is None
    assert api.as_token(run["token"]).get(f"{RUNS}/{run['id']}").status_code == 401
    assert api.as_token(world.agent_token).get(f"{RUNS}/{run['id']}").json()["active"] is False


def test_end_validates_the_signals(api, world, run_factory):
    run = run_factory()
    for body in ({"attempts": 0}, {"attempts": "2"}, {"qa_failed": "yes"}, {"attempts": True}):
        response = api.as_token(world.agent_token).post(f"{RUNS}/{run['id']}/end", body, format="json")
        assert response.status_code == 400, body
    assert Run.objects.get(public_id=run["id"]).ended_at is None


# The snapshot and the change feed.


def test_snapshot_then_changes_carry_writes_and_deletions(api, world, run_factory):
    memory = f.make_memory(world.project_store, "/data/a.md", "first\n")
    run = run_factory()
    snap = api.as_token(run["token"]).get(f"{RUNS}/{run['id']}/snapshot").json()
    project = next(s for s in snap["stores"] if s["folder"] == "project")
    assert [m["path"] for m in project["memories"]] == ["/data/a.md"]
    assert project["memories"][0]["content"] == "first\n"
    assert snap["run"]["id"] == run["id"] and snap["instructions"].startswith("# Memory for run")
    cursor = snap["cursor"]

    empty = api.get(f"{RUNS}/{run['id']}/changes", {"cursor": cursor}).json()
    assert empty["changes"] == [] and empty["cursor"] == cursor and empty["more"] is False

    admin = f.person_writer(world.admin, door="console")
    memory_update(writer=admin, store=world.project_store, memory_id=memory.public_id, content="second\n")
    changed = api.get(f"{RUNS}/{run['id']}/changes", {"cursor": cursor}).json()
    assert [(c["id"], c["content"], c["deleted"]) for c in changed["changes"]] == [(memory.public_id, "second\n", False)]
    cursor = changed["cursor"]

    memory_delete(writer=admin, store=world.project_store, memory_id=memory.public_id, reason="wrong")
    deleted = api.get(f"{RUNS}/{run['id']}/changes", {"cursor": cursor}).json()
    assert [(c["id"], c["deleted"], c["deleted_by_person"], c["content"]) for c in deleted["changes"]] == [
        (memory.public_id, True, True, None)
    ]
    assert api.get(f"{RUNS}/{run['id']}/changes", {"cursor": deleted["cursor"]}).json()["changes"] == []


def test_changes_page_through_a_large_burst(api, world, run_factory, monkeypatch):
    import runs.selectors

    monkeypatch.setattr(runs.selectors, "CHANGES_PAGE", 3)
    run = run_factory()
    cursor = api.as_token(run["token"]).get(f"{RUNS}/{run['id']}/snapshot").json()["cursor"]
    for i in range(7):
        f.make_memory(world.project_store, f"/data/m{i}.md", f"note {i}\n")
    seen = []
    while True:
        body = api.get(f"{RUNS}/{run['id']}/changes", {"cursor": cursor}).json()
        seen += [c["path"] for c in body["changes"]]
        cursor = body["cursor"]
        if not body["more"]:
            break
    assert seen == [f"/data/m{i}.md" for i in range(7)]


def test_a_bad_cursor_is_a_400(api, world, run_factory):
    run = run_factory()
    api.as_token(run["token"])
    for cursor in ("", "page_x", "chg_!!!", "chg_WzFd"):
        assert api.get(f"{RUNS}/{run['id']}/changes", {"cursor": cursor}).status_code == 400, cursor


def _no_change_queries(api, run, cursor) -> int:
    with CaptureQueriesContext(connection) as ctx:
        body = api.get(f"{RUNS}/{run['id']}/changes", {"cursor": cursor}).json()
    assert body["changes"] == []
    return len(ctx.captured_queries)


def test_a_no_change_pass_costs_the_same_whatever_the_store_size(api, world, run_factory):
    run = run_factory()
    api.as_token(run["token"])
    small = _no_change_queries(api, run, api.get(f"{RUNS}/{run['id']}/snapshot").json()["cursor"])
    writer = f.person_writer(world.admin, door="import")
    for i in range(150):
        memory_create(writer=writer, store=world.project_store, path=f"/data/n{i}.md", content=f"n{i}\n")
    cursor = api.get(f"{RUNS}/{run['id']}/snapshot").json()["cursor"]
    with CaptureQueriesContext(connection) as ctx:
        api.get(f"{RUNS}/{run['id']}/changes", {"cursor": cursor})
    big = len(ctx.captured_queries)
    assert big == small
    assert not any("stores_memory" in q["sql"] for q in ctx.captured_queries)


# For people: set-aside texts and refusals.


def _conflict_and_refusal(api, world):
    """One set-aside text (a stale edit) and one refusal (outside the fixed folders) on the project store."""
    sid = world.project_store.public_id
    memory = f.make_memory(world.project_store, "/issues/late.md", "Late orders\n")
    api.as_token(world.agent_token)
    old = memory.content_sha256
    memory_update(writer=f.person_writer(world.admin), store=world.project_store, memory_id=memory.public_id,
                  content="Late orders, fixed\n")
    stale = api.post(f"{STORES}/{sid}/memories/{memory.public_id}",
                     {"content": "Late orders: my version\n", "precondition": {"type": "content_sha256",
                                                                               "content_sha256": old}},
                     format="json")
    assert stale.status_code == 409
    refused = api.post(f"{STORES}/{sid}/memories", {"path": "/notes.md", "content": "x"}, format="json")
    assert refused.status_code == 400
    return sid, memory


def test_people_list_set_aside_texts_and_refusals(api, world):
    sid, memory = _conflict_and_refusal(api, world)
    for token in (world.admin_token, world.contact_token):
        body = api.as_token(token).get(f"{STORES}/{sid}/set_asides").json()
        assert body["next_page"] is None
        [item] = body["data"]
        assert set(item) >= {"id", "memory_id", "path", "text", "base_version_id", "lost_to_version_id",
                             "created_by", "created_at", "status"}
        assert item["memory_id"] == memory.public_id and item["text"] == "Late orders: my version\n"
        assert item["status"] == "open" and item["created_by"]["type"] == "api_actor"
        assert item["base_version_id"] and item["lost_to_version_id"]
        refusals = api.get(f"{STORES}/{sid}/refusals").json()["data"]
        assert [r["reason_code"] for r in refusals] == ["path_outside_folders", "stale_base"]  # newest first
        [refusal] = api.get(f"{STORES}/{sid}/refusals", {"reason_code": "path_outside_folders"}).json()["data"]
        assert refusal["path"] == "/notes.md" and refusal["created_by"]["name"] == "ada"
        assert "text" not in refusal and "content" not in refusal


@pytest.mark.parametrize(
    ("who", "status"),
    [("agent", 403), ("outsider", 403), ("dave", 404), ("erin", 404), ("anonymous", 401)],
)
def test_set_asides_and_refusals_are_for_the_stores_people_may_see(api, world, who, status):
    sid, _ = _conflict_and_refusal(api, world)
    token = {
        "agent": world.agent_token,
        "outsider": world.outsider_token,
        "dave": f.user_token(world.other_contact),
        "erin": f.user_token(world.staff),
        "anonymous": None,
    }[who]
    for route in ("set_asides", "refusals"):
        response = api.as_token(token).get(f"{STORES}/{sid}/{route}")
        assert response.status_code == status, (who, route)
        if status == 403:
            assert error_code(response) == "people_only"


def test_set_asides_are_newest_first_and_paged(api, world):
    memory = f.make_memory(world.project_store, "/issues/a.md", "v0\n")
    base = memory.content_sha256
    memory_update(writer=f.person_writer(world.admin), store=world.project_store, memory_id=memory.public_id,
                  content="v1\n")
    api.as_token(world.agent_token)
    for i in range(3):
        api.post(f"{STORES}/{world.project_store.public_id}/memories/{memory.public_id}",
                 {"content": f"lost {i}\n", "precondition": {"type": "content_sha256", "content_sha256": base}},
                 format="json")
    assert SetAside.objects.count() == 3
    api.as_token(world.admin_token)
    first = api.get(f"{STORES}/{world.project_store.public_id}/set_asides", {"limit": 2}).json()
    assert [i["text"] for i in first["data"]] == ["lost 2\n", "lost 1\n"] and first["next_page"]
    second = api.get(f"{STORES}/{world.project_store.public_id}/set_asides",
                     {"limit": 2, "page": first["next_page"]}).json()
    assert [i["text"] for i in second["data"]] == ["lost 0\n"] and second["next_page"] is None
    assert api.get(f"{STORES}/{world.project_store.public_id}/set_asides", {"status": "used"}).json()["data"] == []
    assert Refusal.objects.filter(code="stale_base").count() == 3
